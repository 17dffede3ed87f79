"""Series in the release notes: PRs that made one change in parts become one entry.

PRs are one series on the evidence the digest reads too (`reading.series_evidence`): a
ghstack stack, a stated continuation ("follow-up to #12"), one author's part markers
naming one series. The same title by the same author without a marker is a template, not
a series. Drafting also joins identical sentences (a duplicate is no series). Everything
here reads PR titles and bodies only, so a drafted and an applied worksheet agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kinds import BC_BREAKING
from ..models import Classification, PullRequest
from ..reading import Groups, comparable, kind_of
from ..reading.patterns import PR_REF
from ..reading.series_evidence import series_keys
from .repeated_changes import entry_opening

_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def draft_leads(
    prs: Sequence[PullRequest],
    decided: Sequence[Classification],
    sentences: Sequence[str],
    joinable: Sequence[bool],
) -> list[int]:
    """For each PR, the position of the first PR of its entry: joinable PRs of one area
    and kind that share a series or a sentence join the oldest; others lead themselves."""
    groups = Groups(len(prs))
    first: dict[tuple[str, str, str], int] = {}
    for i, (pr, c) in enumerate(zip(prs, decided, strict=True)):
        if not joinable[i]:
            continue
        keys = list(series_keys(pr))
        if not any(key.startswith("parts:") for key in keys):
            keys.append(f"same:{comparable(sentences[i])}")
            # one change made several times: `Added `parameter_name` support to A`, `… to B`
            opening = entry_opening(sentences[i])
            if opening and c.kind != BC_BREAKING:  # breaking changes keep a paragraph each
                keys.append(f"opening:{opening}")
        for key in keys:
            groups.join(i, first.setdefault((c.area, c.kind, key), i))
    return [groups.find(i) for i in range(len(prs))]


def series_parts(members: Sequence[PullRequest]) -> int:
    """How many parts of the lead's series an entry holds (its lead first): distinct titles
    linked to the lead by evidence, directly or through each other. A reland, a revert of
    a revert, a duplicate title (a number landed twice, the same fix made again) or a row
    a human merged without such a link is no part."""
    groups = Groups(len(members))
    first: dict[str, int] = {}
    parts = [kind_of(pr.title) is None for pr in members]
    for i, pr in enumerate(members):
        if parts[i]:
            for key in series_keys(pr):
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
