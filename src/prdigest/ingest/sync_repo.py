"""`sync`: bring one repository's PRs from its source into the store."""

from __future__ import annotations

from ..config import check_repo_name
from ..reporting import Reporter, SilentReporter
from ..sources.source_spec import SourceSpec
from ..store import Store
from .result import SyncResult


def sync(store: Store, repo: str, spec: SourceSpec, reporter: Reporter | None = None) -> SyncResult:
    """Sync. A git or JSONL sync is recorded as begun with its first committed batch, and
    as finished here: one that never finishes (Ctrl-C, a kill, an error) left part of the
    history, which `status` and `digest` then tell. One that fails before it commits
    anything leaves the store untouched."""
    reporter = reporter or SilentReporter()
    spec.validate()
    check_repo_name(repo)  # the CLI checked it; a queued job or a caller in code may not have
    result = _sync(store, repo, spec, reporter)
    store.end_sync(repo)
    return result


def _sync(store: Store, repo: str, spec: SourceSpec, reporter: Reporter) -> SyncResult:
    # each source's module is loaded when used: the CLI starts without the others
    if spec.jsonl is not None:
        from .from_jsonl import sync_jsonl

        return sync_jsonl(store, repo, spec.jsonl, spec.since, reporter)
    if spec.git is not None:
        from .from_git import sync_git

        return sync_git(store, repo, spec, reporter)
    from .from_github import sync_github  # the GitHub source (issue 3)

    return sync_github(store, repo, spec, reporter)
