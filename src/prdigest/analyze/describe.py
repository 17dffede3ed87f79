"""One sentence for a theme, from the titles of its PRs: the most representative title as
a clause (`Add X` → "Adds X"), joined with a second, distinct one; titles that differ in one
word become one sentence listing that word's values; a series says it is one.
"""

from __future__ import annotations

from ..reading import strip_part_markers
from .english import as_clause, is_verb, number_word, sentence_case
from .groups import Candidate
from .items import Item, stated_series
from .naming import WORDS
from .stated_action import what_it_does


def _lower_first_verb(clause: str) -> str:
    first = clause.split(" ", 1)[0]
    base = first.lower()
    if base.endswith(("s", "es")) and (
        is_verb(base[:-1]) or is_verb(base[:-2]) or is_verb(base[:-3] + "y")
    ):
        return base + clause[len(first) :]
    return clause


def _overlap(a: Item, b: Item) -> float:
    if not a.terms or not b.terms:
        return 0.0
    return len(a.terms & b.terms) / len(a.terms | b.terms)


def slot_merge(rep: Item, members: list[Item]) -> tuple[str, list[Item]] | None:
    """Titles that differ in one word (`Add 16A8W support for mul` / `… for add`) become one
    sentence listing that word's values."""
    words = WORDS.findall(strip_part_markers(rep.clean.text))
    if len(members) < 2 or len(words) < 3:
        return None
    slot: int | None = None
    values: list[str] = [words[0]]
    used: list[Item] = [rep]
    for m in members:
        if m is rep:
            continue
        other = WORDS.findall(strip_part_markers(m.clean.text))
        if len(other) != len(words):
            continue
        diff = [
            i for i, (x, y) in enumerate(zip(words, other, strict=True)) if x.lower() != y.lower()
        ]
        if len(diff) != 1 or (slot is not None and diff[0] != slot):
            continue
        slot = diff[0]
        values.append(other[slot])
        used.append(m)
    if slot is None or len(used) < 2:
        return None
    values[0] = words[slot]
    listed = values[:3]
    rest = len(values) - len(listed)
    listing = (
        ", ".join(listed[:-1]) + " and " + listed[-1]
        if not rest
        else ", ".join(listed) + f" and {rest} more"
    )
    text = " ".join(words[:slot] + [listing] + words[slot + 1 :])
    return text, used[:2]


def describe(
    cand: Candidate, members: list[Item], ranked: list[Item], phrase: str
) -> tuple[str, list[Item]]:
    """One sentence from the most representative title(s); returns it and the PRs it quotes."""
    rep = ranked[0]
    if cand.kind == "series":
        n = len(members)
        base = (
            stated_series(members)  # the name its titles give it: no one part speaks for all
            or (
                phrase
                if phrase and is_verb(phrase.split()[0]) and len(phrase.split()) >= 3
                else strip_part_markers(rep.clean.text)
            )
        )
        clause = _lower_first_verb(as_clause(base))
        if clause == base:  # not verb-led: say what the series is about
            clause = f"on {base}"
        # the sentence speaks of every part: a line telling it cites them all
        return f"A {number_word(n)}-part series {clause}.", list(members[:8])
    merged = slot_merge(rep, members)
    if merged:
        text, used = merged
        return f"{sentence_case(as_clause(text))}.", used
    first = sentence_case(what_it_does(rep.pr, rep.clean.text))
    if len(ranked) == 1:
        return f"{first}.", [rep]
    other = min(ranked[1:4], key=lambda m: (_overlap(rep, m), ranked.index(m)))
    second = _lower_first_verb(what_it_does(other.pr, other.clean.text))
    joiner = ", and " if second != other.clean.text else "; "
    if len(first) + len(second) <= 170:
        return f"{first}{joiner}{second}.", [rep, other]
    return f"{first}.", [rep]
