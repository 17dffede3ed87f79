"""The digest's plan, made from the window's briefs: what leads Key Takeaways, how the
told changes group, which PRs each bullet tells and which are counted but not told.

- **Lead**: every release of the window, then the strongest user-facing changes (a break
  or a deprecation weighs a little more: users must act on it), one per series, at most
  `LEAD_SIZE` in all. A change reverted in the
  window, and a revert, never lead and are never told as news.
- **Grouping by meaning**: a week of up to `KIND_WEEK` PRs groups by kind of change
  (breaking, new, improved, faster, fixed), a larger one by component, sections ordered by
  the importance of what they tell, not by how many PRs they hold.
- **Selection**: the told changes are the most notable user-facing ones, within a
  budget of words that grows with the window (`word_budget`): a week of 10 PRs is read in a
  minute. A series, or PRs of one subject in one section, is one bullet. Breaking changes
  and deprecations are always told.
- **What is not told** is counted in the closing line, by what it is (tests, CI, docs,
  dependency updates, other changes), never listed.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .. import kinds
from ..models import PullRequest
from ..reading.file_roles import FileRole, file_role
from .brief_types import AnnouncementKind, Brief, Status
from .english import verb_base
from .statements import content_words

LEAD_SIZE = 3
MAX_THEME = 4  # changes one bullet tells of one author's effort
KIND_WEEK = 60  # PRs: up to this, sections by kind of change; beyond, by component


class Grouping(StrEnum):
    KINDS = "kinds"
    COMPONENTS = "components"


class SectionKind(StrEnum):
    """The sections of a week grouped by kind of change, in their order."""

    RELEASES = "releases"
    BREAKING = "breaking"
    DEPRECATIONS = "deprecations"
    NEW = "new"
    IMPROVED = "improved"
    FASTER = "faster"
    FIXED = "fixed"
    DOCS = "docs"
    COMPONENT = "component"  # a component's section, in a week grouped by component
    OTHER = "other"  # the told changes of components with one each


HEADINGS: dict[SectionKind, str] = {
    SectionKind.RELEASES: "Releases",
    SectionKind.BREAKING: "Breaking changes",
    SectionKind.DEPRECATIONS: "Deprecations",
    SectionKind.NEW: "New features",
    SectionKind.IMPROVED: "Improvements",
    SectionKind.FASTER: "Performance",
    SectionKind.FIXED: "Bug fixes",
    SectionKind.DOCS: "Documentation",
    SectionKind.OTHER: "Other changes",
}
_BY_KIND: dict[str, SectionKind] = {
    kinds.BC_BREAKING: SectionKind.BREAKING,
    kinds.DEPRECATION: SectionKind.DEPRECATIONS,
    kinds.NEW_FEATURES: SectionKind.NEW,
    kinds.IMPROVEMENTS: SectionKind.IMPROVED,
    kinds.PERFORMANCE: SectionKind.FASTER,
    kinds.BUG_FIXES: SectionKind.FIXED,
    kinds.DOCS: SectionKind.DOCS,
    kinds.DEVS: SectionKind.IMPROVED,
    kinds.NOT_USER_FACING: SectionKind.IMPROVED,
}
_ORDER = tuple(SectionKind)


class Untold(StrEnum):
    """What the changes not told are, for the closing line."""

    TESTS = "tests"
    CI = "CI and build"
    DOCS = "docs"
    DEPENDENCIES = "dependency updates"
    REVERTS = "reverts"
    OTHER = "smaller changes"


_BUMP = re.compile(
    r"(?i)^(?:\S+\(deps[^)]*\):\s*|\[?deps?\]?:?\s*)?(?:bump|update|upgrade|pin)s?\s+\S+.*\bfrom\s+\S+\s+to\s+\S+"
    r"|^(?:chore|build)\(deps[^)]*\)|\bdependabot\b|^update (?:\S+ )?dependencies|lock ?file"
)
_BUILD_ROLES = frozenset({FileRole.CI, FileRole.BUILD, FileRole.TOOL})


def untold_kind(pr: PullRequest) -> Untold:
    """What a PR is, should the digest not tell it: a dependency update, tests, CI and
    build, docs, or another change."""
    roles = {file_role(f.path) for f in pr.files}
    if _BUMP.search(pr.title):
        return Untold.DEPENDENCIES
    if roles and roles <= {FileRole.TEST, FileRole.BENCH}:
        return Untold.TESTS
    if roles and roles <= _BUILD_ROLES | {FileRole.TEST}:
        return Untold.CI
    if roles and roles <= {FileRole.DOCS, FileRole.EXAMPLE}:
        return Untold.DOCS
    return Untold.OTHER


@dataclass(frozen=True, slots=True)
class Entry:
    """A bullet: the PRs it tells (the first leads it) under one name."""

    name: str
    prs: tuple[int, ...]
    series: bool = False
    cited_with: tuple[int, ...] = ()  # PRs of the same change, cited beside the lead


@dataclass(frozen=True, slots=True)
class PlannedSection:
    heading: str
    kind: SectionKind
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class DigestPlan:
    grouping: Grouping
    lead: tuple[int, ...]
    sections: tuple[PlannedSection, ...]
    untold: tuple[tuple[Untold, tuple[int, ...]], ...]  # what is counted, not told
    top_components: tuple[str, ...]  # where most of the window's work went

    @property
    def told(self) -> tuple[int, ...]:
        return tuple(n for s in self.sections for e in s.entries for n in (*e.prs, *e.cited_with))


# words a digest may spend, by the PRs of its window: under the readers' limits (250 for a
# week of 20 PRs, 450 for 171, 700 for 545), with room for what is not a bullet
_WORDS = ((1, 80), (10, 185), (20, 225), (171, 405), (545, 630))
OVERHEAD = 75  # Key Takeaways, the closing line and the title


def word_budget(prs: int) -> int:
    """The words a window of `prs` PRs is told in (interpolated on the log of its size)."""
    if prs <= 0:
        return 0
    points = [(math.log(n), w) for n, w in _WORDS]
    x = math.log(prs)
    if x >= points[-1][0]:
        return points[-1][1]
    for (x0, w0), (x1, w1) in zip(points, points[1:], strict=False):
        if x <= x1:
            return round(w0 + (w1 - w0) * (x - x0) / (x1 - x0))
    return points[0][1]


def _words(b: Brief) -> int:
    """What telling a brief costs: its sentences, its name and its citation."""
    return len(b.what.split()) + len(b.why.split()) + (2 if b.subject else 0) + 2


def plan_digest(
    briefs: Mapping[int, Brief],
    untold_kind: Mapping[int, Untold],
    series_of: Mapping[int, str] | None = None,
) -> DigestPlan:
    """The plan of a window's digest. `untold_kind`: what each PR is, should it not be
    told (tests, CI, docs, …); `series_of`: the series key of each PR in one."""
    series_of = series_of or {}
    order = sorted(briefs.values(), key=lambda b: (-_weight(b), b.number))
    news = [b for b in order if b.news]
    lead = _lead(news, series_of)
    reverted = sum(b.status is Status.REVERT for b in briefs.values())
    budget = word_budget(len(briefs)) - OVERHEAD - 15 * min(reverted, 3)
    grouping = Grouping.KINDS if len(briefs) <= KIND_WEEK else Grouping.COMPONENTS
    top = _top_components(briefs)
    entries = _entries(news, series_of, budget, _anchors(news, briefs, top))
    sections = _sections(entries, briefs, grouping)
    if not sections:  # nothing users see: the project's own work that mattered most
        work = _entries(news, series_of, budget // 2, tellable=lambda b: not b.chore)
        sections = (PlannedSection(PROJECT_WORK, SectionKind.OTHER, tuple(_merged(work))),)
        sections = sections if work else ()
    told = {n for s in sections for e in s.entries for n in (*e.prs, *e.cited_with)}
    untold: dict[Untold, list[int]] = defaultdict(list)
    for b in sorted(briefs.values(), key=lambda b: b.number):
        if b.number not in told:
            kind = Untold.REVERTS if b.status in (Status.REVERT, Status.REVERTED) else None
            untold[kind or untold_kind.get(b.number, Untold.OTHER)].append(b.number)
    return DigestPlan(
        grouping=grouping,
        lead=lead,
        sections=sections,
        untold=tuple((k, tuple(untold[k])) for k in Untold if untold.get(k)),
        top_components=tuple(component_name(c) for c in top),
    )


BIG_COMPONENT = 5  # PRs: a component this busy has its news told


def _top_components(briefs: Mapping[int, Brief]) -> list[str]:
    """Where most of the window's user-facing work went: by PRs, then by their substance
    (never by name nor landing order). "Other" is where the rules put what they could not
    place: no place the work went."""
    count: Counter[str] = Counter()
    weight: dict[str, float] = defaultdict(float)
    for b in briefs.values():
        if b.user_facing and b.component not in ("", "Other"):
            count[b.component] += 1
            weight[b.component] += max(0.0, b.score)
    return sorted(count, key=lambda c: (-count[c], -round(weight[c], 6), c))[:3]


def _anchors(news: Sequence[Brief], briefs: Mapping[int, Brief], top: Sequence[str]) -> set[int]:
    """The strongest tellable change of each component Key Takeaways names, and of each
    component with BIG_COMPONENT PRs or more: told even past the budget, by a third at most."""
    sizes = Counter(b.component for b in briefs.values() if b.component not in ("", "Other"))
    wanted = set(top) | {c for c, n in sizes.items() if n >= BIG_COMPONENT}
    out: dict[str, int] = {}
    for b in news:  # strongest first
        if b.component in wanted and _may_lead(b):
            out.setdefault(b.component, b.number)
    return set(out.values())


def _weight(b: Brief) -> float:
    """How strongly a brief asks to be told: its notability, and more for what users must
    act on (a release, a break, a deprecation) or can use (new public names)."""
    weight = b.score
    if b.release:
        weight += 20.0
    if b.announced in (AnnouncementKind.BREAKING, AnnouncementKind.DEPRECATION):
        weight += 8.0
    if b.surface.added and b.user_facing:
        weight += 1.0
    if b.why:
        weight += 0.5  # a change that says why reads as news, not a title
    if b.figures:
        weight += 2.0  # a measured result is what readers quote
    if not b.user_facing and not b.release:
        weight -= 6.0
    return weight


def _lead(news: Sequence[Brief], series_of: Mapping[int, str]) -> tuple[int, ...]:
    """Every release, then the strongest user-facing changes. A break or a deprecation
    weighs a little more than its notability (users must act on it; a deprecation, whose
    notability counts less, as much as a break), but a raised floor or a removed flag does
    not outrank the week's biggest feature: its notability already counts the break."""
    versions: dict[str, Brief] = {}
    for b in news:
        if b.release:
            versions.setdefault(b.release, b)  # one release is one news
    releases = [b.number for b in versions.values()]
    rest = sorted(
        (b for b in news if not b.release and _may_lead(b)),
        key=lambda b: (-(b.score + _LEAD_BONUS.get(b.announced, 0.0)), b.number),
    )
    told: set[str] = set()
    picked: list[int] = []
    for b in rest:  # a series is one news: its strongest part leads, the others do not
        key = series_of.get(b.number, "")
        if key and key in told:
            continue
        if key:
            told.add(key)
        picked.append(b.number)
    # the project's own versions (`0.12.4`, `0.12.5`) are told as one news, one slot
    slots = len({b.released_package for b in versions.values()})
    return tuple(releases + picked[: max(LEAD_SIZE - slots, 0)])


_LEAD_BONUS = {AnnouncementKind.BREAKING: 1.0, AnnouncementKind.DEPRECATION: 2.0}
# what a change says of itself that makes it the project's housekeeping, not users' news:
# CI and test plumbing, or a package of helpers for the project's own code
_HOUSEKEEPING = re.compile(
    r"(?i)\b(?:ci|test(?:s|ing)?|lint\w*|typing|benchmarks?|for doc|for docs|assertions?|"
    r"toolchains?)\b|"
    r"^(?:refactors?|simplifies|restructures|reorganizes|starts? using|cleans? up)\b|"
    r"[\w-]*(?:utils|helpers|internal|support|common)[\w-]*`? (?:crate|package|module|library)"
)


def _may_lead(b: Brief) -> bool:
    """Whether Key Takeaways may name it: users see it (or it announces something), and
    it does not call itself housekeeping."""
    if b.announced in (AnnouncementKind.BREAKING, AnnouncementKind.DEPRECATION):
        return True
    return b.user_facing and not b.chore and not _HOUSEKEEPING.search(f"{b.subject} {b.what}")


def _entries(
    news: Sequence[Brief],
    series_of: Mapping[int, str],
    budget: int,
    anchors: set[int] | frozenset[int] = frozenset(),
    tellable: Callable[[Brief], bool] = lambda b: _may_lead(b),
) -> list[Entry]:
    """The bullets: the strongest changes first, a series as one bullet, while the words
    last (`budget`); every release, break and deprecation whatever the budget; of the
    rest, what is `tellable` (users see it, by default)."""
    out: list[Entry] = []
    spent = 0
    taken: set[int] = set()
    spread = Counter(w for b in news for w in _topic_words(b))
    common = frozenset(w for w, n in spread.items() if n > max(3, len(news) // 8))
    by_series: dict[str, list[Brief]] = defaultdict(list)
    for b in news:
        key = series_of.get(b.number, "")
        if key:
            by_series[key].append(b)
    for b in news:
        if b.number in taken:
            continue
        must = b.release or b.announced in (AnnouncementKind.BREAKING, AnnouncementKind.DEPRECATION)
        # a busy component's strongest change may stretch the words by a third, no more
        stretch = 1.35 * budget if b.number in anchors else budget
        if spent + _words(b) > stretch and not must:
            continue
        if not must and not tellable(b):
            continue  # housekeeping is counted at the end, never told
        if b.release:  # one release in several PRs (its changelog, its version bump)
            same = [m for m in news if m.release == b.release and m.number not in taken]
            out.append(Entry("", (b.number,), cited_with=tuple(m.number for m in same[1:])))
            taken.update(m.number for m in same)
            spent += _words(b)
            continue
        # a break or a deprecation is told alone: the series' other parts are not what breaks
        key = series_of.get(b.number, "")
        members = (
            [m for m in by_series.get(key, [b]) if m.number not in taken]
            if key and not must
            else [b]
        )
        series = len(members) > 1
        if not series and not must:
            members = [b, *_theme_of(b, news, taken, common)]
            while len(members) > 1 and spent + sum(_words(m) for m in members) > budget:
                members.pop()  # a theme tells what the words allow; the rest is counted
        # a series goes by its own name ("docs update") when its parts name no one subject
        name = _shared_subject(members) or (members[0].series if series else "")
        out.append(Entry(name, tuple(m.number for m in members), series))
        taken.update(m.number for m in members)
        spent += _words(b) if series else sum(_words(m) for m in members)
    return out


def _theme_of(
    lead: Brief, news: Sequence[Brief], taken: set[int], common: frozenset[str]
) -> list[Brief]:
    """The other changes one author made to the same component this week that speak of
    the same thing as `lead` (a word of their what besides its verb, and not one the
    week's changes share widely, like "command"): one effort, told in one bullet."""
    words = _topic_words(lead) - common
    if not words:
        return []
    return [
        b
        for b in news
        if b.number != lead.number
        and b.number not in taken
        and b.author == lead.author
        and b.component == lead.component
        and _may_lead(b)
        and not b.release
        and b.announced not in (AnnouncementKind.BREAKING, AnnouncementKind.DEPRECATION)
        and words & _topic_words(b)
    ][: MAX_THEME - 1]


def _shared_subject(members: Sequence[Brief]) -> str:
    """The name a bullet of these changes goes by: the subject they all have, or none."""
    subjects = {m.subject.lower().strip("`") for m in members}
    return members[0].subject if len(subjects) == 1 else ""


def _topic_words(b: Brief) -> set[str]:
    return {w for w in content_words(f"{b.subject} {b.what}") if not verb_base(w)}


def _sections(
    entries: Sequence[Entry], briefs: Mapping[int, Brief], grouping: Grouping
) -> tuple[PlannedSection, ...]:
    groups: dict[tuple[SectionKind, str], list[Entry]] = defaultdict(list)
    for entry in entries:
        lead = briefs[entry.prs[0]]
        # what users must act on is called out first in any week: releases, breaks,
        # deprecations have sections of their own whatever the grouping
        kind = _section_kind(lead)
        if grouping is Grouping.KINDS or kind in _CALLED_OUT:
            key = (kind, "")
        else:
            key = (SectionKind.COMPONENT, lead.component)
        groups[key].append(entry)
    if grouping is Grouping.COMPONENTS:
        groups = _fold_singles(groups)
    rank = {key: i for i, key in enumerate(groups)}  # first told = most important
    keys = sorted(
        groups,
        key=lambda k: (_ORDER.index(k[0]) if k[0] is not SectionKind.COMPONENT else 3.5, rank[k]),
    )
    if grouping is Grouping.COMPONENTS:
        keys = sorted(
            keys,
            key=lambda k: (
                k[0] is SectionKind.OTHER,
                _ORDER.index(k[0]) if k[0] in _CALLED_OUT else 9,
                rank[k],
            ),
        )
    return tuple(
        PlannedSection(
            component_name(component) or HEADINGS[kind],
            kind,
            tuple(_merged(groups[(kind, component)], whole=kind in _CALLED_OUT)),
        )
        for kind, component in keys
    )


# the heading of a week in which nothing users see landed: what the project did for itself
PROJECT_WORK = "The project's own work"
_CALLED_OUT = frozenset({SectionKind.RELEASES, SectionKind.BREAKING, SectionKind.DEPRECATIONS})


def component_name(component: str) -> str:
    """A component as a reader names it: a family's member without the family (`Extra:
    Hcq2` → Hcq2, `Backends: Arm` → Arm)."""
    return component.rsplit(": ", 1)[-1]


def _section_kind(b: Brief) -> SectionKind:
    if b.release:
        return SectionKind.RELEASES
    if b.announced is AnnouncementKind.BREAKING:
        return SectionKind.BREAKING
    if b.announced is AnnouncementKind.DEPRECATION:
        return SectionKind.DEPRECATIONS
    return _BY_KIND.get(b.kind, SectionKind.IMPROVED)


def _fold_singles(
    groups: dict[tuple[SectionKind, str], list[Entry]],
) -> dict[tuple[SectionKind, str], list[Entry]]:
    """A component with one told change is no section: such changes share one, last."""
    out: dict[tuple[SectionKind, str], list[Entry]] = {}
    other: list[Entry] = []
    for key, entries in groups.items():
        if key[0] is SectionKind.COMPONENT and sum(len(e.prs) for e in entries) < 2:
            other.extend(entries)
        else:
            out[key] = entries
    if other:
        out[(SectionKind.OTHER, "")] = other
    return out


def _merged(entries: Sequence[Entry], *, whole: bool = False) -> list[Entry]:
    """Entries of one section under one name become one bullet, its sub-bullets the first
    MAX_THEME of them (the rest are counted, not told); in a section of what users must act
    on (`whole`: releases, breaks, deprecations), every one of them."""
    by_name: dict[str, list[Entry]] = {}
    for entry in entries:
        key = entry.name.lower().strip("`") if entry.name else f"#{entry.prs[0]}"
        by_name.setdefault(key, []).append(entry)
    out: list[Entry] = []
    for group in by_name.values():
        if len(group) == 1:
            out.append(group[0])
        else:
            numbers = [n for e in group for n in e.prs][: None if whole else MAX_THEME]
            out.append(Entry(group[0].name, tuple(numbers), False))
    return out
