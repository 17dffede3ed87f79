"""Shared by the GitHub tests and benchmark: a fake serving real records, store dumps."""

from __future__ import annotations

import copy
import sqlite3
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from fakes.github_server import FakeGitHub, github_pulls, load_records
from prdigest.pipeline import SourceSpec, sync
from prdigest.reporting import SilentReporter
from prdigest.sources.source_spec import GitHubOptions
from prdigest.store import Store

AO = "pytorch/ao"
EXECUTORCH = "pytorch/executorch"


@cache
def _pulls(path: str, repo: str) -> list[dict[str, Any]]:
    return github_pulls(load_records(Path(path)), repo)


def fake_for(path: Path, repo: str, **kw: Any) -> FakeGitHub:
    """A fake GitHub serving one repository's real records (a fresh copy each time)."""
    return FakeGitHub({repo: copy.deepcopy(_pulls(str(path), repo))}, **kw)


class RecordingReporter(SilentReporter):
    def __init__(self) -> None:
        self.lines: list[str] = []

    def progress(self, done: int, total: int | None, what: str, detail: str = "") -> None:
        self.lines.append(f"progress {done}/{total} {what}; {detail}")

    def waiting(self, left: float, why: str) -> None:
        self.lines.append(f"waiting {left:g} {why}")

    def info(self, message: str) -> None:
        self.lines.append(f"info {message}")

    def warn(self, message: str) -> None:
        self.lines.append(f"warn {message}")


def github_sync(
    store: Store,
    fake: FakeGitHub,
    repo: str = AO,
    *,
    since: str | None = "2026-06-01",
    api: str = "rest",
    reporter: Any = None,
    sleeps: list[float] | None = None,
    **extra: Any,
) -> Any:
    """One sync through the pipeline, waits recorded instead of slept."""
    record = sleeps if sleeps is not None else []
    spec = SourceSpec(
        since=datetime.fromisoformat(since).replace(tzinfo=UTC) if since else None,
        github=GitHubOptions(
            api_url=fake.url, api=api, sleep=record.append, timeout=2.0, backoff=0.01, **extra
        ),
    )
    return sync(store, repo, spec, reporter or SilentReporter())


def dump(conn: sqlite3.Connection | Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every PR (with its files and labels), GitHub record and cursor value; ids left out."""
    raw = getattr(conn, "raw", conn)
    prs = raw.execute(
        "SELECT p.id, p.number, p.sha, p.title, p.body, p.state, p.draft, p.source, p.author_login,"
        " p.created_at, p.merged_at, p.updated_at, p.content_hash, p.raw FROM pull_requests p"
    ).fetchall()
    out = []
    for row in prs:
        files = raw.execute(
            "SELECT position, path, old_path, additions, deletions FROM files WHERE pr_id = ? ORDER BY position",
            (row[0],),
        ).fetchall()
        labels = raw.execute(
            "SELECT name FROM labels WHERE pr_id = ? ORDER BY name", (row[0],)
        ).fetchall()
        out.append((*row[1:], tuple(files), tuple(labels)))
    return {
        "prs": sorted(out, key=repr),
        "github": sorted(
            raw.execute(
                "SELECT number, updated_at, state, merge_commit_sha, content_hash, payload"
                " FROM github_pull_requests"
            ).fetchall()
        ),
        "cursors": sorted(raw.execute("SELECT source, value FROM sync_cursors").fetchall()),
    }


def all_text(db: Path, *, skip: tuple[str, ...] = ()) -> str:
    """Every value of every table of a SQLite file, as text (to grep for secrets)."""
    conn = sqlite3.connect(db)
    chunks = []
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if table in skip:
            continue
        for row in conn.execute(f'SELECT * FROM "{table}"'):
            chunks.append(repr(row))
    conn.close()
    return "\n".join(chunks)
