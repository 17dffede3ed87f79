"""Rows ↔ records: how a PullRequest is laid out in `pull_requests`, and read back."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from ..models import FileChange, PullRequest
from ..timeutil import parse_datetime, to_iso


def raw_json(pr: PullRequest) -> str | None:
    return json.dumps(pr.raw, sort_keys=True) if pr.raw is not None else None


def content_hash(pr: PullRequest, raw: str | None = None) -> str:
    """What tells an unchanged re-sync from an update: the source payload when there is
    one (every stored field derives from it), else the record's fields."""
    payload = raw if raw is not None else json.dumps(_pr_payload(pr), sort_keys=True, default=str)
    return hashlib.sha1(f"{pr.source}\0{payload}".encode()).hexdigest()


def _pr_payload(pr: PullRequest) -> dict[str, Any]:
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


def _pr_row(
    repo_id: int | None, pr: PullRequest, digest: str, raw: str | None = None
) -> dict[str, Any]:
    return {
        "repo_id": repo_id,
        "number": pr.number,
        "sha": pr.sha,
        "number_source": pr.number_source,
        "title": pr.title,
        "body": pr.body,
        "author_name": pr.author_name,
        "author_email": pr.author_email,
        "author_login": pr.author_login,
        "created_at": _iso(pr.created_at),
        "merged_at": _iso(pr.merged_at),
        "authored_at": _iso(pr.authored_at),
        "updated_at": _iso(pr.updated_at),
        "state": pr.state,
        "draft": int(pr.draft),
        "source": pr.source,
        "parents": json.dumps(list(pr.parents)),
        "trailers": json.dumps([[k, list(v)] for k, v in pr.trailers]),
        "raw": raw if raw is not None else raw_json(pr),
        "content_hash": digest,
    }


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
            FileChange(path, additions, deletions, old_path, bool(binary))
            for path, additions, deletions, old_path, binary in files
        ),
        trailers=tuple((k, tuple(v)) for k, v in json.loads(trailers)),
        raw=json.loads(raw) if raw else None,
    )
