"""Read-only views of the store for `prdigest status`."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from ..timeutil import to_iso
from .coverage import SyncCoverage, SyncRun


class CursorStatus(TypedDict):
    source: str  # git:PATH:REF | jsonl:PATH | github
    value: str
    updated_at: str


class RunStatus(TypedDict):
    source: str
    started_at: str
    finished_at: str | None  # None: interrupted, or still running


class RepositoryStatus(TypedDict):
    """One repository as `prdigest status` tells it (`--format json`: as is)."""

    name: str
    pull_requests: int
    direct_pushes: int
    first_merged: str | None
    last_merged: str | None
    reports: int
    cursors: list[CursorStatus]
    synced_since: str | None
    last_sync: RunStatus | None


class StatusViews(SyncCoverage):
    def repository_status(self) -> list[RepositoryStatus]:
        rows = self.conn.execute(
            # A commit without a PR number is a direct push: counted apart from PRs (CLI.md).
            "SELECT r.id, r.name, COUNT(p.number), COUNT(p.id) - COUNT(p.number),"
            " MIN(p.merged_at), MAX(p.merged_at),"
            " (SELECT COUNT(*) FROM reports t WHERE t.repo_id = r.id)"
            " FROM repositories r LEFT JOIN pull_requests p ON p.repo_id = r.id"
            " GROUP BY r.id, r.name ORDER BY r.name"
        ).fetchall()
        out: list[RepositoryStatus] = []
        for repo_id, name, prs, pushes, first, last, reports in rows:
            cursors = self.conn.execute(
                "SELECT source, value, updated_at FROM sync_cursors WHERE repo_id = ? ORDER BY source",
                (repo_id,),
            ).fetchall()
            out.append(
                {
                    "name": name,
                    "pull_requests": int(prs),
                    "direct_pushes": int(pushes),
                    "first_merged": first,
                    "last_merged": last,
                    "reports": int(reports),
                    "cursors": [{"source": s, "value": v, "updated_at": u} for s, v, u in cursors],
                    "synced_since": _iso_or_none(self.synced_since(name)),
                    "last_sync": _run(self.last_sync(name)),
                }
            )
        return out

    def sync_sources(self, repo: str) -> list[str]:
        """The sources `repo` was synced from (cursor names: `git:PATH:REF`, `jsonl:PATH`,
        `github`), the most recently used first."""
        rows = self.conn.execute(
            "SELECT c.source FROM sync_cursors c JOIN repositories r ON r.id = c.repo_id"
            " WHERE r.name = ? ORDER BY c.updated_at DESC, c.source",
            (repo,),
        ).fetchall()
        return [row[0] for row in rows]


def _iso_or_none(when: datetime | None) -> str | None:
    return to_iso(when) if when is not None else None


def _run(run: SyncRun | None) -> RunStatus | None:
    if run is None:
        return None
    return {"source": run.source, "started_at": run.started_at, "finished_at": run.finished_at}
