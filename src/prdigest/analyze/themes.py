"""Themes inside an area: candidate groups (`groups`) scored and picked greedily, each PR
in at most one theme, then named and described (`naming`). Single notable PRs fill the
remaining slots.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .english import as_clause, sentence_case
from .groups import MIN_SIZE, Candidate, area_words, find_candidates
from .items import Item
from .naming import HAND_KEPT, common_phrase, describe, slot_merge, theme_name
from .spelling import Spelling

_MAX_CITED = 3


@dataclass
class Theme:
    name: str
    kind: str  # series | tag | term | path | single
    members: list[Item]
    cited: list[Item]
    sentence: str
    figures: list[tuple[str, int]]
    points: list[tuple[str, int]]  # (one sentence, its PR) when the theme holds distinct changes

    @property
    def series(self) -> bool:
        return self.kind == "series"

    @property
    def weight(self) -> float:
        return sum(m.score for m in self.members)


def theme_limit(count: int) -> int:
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
) -> list[Theme]:
    """Up to `limit` themes for one area's PRs, named with the repository's `spelling`.
    Reverts, relands and reverted PRs are no highlight: the digest reports them apart."""
    pool = [it for it in items if not (it.is_revert or it.reverted or it.is_reland)]
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
        themes.append(_make_theme(cand, [pool[i] for i in members], idf, spelling))
        free -= set(members)
    singles = sorted((pool[i] for i in free), key=lambda it: (-it.score, it.number or 0))
    for item in singles[: max(0, limit - len(themes))]:
        single = Candidate("single", "", "", frozenset(), 1.0)
        themes.append(_make_theme(single, [item], idf, spelling))
    return themes


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
    cand: Candidate, members: list[Item], idf: dict[str, float], spelling: Spelling
) -> Theme:
    ranked = _representatives(members, idf)
    rep = ranked[0]
    series = cand.kind == "series"
    if series:
        members = sorted(members, key=lambda m: (m.number or 0, m.pr.sha or ""))
    phrase = common_phrase(members)
    name = spelling.respell(theme_name(cand, phrase, rep, spelling))
    sentence, used = describe(cand, members, ranked, phrase)
    cited: list[Item] = []
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
    points: list[tuple[str, int]] = []
    if (
        len(used) == 2
        and sentence.count(", and ") + sentence.count("; ") >= 1
        and cand.kind != "series"
    ):
        if not slot_merge(ranked[0], members):
            points = [
                (f"{sentence_case(as_clause(m.clean.text))}.", m.number)
                for m in used
                if m.number is not None
            ]
    return Theme(
        name=name,
        kind=cand.kind,
        members=members,
        cited=cited,
        sentence=sentence,
        figures=figures,
        points=points,
    )


def _representatives(members: list[Item], idf: dict[str, float]) -> list[Item]:
    """Members by centrality (idf-weighted terms shared with the others), then evidence."""
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
    return with_figure[:1] + [m for m in ranked if m not in with_figure[:1]]
