"""Reports: the latest digest or release notes per repository, kind, window and writer;
looked up by id for `prdigest reports list | show | delete`."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..models import Report
from ..timeutil import parse_datetime, to_iso
from .core import StoreCore

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


class ReportTables(StoreCore):
    def save_report(self, report: Report) -> int:
        """Keep the latest report per repository, kind, window and writer; its id (the same
        id when a report replaces one of the same key)."""
        repo_id = self.repo_id(report.repo)
        with self.transaction():
            row = self.conn.execute(
                "INSERT INTO reports (repo_id, kind, window_start, window_end, writer, title, markdown,"
                " context, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (repo_id, kind, window_start, window_end, writer) DO UPDATE SET"
                " title = excluded.title, markdown = excluded.markdown, context = excluded.context,"
                " created_at = excluded.created_at RETURNING id",
                (
                    repo_id,
                    report.kind,
                    report.window_start,
                    report.window_end,
                    report.writer,
                    report.title,
                    report.markdown,
                    json.dumps(report.context, sort_keys=True),
                    to_iso(report.created_at),
                ),
            ).fetchone()
        return int(row[0])

    def reports(self, repo: str | None = None, kind: str | None = None) -> list[Report]:
        """Stored reports, newest window first."""
        where, params = ["1 = 1"], []
        if repo:
            where.append("r.name = ?")
            params.append(repo)
        if kind:
            where.append("t.kind = ?")
            params.append(kind)
        rows = self.conn.execute(
            "SELECT r.name, t.kind, t.window_start, t.window_end, t.writer, t.title, t.markdown,"
            " t.context, t.created_at FROM reports t JOIN repositories r ON r.id = t.repo_id"
            f" WHERE {' AND '.join(where)}"
            " ORDER BY t.window_end DESC, t.window_start DESC, r.name, t.kind, t.writer",
            params,
        )
        return [
            Report(name, k, ws, we, w, title, md, json.loads(ctx), parse_datetime(created))
            for name, k, ws, we, w, title, md, ctx, created in rows
        ]

    def list_reports(self, repo: str | None = None) -> list[StoredReport]:
        """Newest window first (as the site lists them), then by repository, kind and writer."""
        where, params = ("WHERE r.name = ?", (repo,)) if repo else ("", ())
        rows = self.conn.execute(
            f"SELECT {_COLUMNS}{_FROM} {where}"
            " ORDER BY t.window_end DESC, t.window_start DESC, r.name, t.kind, t.writer, t.id",
            params,
        ).fetchall()
        return [_stored(row) for row in rows]

    def find_report(self, report_id: int) -> StoredReport | None:
        row = self.conn.execute(f"SELECT {_COLUMNS}{_FROM} WHERE t.id = ?", (report_id,)).fetchone()
        return _stored(row) if row else None

    def report_markdown(self, report_id: int) -> str | None:
        row = self.conn.execute(
            "SELECT markdown FROM reports WHERE id = ?", (report_id,)
        ).fetchone()
        return str(row[0]) if row else None

    def delete_report(self, report_id: int) -> bool:
        with self.transaction():
            deleted = self.conn.execute(
                "DELETE FROM reports WHERE id = ? RETURNING id", (report_id,)
            ).fetchall()
        return bool(deleted)


def _stored(row: tuple[object, ...]) -> StoredReport:
    report_id, repo, kind, start, end, writer, title = row
    return StoredReport(
        int(str(report_id)), str(repo), str(kind), str(start), str(end), str(writer), str(title)
    )
