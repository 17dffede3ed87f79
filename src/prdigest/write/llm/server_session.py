"""One run's connection to the LLM server, opened only when a request is to be sent.

What an earlier run learned about the server and model (the `response_format` rung, its
context, slots and speeds: `profile.py`) is read from the reply cache first; a first run
(or `--refresh`) asks the server for its context before the first request (`probe.py`).
What was learned is kept again when the run ends.
"""

from __future__ import annotations

import threading

from .cache import ReplyCache
from .chat_client import ClientSettings, LLMClient
from .llm_settings import MIN_CONTEXT, LLMSettings
from .profile import ServerProfile, load_profile, save_profile

CONTEXT_MARGIN = 0.9  # of a server's context: our token estimate is not its tokenizer
DATA_TOKENS = 360  # a PR's description and diff as a request shows them, at most
PROMPT_TOKENS = 420  # the instructions, title, files and draft around them, about
MIN_DATA_TOKENS = 80


class ServerSession:
    def __init__(self, settings: LLMSettings, cache: ReplyCache) -> None:
        assert settings.base_url and settings.model
        self.settings = settings
        self.cache = cache
        known = load_profile(cache, settings.base_url, settings.model)
        self.known = known is not None and not settings.refresh
        self.profile = known or ServerProfile()
        self.notes: list[str] = []  # what was learned on the way, for the run's notes
        self._client: LLMClient | None = None
        self._lock = threading.Lock()

    @property
    def opened(self) -> bool:
        return self._client is not None

    def client(self) -> LLMClient:
        with self._lock:
            if self._client is None:
                self._client = self._open()
            return self._client

    def _open(self) -> LLMClient:
        settings = self.settings
        assert settings.base_url and settings.model
        client = LLMClient(
            ClientSettings(
                base_url=settings.base_url,
                model=settings.model,
                api_key=settings.api_key,
                timeout=settings.timeout,
                max_retries=settings.max_retries,
                backoff=settings.backoff,
                concurrency=settings.concurrency,
            ),
            self.profile,
        )
        if not self.known:  # its context and slots, before the first request
            said = client.probe()  # what it does not say, an earlier run may have learned
            if said.context:
                self.profile.context, self.profile.context_source = said.context, said.source
            self.profile.slots = said.slots or self.profile.slots
        return client

    def budget(self) -> int:
        """The tokens one request may use: `--llm-context`, within the server's context."""
        budget = self.settings.context_tokens
        context = self.profile.context
        if context and int(context * CONTEXT_MARGIN) < budget:
            budget = int(context * CONTEXT_MARGIN)
            self._note(
                f"requests kept within {budget:,} tokens: the server's context is"
                f" {context:,} ({self.profile.context_source})"
            )
        return max(budget, MIN_CONTEXT)

    def data_tokens(self) -> int:
        """Room for a PR's description and diff in one request (the server learned first)."""
        from .brief_prompt import ANSWER_TOKENS

        self.client()
        room = self.budget() - PROMPT_TOKENS - ANSWER_TOKENS
        return max(MIN_DATA_TOKENS, min(DATA_TOKENS, room))

    def concurrency(self) -> int:
        """Requests in flight: the setting, never more than the server's slots (a request
        beyond them only waits in the server's queue, its timeout running)."""
        self.client()
        slots = self.profile.slots
        return max(1, min(self.settings.concurrency, slots or self.settings.concurrency))

    def _note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)

    def close(self) -> list[str]:
        """Close the connection and keep what was learned; the client's notes."""
        if self._client is None:
            return list(self.notes)
        notes = [*self.notes, *self._client.stepped]
        self._client.close()
        assert self.settings.base_url and self.settings.model
        save_profile(self.cache, self.settings.base_url, self.settings.model, self.profile)
        return notes

    @property
    def failed(self) -> dict[str, int]:
        return dict(self._client.failed) if self._client is not None else {}
