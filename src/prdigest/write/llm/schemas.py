"""The JSON schemas of the answers: what a schema-following server can write at all.

Beyond the shape, they bound what a small model can get wrong: PR numbers are
those of the request (an enum), every theme cites at least one, names and
sentences have a bounded length and no JSON, Markdown or HTML characters
(a pattern), and there are at most as many themes as were asked. So an answer
cannot run past its `max_tokens`, and a model cannot cite a PR it was not
shown. Only keywords OpenAI's strict mode accepts are used.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Protocol

# A JSON schema is a JSON document of its own: its objects are `dict[str, object]`.

_PLAIN = r'[^"\\{}\[\]<>#*|\n]'
NAME_MAX = 60  # characters: a name this long is one the pattern cut, often mid-word
NAME_PATTERN = rf"^[A-Za-z0-9`(]{_PLAIN}{{1,{NAME_MAX - 2}}}[A-Za-z0-9`)]$"
SENTENCE_PATTERN = rf"^[A-Z`]{_PLAIN}{{15,238}}[.!]$"
TAKEAWAY_PATTERN = rf"^[A-Z`]{_PLAIN}{{20,398}}[.!]$"  # a cap the model hits ends it mid-clause
# A re-ask's sentence: about fifteen words. A 1.5B model asked again with room for 240
# characters pads them again ("…, ensuring compatibility and stability").
RETRY_SENTENCE_PATTERN = rf"^[A-Z`]{_PLAIN}{{15,98}}[.!]$"
WHY_PATTERN = rf"^[A-Za-z`]{_PLAIN}{{10,198}}[.!]$"
MAX_CITED = 6


class Asked(Protocol):
    themes: int


def themes_schema(
    names: Sequence[str], numbers: Sequence[Sequence[int]], asked: Sequence[Asked]
) -> dict[str, object]:
    """Themes for the areas `names` (each with its PR `numbers`); one area needs no
    `area` field."""
    properties: dict[str, object] = {}
    if len(names) > 1:
        properties["area"] = {"type": "string", "enum": list(names)}
    properties["name"] = {"type": "string", "pattern": NAME_PATTERN}
    properties["summary"] = {"type": "string", "pattern": SENTENCE_PATTERN}
    properties["prs"] = {
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_CITED,
        "items": {"type": "integer", "enum": [n for group in numbers for n in group]},
    }
    theme = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "themes": {
                "type": "array",
                "minItems": 1,
                "maxItems": max(1, sum(a.themes for a in asked)),
                "items": theme,
            }
        },
        "required": ["themes"],
        "additionalProperties": False,
    }


def takeaway_schema(notable: int = 0) -> dict[str, object]:
    """The key takeaway, and with `notable` items of news a "why it matters" sentence
    for each, in order."""
    properties: dict[str, object] = {"takeaway": {"type": "string", "pattern": TAKEAWAY_PATTERN}}
    if notable:
        properties["why"] = {
            "type": "array",
            "minItems": notable,
            "maxItems": notable,
            "items": {"type": "string", "pattern": WHY_PATTERN},
        }
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def with_short_sentences(schema: dict[str, object]) -> dict[str, object]:
    """A themes schema whose sentences are a re-ask's, shorter (`RETRY_SENTENCE_PATTERN`)."""
    out = copy.deepcopy(schema)
    summary = _at(out, "properties", "themes", "items", "properties", "summary")
    summary["pattern"] = RETRY_SENTENCE_PATTERN
    return out


def _at(schema: dict[str, object], *path: str) -> dict[str, object]:
    """The object at `path` in a schema `themes_schema` made (a KeyError otherwise)."""
    node = schema
    for key in path:
        child = node[key]
        if not isinstance(child, dict):
            raise KeyError(f"{key} is no object in the schema")
        node = child
    return node
