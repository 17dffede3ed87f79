"""A change added and removed within a range never reached a release: both PRs stay out
of the notes, and the worksheet says so ("added #A, removed #B, both in range"). That is
a fact of the range, not of either PR, so it is read here, over the range's PRs; each PR's
kind is its brief's (`analyze.range_briefs`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analyze.announcements import WindowNames, announce
from ..models import PullRequest
from ..reading.api_changes import ApiChanges, ApiName
from .reverted_in_range import label


def unreleased(prs: Sequence[PullRequest], window: WindowNames) -> dict[str, str]:
    """sha → why both PRs of a change that came and went inside the range stay out
    (when the remover takes back at least half of the public names the adder added)."""
    diffs = {id(pr): window.read(pr) for pr in prs}  # read once, with the window's names
    adders = _adders(prs, diffs)
    out: dict[str, str] = {}
    for pr in prs:
        found = _taken_back(pr, diffs, adders, window)
        if found is not None:
            adder, remover = found
            why = f"added {label(adder)}, removed {label(remover)}, both in range"
            out[adder.sha or ""] = why
            out[remover.sha or ""] = why
    return out


def _adders(
    prs: Sequence[PullRequest], diffs: dict[int, ApiChanges]
) -> dict[str, list[PullRequest]]:
    """Public name → the PRs of the range that add it, in landing order."""
    out: dict[str, list[PullRequest]] = {}
    for pr in prs:
        for name in diffs[id(pr)].added:
            out.setdefault(name.name, []).append(pr)
    return out


def _taken_back(
    pr: PullRequest,
    diffs: dict[int, ApiChanges],
    adders: dict[str, list[PullRequest]],
    window: WindowNames,
) -> tuple[PullRequest, PullRequest] | None:
    """(adder, pr) when `pr` removes most of what one earlier PR of the range added, and
    removes nothing that was released: the feature came and went inside the range."""
    if pr.number is None or window.changes(pr).breaks:
        return None
    alone = diffs[id(pr)]
    gone = [n.name for n in alone.removed] + [old.name for old, _ in alone.renamed]
    if not gone or announce(pr) is None:
        return None
    when = pr.merged_at
    votes: dict[str, int] = {}
    by_sha = {}
    for name in gone:
        for adder in adders.get(name, []):
            if adder.sha != pr.sha and when and adder.merged_at and adder.merged_at < when:
                votes[adder.sha or ""] = votes.get(adder.sha or "", 0) + 1
                by_sha[adder.sha or ""] = adder
    if not votes:
        return None
    sha, _ = max(votes.items(), key=lambda item: item[1])
    adder = by_sha[sha]
    added = diffs[id(adder)].added
    if adder.number is None or _taken(added, gone) * 2 < len(added):
        return None  # the adder did more than what was taken back: it stays
    return adder, pr


def _taken(added: Sequence[ApiName], gone: Sequence[str]) -> int:
    """How many of the names a PR added `gone` takes back: each one removed, and each
    member of a class removed (an enum's `PLAIN` goes with the enum)."""
    names = set(gone) | {name.rsplit(".", 1)[-1] for name in gone}
    return sum(1 for n in added if n.name in names or n.name.rsplit(".", 1)[0] in names)
