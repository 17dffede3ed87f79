"""A small client for OpenAI-compatible `POST {base_url}/chat/completions`.

It retries what is worth retrying (429 honouring `Retry-After`, 5xx, timeouts)
with backoff, tells a context-length refusal apart from other errors, and
turns a reply into a JSON object, repairing the harmless defects small models
produce (code fences, prose around the object, trailing commas). The API key
is sent in a header and never appears in an error message.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from ...errors import LLMError
from ...timeutil import now
from .tokens import estimate_messages, estimate_tokens

MAX_RETRY_AFTER = 60.0  # never sleep longer than this on one Retry-After
_FORMAT = re.compile(r"response_format|json_schema|json_object", re.IGNORECASE)
_CONTEXT_LENGTH = re.compile(
    r"context[_ ]length|maximum context|context window|too many tokens|prompt is too long"
    r"|exceeds? (the )?(model'?s? )?(max|context)",
    re.IGNORECASE,
)


class LLMUnreachable(LLMError):
    """No connection to the server at all."""


class ContextLengthError(LLMError):
    """The server refused the prompt as longer than the model's context."""


class UnsupportedFormat(LLMError):
    """The server does not accept this `response_format`."""


class InvalidReply(LLMError):
    """The reply was not a JSON object we could repair."""


@dataclass(frozen=True)
class Completion:
    content: str
    prompt_tokens: int
    completion_tokens: int
    exact_usage: bool  # True when the server reported `usage`


@dataclass
class ClientSettings:
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 120.0
    max_retries: int = 3
    backoff: float = 1.0  # first backoff in seconds; doubles each retry
    concurrency: int = 2


class LLMClient:
    def __init__(
        self,
        settings: ClientSettings,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self._sleep = sleep
        self._slots = threading.Semaphore(max(1, settings.concurrency))
        headers = {"Content-Type": "application/json"}
        if settings.api_key:
            headers["Authorization"] = f"Bearer {settings.api_key}"
        self._http = httpx.Client(
            base_url=settings.base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(settings.timeout, connect=min(10.0, settings.timeout)),
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def complete(self, messages: list[dict[str, str]], params: dict[str, Any]) -> Completion:
        """One chat completion, with retries; at most `concurrency` run at once."""
        body = {"model": self.settings.model, "messages": messages, **params}
        with self._slots:
            try:
                response = self._post_with_retries(body)
            except UnsupportedFormat:
                # Servers without JSON-schema support: ask for a JSON object, then plain text
                # (the prompt asks for JSON, and replies are parsed and validated either way).
                body["response_format"] = {"type": "json_object"}
                try:
                    response = self._post_with_retries(body)
                except UnsupportedFormat:
                    del body["response_format"]
                    response = self._post_with_retries(body)
        return _completion(response, messages)

    def _post_with_retries(self, body: dict[str, Any]) -> dict[str, Any]:
        where = f"{self.settings.base_url.rstrip('/')}/chat/completions"
        last_problem = "no attempt made"
        for attempt in range(self.settings.max_retries + 1):
            delay = self.settings.backoff * (2**attempt)
            try:
                response = self._http.post("/chat/completions", json=body)
            except httpx.ConnectError as exc:
                raise LLMUnreachable(
                    f"cannot connect to the LLM server at {where} ({type(exc).__name__})",
                    "start the server or check --llm-base-url / OPENAI_BASE_URL",
                ) from None
            except httpx.TimeoutException:
                last_problem = f"no answer within {self.settings.timeout:g}s"
            except httpx.HTTPError as exc:
                last_problem = f"{type(exc).__name__}: {exc}"
            else:
                status = response.status_code
                if status == 200:
                    return _json_body(response, where)
                text = _error_text(response)
                if _CONTEXT_LENGTH.search(text) and status in (400, 413, 422, 500):
                    raise ContextLengthError(
                        f"the LLM server refused a prompt as too long for the model: {text[:200]}",
                        "lower --llm-context to the model's context size",
                    )
                if status in (400, 422) and "response_format" in body and _FORMAT.search(text):
                    raise UnsupportedFormat(
                        f"the LLM server rejected response_format: {text[:200]}"
                    )
                if status == 429:
                    last_problem = "rate limited (429)"
                    delay = _retry_after(response, delay)
                elif status >= 500:
                    last_problem = f"server error {status}: {text[:200]}"
                else:
                    raise LLMError(
                        f"the LLM server at {where} answered {status}: {text[:300]}",
                        "check --llm-model and the server's logs",
                    )
            if attempt < self.settings.max_retries:
                self._sleep(delay)
        raise LLMError(
            f"the LLM server at {where} failed {self.settings.max_retries + 1} times: {last_problem}",
            "try again later, raise the server's limits, or use --writer deterministic",
        )


def _json_body(response: httpx.Response, where: str) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        raise LLMError(
            f"the LLM server at {where} answered with something that is not JSON",
            "check --llm-base-url points at an OpenAI-compatible /v1 endpoint",
        ) from None
    if not isinstance(data, dict):
        raise LLMError(
            f"the LLM server at {where} answered with unexpected JSON",
            "check --llm-base-url points at an OpenAI-compatible /v1 endpoint",
        )
    return data


def _error_text(response: httpx.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.text.strip()
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict):
            return " ".join(
                str(error.get(k, "")) for k in ("message", "code", "type") if error.get(k)
            )
        return str(error)
    return str(data)


def _retry_after(response: httpx.Response, default: float) -> float:
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = (parsedate_to_datetime(value) - now()).total_seconds()
        except (TypeError, ValueError):
            return default
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def _completion(data: dict[str, Any], messages: list[dict[str, str]]) -> Completion:
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise InvalidReply(
            "the LLM reply has no choices[0].message.content",
            "check the server speaks the OpenAI chat-completions API",
        ) from None
    if not isinstance(content, str):
        raise InvalidReply("the LLM reply's content is not text", "check the server and model")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
    if usage and isinstance(usage.get("prompt_tokens"), int):
        return Completion(
            content, usage["prompt_tokens"], int(usage.get("completion_tokens") or 0), True
        )
    return Completion(content, estimate_messages(messages), estimate_tokens(content), False)


_FENCE = re.compile(r"^\s*```(?:json)?\s*\n?(.*?)\n?```\s*$", re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in a reply, repaired where that cannot change its meaning."""
    candidates = [text]
    fenced = _FENCE.match(text)
    if fenced:
        candidates.append(fenced.group(1))
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in list(candidates):
        candidates.append(_TRAILING_COMMA.sub(r"\1", candidate))
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise InvalidReply(
        "the LLM reply is not a JSON object", "retry, or use a model that follows JSON schemas"
    )
