"""Entries told together when they are one change made several times, as PyTorch's
notes tell them: a Backwards Incompatible change "Removed v1 of A, B and C" with the
PRs of each, instead of three headings that differ in one name; a bullet "Added
`parameter_name` support to A, B, C and D (#1, #2, #3, #4)" instead of four.

Entries are one change when their sentences open with the same words, enough of them
carrying meaning (two for a breaking change, `Deleted deprecated …`, `Removed v1 of …`,
never a bare `Removed the …`; three for other entries, where `Added support for …`
opens unrelated features), and differ only in what follows; a shared ending (`… in pt2e
quantization`) is said once.
"""

from __future__ import annotations

from collections.abc import Sequence

from .release_context import Entry, EntryPart

# Words that carry no meaning of their own: a shared opening of only these and one verb
# ("Removed the") says nothing the entries have in common.
_FILLER = frozenset(
    "a an the of for to in on and or with from by at as its their this that all some".split()
)
_BREAKING_OPENING = 2  # words of a shared opening, not filler, that make one change
_ENTRY_OPENING = 3
_NAMED = 3  # parts a heading names; the rest are "and N more" (each has its own line)
_NAMED_IN_BULLET = 5  # a bullet has no lines below it: it names more


def group_breaking(entries: Sequence[Entry]) -> list[Entry]:
    """The Backwards Incompatible entries in order; where several make one change, one
    entry with `parts` (each with its own label, links and details) in place of the
    first."""
    told: list[Entry] = []
    for group in _groups(entries, _BREAKING_OPENING):
        if len(group) < 2:
            told.append(group[0])
            continue
        text, middles = _told_once([e.text.split() for e in group], _NAMED)
        parts = tuple(
            EntryPart(middle, e.links, e.details) for middle, e in zip(middles, group, strict=True)
        )
        links = tuple(link for e in group for link in e.links)
        told.append(Entry(text, "", links, None, parts))
    return told


def entry_opening(sentence: str) -> str:
    """The opening by which entries are one change made several times (`added
    `parameter_name` support to`), lowercased; '' when the sentence has none."""
    return " ".join(_opening(sentence.split(), _ENTRY_OPENING)).lower()


def told_together(sentences: Sequence[str]) -> str:
    """One bullet's sentence for entries that open alike: `Added `parameter_name` support
    to A, B, C and D`; the first sentence when they do not."""
    words = [s.split() for s in dict.fromkeys(sentences)]  # a number landed twice: once
    opening = _opening(words[0], _ENTRY_OPENING)
    if len(words) < 2 or not opening or not all(_opens_with(w, opening) for w in words):
        return sentences[0]
    bare = [[w.lower().rstrip(".,;:") for w in s] for s in words]
    if any(a[: len(b)] == b for a in bare for b in bare if a is not b):
        return sentences[0]  # `Added X` and `Added X. Bringing …`: one change, told once
    return _told_once(words, _NAMED_IN_BULLET)[0]


def _groups(bullets: Sequence[Entry], meaningful: int) -> list[list[Entry]]:
    """The entries in groups, in order of each group's first; alone, a group of one."""
    words = [b.text.split() for b in bullets]
    taken: set[int] = set()
    groups: list[list[Entry]] = []
    for i in range(len(bullets)):
        if i in taken:
            continue
        opening = _opening(words[i], meaningful)
        members = [
            j
            for j in range(i, len(bullets))
            if j not in taken and opening and _opens_with(words[j], opening)
        ]
        members = members or [i]
        taken.update(members)
        groups.append([bullets[j] for j in members])
    return groups


def _opening(words: list[str], meaningful: int) -> list[str]:
    """The shortest opening with `meaningful` words that are not filler, with the filler
    that follows (`Removed v1 of`: "for A" and "to B" are no one change), and at least
    one word after it."""
    seen = 0
    for n, word in enumerate(words[:-1], start=1):
        seen += word.lower().strip("`") not in _FILLER
        if seen >= meaningful:
            while n < len(words) - 1 and words[n].lower() in _FILLER:
                n += 1
            return words[:n]
    return []


def _opens_with(words: list[str], opening: list[str]) -> bool:
    return len(words) > len(opening) and [w.lower() for w in words[: len(opening)]] == [
        w.lower() for w in opening
    ]


def _told_once(words: list[list[str]], named: int) -> tuple[str, list[str]]:
    """One sentence for sentences that differ in their middles (`Removed v1 of A, B and
    C`), naming up to `named` of them; and each one's middle."""
    start = _shared_length(words)
    end = _shared_length([list(reversed(w[start:])) for w in words])
    middles = [" ".join(w[start : len(w) - end]) for w in words]
    head = " ".join(words[0][:start])
    tail = " ".join(words[0][len(words[0]) - end :]) if end else ""
    shown = middles[:named] + ([f"{len(middles) - named} more"] if len(middles) > named else [])
    return f"{head} {_joined(shown)}" + (f" {tail}" if tail else ""), middles


def _shared_length(words: list[list[str]]) -> int:
    """How many leading words all share (case aside), leaving each at least one of its own."""
    n = 0
    shortest = min(len(w) for w in words)
    while n < shortest - 1 and len({w[n].lower() for w in words}) == 1:
        n += 1
    return n


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
