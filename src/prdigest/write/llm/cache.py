"""Where what the writer learns about a server and model (`profile.py`) is kept: the
`ReplyCache` protocol the store implements (`StoredReplies`, table `llm_cache`), under a
key of the server (its base URL, normalised) and the model. The model's answers are not
cached as replies: the briefs made of them are stored by PR content (`brief_runner`)."""

from __future__ import annotations

import hashlib
import json
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from ...models import CachedReply

CACHE_VERSION = 2  # bump when the meaning of a kept profile changes


def normalise_base_url(base_url: str) -> str:
    """One spelling per server: scheme and host lower-cased, no trailing slash."""
    parts = urlsplit(base_url.strip())
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def profile_key(base_url: str, model: str) -> str:
    """Where what was learned about a server and model is kept (`profile.py`)."""
    canonical = json.dumps(
        {"v": CACHE_VERSION, "profile": normalise_base_url(base_url), "model": model},
        sort_keys=True,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ReplyCache(Protocol):
    """Kept entries by key: what the LLM writer needs of a cache."""

    def get(self, key: str) -> CachedReply | None: ...

    def put(self, reply: CachedReply) -> None: ...
