"""Series: PRs that say they are one effort (a ghstack stack, a stated continuation, one
author's titles with part markers naming the same series), and where a series whose parts
land in several areas is filed and told. Shared title words, authors or files are no
evidence; one author's PRs that use the functions another of them adds are one effort for
filing, never called a series.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..reading import Groups, defined_names, used_names
from ..reading.series_evidence import series_roots
from .items import Item


def series_homes(items: Sequence[Item]) -> dict[int, str]:
    """Where each cross-area series is told and filed: for every PR (by `id`) of a series
    whose PRs lie in several areas — a stack or stated continuation, one author's titles
    with part markers that are the same once markers and numbers are gone (or that name
    the same series after the marker), or one author's PRs using a function or class
    another of them adds — the area holding most of them (then the area of the PRs that
    use the others', where the effort lands; then most of their lines, then the first by
    name). The series is told once, there, with all its parts."""
    pool = [it for it in items if not (it.is_revert or it.reverted or it.is_reland)]
    groups = series_groups(pool)
    builders = _join_builders(pool, groups)
    by_root: dict[int, list[Item]] = {}
    for i, it in enumerate(pool):
        by_root.setdefault(groups.find(i), []).append(it)
    homes: dict[int, str] = {}
    for members in by_root.values():
        areas = {m.cls.area for m in members}
        if len(members) < 2 or len(areas) < 2:
            continue
        prs = Counter(m.cls.area for m in members)
        wiring = Counter(m.cls.area for m in members if id(m) in builders)
        lines = Counter({a: sum(m.lines for m in members if m.cls.area == a) for a in areas})
        home = min(areas, key=lambda a: (-prs[a], -wiring[a], -lines[a], a))
        for m in members:
            homes[id(m)] = home
    return homes


def series_groups(pool: Sequence[Item]) -> Groups:
    """The PRs of `pool` joined where they say they are one effort (the one reading of
    series evidence, `reading.series_evidence`, that the release notes read too)."""
    groups = Groups(len(pool))
    for i, root in enumerate(series_roots([it.pr for it in pool])):
        groups.join(i, root)
    return groups


def series_keys(items: Sequence[Item]) -> dict[int, str]:
    """For each PR (by number) of a stated series of two or more PRs landed in the window,
    the series' key (its first PR's number)."""
    pool = [it for it in items if it.number is not None and not (it.is_revert or it.reverted)]
    groups = series_groups(pool)
    members: dict[int, list[Item]] = {}
    for i, it in enumerate(pool):
        members.setdefault(groups.find(i), []).append(it)
    return {
        it.number: f"#{group[0].number}"
        for group in members.values()
        if len({m.number for m in group}) > 1
        for it in group
        if it.number is not None
    }


def _join_builders(pool: Sequence[Item], groups: Groups) -> set[int]:
    """Join each PR to the PRs of its author whose functions or classes its diff uses (one
    effort in steps: a kernel, then the PR that wires it in); returns the PRs (by `id`)
    that use another's: where they land says whose effort it is."""
    definers: dict[tuple[str, str], list[int]] = {}
    for i, it in enumerate(pool):
        author = it.pr.author_email or it.pr.author_name
        for name in defined_names(it.pr.files):
            definers.setdefault((author, name), []).append(i)
    builders: set[int] = set()
    if not definers:
        return builders
    for i, it in enumerate(pool):
        author = it.pr.author_email or it.pr.author_name
        for name in used_names(it.pr.files):
            for j in definers.get((author, name), ()):
                if j != i:
                    groups.join(i, j)
                    builders.add(id(it))
    return builders
