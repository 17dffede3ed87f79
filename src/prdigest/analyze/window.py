"""Counts over a window: PRs, direct pushes, authors, first-time authors."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import PullRequest


def author_key(pr: PullRequest) -> str:
    """Authors are told apart by e-mail (what `known_authors` holds), else by name."""
    return pr.author_email or pr.author_name or pr.author


_BOT = re.compile(r"(?i)\[bot\]|[+.-]bot@|^bot@|-bot\b")


def is_bot(pr: PullRequest) -> bool:
    return bool(_BOT.search(pr.author_name) or _BOT.search(pr.author_email))


def first_time_authors(prs: Sequence[PullRequest], known_authors: set[str]) -> list[str]:
    """Display names of people (not bots) who landed nothing before the window, sorted."""
    names: dict[str, str] = {}
    for pr in prs:
        key = author_key(pr)
        if key and key not in known_authors and not is_bot(pr):
            names.setdefault(key, pr.author_name or pr.author_login or key)
    return sorted(set(names.values()), key=lambda name: (name.lower(), name))


def counts(
    prs: Sequence[PullRequest],
    first_timers: Sequence[str],
    reverts: int,
    relands: int,
    previous: Sequence[PullRequest],
) -> dict[str, int]:
    return {
        "prs": sum(1 for pr in prs if pr.number is not None),
        "direct_pushes": sum(1 for pr in prs if pr.number is None),
        "authors": len({author_key(pr) for pr in prs if author_key(pr)}),
        "first_time_authors": len(first_timers),
        "reverts": reverts,
        "relands": relands,
        "previous_prs": sum(1 for pr in previous if pr.number is not None),
        "previous_direct_pushes": sum(1 for pr in previous if pr.number is None),
    }
