"""What the store knows from before the window: facts a window alone cannot tell (was this
directory there before? who landed something before? how far back does the stored history
reach?). The pipeline fills a `History` from the store; the analysis only reads it (it
never imports the store)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from ..reading.spelling import Spelling
from .people import People


@dataclass(frozen=True, kw_only=True)
class History:
    """Facts from before the window. Each field has a default: a caller that knows
    nothing of the history still gets a digest (everyone is new, nothing is known).

    `known_dirs`: directories a landed PR before the window touched (a path, or a
    rename's old path, under them). A set need only hold the directories the window's
    paths lie under; a callable answers for any directory.
    `first_landed`: the oldest landed PR before the window (None: no history at all).
    `people`: who the window's authors are across addresses, and who landed before.
    `spelling`: how the repository's titles (up to the window's end) write words and names.
    `ambiguous_shas`: abbreviated shas the window's reverts name that start two or more
    commits of the history (`reading.pair_all`): no evidence of a target.
    `known_since`: where the stored history begins when it was synced from a date on
    (`sync --since`), so "first-time" means first since then; None: all of it is stored.
    """

    known_dirs: Callable[[str], bool] | frozenset[str] = frozenset()
    first_landed: datetime | None = None
    people: People = field(default_factory=People)
    spelling: Spelling = field(default_factory=Spelling)
    ambiguous_shas: frozenset[str] = frozenset()
    known_since: datetime | None = None

    def knows_dir(self, directory: str) -> bool:
        if callable(self.known_dirs):
            return self.known_dirs(directory)
        return directory in self.known_dirs


def ancestor_dirs(paths: Iterable[str]) -> set[str]:
    """Every directory the paths lie under (`a/b/c.py` → `a`, `a/b`); the root is none."""
    dirs: set[str] = set()
    for path in paths:
        parts = path.split("/")[:-1]
        for depth in range(len(parts), 0, -1):
            directory = "/".join(parts[:depth])
            if directory in dirs:
                break  # its ancestors are in already
            dirs.add(directory)
    return dirs
