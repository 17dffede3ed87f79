"""SQL of the briefs' words (table `briefs`, migration 0011): made once per PR content and
writer, read back by every later digest of a window that holds the PR."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..models import BriefText
from ..timeutil import now, to_iso
from .core import StoreCore

_BATCH = 500  # keys per query: SQLite's and PostgreSQL's parameter limits are far above


class BriefTables(StoreCore):
    def brief_texts(self, keys: Collection[str], writer: str) -> dict[str, BriefText]:
        """The stored words of these contents by this writer, by content key."""
        wanted = sorted(set(keys))
        out: dict[str, BriefText] = {}
        for start in range(0, len(wanted), _BATCH):
            chunk = wanted[start : start + _BATCH]
            marks = ", ".join("?" for _ in chunk)
            rows = self.conn.execute(
                "SELECT content_key, what, why, what_from, why_from, replaced FROM briefs"
                f" WHERE writer = ? AND content_key IN ({marks})",
                (writer, *chunk),
            ).fetchall()
            for key, what, why, what_from, why_from, replaced in rows:
                out[key] = BriefText(what, why, what_from, why_from, writer, replaced)
        return out

    def save_brief_texts(self, texts: Mapping[str, BriefText]) -> None:
        """Keep these words (by content key); words already kept for a content and writer
        are replaced."""
        if not texts:
            return
        stamp = to_iso(now())
        with self.transaction():
            for key, text in texts.items():
                self.conn.execute(
                    "INSERT INTO briefs (content_key, writer, what, why, what_from, why_from,"
                    " replaced, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (content_key, writer) DO UPDATE SET what = excluded.what,"
                    " why = excluded.why, what_from = excluded.what_from,"
                    " why_from = excluded.why_from, replaced = excluded.replaced,"
                    " created_at = excluded.created_at",
                    (
                        key,
                        text.writer,
                        text.what,
                        text.why,
                        text.what_from,
                        text.why_from,
                        text.replaced,
                        stamp,
                    ),  # fmt: skip
                )

    def count_brief_texts(self, writer: str | None = None) -> int:
        if writer is None:
            return int(self.conn.execute("SELECT COUNT(*) FROM briefs").fetchone()[0])
        row = self.conn.execute("SELECT COUNT(*) FROM briefs WHERE writer = ?", (writer,))
        return int(row.fetchone()[0])
