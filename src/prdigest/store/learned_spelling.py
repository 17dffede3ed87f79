"""How a repository's landed titles write words and names, learned once per store and
repository in a run (many windows, one read) and cut at a window's end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..timeutil import Window, to_iso
from .landed_history import LandedHistory

if TYPE_CHECKING:
    from ..reading.spelling import Spelling, TitleWords


class LearnedSpelling(LandedHistory):
    def title_spelling(self, repo: str, window: Window | None = None) -> Spelling:
        """How the repository's titles, up to the window's end (all of them without one),
        write words and names."""
        from ..reading import spelling  # loaded when a digest first needs it: not at start-up

        fingerprint = self.titles_fingerprint(repo)  # says when the store changed under it
        cached: tuple[tuple[int, int, int], TitleWords] | None = self.derived.get(("titles", repo))
        if cached is None or cached[0] != fingerprint:
            cached = (fingerprint, spelling.TitleWords(self.landed_titles(repo)))
            self.derived[("titles", repo)] = cached
        return cached[1].spelling(before=None if window is None else to_iso(window.end))
