"""ghstack stacks and stated continuations: PRs that say they are one effort.

ghstack writes "Stack from [ghstack]" and one `* #N` line per PR of the stack (`* __->__ #N`
for the PR itself) into every body. The digest's series and the release notes' merged
entries both read stacks here, so the two agree on what a stack is. A PR may also say in
words which PR it continues ("stacked on #N", "follow-up to #N", "second half of #N",
"reland of #N"): `series_links` reads those, and the digest's series joins on them too —
never on shared title words, which join unrelated PRs ("mx: support X" / "nvfp4: support X").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_STACK_LINE = re.compile(r"(?m)^\s*\*\s*(?:__->__\s*)?#(\d+)\s*$")


def stack_numbers(body: str) -> tuple[int, ...]:
    """The PR numbers a ghstack body lists (itself included), sorted; () without one."""
    if "ghstack" not in body:
        return ()
    return tuple(sorted({int(n) for n in _STACK_LINE.findall(body)}))


# A phrase that says this PR continues another, then that PR as `#N` or its URL.
_CONTINUES = re.compile(
    r"""(?ix)
    \b(?:stacked\s+(?:on\s+top\s+of|on|onto|above)
      |follow[\s-]?ups?\s+(?:to|of|on|for)|as\s+a\s+follow[\s-]?up\s+(?:to|of|on)
      |(?:first|second|third|last|final|next)\s+(?:half|part|step|piece)\s+of
      |part\s+\d+\s+of|continu(?:es|ation\s+of)|builds?\s+(?:on\s+top\s+of|on)
      |on\s+top\s+of|depends\s+on|relands?(?:\s+of)?|split\s+(?:out\s+)?(?:of|from)
      |(?:fix(?:es)?\s+\w+\s+)?after)
    \s*:?\s*(?:pr\s*|pull\s+request\s*)?
    (?:\#|https?://\S+?/pull/)(\d+)\b
    """
)


def series_links(title: str, body: str) -> tuple[int, ...]:
    """The PRs this one says it continues (`stacked on #12`, `follow-up to
    https://…/pull/12`), sorted; () when it says none."""
    return tuple(sorted({int(n) for n in _CONTINUES.findall(f"{title}\n{body}")}))


class Groups:
    """Union-find over positions 0..n-1 whose root is each group's smallest (first) position."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        a, b = self.find(i), self.find(j)
        self.parent[max(a, b)] = min(a, b)


def stack_groups(numbers: Sequence[int | None], stacks: Sequence[Sequence[int]]) -> list[int]:
    """For PRs at positions 0..n-1 (their numbers and stack lists), the smallest position
    of each one's stack: PRs listing each other, directly or through another listed PR of
    the same sequence, share it. Numbers outside the sequence link nothing."""
    by_number = {number: i for i, number in enumerate(numbers) if number is not None}
    groups = Groups(len(numbers))
    for i, stack in enumerate(stacks):
        for other in stack:
            j = by_number.get(other)
            if j is not None and j != i:
                groups.join(i, j)
    return [groups.find(i) for i in range(len(numbers))]
