"""A small client for OpenAI-compatible `POST {base_url}/chat/completions`.

- The `response_format` ladder (`profile.LADDER`): a server that refuses a
  format, with any status, is asked the same request on the next rung at
  once, and the profile remembers the rung for every later request and run.
- Streaming, so a looping answer is cut early (`stream.py`); a server that
  refuses to stream is asked without.
- Retries what is worth retrying (429 honouring `Retry-After`, 408, 5xx,
  timeouts) by prdigest's one retry policy (`retry`, the GitHub client's too);
  each request's timeout follows the server's measured speed unless
  `--llm-timeout` fixes it.
- A context refusal is raised with the size the server gave; a request that
  still fails after its retries raises `RequestFailed`, which costs only that
  request's areas.

The API key is sent in a header and never appears in an error message.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

import httpx
import msgspec

from ...errors import LLMError
from ...retry import GaveUp, RetryPolicy, Transient
from ...timeutil import now
from .probe import ServerFacts, probe_server
from .profile import LADDER, ServerProfile, measured_speeds
from .refusals import Refusal, classify
from .stream import Progress, RawReply, StreamError, Usage, read_reply
from .tokens import estimate_messages, estimate_tokens


class LLMUnreachable(LLMError):
    """No connection to the server at all."""


class ContextLengthError(LLMError):
    """The server refused the prompt as longer than the model's context."""

    def __init__(self, message: str, hint: str, context: int | None, asked: int | None) -> None:
        super().__init__(message, hint)
        self.context = context
        self.asked = asked


class RequestFailed(LLMError):
    """One request failed after its retries (timeouts, server errors): only its areas lose."""

    def __init__(self, message: str, hint: str, reason: str) -> None:
        super().__init__(message, hint)
        self.reason = reason


class InvalidReply(LLMError):
    """The reply was not a JSON object we could repair."""


class _Failed(Transient):
    """An attempt that got no usable answer; `reason` is counted in the run's notes."""

    def __init__(self, message: str, reason: str, retry_after: float | None) -> None:
        super().__init__(message, wait=retry_after)
        self.reason = reason


class _Crowded(Exception):
    """An empty answer while another request was in flight."""


class _Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.text)
        self.refusal = refusal


@dataclass(frozen=True)
class Completion:
    content: str
    prompt_tokens: int
    completion_tokens: int
    exact_usage: bool  # True when the server reported `usage`
    finish_reason: str = "stop"  # "stop", "length", or "loop" (we hung up on a loop)


@dataclass
class ClientSettings:
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float | None = None  # None: from the server's measured speed
    max_retries: int = 3
    backoff: float = 1.0  # first backoff in seconds; doubles each retry
    concurrency: int = 2


class AnswerSchema(msgspec.Struct, frozen=True):
    """The schema a request's answer follows (`params["json_schema"]`), by name."""

    name: str
    schema: dict[str, object]  # a JSON schema: JSON of its own


class _NamedSchema(msgspec.Struct, frozen=True):
    name: str
    schema: dict[str, object]
    strict: bool = True


class ResponseFormat(msgspec.Struct, frozen=True, omit_defaults=True):
    type: str  # json_schema | json_object
    json_schema: _NamedSchema | None = None
    schema: dict[str, object] | None = None  # llama-server's json_object with a schema


class _StreamOptions(msgspec.Struct, frozen=True):
    include_usage: bool = True


class ChatRequest(msgspec.Struct, frozen=True, omit_defaults=True):
    """The body of `POST /chat/completions` as we send it."""

    model: str
    messages: list[dict[str, str]]  # role, content
    temperature: float | None = None
    max_tokens: int | None = None
    response_format: ResponseFormat | None = None
    stream: bool = False
    stream_options: _StreamOptions | None = None


class RequestParams(msgspec.Struct, frozen=True):
    """What a request asks for (`request_plan.params_for`): the answer's schema by name,
    not the `response_format` it is sent with, so a reply is the same on any rung."""

    temperature: float | None = None
    max_tokens: int | None = None
    json_schema: AnswerSchema | None = None


def request_params(params: Mapping[str, object]) -> RequestParams:
    """The writer's request parameters, checked (a wrong one is our bug, said so)."""
    try:
        return msgspec.convert(params, RequestParams)
    except msgspec.ValidationError as exc:
        raise LLMError(
            f"a request's parameters are not what the client sends ({exc})", "report this"
        ) from None


def request_body(
    model: str,
    messages: list[dict[str, str]],
    params: Mapping[str, object],
    rung: int,
    stream: bool,
) -> ChatRequest:
    """The body sent on a rung of the ladder; `params` name the answer's schema. Below
    the rungs that enforce the schema, the system message spells it out."""
    asked = request_params(params)
    answer = asked.json_schema
    if answer and LADDER[rung] in ("json_object", "plain"):
        messages = [dict(m) for m in messages]
        messages[0]["content"] += (
            "\nAnswer with one JSON object, and nothing else, valid against this JSON schema: "
            + json.dumps(answer.schema, separators=(",", ":"))
        )
    response_format = None
    if answer and LADDER[rung] == "json_schema":
        response_format = ResponseFormat(
            "json_schema", json_schema=_NamedSchema(answer.name, answer.schema)
        )
    elif answer and LADDER[rung] == "json_object+schema":
        response_format = ResponseFormat("json_object", schema=answer.schema)
    elif answer and LADDER[rung] == "json_object":
        response_format = ResponseFormat("json_object")
    return ChatRequest(
        model,
        messages,
        temperature=asked.temperature,
        max_tokens=asked.max_tokens,
        response_format=response_format,
        stream=stream,
        stream_options=_StreamOptions() if stream else None,
    )


class LLMClient:
    def __init__(
        self,
        settings: ClientSettings,
        profile: ServerProfile | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.profile = profile or ServerProfile()
        self.failed: Counter[str] = Counter()  # attempts that got no answer, by reason
        self.stepped: list[str] = []  # what the ladder learned, for the run's notes
        self._retry = RetryPolicy(settings.max_retries + 1, settings.backoff, sleep=sleep)
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(max(1, settings.concurrency))
        self._one = threading.Lock()  # for a server that serves one request at a time
        self._busy = 0  # requests in flight
        self._idle = threading.Condition(self._lock)
        headers = {"Content-Type": "application/json"}
        if settings.api_key:
            headers["Authorization"] = f"Bearer {settings.api_key}"
        self._http = httpx.Client(
            base_url=settings.base_url.rstrip("/"), headers=headers, transport=transport
        )

    def close(self) -> None:
        self._http.close()

    def probe(self) -> ServerFacts:
        return probe_server(self._http, self.settings.base_url, self.settings.model)

    def complete(
        self,
        messages: list[dict[str, str]],
        params: Mapping[str, object],
        progress: Progress | None = None,
    ) -> Completion:
        """One chat completion on the profile's rung, stepping down the ladder on a
        format refusal; at most `concurrency` run at once."""
        with self._slots:
            while True:
                rung, stream = self.profile.rung, self.profile.stream
                body = request_body(self.settings.model, messages, params, rung, stream)
                one_at_a_time = self._one if self.profile.slots == 1 else nullcontext()
                try:
                    with one_at_a_time, self._in_flight():
                        raw = self._post_with_retries(body, messages, progress)
                except _Refused as exc:
                    self._learn(exc.refusal, rung)
                    continue
                except _Crowded:
                    # llama-cpp-python answers a second request at once, empty: it serves
                    # one at a time, and the profile says so from now on
                    self.profile.slots = 1
                    self._note("the server answered empty while busy; asking one at a time")
                    with self._idle:  # let what is in flight finish first
                        self._idle.wait_for(lambda: self._busy == 0)
                    continue
                return self._completion(raw, messages)

    @contextmanager
    def _in_flight(self) -> Iterator[None]:
        with self._lock:
            self._busy += 1
        try:
            yield
        finally:
            with self._idle:
                self._busy -= 1
                self._idle.notify_all()

    def _learn(self, refusal: Refusal, rung: int) -> None:
        if refusal.kind == "stream":
            self.profile.stream = False
            self._note(f"the server does not stream ({refusal.text[:120]}); asking without")
            return
        if not self.profile.step_down(rung):
            raise LLMError(
                f"the LLM server refused every response_format, plain text included: {refusal.text}",
                "check the server's logs, or use --writer deterministic",
            )
        self._note(
            f"the server refused response_format {LADDER[rung]} ({refusal.text[:160]}); "
            f"using {self.profile.format_name} from now on"
        )

    def _note(self, message: str) -> None:
        with self._lock:
            if message not in self.stepped:
                self.stepped.append(message)

    def _post_with_retries(
        self,
        body: ChatRequest,
        messages: list[dict[str, str]],
        progress: Progress | None,
    ) -> RawReply:
        where = f"{self.settings.base_url.rstrip('/')}/chat/completions"
        wait = self.settings.timeout or self.profile.timeout(
            estimate_messages(messages), body.max_tokens or 0
        )
        try:
            return self._retry.call(lambda: self._post(body, wait, where, progress))
        except GaveUp as gave_up:
            problem = gave_up.problem
            raise RequestFailed(
                f"the LLM server at {where} {gave_up}",
                "try again later (--llm-timeout gives slow servers longer), or use --writer deterministic",
                problem.reason if isinstance(problem, _Failed) else "failed",
            ) from None

    def _post(
        self, body: ChatRequest, wait: float, where: str, progress: Progress | None
    ) -> RawReply:
        """One attempt: the reply, or `_Failed` when another attempt is worth making."""
        started = time.monotonic()
        retry_after = None
        try:
            with self._http.stream(
                "POST",
                "/chat/completions",
                content=msgspec.json.encode(body),
                timeout=httpx.Timeout(wait, connect=min(10.0, wait)),
            ) as response:
                if response.status_code == 200:
                    raw = read_reply(response, started, progress)
                    if raw.content.strip() or raw.finish_reason != "stop":
                        return raw
                    if self._busy > 1 and self.profile.slots != 1:
                        raise _Crowded()
                    refusal = Refusal("retry", "an empty answer")
                else:
                    response.read()
                    refusal = self._classify(response.status_code, response.text, body)
                    if refusal.kind == "rate":
                        retry_after = _retry_after(response)
        except httpx.ConnectError as exc:
            raise LLMUnreachable(
                f"cannot connect to the LLM server at {where} ({type(exc).__name__})",
                "start the server or check --llm-base-url / OPENAI_BASE_URL",
            ) from None
        except httpx.TimeoutException:
            raise self._failed(f"no answer within {wait:.0f} s", "timed out") from None
        except StreamError as exc:
            refusal = self._classify(exc.status, exc.text, body)
        except httpx.HTTPError as exc:
            raise self._failed(f"{type(exc).__name__}: {exc}", "connection error") from None
        reason = "rate limited" if refusal.kind == "rate" else "server error"
        raise self._failed(f"{reason}: {refusal.text[:200]}", reason, retry_after)

    def _failed(self, problem: str, reason: str, retry_after: float | None = None) -> _Failed:
        self._count(reason)
        return _Failed(problem, reason, retry_after)

    def _classify(self, status: int, text: str, body: ChatRequest) -> Refusal:
        refusal = classify(
            status,
            text,
            sent_format=body.response_format is not None,
            sent_stream=body.stream,
        )
        if refusal.kind == "context":
            self._count("refused as too long")
            raise ContextLengthError(
                f"the LLM server refused a prompt as too long for the model: {refusal.text}",
                "lower --llm-context to the model's context size",
                refusal.context,
                refusal.asked,
            )
        if refusal.kind in ("format", "stream"):
            self._count(f"refused {refusal.kind}")
            raise _Refused(refusal)
        if refusal.kind == "fatal":
            raise LLMError(
                f"the LLM server answered {status}: {refusal.text}",
                "check --llm-model, the API key and the server's logs",
            )
        return refusal

    def _count(self, reason: str) -> None:
        with self._lock:
            self.failed[reason] += 1

    def _completion(self, raw: RawReply, messages: list[dict[str, str]]) -> Completion:
        usage = raw.usage or Usage()
        exact = usage.prompt_tokens is not None
        prompt = (
            usage.prompt_tokens if usage.prompt_tokens is not None else estimate_messages(messages)
        )
        if exact and usage.completion_tokens is not None:
            completion = usage.completion_tokens
        else:
            completion = estimate_tokens(raw.content)
        self.profile.measured(
            *measured_speeds(raw.timings, prompt, completion, raw.first_token_s, raw.seconds)
        )
        return Completion(raw.content, prompt, completion, exact, raw.finish_reason)


def _retry_after(response: httpx.Response) -> float | None:
    """The wait a 429 asks for (seconds or an HTTP date), else None: the usual backoff."""
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        try:
            return (parsedate_to_datetime(value) - now()).total_seconds()
        except (TypeError, ValueError):
            return None
