"""Reports: the latest digest or release notes per repository, kind, window and writer."""

from __future__ import annotations

import json

from ..models import Report
from ..timeutil import parse_datetime, to_iso
from .core import StoreCore


class ReportTables(StoreCore):
    def save_report(self, report: Report) -> None:
        """Keep the latest report per repository, kind, window and writer."""
        repo_id = self.repo_id(report.repo)
        with self.transaction():
            self.conn.execute(
                "INSERT INTO reports (repo_id, kind, window_start, window_end, writer, title, markdown,"
                " context, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (repo_id, kind, window_start, window_end, writer) DO UPDATE SET"
                " title = excluded.title, markdown = excluded.markdown, context = excluded.context,"
                " created_at = excluded.created_at",
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
            )

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
