"""Replies to a list of requests: from the cache first; what is missing goes to the server,
`concurrency` at a time (never more than the server's slots).

Each request ends in an `Outcome`: a reply, or the reason it failed. A failure
costs only its own request:
- an answer cut off (`finish_reason: length`) or hung up on as a loop keeps
  the whole themes it holds; with none, the request is split in two and the
  halves are asked instead (never the same request again); a request of one
  PR that still fails is a failure;
- an answer that is not the JSON asked for is asked once more, warmer;
- timeouts and server errors, after the client's retries, are a failure.
What the model answered (the merged halves included, and a failure it would
repeat: a loop, an unusable answer) is cached under the request, so a second
run sends nothing. A context refusal stops the run: the writer re-plans.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ...models import CachedReply
from ...reporting import Reporter
from .cache import ReplyCache, request_key
from .chat_client import (
    ClientSettings,
    Completion,
    ContextLengthError,
    InvalidReply,
    LLMClient,
    RequestFailed,
)
from .llm_settings import LLMSettings
from .profile import ServerProfile
from .replies import complete_items, parse_json_object
from .request_plan import Request
from .usage import Usage

WARMER = 0.5  # an unusable answer is asked again this much warmer (the same request gives the same)
PROGRESS_AFTER = 20.0  # seconds before a request's progress is reported

ClientFactory = Callable[[LLMSettings, ServerProfile], LLMClient]
Splitter = Callable[[Request], list[Request] | None]
Validator = Callable[[Mapping[str, object]], bool]  # the model's JSON: the edge


def concurrency(settings: LLMSettings, profile: ServerProfile) -> int:
    """Requests in flight: the setting, never more than the server's slots (a request
    beyond them only waits in the server's queue, its timeout running)."""
    return max(1, min(settings.concurrency, profile.slots or settings.concurrency))


def open_client(settings: LLMSettings, profile: ServerProfile) -> LLMClient:
    assert settings.base_url and settings.model
    return LLMClient(
        ClientSettings(
            base_url=settings.base_url,
            model=settings.model,
            api_key=settings.api_key,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            backoff=settings.backoff,
            concurrency=concurrency(settings, profile),
        ),
        profile,
    )


@dataclass
class Outcome:
    request: Request
    reply: dict[str, Any] | None
    failure: str = ""  # why there is no reply: "timed out", "looped", …


class Runner:
    """Reads of the cache are skipped with `settings.refresh`; writes always happen
    (a refresh updates). A fully cached run opens no connection at all."""

    def __init__(
        self,
        settings: LLMSettings,
        cache: ReplyCache,
        factory: ClientFactory,
        usage: Usage,
        profile: ServerProfile,
        reporter: Reporter | None = None,
    ) -> None:
        self.settings = settings
        self.cache = cache
        self.factory = factory
        self.usage = usage
        self.profile = profile
        self.reporter = reporter
        self._client: LLMClient | None = None
        self._lock = threading.Lock()
        self._done = 0
        self._refused = threading.Event()  # a context refusal: send nothing more

    @property
    def client(self) -> LLMClient:
        if self._client is None:
            self._client = self.factory(self.settings, self.profile)
        return self._client

    @property
    def opened(self) -> bool:
        """Whether this run talked to the server at all."""
        return self._client is not None

    @property
    def client_notes(self) -> list[str]:
        """What the client learned on the way (a rung of the ladder, no streaming)."""
        return list(self._client.stepped) if self._client is not None else []

    def close(self) -> None:
        if self._client is not None:
            self.usage.failed.update(self._client.failed)
            self._client.close()

    def run(self, requests: list[Request], valid: Validator, split: Splitter) -> list[Outcome]:
        outcomes: list[Outcome | None] = [self._cached(r) for r in requests]
        missing = [i for i, o in enumerate(outcomes) if o is None]
        if not missing:
            return [o for o in outcomes if o is not None]
        self._done, total = len(requests) - len(missing), len(requests)
        self._refused.clear()
        pool = ThreadPoolExecutor(max_workers=concurrency(self.settings, self.profile))
        try:
            futures: dict[Future[Outcome], int] = {
                pool.submit(self._guarded, requests[i], valid, split, total): i for i in missing
            }
            for future in as_completed(futures):
                outcomes[futures[future]] = future.result()
        finally:
            # after a context refusal, requests not yet sent stay unsent: the writer re-plans
            pool.shutdown(wait=True, cancel_futures=True)
        return [o for o in outcomes if o is not None]

    def _cached(self, request: Request) -> Outcome | None:
        if self.settings.refresh:
            return None
        with self._lock:  # the cache may be a database connection: one thread at a time
            hit = self.cache.get(self._key(request))
        if hit is None:
            return None
        self.usage.cached += 1
        self.usage.saved_tokens += hit.prompt_tokens + hit.completion_tokens
        data = parse_json_object(hit.content)
        if "failed" in data and len(data) == 1:  # what the model would answer again
            self.usage.lost(request.label, f"{data['failed']} (cached)")
            return Outcome(request, None, str(data["failed"]))  # the digest says the same
        return Outcome(request, data)

    def _key(self, request: Request) -> str:
        return request_key(
            self.settings.base_url or "",
            self.settings.model or "",
            request.messages,
            request.params,
        )

    def _guarded(
        self,
        request: Request,
        valid: Validator,
        split: Splitter,
        total: int,
    ) -> Outcome:
        if self._refused.is_set():
            return Outcome(request, None, "not sent")  # the writer re-plans anyway
        try:
            outcome = self._fetch(request, valid, split)
        except ContextLengthError:
            self._refused.set()
            raise
        except RequestFailed as exc:
            self.usage.lost(request.label, exc.reason)
            outcome = Outcome(request, None, exc.reason)
        with self._lock:
            self._done += 1
            done = self._done
        if self.reporter is not None:
            self.reporter.progress(done, total, "LLM requests")
        return outcome

    def _fetch(self, request: Request, valid: Validator, split: Splitter) -> Outcome:
        """The request's reply (cached as it comes), splitting it when it is cut off."""
        cached = self._cached(request)
        if cached is not None:
            return cached
        completion, data = self._ask(request, valid)
        failure = ""
        if data is None and completion.finish_reason in ("length", "loop"):
            pieces = split(request)
            if pieces:
                self.usage.split += 1
                parts = [self._fetch(piece, valid, split) for piece in pieces]
                replies = [p.reply for p in parts if p.reply is not None]
                if replies:
                    merged = {"themes": [t for r in replies for t in r.get("themes", [])]}
                    self._store(request, merged, completion)
                    return Outcome(request, merged)
                return Outcome(request, None, parts[0].failure)
            failure = "looped" if completion.finish_reason == "loop" else "cut off by max_tokens"
        elif data is None:
            failure = "no usable JSON"
        if data is None:
            self.usage.lost(request.label, failure)
            self._store(request, {"failed": failure}, completion)
            return Outcome(request, None, failure)
        self._store(request, data, completion)
        return Outcome(request, data)

    def _ask(self, request: Request, valid: Validator) -> tuple[Completion, dict[str, Any] | None]:
        """One answer, and a second, warmer one when the first is not usable JSON."""
        params = request.params
        for attempt in range(2):
            completion = self._complete(request, params)
            self.usage.sent(completion)
            data = _usable(completion, valid)
            if data is not None or completion.finish_reason in ("length", "loop"):
                return completion, data
            if attempt == 0:
                warmer = float(params.get("temperature") or 0) + WARMER
                params = {**params, "temperature": warmer}
        return completion, None

    def _complete(self, request: Request, params: dict[str, Any]) -> Completion:
        started = time.monotonic()
        said = [started]

        def progress(characters: int, seconds: float) -> None:
            if self.reporter is None or seconds < PROGRESS_AFTER:
                return
            if time.monotonic() - said[0] >= PROGRESS_AFTER:
                said[0] = time.monotonic()
                self.reporter.info(
                    f"LLM: {request.label}: {characters:,} characters after {seconds:.0f} s"
                )

        return self.client.complete(request.messages, params, progress)

    def _store(self, request: Request, data: dict[str, Any], completion: Completion) -> None:
        reply = CachedReply(
            self._key(request),
            self.settings.model or "",
            json.dumps(data, sort_keys=True, ensure_ascii=False),
            completion.prompt_tokens,
            completion.completion_tokens,
            completion.exact_usage,
        )
        with self._lock:
            self.cache.put(reply)


def _usable(completion: Completion, valid: Validator) -> dict[str, Any] | None:
    """The reply's JSON when it is what was asked for; of a cut-off reply, the whole
    themes it holds (none: None)."""
    if completion.finish_reason in ("length", "loop"):
        themes = [t for t in complete_items(completion.content, "themes") if isinstance(t, dict)]
        data = {"themes": themes}
        return data if themes and valid(data) else None
    try:
        data = parse_json_object(completion.content)
    except InvalidReply:
        return None
    return data if valid(data) else None
