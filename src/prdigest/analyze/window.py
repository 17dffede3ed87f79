"""Counts over a window: PRs, direct pushes, authors (people), first-time authors."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import PullRequest
from .people import People, Persons, identity_of

_BOT = re.compile(r"(?i)\[bot\]|[+.-]bot@|^bot@|-bot\b")


def is_bot(pr: PullRequest) -> bool:
    return bool(_BOT.search(pr.author_name) or _BOT.search(pr.author_email))


def persons(prs: Sequence[PullRequest], people: People) -> Persons:
    """The window's authors as people (see `people`)."""
    return Persons([identity_of(pr) for pr in prs], people)


def first_time_authors(prs: Sequence[PullRequest], who: Persons) -> list[str]:
    """Display names of people (not bots) none of whose identities landed anything before
    the window, one per person, sorted."""
    names: dict[str, str] = {}
    for pr in prs:
        identity = identity_of(pr)
        person = who.person(identity)
        if person and not is_bot(pr) and not who.landed_before(identity):
            names.setdefault(person, who.display_name(identity))
    return sorted(set(names.values()), key=lambda name: (name.lower(), name))


def counts(
    prs: Sequence[PullRequest],
    who: Persons,
    first_timers: Sequence[str],
    reverts: int,
    relands: int,
    previous: Sequence[PullRequest],
) -> dict[str, int]:
    return {
        "prs": sum(1 for pr in prs if pr.number is not None),
        "direct_pushes": sum(1 for pr in prs if pr.number is None),
        "authors": len({who.person(identity_of(pr)) for pr in prs} - {""}),
        "first_time_authors": len(first_timers),
        "reverts": reverts,
        "relands": relands,
        "previous_prs": sum(1 for pr in previous if pr.number is not None),
        "previous_direct_pushes": sum(1 for pr in previous if pr.number is None),
    }
