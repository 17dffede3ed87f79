"""The one reading of what makes PRs one series, for the digest and the release notes
alike: only what the PRs say. A ghstack stack list, a stated continuation ("stacked on
#12", "follow-up to #12", "reland of #12"), or one author's titles with part markers
naming the same series (`[2/x] docs update: …`). The same title by the same author without
a marker is a template, not a series; shared words, authors or files are no evidence.

`series_keys` gives each PR the keys it shares with the other PRs of its series; PRs that
share a key, directly or through others, are one series (`series_roots`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import PullRequest
from .parts import series_name
from .stacks import Groups, series_links, stack_numbers
from .titles import clean_title


def series_keys(pr: PullRequest) -> tuple[str, ...]:
    """The keys `pr` shares with the PRs of its series: itself and every PR it names as
    its stack or as what it continues (`pr:N`), and its author's series name after a
    part marker (`parts:AUTHOR:NAME`)."""
    keys = {f"pr:{n}" for n in (*stack_numbers(pr.body), *series_links(pr.title, pr.body))}
    if pr.number is not None:
        keys.add(f"pr:{pr.number}")
    clean = clean_title(pr.title, pr.number)
    if clean.series_marker:
        author = pr.author_email or pr.author_name
        keys.add(f"parts:{author}:{series_name(clean.text, clean.tags)}")
    return tuple(sorted(keys))


def series_roots(prs: Sequence[PullRequest]) -> list[int]:
    """For PRs at positions 0..n-1, the first position of each one's series (itself when
    it is in none)."""
    groups = Groups(len(prs))
    first: dict[str, int] = {}
    for i, pr in enumerate(prs):
        for key in series_keys(pr):
            groups.join(i, first.setdefault(key, i))
    return [groups.find(i) for i in range(len(prs))]
