"""SQL of the GitHub source: its PR records, ETags, sync state and rate limits.

GitHub's view of a PR is kept in `github_pull_requests` (by number) and laid
over `pull_requests` so each PR has ONE row whichever source came first:

- a git/jsonl row with the merge commit's sha (or, failing that, the PR's
  number) takes GitHub's labels, created/updated dates, login and draft flag,
  and GitHub's files when GitHub has some; git's sha, dates and message stay,
  and its content hash too, so re-reading the same git history stays a no-op;
- otherwise the PR gets a row of its own (`source = 'github'`, `sha` NULL
  unless merged), replaced by the git row as soon as git brings the PR.

`reapply_github` is called after a git/jsonl batch so the order never matters.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import msgspec

from ..models import FileChange, PullRequest
from ..timeutil import now, parse_datetime, to_iso
from . import Store, UpsertCounts
from .rows import _pr_row, file_rows

CURSOR_SOURCE = "github"
_CHUNK = 500


# -- sync state (a JSON cursor in sync_cursors) ---------------------------------
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


def load_state(store: Store, repo: str) -> GitHubSyncState:
    value = store.get_cursor(repo, CURSOR_SOURCE)
    if not value:
        return GitHubSyncState()
    try:
        return msgspec.json.decode(value, type=GitHubSyncState)
    except msgspec.DecodeError:  # a ValidationError too
        return GitHubSyncState()  # an unreadable cursor only costs a full pass


def save_state(store: Store, repo: str, state: GitHubSyncState) -> None:
    store.set_cursor(repo, CURSOR_SOURCE, json.dumps(msgspec.to_builtins(state), sort_keys=True))


# -- ETags -----------------------------------------------------------------------
def get_etag(store: Store, url: str) -> str | None:
    row = store.conn.execute("SELECT etag FROM github_etags WHERE url = ?", (url,)).fetchone()
    return str(row[0]) if row else None


def put_etag(store: Store, url: str, etag: str) -> None:
    with store.transaction():
        store.conn.execute(
            "INSERT INTO github_etags (url, etag, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, updated_at = excluded.updated_at",
            (url, etag, to_iso(now())),
        )


# -- rate limits -----------------------------------------------------------------
def save_rate_limits(store: Store, api_url: str, rates: Iterable[Any]) -> None:
    """Keep the last rate-limit state seen per resource (RateState objects)."""
    with store.transaction():
        for rate in rates:
            store.conn.execute(
                "INSERT INTO github_rate_limits (api_url, resource, quota, remaining, reset_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (api_url, resource) DO UPDATE SET"
                " quota = excluded.quota, remaining = excluded.remaining,"
                " reset_at = excluded.reset_at, updated_at = excluded.updated_at",
                (
                    api_url,
                    rate.resource or "core",
                    rate.limit,
                    rate.remaining,
                    to_iso(rate.reset) if rate.reset else None,
                    to_iso(now()),
                ),
            )


# -- GitHub's PRs ------------------------------------------------------------------
def known_updated_at(store: Store, repo: str, numbers: Sequence[int]) -> dict[int, str]:
    """GitHub's `updated_at` already stored for these PR numbers."""
    repo_id = store.repo_id(repo, create=False)
    if repo_id is None:
        return {}
    found: dict[int, str] = {}
    wanted = list(numbers)
    for i in range(0, len(wanted), _CHUNK):
        chunk = wanted[i : i + _CHUNK]
        rows = store.conn.execute(
            "SELECT number, updated_at FROM github_pull_requests WHERE repo_id = ?"
            f" AND number IN ({', '.join('?' * len(chunk))})",
            (repo_id, *chunk),
        )
        found.update({int(n): str(u) for n, u in rows})
    return found


def upsert_github_prs(store: Store, repo: str, prs: Sequence[PullRequest]) -> UpsertCounts:
    """Store GitHub's records and lay each over its one PR row; in the caller's transaction."""
    repo_id = store.repo_id(repo)
    counts = UpsertCounts()
    with store.transaction():
        for pr in prs:
            payload = _payload(pr)
            text = _payload_text(payload)
            digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
            row = store.conn.execute(
                "SELECT content_hash FROM github_pull_requests WHERE repo_id = ? AND number = ?",
                (repo_id, pr.number),
            ).fetchone()
            if row and row[0] == digest:
                counts.unchanged += 1
                continue
            store.conn.execute(
                "INSERT INTO github_pull_requests (repo_id, number, updated_at, state, merge_commit_sha,"
                " content_hash, payload) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (repo_id, number) DO UPDATE SET updated_at = excluded.updated_at,"
                " state = excluded.state, merge_commit_sha = excluded.merge_commit_sha,"
                " content_hash = excluded.content_hash, payload = excluded.payload",
                (repo_id, pr.number, payload.updated_at, pr.state, pr.sha, digest, text),
            )
            _lay_over(store, repo_id, pr)
            if row:
                counts.updated += 1
            else:
                counts.inserted += 1
    store.generation += 1
    return counts


def reapply_github(store: Store, repo: str, numbers: Iterable[int | None]) -> int:
    """After git/jsonl rows were written: lay GitHub's records of these PRs over them again."""
    repo_id = store.repo_id(repo, create=False)
    wanted = sorted({n for n in numbers if n is not None})
    if repo_id is None or not wanted:
        return 0
    if not store.conn.execute(
        "SELECT 1 FROM github_pull_requests WHERE repo_id = ? LIMIT 1", (repo_id,)
    ).fetchone():
        return 0
    applied = 0
    with store.transaction():
        for i in range(0, len(wanted), _CHUNK):
            chunk = wanted[i : i + _CHUNK]
            rows = store.conn.execute(
                "SELECT payload FROM github_pull_requests WHERE repo_id = ?"
                f" AND number IN ({', '.join('?' * len(chunk))})",
                (repo_id, *chunk),
            ).fetchall()
            for (payload,) in rows:
                _lay_over(store, repo_id, _pr_from_payload(repo, payload))
                applied += 1
    return applied


def _lay_over(store: Store, repo_id: int | None, pr: PullRequest) -> None:
    conn = store.conn
    target = None
    if pr.sha:
        target = conn.execute(
            "SELECT id FROM pull_requests WHERE repo_id = ? AND sha = ? AND source <> 'github'",
            (repo_id, pr.sha),
        ).fetchone()
    if target is None:
        target = conn.execute(
            "SELECT id FROM pull_requests WHERE repo_id = ? AND number = ? AND source <> 'github'"
            " AND sha IS NOT NULL ORDER BY merged_at DESC, id DESC LIMIT 1",
            (repo_id, pr.number),
        ).fetchone()
    own = conn.execute(
        "SELECT id FROM pull_requests WHERE repo_id = ? AND number = ? AND source = 'github'",
        (repo_id, pr.number),
    ).fetchone()
    if target is not None:
        # git proves it landed: keep git's identity, dates and message; take GitHub's metadata.
        pr_id = int(target[0])
        if own is not None:
            conn.execute("DELETE FROM pull_requests WHERE id = ?", (own[0],))
        conn.execute(
            "UPDATE pull_requests SET author_login = COALESCE(?, author_login), created_at = ?,"
            " updated_at = ?, draft = 0, state = 'merged' WHERE id = ?",
            (pr.author_login, _iso(pr.created_at), _iso(pr.updated_at), pr_id),
        )
        _replace_labels(store, pr_id, pr.labels)
        if pr.files:
            _replace_files(store, pr_id, _with_stored_patches(store, pr_id, pr.files))
        return
    row = _pr_row(repo_id, pr, "github:" + (pr.updated_at.isoformat() if pr.updated_at else ""))
    if own is not None:
        pr_id = int(own[0])
        conn.execute(
            f"UPDATE pull_requests SET {', '.join(f'{c} = ?' for c in row)} WHERE id = ?",
            (*row.values(), pr_id),
        )
    else:
        pr_id = int(
            conn.execute(
                f"INSERT INTO pull_requests ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})"
                " RETURNING id",
                tuple(row.values()),
            ).fetchone()[0]
        )
    _replace_labels(store, pr_id, pr.labels)
    _replace_files(store, pr_id, pr.files)


def _replace_labels(store: Store, pr_id: int, labels: Sequence[str]) -> None:
    store.conn.execute("DELETE FROM labels WHERE pr_id = ?", (pr_id,))
    store.conn.executemany(
        "INSERT OR IGNORE INTO labels (pr_id, name) VALUES (?, ?)",
        [(pr_id, name) for name in labels],
    )


def _with_stored_patches(
    store: Store, pr_id: int, files: Sequence[FileChange]
) -> tuple[FileChange, ...]:
    """GitHub's file list with the diffs a JSONL sync stored for the same paths: the
    REST list carries no `patch` here, and laying it over must not lose them."""
    stored = {
        path: (patch, bool(truncated))
        for path, patch, truncated in store.conn.execute(
            "SELECT path, patch, patch_truncated FROM files WHERE pr_id = ? AND patch IS NOT NULL",
            (pr_id,),
        )
    }
    if not stored:
        return tuple(files)
    return tuple(
        replace(f, patch=stored[f.path][0], patch_truncated=stored[f.path][1])
        if f.patch is None and f.path in stored
        else f
        for f in files
    )


def _replace_files(store: Store, pr_id: int, files: Sequence[FileChange]) -> None:
    store.conn.execute("DELETE FROM files WHERE pr_id = ?", (pr_id,))
    store.conn.executemany(
        "INSERT INTO files (pr_id, position, path, old_path, additions, deletions, is_binary,"
        " patch, patch_truncated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        file_rows(pr_id, files),
    )


# -- digest windows -----------------------------------------------------------------
def created_between(store: Store, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
    """PRs opened in [start, end) (known only from GitHub), oldest first, any state."""
    return store._select_prs(
        "r.name = ? AND p.number IS NOT NULL AND p.created_at >= ? AND p.created_at < ?"
        " ORDER BY p.created_at, p.id",
        (repo, to_iso(start), to_iso(end)),
    )


def has_github_data(store: Store, repo: str) -> bool:
    repo_id = store.repo_id(repo, create=False)
    if repo_id is None:
        return False
    row = store.conn.execute(
        "SELECT 1 FROM github_pull_requests WHERE repo_id = ? LIMIT 1", (repo_id,)
    ).fetchone()
    return row is not None


# -- payload round trip ---------------------------------------------------------------
class _StoredPull(msgspec.Struct, frozen=True):
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


def _payload(pr: PullRequest) -> _StoredPull:
    assert pr.number is not None  # GitHub's PRs all have one
    return _StoredPull(
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


def _payload_text(payload: _StoredPull) -> str:
    """The payload as stored (and hashed): sorted keys, as it has always been written."""
    return json.dumps(msgspec.to_builtins(payload), sort_keys=True)


def _pr_from_payload(repo: str, text: str) -> PullRequest:
    p = msgspec.json.decode(text, type=_StoredPull)
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
