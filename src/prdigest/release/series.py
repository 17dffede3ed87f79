"""Series in the release notes: PRs that made one change in parts become one entry.

Three kinds of evidence tie PRs into a series, the digest's own (`analyze.groups`):
- the same ghstack stack (each body lists the stack's PRs; `reading.stacks`);
- part markers with the same title around them (`[1/3] X` … `[3/3] X`);
- the same author and the same title once markers and numbers are gone
  (`reading.series_key`: `Add op A (1)` / `Add op A (2)`).
Drafting also joins identical sentences (a duplicate is no series). Everything here
reads PR titles and bodies only, so a drafted and an applied worksheet agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kinds import BC_BREAKING
from ..models import Classification, PullRequest
from ..reading import (
    Groups,
    clean_title,
    comparable,
    kind_of,
    series_key,
    series_stem,
    stack_groups,
    stack_numbers,
)
from ..reading.patterns import PR_REF
from .repeated_changes import entry_opening

_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def range_stacks(prs: Sequence[PullRequest]) -> list[int | None]:
    """Each PR's ghstack stack within the range (the stack's first position), or None
    when no other PR of the range shares its stack."""
    roots = stack_groups([pr.number for pr in prs], [stack_numbers(pr.body) for pr in prs])
    sizes: dict[int, int] = {}
    for root in roots:
        sizes[root] = sizes.get(root, 0) + 1
    return [root if sizes[root] > 1 else None for root in roots]


def series_evidence(pr: PullRequest, stack: int | None) -> list[str]:
    """Keys two PRs of one series share: their stack, their marker stem, author + key."""
    keys = [] if stack is None else [f"stack:{stack}"]
    stem = series_stem(pr.title)
    if stem:
        keys.append(f"parts:{stem}")
    key = series_key(clean_title(pr.title, pr.number).text)
    if key and pr.author:
        keys.append(f"key:{pr.author}:{key}")
    return keys


def draft_leads(
    prs: Sequence[PullRequest],
    decided: Sequence[Classification],
    sentences: Sequence[str],
    joinable: Sequence[bool],
) -> list[int]:
    """For each PR, the position of the first PR of its entry: joinable PRs of one area
    and kind that share a series or a sentence join the oldest; others lead themselves."""
    stacks = range_stacks(prs)
    groups = Groups(len(prs))
    first: dict[tuple[str, str, str], int] = {}
    for i, (pr, c) in enumerate(zip(prs, decided, strict=True)):
        if not joinable[i]:
            continue
        keys = series_evidence(pr, stacks[i])
        if not any(key.startswith("parts:") for key in keys):
            keys.append(f"same:{comparable(sentences[i])}")
            # one change made several times: `Added `parameter_name` support to A`, `… to B`
            opening = entry_opening(sentences[i])
            if opening and c.kind != BC_BREAKING:  # breaking changes keep a paragraph each
                keys.append(f"opening:{opening}")
        for key in keys:
            groups.join(i, first.setdefault((c.area, c.kind, key), i))
    return [groups.find(i) for i in range(len(prs))]


def series_parts(members: Sequence[PullRequest], stacks: Sequence[int | None]) -> int:
    """How many parts of the lead's series an entry holds (its lead first): distinct titles
    linked to the lead by evidence, directly or through each other. A reland, a revert of
    a revert, a duplicate title (a number landed twice, the same fix made again) or a row
    a human merged without such a link is no part."""
    groups = Groups(len(members))
    first: dict[str, int] = {}
    parts = [kind_of(pr.title) is None for pr in members]
    for i, pr in enumerate(members):
        if parts[i]:
            for key in series_evidence(pr, stacks[i]):
                groups.join(i, first.setdefault(key, i))
    if not parts[0]:
        return 0
    return len(
        {
            comparable(PR_REF.sub("", pr.title))
            for i, pr in enumerate(members)
            if parts[i] and groups.find(i) == 0
        }
    )


def series_phrase(parts: int) -> str:
    """`a three-part series`, `an eleven-part series`, `a 14-part series`; '' below two."""
    if parts < 2:
        return ""
    word = _WORDS[parts] if parts < len(_WORDS) else str(parts)
    article = "an" if word in ("eight", "eleven", "18") or word.startswith("8") else "a"
    return f"{article} {word}-part series"
