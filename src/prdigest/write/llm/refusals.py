"""What an error answer means, in the wordings real servers use.

- a context refusal: the prompt (llama-cpp-python, OpenAI: prompt plus
  `max_tokens`) does not fit the model's context. llama-server says
  `exceed_context_size_error` and gives `n_ctx`; OpenAI, vLLM and
  llama-cpp-python say "This model's maximum context length is N tokens";
  OpenAI and llama-cpp-python add the code `context_length_exceeded`.
  The number is read, so the writer re-plans within it at once.
- a format refusal: the server does not take this `response_format`, whatever
  the status (llama-cpp-python answers `json_schema` with a 500 naming
  `response_format.type`): the next rung of the ladder is tried, not a retry.
- a stream refusal: the server does not stream; ask again without.
- 429, 408 and 5xx are retried; any other 4xx is the caller's mistake.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_MAX_CONTEXT = re.compile(
    r"maximum (?:context length|prompt length|context) is (\d[\d,]*)"
    r"|available context size \((\d[\d,]*) tokens\)"
    r"|context (?:length|window|size) of (?:only )?(\d[\d,]*)"
    r"|exceeded model token limit:? (\d[\d,]*)",
    re.IGNORECASE,
)
_ASKED = re.compile(
    r"you requested (?:about )?(\d[\d,]*) tokens|request has (\d[\d,]*) (?:input|prompt) tokens"
    r"|resulted in (\d[\d,]*) tokens|request \((\d[\d,]*) tokens\)",
    re.IGNORECASE,
)
_CONTEXT = re.compile(
    r"exceed_context_size_error|context_length_exceeded|exceeds the available context size"
    r"|maximum context length|maximum prompt length|exceeds? (?:the )?(?:model'?s? )?context"
    r"|context window|prompt is too long|input (?:length|is too long)",
    re.IGNORECASE,
)
_FORMAT = re.compile(r"response_format|json[_ ]schema|json_object|grammar", re.IGNORECASE)
_STREAM = re.compile(r"\bstream(?:_options|ing)?\b", re.IGNORECASE)


@dataclass(frozen=True)
class Refusal:
    kind: str  # "context" | "format" | "stream" | "retry" | "rate" | "fatal"
    text: str  # the server's words, shortened for a message
    context: int | None = None  # the context the server says it has
    asked: int | None = None  # the tokens it says were asked for


def error_text(body: str) -> str:
    """The message of an OpenAI-style error body, else the body."""
    try:
        data = json.loads(body)
    except ValueError:
        return body.strip()
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict):
            return " ".join(
                str(error[k]) for k in ("message", "code", "type") if error.get(k) is not None
            )
        return str(error)
    return str(data)


def classify(status: int, body: str, *, sent_format: bool, sent_stream: bool) -> Refusal:
    text = error_text(body)
    short = re.sub(r"\s+", " ", text)[:300]
    if status != 429 and _CONTEXT.search(body):
        return Refusal("context", short, _number(_MAX_CONTEXT, body), _number(_ASKED, body))
    if status >= 400 and status != 429 and sent_format and _FORMAT.search(body):
        return Refusal("format", short)
    if status in (400, 422) and sent_stream and _STREAM.search(body):
        return Refusal("stream", short)
    if status == 429:
        return Refusal("rate", short)
    if status >= 500 or status == 408:
        return Refusal("retry", short)
    return Refusal("fatal", short)


def _number(pattern: re.Pattern[str], body: str) -> int | None:
    match = pattern.search(body)
    if match is None:
        return _json_number(body, "n_ctx") if pattern is _MAX_CONTEXT else None
    value = next(g for g in match.groups() if g)
    return int(value.replace(",", ""))


def _json_number(body: str, key: str) -> int | None:
    match = re.search(rf'"{key}"\s*:\s*(\d+)', body)
    return int(match.group(1)) if match else None
