"""The LLM reply cache: a request is identified by a hash of what it sends and where.

The writer keys and reads replies; where they are kept is the caller's business
(the pipeline hands over the store's `StoredReplies`, a test may hand an in-memory one).
What the writer learns about a server (`profile.py`) is kept there too, under its
own key. A request's parameters name the answer's schema, not the
`response_format` the server is asked with: a reply is the same reply on any rung.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from ...models import CachedReply

CACHE_VERSION = 2  # bump when the meaning of a cached reply changes


def normalise_base_url(base_url: str) -> str:
    """One spelling per server: scheme and host lower-cased, no trailing slash."""
    parts = urlsplit(base_url.strip())
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def request_key(
    base_url: str, model: str, messages: list[dict[str, str]], params: Mapping[str, object]
) -> str:
    """The server is part of the key: another server's replies are not this one's."""
    canonical = json.dumps(
        {
            "v": CACHE_VERSION,
            "server": normalise_base_url(base_url),
            "model": model,
            "messages": messages,
            "params": params,
        },
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def profile_key(base_url: str, model: str) -> str:
    """Where what was learned about a server and model is kept (`profile.py`)."""
    canonical = json.dumps(
        {"v": CACHE_VERSION, "profile": normalise_base_url(base_url), "model": model},
        sort_keys=True,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ReplyCache(Protocol):
    """Cached replies by request key: what the LLM writer needs of a cache."""

    def get(self, key: str) -> CachedReply | None: ...

    def put(self, reply: CachedReply) -> None: ...
