"""How a repository's landed titles write words and names, learned once per store and
repository in a run (many windows, one read) and cut at a window's end."""

from __future__ import annotations

from ..reading.spelling import Spelling, TitleWords
from ..timeutil import Window, to_iso
from .landed_history import landed_titles, titles_fingerprint
from .store import Store


def title_spelling(store: Store, repo: str, window: Window | None = None) -> Spelling:
    """How the repository's titles, up to the window's end (all of them without one),
    write words and names."""
    fingerprint = titles_fingerprint(store, repo)  # says when the store changed under it
    cached: tuple[tuple[int, int, int], TitleWords] | None = store.derived.get(("titles", repo))
    if cached is None or cached[0] != fingerprint:
        cached = (fingerprint, TitleWords(landed_titles(store, repo)))
        store.derived[("titles", repo)] = cached
    return cached[1].spelling(before=None if window is None else to_iso(window.end))
