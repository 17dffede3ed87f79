"""Stored reports by id, for `prdigest reports list | show | delete`."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Report
from . import Store

KIND_NAMES = {"digest": "digest", "release_notes": "release-notes"}  # one word each: scripts split


@dataclass(frozen=True)
class StoredReport:
    id: int
    repo: str
    kind: str  # digest | release_notes
    window_start: str  # YYYY-MM-DD
    window_end: str
    writer: str
    title: str

    @property
    def line(self) -> str:
        """What `reports list` prints of it (and `delete` echoes)."""
        kind = KIND_NAMES.get(self.kind, self.kind)
        return f"{self.repo}  {kind}  {self.window_start}..{self.window_end}  {self.writer}"


_COLUMNS = "t.id, r.name, t.kind, t.window_start, t.window_end, t.writer, t.title"
_FROM = " FROM reports t JOIN repositories r ON r.id = t.repo_id"


def list_reports(store: Store, repo: str | None = None) -> list[StoredReport]:
    """Newest window first (as the site lists them), then by repository, kind and writer."""
    where, params = ("WHERE r.name = ?", (repo,)) if repo else ("", ())
    rows = store.conn.execute(
        f"SELECT {_COLUMNS}{_FROM} {where}"
        " ORDER BY t.window_end DESC, t.window_start DESC, r.name, t.kind, t.writer, t.id",
        params,
    ).fetchall()
    return [_stored(row) for row in rows]


def find_report(store: Store, report_id: int) -> StoredReport | None:
    row = store.conn.execute(f"SELECT {_COLUMNS}{_FROM} WHERE t.id = ?", (report_id,)).fetchone()
    return _stored(row) if row else None


def report_markdown(store: Store, report_id: int) -> str | None:
    row = store.conn.execute("SELECT markdown FROM reports WHERE id = ?", (report_id,)).fetchone()
    return str(row[0]) if row else None


def stored_id(store: Store, report: Report) -> int | None:
    """The id under which `Store.save_report` keeps this report (its natural key)."""
    row = store.conn.execute(
        f"SELECT t.id{_FROM} WHERE r.name = ? AND t.kind = ? AND t.window_start = ?"
        " AND t.window_end = ? AND t.writer = ?",
        (report.repo, report.kind, report.window_start, report.window_end, report.writer),
    ).fetchone()
    return int(row[0]) if row else None


def delete_report(store: Store, report_id: int) -> bool:
    with store.transaction():
        deleted = store.conn.execute(
            "DELETE FROM reports WHERE id = ? RETURNING id", (report_id,)
        ).fetchall()
    return bool(deleted)


def _stored(row: tuple[object, ...]) -> StoredReport:
    report_id, repo, kind, start, end, writer, title = row
    return StoredReport(
        int(str(report_id)), str(repo), str(kind), str(start), str(end), str(writer), str(title)
    )
