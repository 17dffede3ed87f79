"""`sync`: bring one repository's PRs from its source into the store."""

from __future__ import annotations

from ..errors import ConfigError
from ..reporting import Reporter, SilentReporter
from ..sources.spec import SourceSpec
from ..store import Store
from .result import SyncResult


def sync(store: Store, repo: str, spec: SourceSpec, reporter: Reporter | None = None) -> SyncResult:
    reporter = reporter or SilentReporter()
    spec.validate()
    _check_repo_name(repo)
    # each source's module is loaded when used: the CLI starts without the others
    if spec.jsonl is not None:
        from .jsonl import sync_jsonl

        return sync_jsonl(store, repo, spec.jsonl, spec.since, reporter)
    if spec.git is not None:
        from .git import sync_git

        return sync_git(store, repo, spec, reporter)
    from .github import sync_github  # the GitHub source (issue 3)

    return sync_github(store, repo, spec, reporter)


def _check_repo_name(repo: str) -> None:
    owner, slash, name = repo.partition("/")
    if not slash or not owner or not name or "/" in name or " " in repo:
        raise ConfigError(
            f"invalid repository {repo!r}", "write it as owner/name, e.g. pytorch/executorch"
        )
