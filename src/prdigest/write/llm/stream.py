"""Reading one chat completion as it arrives (server-sent events), or whole.

Streaming lets the client see a small model loop ("the PRs that change the
data, the PRs that change the data, …") and hang up at once instead of
paying for `max_tokens` of it, and tell how far a long answer has got. A
server that answers a streamed request with one JSON body is read as one.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import httpx
import msgspec

LOOP_SPAN = 80  # characters a repeated phrase must fill before it is a loop
LOOP_REPEATS = 3
LOOP_MAX_UNIT = 240
CHECK_EVERY = 48  # characters between two loop checks
_WHITESPACE_RUN = re.compile(r"\s{64,}$")

Progress = Callable[[int, float], None]  # (characters so far, seconds since sent)


class StreamError(Exception):
    """An error the server sent inside a stream (after answering 200)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


class Usage(msgspec.Struct, frozen=True):
    """The `usage` an answer reports (its last chunk, when streamed)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class Timings(msgspec.Struct, frozen=True):
    """llama-server's `timings` of an answer: its prompt and generation speeds."""

    prompt_per_second: float | None = None
    predicted_per_second: float | None = None
    # prompt tokens it evaluated (not served from its cache); UNSET: not told
    prompt_n: float | None | msgspec.UnsetType = msgspec.UNSET


_T = TypeVar("_T", Usage, Timings)


def _read(value: object, shape: type[_T]) -> _T | None:
    """`usage` or `timings` as the server sent them; None when it sent none, or sent them
    in a shape of its own (the tokens are then estimated, the speeds measured)."""
    if not isinstance(value, dict):
        return None
    try:
        return msgspec.convert(value, shape)
    except msgspec.ValidationError:
        return None


@dataclass
class RawReply:
    content: str
    finish_reason: str  # "stop", "length", or "loop" when we hung up on a loop
    usage: Usage | None
    timings: Timings | None
    first_token_s: float | None
    seconds: float
    streamed: bool


def repeated_tail(text: str) -> str | None:
    """The phrase the text ends repeating, when it fills `LOOP_SPAN` characters
    at least `LOOP_REPEATS` times over; a long run of whitespace counts too."""
    if _WHITESPACE_RUN.search(text):
        return " "
    size = len(text)
    for period in range(1, min(LOOP_MAX_UNIT, size // LOOP_REPEATS) + 1):
        unit = text[size - period :]
        repeats = 1
        while (
            size - (repeats + 1) * period >= 0
            and text[size - (repeats + 1) * period : size - repeats * period] == unit
        ):
            repeats += 1
        if repeats >= LOOP_REPEATS and repeats * period >= LOOP_SPAN:
            return unit
    return None


def read_reply(
    response: httpx.Response, started: float, progress: Progress | None = None
) -> RawReply:
    if "text/event-stream" not in response.headers.get("content-type", ""):
        response.read()
        return _whole(response, started)
    parts: list[str] = []
    size = checked = 0
    finish, usage, timings, first = "", None, None, None
    for line in response.iter_lines():
        if not line.startswith("data:"):
            if line.startswith("error:"):  # some servers name the event
                raise StreamError(500, line[6:].strip())
            continue
        payload = line[5:].strip()
        if payload == "[DONE]":
            break
        try:
            chunk = json.loads(payload)
        except ValueError:
            continue
        if not isinstance(chunk, dict):
            continue
        if "error" in chunk:
            raise StreamError(_status(chunk["error"]), json.dumps(chunk["error"]))
        usage = _read(chunk.get("usage"), Usage) or usage
        timings = _read(chunk.get("timings"), Timings) or timings
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or choice.get("message") or {}
            text = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(text, str) and text:
                if first is None:
                    first = time.monotonic() - started
                parts.append(text)
                size += len(text)
            finish = choice.get("finish_reason") or finish
        if size - checked >= CHECK_EVERY:
            checked = size
            if progress is not None:
                progress(size, time.monotonic() - started)
            if repeated_tail("".join(parts)[-LOOP_MAX_UNIT * 8 :]) is not None:
                finish = "loop"
                break  # closing the response tells the server to stop generating
    return RawReply(
        "".join(parts),
        finish or "stop",
        usage,
        timings,
        first,
        time.monotonic() - started,
        True,
    )


def _whole(response: httpx.Response, started: float) -> RawReply:
    try:
        data = response.json()
    except ValueError:
        raise StreamError(502, "the answer is neither an event stream nor JSON") from None
    if not isinstance(data, dict):
        raise StreamError(502, "the answer is not a JSON object")
    if "error" in data:
        raise StreamError(_status(data["error"]), json.dumps(data["error"]))
    try:
        choice = data["choices"][0]
        content = choice["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise StreamError(502, "the answer has no choices[0].message.content") from None
    if not isinstance(content, str):
        raise StreamError(502, "the answer's content is not text")
    finish = str(choice.get("finish_reason") or "stop")
    if finish == "length" and repeated_tail(content) is not None:
        finish = "loop"
    seconds = time.monotonic() - started
    usage = _read(data.get("usage"), Usage)
    timings = _read(data.get("timings"), Timings)
    return RawReply(content, finish, usage, timings, None, seconds, False)


def _status(error: object) -> int:
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, int) and 400 <= code < 600 else 500
