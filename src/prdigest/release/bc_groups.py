"""Backwards incompatible changes told together when they are one change made several
times, as PyTorch's notes tell them ("Removed deprecated layouts: A, B and C" with the
PRs of each), instead of six headings that differ in one name.

Entries are one change when their sentences open with the same words, two of them at
least carrying meaning (`Deleted deprecated …`, `Removed v1 of …`; never a bare
`Removed the …`), and differ only in what follows; a shared ending (`… and related
code`) is said once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Words that carry no meaning of their own: a shared opening of only these and one verb
# ("Removed the") says nothing the entries have in common.
_FILLER = frozenset(
    "a an the of for to in on and or with from by at as its their this that all some".split()
)
_MIN_MEANINGFUL = 2  # words of a shared opening that are not filler
_NAMED = 3  # parts a heading names; the rest are "and N more" (each has its own line)


def group_breaking(bullets: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The section's entries in order; where several make one change, one entry with
    `parts` (each with its own `label`, links and details) in place of the first."""
    words = [str(b["text"]).split() for b in bullets]
    taken: set[int] = set()
    entries: list[dict[str, Any]] = []
    for i, bullet in enumerate(bullets):
        if i in taken:
            continue
        opening = _opening(words[i])
        group = [
            j
            for j in range(i, len(bullets))
            if j not in taken and opening and _opens_with(words[j], opening)
        ]
        if len(group) < 2:
            entries.append({**bullet, "parts": []})
            continue
        taken.update(group)
        entries.append(_grouped([bullets[j] for j in group], [words[j] for j in group]))
    return entries


def _opening(words: list[str]) -> list[str]:
    """The shortest opening with two meaningful words, and at least one word after it."""
    meaningful = 0
    for n, word in enumerate(words[:-1], start=1):
        meaningful += word.lower().strip("`") not in _FILLER
        if meaningful >= _MIN_MEANINGFUL:
            return words[:n]
    return []


def _opens_with(words: list[str], opening: list[str]) -> bool:
    return len(words) > len(opening) and [w.lower() for w in words[: len(opening)]] == [
        w.lower() for w in opening
    ]


def _grouped(bullets: list[dict[str, Any]], words: list[list[str]]) -> dict[str, Any]:
    start = _shared_length(words)
    end = _shared_length([list(reversed(w[start:])) for w in words])
    middles = [" ".join(w[start : len(w) - end]) for w in words]
    head = " ".join(words[0][:start])
    tail = " ".join(words[0][len(words[0]) - end :]) if end else ""
    named = middles[:_NAMED] + ([f"{len(middles) - _NAMED} more"] if len(middles) > _NAMED else [])
    text = f"{head} {_joined(named)}" + (f" {tail}" if tail else "")
    return {
        "text": text,
        "series": "",
        "links": [link for b in bullets for link in b["links"]],
        "parts": [
            {"label": middle, "links": b["links"], "series": "", "details": b.get("details")}
            for middle, b in zip(middles, bullets, strict=True)
        ],
    }


def _shared_length(words: list[list[str]]) -> int:
    """How many leading words all share (case aside), leaving each at least one of its own."""
    n = 0
    shortest = min(len(w) for w in words)
    while n < shortest - 1 and len({w[n].lower() for w in words}) == 1:
        n += 1
    return n


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
