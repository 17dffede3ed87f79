"""Reverts and relands as links to the PR they undo or redo (for analysis and digests).

The matching itself is `reading.pair_all` (the one reading), shared with analysis and
release notes; this module only presents it as `Link`s, the shape classification exports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import PullRequest
from ..reading import Pairing, pair_all


@dataclass(frozen=True, slots=True)
class Link:
    """`pr` reverts (or relands) `original`; `how` names the evidence (see `Pairing.how`)."""

    pr: PullRequest
    original: PullRequest | None
    how: str


def link_reverts(prs: Sequence[PullRequest]) -> list[Link]:
    """Every revert in `prs` (in order) with the PR it reverts, when that PR is in `prs`."""
    return [_link(prs, p) for p in pair_all(prs) if not p.relands]


def link_relands(prs: Sequence[PullRequest]) -> list[Link]:
    """Every reland in `prs` with the PR it lands again (by number, else the latest earlier same title)."""
    return [_link(prs, p) for p in pair_all(prs) if p.relands]


def _link(prs: Sequence[PullRequest], pairing: Pairing) -> Link:
    # Several targets (a revert of a stack): the latest is the one the title names.
    original = prs[pairing.targets[-1]] if pairing.targets else None
    return Link(prs[pairing.position], original, pairing.how)
