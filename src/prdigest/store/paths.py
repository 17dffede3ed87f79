"""Which directories a repository's landed history touched before a moment: the input of
"a component first seen this window". One indexed range scan per directory asked
(migration 0005), parents before children: under a directory never seen, nothing was."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..timeutil import to_iso
from . import Store

# `path` in byte order: everything under `dir/` sorts in [`dir/`, `dir0`) ('0' follows '/').
_UNDER = (
    "SELECT 1 FROM files f WHERE f.{column} COLLATE BINARY >= ? AND f.{column} COLLATE BINARY < ?"
    " AND EXISTS (SELECT 1 FROM pull_requests p"
    " WHERE p.id = f.pr_id AND p.repo_id = ? AND p.merged_at < ?) LIMIT 1"
)
_BY_PATH = _UNDER.format(column="path")
_BY_OLD_PATH = _UNDER.format(column="old_path")


def dirs_seen_before(store: Store, repo: str, dirs: Iterable[str], before: datetime) -> set[str]:
    """Those of `dirs` under which a PR of `repo` landed before `before` touched a path
    (or renamed one away)."""
    repo_id = store.repo_id(repo, create=False)
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
            store.conn.execute(sql, (low, high, repo_id, moment)).fetchone()
            for sql in (_BY_PATH, _BY_OLD_PATH)
        )
        (seen if found else unseen).add(directory)
    return seen
