"""Ingest: bring a repository's PRs from a source into the store.

Sources read (`prdigest.sources`); ingestion writes: it commits what a source
yields in batches or pages together with the source's cursor, so a sync is
incremental, resumable and idempotent. `pipeline` re-exports this face.

- `sync`: the entry point, one repository from its `SourceSpec`
- `specs`: which repositories are configured, and where each syncs from
- `records`: git / JSONL records in batches committed with their cursor
- `git`, `jsonl`: those two sources' cursors and resuming
- `github`: the GitHub API walk: pages, state, ETags, the shared rate budget
"""

from __future__ import annotations

from ..sources.source_spec import GitHubOptions, SourceSpec
from .batches import BATCH, PIECE
from .result import SyncResult
from .specs import configured_repos, resolve_spec, spec_for
from .sync_repo import sync

__all__ = [
    "BATCH",
    "PIECE",
    "GitHubOptions",
    "SourceSpec",
    "SyncResult",
    "configured_repos",
    "resolve_spec",
    "spec_for",
    "sync",
]
