"""Classifications: each PR's area and kind under a profile, and the rule that decided."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..models import Classification, PullRequest
from .core import StoreCore


class ClassificationTables(StoreCore):
    def save_classifications(
        self, repo: str, decided: Iterable[tuple[PullRequest, Classification]]
    ) -> None:
        """One statement per key kind: landed PRs by commit, the others by number."""
        repo_id = self.repo_id(repo)
        rows: dict[str, list[tuple[Any, ...]]] = {"sha": [], "number": []}
        for pr, c in decided:
            key, value = ("sha", pr.sha) if pr.sha else ("number", pr.number)
            rows[key].append(
                (c.profile, c.area, c.kind, c.area_rule, c.kind_rule, c.confidence, repo_id, value)
            )
        with self.transaction():
            for key, values in rows.items():
                self.conn.executemany(
                    "INSERT INTO classifications"
                    " (pr_id, profile, area, kind, area_rule, kind_rule, confidence)"
                    f" SELECT id, ?, ?, ?, ?, ?, ? FROM pull_requests WHERE repo_id = ? AND {key} = ?"
                    " ON CONFLICT (pr_id, profile) DO UPDATE SET area = excluded.area,"
                    " kind = excluded.kind, area_rule = excluded.area_rule,"
                    " kind_rule = excluded.kind_rule, confidence = excluded.confidence",
                    values,
                )

    def classification_of(self, repo: str, sha: str, profile: str) -> Classification | None:
        row = self.conn.execute(
            "SELECT c.area, c.kind, c.area_rule, c.kind_rule, c.confidence, c.profile"
            " FROM classifications c JOIN pull_requests p ON p.id = c.pr_id"
            " JOIN repositories r ON r.id = p.repo_id WHERE r.name = ? AND p.sha = ? AND c.profile = ?",
            (repo, sha, profile),
        ).fetchone()
        return Classification(*row) if row else None
