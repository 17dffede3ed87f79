"""Rows ↔ records: how a PullRequest is laid out in `pull_requests`, and read back."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..models import FileChange, PullRequest
from ..timeutil import parse_datetime, to_iso


def raw_json(pr: PullRequest) -> str | None:
    """The source payload as stored: without the files' diffs, which `files.patch` keeps."""
    if pr.raw is None:
        return None
    return json.dumps(_without_patches(pr.raw), sort_keys=True)


def _without_patches(raw: Mapping[str, object]) -> Mapping[str, object]:
    files = raw.get("files")
    if not isinstance(files, list) or not any(
        isinstance(f, dict) and ("patch" in f or "patch_truncated" in f) for f in files
    ):
        return raw
    kept = [
        {k: v for k, v in f.items() if k not in ("patch", "patch_truncated")}
        if isinstance(f, dict)
        else f
        for f in files
    ]
    return {**raw, "files": kept}


def content_hash(pr: PullRequest, raw: str | None = None) -> str:
    """What tells an unchanged re-sync from an update: the source payload when there is
    one (every stored field derives from it, the diffs aside), else the record's fields;
    and the files' diffs, so that records synced again with diffs are updated."""
    payload = raw if raw is not None else json.dumps(_pr_payload(pr), sort_keys=True, default=str)
    patches = [(f.patch, f.patch_truncated) for f in pr.files if f.patch or f.patch_truncated]
    if patches:
        payload += "\0" + json.dumps(patches)
    return hashlib.sha1(f"{pr.source}\0{payload}".encode()).hexdigest()


def _pr_payload(pr: PullRequest) -> dict[str, object]:
    """What a record without a source payload is hashed by (`content_hash`)."""
    return {
        "number": pr.number,
        "title": pr.title,
        "body": pr.body,
        "state": pr.state,
        "merged_at": pr.merged_at,
        "updated_at": pr.updated_at,
        "labels": pr.labels,
        "files": [(f.path, f.additions, f.deletions, f.old_path, f.binary) for f in pr.files],
        "author": (pr.author_name, pr.author_email, pr.author_login),
        "draft": pr.draft,
        "source": pr.source,
        "number_source": pr.number_source,
    }


def _iso(value: datetime | None) -> str | None:
    return to_iso(value) if value else None


# A value of a row, as the database drivers take it.
SqlValue = str | int | float | None

# The columns of `pull_requests` a write sets, in the order of `pr_values`.
PR_COLUMNS = (
    "repo_id", "number", "sha", "number_source", "title", "body", "author_name",
    "author_email", "author_login", "created_at", "merged_at", "authored_at", "updated_at",
    "state", "draft", "source", "parents", "trailers", "raw", "content_hash",
)  # fmt: skip
# ON CONFLICT: another writer may have stored the commit since we looked.
UPSERT_PR = (
    f"INSERT INTO pull_requests ({', '.join(PR_COLUMNS)}) VALUES ({', '.join('?' * len(PR_COLUMNS))})"
    " ON CONFLICT (repo_id, sha) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in PR_COLUMNS if c not in ("repo_id", "sha"))
)


def pr_values(
    repo_id: int | None, pr: PullRequest, digest: str, raw: str | None = None
) -> tuple[SqlValue, ...]:
    """A `pull_requests` row, in the order of PR_COLUMNS."""
    return (
        repo_id,
        pr.number,
        pr.sha,
        pr.number_source,
        pr.title,
        pr.body,
        pr.author_name,
        pr.author_email,
        pr.author_login,
        _iso(pr.created_at),
        _iso(pr.merged_at),
        _iso(pr.authored_at),
        _iso(pr.updated_at),
        pr.state,
        int(pr.draft),
        pr.source,
        _json_list(pr.parents),
        json.dumps([[k, list(v)] for k, v in pr.trailers]) if pr.trailers else "[]",
        raw if raw is not None else raw_json(pr),
        digest,
    )


def _pr_row(
    repo_id: int | None, pr: PullRequest, digest: str, raw: str | None = None
) -> dict[str, SqlValue]:
    return dict(zip(PR_COLUMNS, pr_values(repo_id, pr, digest, raw), strict=True))


def file_rows(pr_id: int, files: Sequence[FileChange]) -> list[tuple[SqlValue, ...]]:
    """The `files` rows of one PR, in the order of its changes."""
    return [
        (
            pr_id,
            i,
            f.path,
            f.old_path,
            f.additions,
            f.deletions,
            int(f.binary),
            f.patch,
            int(f.patch_truncated),
        )  # fmt: skip
        for i, f in enumerate(files)
    ]


def _json_list(items: Sequence[str]) -> str:
    return json.dumps(list(items)) if items else "[]"


def _dt(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def _pr_from_row(
    row: tuple[Any, ...], files: list[tuple[Any, ...]], labels: list[tuple[Any, ...]]
) -> PullRequest:
    (
        _,
        repo,
        number,
        sha,
        number_source,
        title,
        body,
        author_name,
        author_email,
        author_login,
        created_at,
        merged_at,
        authored_at,
        updated_at,
        state,
        draft,
        source,
        parents,
        trailers,
        raw,
    ) = row
    return PullRequest(
        repo=repo,
        number=number,
        title=title,
        body=body,
        sha=sha,
        number_source=number_source,
        parents=tuple(json.loads(parents)),
        author_name=author_name,
        author_email=author_email,
        author_login=author_login,
        created_at=_dt(created_at),
        merged_at=_dt(merged_at),
        authored_at=_dt(authored_at),
        updated_at=_dt(updated_at),
        state=state,
        draft=bool(draft),
        source=source,
        labels=tuple(name for (name,) in labels),
        files=tuple(
            FileChange(path, additions, deletions, old_path, bool(binary), patch, bool(truncated))
            for path, additions, deletions, old_path, binary, patch, truncated in files
        ),
        trailers=tuple((k, tuple(v)) for k, v in json.loads(trailers)),
        raw=json.loads(raw) if raw else None,
    )
