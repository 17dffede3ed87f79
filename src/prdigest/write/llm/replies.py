"""The JSON object in a model's reply, repaired where that cannot change its meaning."""

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
