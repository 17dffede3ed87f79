"""The JSON object in a model's reply, repaired where that cannot change its meaning,
and what can be kept of a reply that was cut off (`finish_reason: length`, a loop)."""

from __future__ import annotations

import json
import re
from typing import Any

from .chat_client import InvalidReply

_FENCE = re.compile(r"^\s*```(?:json)?\s*\n?(.*?)\n?```\s*$", re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in a reply: code fences, prose around it and trailing commas
    are repaired; anything else is not."""
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


def complete_items(text: str, key: str) -> list[Any]:
    """The whole items of the array `key` in a reply cut off inside it:
    `{"themes": [{…}, {…}, {"na` gives the first two."""
    match = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text)
    if match is None:
        return []
    decoder = json.JSONDecoder()
    items: list[Any] = []
    at = match.end()
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        if at >= len(text) or text[at] == "]":
            return items
        try:
            item, at = decoder.raw_decode(text, at)
        except ValueError:
            return items
        items.append(item)
