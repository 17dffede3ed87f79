"""The GitHub source's records as the store keeps them: its sync state (a JSON cursor in
`sync_cursors`) and each PR's payload (`github_pull_requests.payload`). msgspec Structs,
so this module is loaded only when GitHub is synced or laid over, not at start-up."""

from __future__ import annotations

import json
from datetime import datetime

import msgspec

from ..models import FileChange, PullRequest
from ..timeutil import parse_datetime, to_iso


# -- sync state -------------------------------------------------------------------
class ListingPass(msgspec.Struct):
    """A pass down the listing (`ingest.from_github`), as far as it got."""

    api: str  # rest | graphql: a position means nothing to the other
    since: str  # the --since it was asked with ('' for none)
    stop: str | None  # the update it stops at (the watermark or --since), None: walk it all
    floor: str | None  # what the state's floor becomes once it is done
    top: str | None = None  # the newest update it saw (the watermark once it is done)
    page: int = 1  # REST: the page it resumes at
    after: str | None = None  # GraphQL: the cursor it resumes after


class GitHubSyncState(msgspec.Struct):
    """What the GitHub sync of a repository covers: every PR updated in [floor, watermark]
    is stored; `pending`, a pass that was interrupted."""

    watermark: str | None = None
    floor: str | None = None  # '' = all history
    pending: ListingPass | None = None


def state_from_cursor(value: str | None) -> GitHubSyncState:
    if not value:
        return GitHubSyncState()
    try:
        return msgspec.json.decode(value, type=GitHubSyncState)
    except msgspec.DecodeError:  # a ValidationError too
        return GitHubSyncState()  # an unreadable cursor only costs a full pass


def state_cursor(state: GitHubSyncState) -> str:
    return json.dumps(msgspec.to_builtins(state), sort_keys=True)


# -- payload round trip -----------------------------------------------------------
class StoredPull(msgspec.Struct, frozen=True):
    """GitHub's view of a PR as `github_pull_requests.payload` keeps it."""

    number: int
    title: str
    body: str
    sha: str | None
    state: str
    draft: bool
    author_login: str | None
    labels: list[str]
    created_at: str | None
    merged_at: str | None
    updated_at: str  # '' when unknown
    files: list[tuple[str, int | None, int | None, str | None]]  # path, +, -, old path
    raw: dict[str, object] | None


def payload_of(pr: PullRequest) -> StoredPull:
    assert pr.number is not None  # GitHub's PRs all have one
    return StoredPull(
        number=pr.number,
        title=pr.title,
        body=pr.body,
        sha=pr.sha,
        state=pr.state,
        draft=pr.draft,
        author_login=pr.author_login,
        labels=list(pr.labels),
        created_at=_iso(pr.created_at),
        merged_at=_iso(pr.merged_at),
        updated_at=_iso(pr.updated_at) or "",
        files=[(f.path, f.additions, f.deletions, f.old_path) for f in pr.files],
        raw=dict(pr.raw) if pr.raw is not None else None,
    )


def payload_text(payload: StoredPull) -> str:
    """The payload as stored (and hashed): sorted keys, as it has always been written."""
    return json.dumps(msgspec.to_builtins(payload), sort_keys=True)


def pr_from_payload(repo: str, text: str) -> PullRequest:
    p = msgspec.json.decode(text, type=StoredPull)
    return PullRequest(
        repo=repo,
        number=p.number,
        title=p.title,
        body=p.body,
        sha=p.sha,
        number_source="github",
        author_login=p.author_login,
        created_at=_dt(p.created_at),
        merged_at=_dt(p.merged_at),
        updated_at=_dt(p.updated_at),
        state=p.state,
        draft=p.draft,
        source="github",
        labels=tuple(p.labels),
        files=tuple(FileChange(path, a, d, old) for path, a, d, old in p.files),
        raw=p.raw,
    )


def _iso(value: datetime | None) -> str | None:
    return to_iso(value) if value else None


def _dt(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None
