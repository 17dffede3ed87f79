"""Which directories a repository's landed history touched before a moment: the input of
"a component first seen this window". One indexed range scan per directory asked
(migration 0005), parents before children: under a directory never seen, nothing was."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..models import FileChange, PullRequest
from ..timeutil import to_iso
from .core import StoreCore

# `path` in byte order: everything under `dir/` sorts in [`dir/`, `dir0`) ('0' follows '/').
_UNDER = (
    "SELECT 1 FROM files f WHERE f.{column} COLLATE BINARY >= ? AND f.{column} COLLATE BINARY < ?"
    " AND EXISTS (SELECT 1 FROM pull_requests p"
    " WHERE p.id = f.pr_id AND p.repo_id = ? AND p.merged_at < ?) LIMIT 1"
)
_BY_PATH = _UNDER.format(column="path")
_BY_OLD_PATH = _UNDER.format(column="old_path")


class PathHistory(StoreCore):
    def dirs_seen_before(self, repo: str, dirs: Iterable[str], before: datetime) -> set[str]:
        """Those of `dirs` under which a PR of `repo` landed before `before` touched a path
        (or renamed one away)."""
        repo_id = self.repo_id(repo, create=False)
        if repo_id is None:
            return set()
        moment = to_iso(before)
        seen: set[str] = set()
        unseen: set[str] = set()
        for directory in sorted(set(dirs), key=lambda d: (d.count("/"), d)):
            parent = directory.rpartition("/")[0]
            if parent and parent in unseen:
                unseen.add(directory)
                continue
            low, high = directory + "/", directory + "0"
            found = any(
                self.conn.execute(sql, (low, high, repo_id, moment)).fetchone()
                for sql in (_BY_PATH, _BY_OLD_PATH)
            )
            (seen if found else unseen).add(directory)
        return seen

    def paths_landed_between(self, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
        """The PRs landed in [start, end), oldest first, with their title and changed paths
        only (no body, people or line counts): what a profile deriving its areas from paths
        reads, at a fraction of the cost of whole records."""
        repo_id = self.repo_id(repo, create=False)
        if repo_id is None:
            return []
        rows = self.conn.execute(
            "SELECT p.id, p.number, p.title, f.path FROM pull_requests p"
            " LEFT JOIN files f ON f.pr_id = p.id"
            " WHERE p.repo_id = ? AND p.merged_at >= ? AND p.merged_at < ?"
            " ORDER BY p.merged_at, p.id, f.position",
            (repo_id, to_iso(start), to_iso(end)),
        ).fetchall()
        prs: list[PullRequest] = []
        current: int | None = None
        number: int | None = None
        title = ""
        paths: list[str] = []
        for pr_id, pr_number, pr_title, path in rows:
            if pr_id != current:
                if current is not None:
                    prs.append(_light(repo, number, title, paths))
                current, number, title, paths = pr_id, pr_number, pr_title, []
            if path is not None:
                paths.append(path)
        if current is not None:
            prs.append(_light(repo, number, title, paths))
        return prs


def _light(repo: str, number: int | None, title: str, paths: list[str]) -> PullRequest:
    return PullRequest(repo, number, title, files=tuple(FileChange(path) for path in paths))
