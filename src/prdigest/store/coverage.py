"""How much of a repository's history the store holds: where its syncs began (`--since`),
and whether the last sync finished."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from ..timeutil import now, parse_datetime, to_iso
from .core import StoreCore


@dataclass(frozen=True)
class SyncRun:
    source: str
    started_at: str  # ISO
    finished_at: str | None

    @property
    def unfinished(self) -> bool:
        return self.finished_at is None


class SyncCoverage(StoreCore):
    def synced_since(self, repo: str) -> datetime | None:
        """The oldest landing the stored history is whole from: the earliest `--since` its
        syncs asked for. None when a sync read all of it (or none says where it began)."""
        rows = self.conn.execute(
            "SELECT c.source, c.value FROM sync_cursors c JOIN repositories r ON r.id = c.repo_id"
            " WHERE r.name = ?",
            (repo,),
        ).fetchall()
        floors = []
        for source, value in rows:
            floor = _floor(str(source), str(value))
            if not floor:
                return None
            floors.append(floor)
        return parse_datetime(min(floors)) if floors else None

    def begin_sync(self, repo: str, source: str) -> None:
        """A sync began (told with its first committed batch, in its transaction)."""
        repo_id = self.repo_id(repo)
        with self.transaction():
            self.conn.execute(
                "INSERT INTO sync_runs (repo_id, source, started_at, finished_at) VALUES (?, ?, ?, NULL)"
                " ON CONFLICT (repo_id) DO UPDATE SET source = excluded.source,"
                " started_at = excluded.started_at, finished_at = NULL",
                (repo_id, source, to_iso(now())),
            )

    def end_sync(self, repo: str) -> None:
        """The sync that began finished (nothing to do when none was recorded as begun)."""
        row = self.conn.execute(
            "SELECT s.repo_id FROM sync_runs s JOIN repositories r ON r.id = s.repo_id"
            " WHERE r.name = ? AND s.finished_at IS NULL",
            (repo,),
        ).fetchone()
        if row is None:
            return
        with self.transaction():
            self.conn.execute(
                "UPDATE sync_runs SET finished_at = ? WHERE repo_id = ?", (to_iso(now()), row[0])
            )

    def last_sync(self, repo: str) -> SyncRun | None:
        """The last git or JSONL sync; else a GitHub sync's pass left pending (interrupted)."""
        row = self.conn.execute(
            "SELECT s.source, s.started_at, s.finished_at FROM sync_runs s"
            " JOIN repositories r ON r.id = s.repo_id WHERE r.name = ?",
            (repo,),
        ).fetchone()
        if row is not None and row[2] is None:
            return SyncRun(str(row[0]), str(row[1]), None)
        github = self.conn.execute(
            "SELECT c.value, c.updated_at FROM sync_cursors c JOIN repositories r"
            " ON r.id = c.repo_id WHERE r.name = ? AND c.source = 'github'",
            (repo,),
        ).fetchone()
        if github is not None and _pending(str(github[0])):
            return SyncRun("GitHub", str(github[1]), None)
        return SyncRun(str(row[0]), str(row[1]), row[2]) if row else None


def _floor(source: str, value: str) -> str:
    """A cursor's floor: `position|floor` (git, JSONL), or the GitHub state's `floor`."""
    if source != "github":
        return value.partition("|")[2]
    try:
        state = json.loads(value)
    except json.JSONDecodeError:
        return ""
    floor = state.get("floor") if isinstance(state, dict) else None
    return floor if isinstance(floor, str) else ""


def _pending(state: str) -> bool:
    try:
        value = json.loads(state)
    except json.JSONDecodeError:
        return False
    return isinstance(value, dict) and bool(value.get("pending"))
