"""Themes inside an area: candidate groups (`groups`) scored and picked greedily, each PR
in at most one theme, then named and described (`naming`). Single notable PRs fill the
remaining slots.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..reading import Groups, defined_names, stack_groups, strip_part_markers, used_names
from ..reading.spelling import Spelling
from .describe import describe, slot_merge
from .english import sentence_case
from .groups import (
    MIN_SIZE,
    Candidate,
    area_words,
    find_candidates,
    mentions_area,
    names_area,
)  # fmt: skip
from .items import Item
from .name_choice import (
    choose_name,
    is_generic,
    qualified,
    restates,
    tidy_name,
    without_name,
)  # fmt: skip
from .naming import HAND_KEPT, common_phrase, other_names, theme_name
from .stated_action import what_it_does
from .substance import is_chore

_MAX_CITED = 3
_SERIES_CITED = 8  # a series cites all its parts, up to this many


@dataclass
class Theme:
    name: str  # '' for a single PR: its sentence stands alone
    topic: str  # a short noun phrase for tables and summaries: the name, or the PR's
    kind: str  # series | tag | term | path | single
    members: list[Item]
    cited: list[Item]
    sentence: str
    figures: list[tuple[str, int]]
    points: list[tuple[str, int]]  # (one sentence, its PR) when the theme holds distinct changes
    quoted: list[Item]  # the PRs its sentence is made from: what a line citing it must cite

    @property
    def series(self) -> bool:
        return self.kind == "series"

    @property
    def weight(self) -> float:
        return sum(m.score for m in self.members)


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
    """The PRs of `pool` joined where they say they are one effort: a ghstack list or a
    stated continuation ("follow-up to #N"), or one author's titles with part markers
    naming the same series. Shared title words, authors or files are no evidence."""
    roots = stack_groups([it.number for it in pool], [it.stack for it in pool])
    groups = Groups(len(pool))
    for i, root in enumerate(roots):
        groups.join(i, root)
    marked: dict[tuple[str, str], int] = {}
    for i, it in enumerate(pool):
        if it.series:
            first = marked.setdefault((it.pr.author_email or it.pr.author_name, it.series), i)
            groups.join(i, first)
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


def theme_limit(count: int, internal: int = 0) -> int:
    """Themes an area of `count` PRs tells; one when `internal` of them (tests, CI, docs,
    build) are most of it: a reader skims plumbing, it is no week's news."""
    if count >= 3 and internal * 3 >= count * 2:
        return 1
    if count >= 25:
        return 4
    if count >= 12:
        return 3
    if count >= 3:
        return 2
    return 1


def area_themes(
    items: Sequence[Item],
    idf: dict[str, float],
    limit: int,
    area: str = "",
    spelling: Spelling = HAND_KEPT,
    told: Collection[int] = (),
    keep: Collection[int] = (),
) -> list[Theme]:
    """Up to `limit` themes for one area's PRs, named with the repository's `spelling`.
    Reverts, relands and reverted PRs are no highlight: the digest reports them apart; nor
    are the PRs (by `id`) in `told`, which the digest tells as news. A PR to `keep` (by
    `id`: a thousand lines of library code, a stated result) no theme holds is told on its
    own past the limit: the week's biggest changes and its measured results are never an
    "Also: N more PRs"."""
    pool = [
        it
        for it in items
        if not (it.is_revert or it.reverted or it.is_reland) and id(it) not in told
    ]
    if not pool or limit <= 0:
        return []
    candidates = find_candidates(pool, idf, area_words(area))
    free = set(range(len(pool)))
    themes: list[Theme] = []
    while len(themes) < limit and candidates:
        best: tuple[float, str, Candidate, list[int]] | None = None
        for cand in candidates:
            members = sorted(cand.members & free)
            if len(members) < MIN_SIZE[cand.kind]:
                continue
            score = _score(cand, [pool[i] for i in members])
            key = (score, cand.key)
            if best is None or key > (best[0], best[1]):
                best = (score, cand.key, cand, members)
        if best is None:
            break
        _, _, cand, members = best
        chosen = [pool[i] for i in members]
        themes.append(_make_theme(cand, chosen, idf, area, spelling, keep))
        free -= set(members)
    singles = sorted((pool[i] for i in free), key=lambda it: (-it.score, it.number or 0))
    room = max(0, limit - len(themes))
    for position, item in enumerate(singles):
        if position < room or id(item) in keep:
            single = Candidate("single", "", "", frozenset(), 1.0)
            themes.append(_make_theme(single, [item], idf, area, spelling))
    # A theme of formatting or lint is told, but never before the area's substance: a
    # four-part series that formats code does not open a section.
    return sorted(themes, key=lambda theme: all(is_chore(m.pr.title) for m in theme.members))


def _score(cand: Candidate, members: list[Item]) -> float:
    n = len(members)
    evidence = 2.0 if any(m.claims for m in members) else 0.0
    if cand.kind == "series":
        return 12.0 + 3.0 * n + evidence
    if cand.kind == "tag":
        return 5.0 + 1.5 * n + evidence
    if cand.kind == "template":
        return 7.0 + 2.0 * n + evidence
    if cand.kind in ("term", "symbol"):
        return n * cand.strength + evidence
    return n * (1.0 + 0.3 * cand.strength) + evidence


def _make_theme(
    cand: Candidate,
    members: list[Item],
    idf: dict[str, float],
    area: str,
    spelling: Spelling,
    keep: Collection[int] = (),
) -> Theme:
    ranked = _representatives(members, idf, keep)
    series = cand.kind == "series"
    if series:
        members = sorted(members, key=lambda m: (m.number or 0, m.pr.sha or ""))
    phrase = common_phrase(members)
    name, ranked, (sentence, used, points) = _named(cand, members, ranked, phrase, area, spelling)
    name = spelling.respell(name)
    cited: list[Item] = list(members[:_SERIES_CITED]) if series else []
    for item in used + [m for m in ranked if m.claims] + ranked:
        if item not in cited and len(cited) < (2 if len(members) > 1 else 1):
            cited.append(item)
    for item in ranked:  # a PR with a stated figure earns the third slot
        if item.claims and item not in cited and len(cited) < _MAX_CITED:
            cited.append(item)
    figures = [(m.claims[0], m.number or 0) for m in cited if m.claims and m.number is not None][:2]
    order = (
        {id(m): i for i, m in enumerate(members)}
        if series
        else {id(m): i for i, m in enumerate(ranked)}
    )
    cited.sort(key=lambda m: order[id(m)])
    topic = name or spelling.respell(
        tidy_name(theme_name(cand, phrase, ranked[0], spelling, members))
    )
    subject = str(ranked[0].extra.get("subject", ""))
    if not name and subject and topic and subject.lower() not in topic.lower():
        topic = f"{topic} for {subject}"  # `ep=1 enablement for mxfp8 moe`: whose it is
    return Theme(
        name=name,
        topic=topic,
        kind=cand.kind,
        members=members,
        cited=cited,
        sentence=sentence,
        figures=figures,
        points=points,
        quoted=used,
    )


Described = tuple[str, list[Item], list[tuple[str, int]]]  # sentence, PRs it quotes, points


def _described(
    cand: Candidate, members: list[Item], ranked: list[Item], phrase: str, area: str
) -> Described:
    """The theme's sentence, the PRs it quotes, and its points when it joins two distinct
    changes (one sub-bullet each); none of them opens with the area's name."""
    sentence, used = describe(cand, members, ranked, phrase)
    points: list[tuple[str, int]] = []
    if (
        len(used) == 2
        and sentence.count(", and ") + sentence.count("; ") >= 1
        and cand.kind != "series"
        and not slot_merge(ranked[0], members)
    ):
        points = [
            (_off_area(f"{sentence_case(what_it_does(m.pr, m.clean.text))}.", area), m.number)
            for m in used
            if m.number is not None
        ]
    return _off_area(sentence, area), used, points


def _named(
    cand: Candidate,
    members: list[Item],
    ranked: list[Item],
    phrase: str,
    area: str,
    spelling: Spelling,
) -> tuple[str, list[Item], Described]:
    """The theme's name, its members in the order its sentence uses them, and what
    `_described` says. A single PR has no name. Else the name is the first option that is
    no lone generic word and that neither the sentence nor its first point opens with.
    When the titles open with every option, the sentence lists what follows the name in
    them (**GA Static:** Gemma3-1B and Smollm3 3B); failing two such titles, another
    member leads the sentence, or the lead's rest alone follows the name; else the theme
    goes without a name."""
    described = _described(cand, members, ranked, phrase, area)
    if cand.kind == "single":
        return "", ranked, described
    first = theme_name(cand, phrase, ranked[0], spelling, members)
    options = [first, qualified(first, area) if is_generic(first) else ""]
    options += other_names(cand, members, ranked[0], phrase, spelling, area)
    # a theme named after its own area (`Cortex-M` in Backends: Cortex-M) says nothing
    options = [o for o in options if not names_area(o.split(" (`")[0], area_words(area))]
    name = choose_name(options, [described[0]] + [text for text, _ in described[2][:1]])
    if name:
        return name, ranked, described
    fallback = next((tidy_name(o) for o in options if tidy_name(o)), "")
    rests = [(m, rest) for m in ranked if (rest := _after_name(fallback, m, area))]
    if len(rests) >= 2:
        return fallback, _led_by([m for m, _ in rests], ranked), _listing(rests)
    for lead in ranked[1:4]:
        order = _led_by([lead], ranked)
        said = _described(cand, members, order, phrase, area)
        name = choose_name(options, [said[0]] + [text for text, _ in said[2][:1]])
        if name:
            return name, order, said
    if rests:
        return fallback, _led_by([rests[0][0]], ranked), _listing(rests)
    if described[2]:  # two distinct changes and no name to hold them: the lead's alone
        alone = _off_area(
            f"{sentence_case(what_it_does(ranked[0].pr, ranked[0].clean.text))}.", area
        )
        return "", ranked, (alone, ranked[:1], [])
    return "", ranked, described


def _after_name(name: str, item: Item, area: str) -> str:
    """What the item's title says after the name it opens with, as written ('' if it
    does not open with it)."""
    title = _off_area(strip_part_markers(item.clean.text), area)
    return without_name(name, title) and " ".join(title.split()[len(name.split()) :])


def _listing(rests: list[tuple[Item, str]]) -> Described:
    """`Gemma3-1B, Smollm3 3B and 2 more.` from the rests of titles after their name."""
    parts = [rest.rstrip(".") for _, rest in rests[:3]]
    more = len(rests) - len(parts)
    if more:
        parts.append(f"{more} more")
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{sentence_case(text)}.", [m for m, _ in rests[:2]], []


def _led_by(leads: list[Item], ranked: list[Item]) -> list[Item]:
    return leads + [m for m in ranked if m not in leads]


def _off_area(sentence: str, area: str) -> str:
    """A sentence does not open with its area's name, which its heading or label already
    says: `Qualcomm AI Engine Direct - GA Whisper.` in Qualcomm → `GA Whisper.`"""
    prefix, dash, rest = sentence.partition(" - ")
    if dash and rest and len(prefix.split()) <= 5 and mentions_area(prefix, area_words(area)):
        return sentence_case(rest)
    owner = area.rsplit(":", 1)[-1].strip()
    if owner and restates(owner, sentence):
        return without_name(owner, sentence) or sentence
    return sentence


def _representatives(
    members: list[Item], idf: dict[str, float], keep: Collection[int] = ()
) -> list[Item]:
    """Members by centrality (idf-weighted terms shared with the others), then evidence;
    a member to `keep` (a big change, a stated result) first: the theme's sentence is made
    from it, and it is never one of "N more PRs on this theme"."""
    counts: Counter[str] = Counter()
    for m in members:
        counts.update(m.terms)

    def centrality(m: Item) -> float:
        return sum(idf.get(t, 1.0) * (counts[t] - 1) for t in m.terms)

    ranked = sorted(
        members, key=lambda m: (-round(centrality(m) + m.score, 6), m.number or 0, m.pr.sha or "")
    )
    # a PR that states a figure leads: the sentence then describes what the figure measures
    with_figure = [m for m in ranked if m.claims]
    kept = sorted((m for m in ranked if id(m) in keep), key=lambda m: -round(m.score, 6))
    leads = with_figure[:1] + [m for m in kept if m not in with_figure[:1]]
    return leads + [m for m in ranked if m not in leads]
