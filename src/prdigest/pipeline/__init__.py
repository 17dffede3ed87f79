"""Orchestration: each command is one function here, callable from Python with the same
result as the CLI, and each reads load → analyse → write: the store is read here (in one
call per window: `Store.window`), the stages below get what was read and return what is
stored. No SQL, HTTP or templates: those live in their modules.

    sync            ingest/ (sources → store)
    make_briefs     briefs_job.py: the model's brief of each PR of a window, stored ahead
    digest          digest_job.py: Store.window → analyze.build_context → write_digest / LLM
    release_notes   release_job.py: the range's PRs → release.compose_notes → stored report
    build_site      site_job.py: stored reports and weekly counts → site.plan_site → files
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ingest import BATCH, SourceSpec, SyncResult, configured_repos, resolve_spec, spec_for, sync
from ..store.window_data import WindowData
from .briefs_job import BriefsResult, make_briefs
from .digest_job import (
    DigestResult,
    build_digest_context,
    check_window,
    classified,
    classified_with,
    digest,
    keep_digest,
    window_history,
)

if TYPE_CHECKING:
    from .release_job import release_notes
    from .site_job import build_site


def __getattr__(name: str) -> object:
    """`release_notes` and `build_site` are imported when first asked for: a digest, the
    most frequent command, never loads the release notes or the site (~0.1 s)."""
    if name == "release_notes":
        from .release_job import release_notes

        return release_notes
    if name == "build_site":
        from .site_job import build_site

        return build_site
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BATCH",
    "BriefsResult",
    "DigestResult",
    "SourceSpec",
    "SyncResult",
    "WindowData",
    "build_digest_context",
    "build_site",
    "check_window",
    "classified",
    "classified_with",
    "configured_repos",
    "digest",
    "make_briefs",
    "keep_digest",
    "release_notes",
    "resolve_spec",
    "spec_for",
    "sync",
    "window_history",
]
