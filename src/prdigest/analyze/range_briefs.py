"""The briefs of a range's PRs (a release, a quarter), read as a digest reads its window:
the same items, the same pairing of reverts, the same notability (which reads what each
PR announces against the names the range's earlier PRs added) and the same `make_briefs`.
So a week's release notes file every PR as that week's digest does, and a longer range
differs only where the range itself says more (a name added and removed inside it breaks
no one).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..models import BriefText, Classification, PullRequest
from ..reading.spelling import Spelling
from ..timeutil import to_iso
from .announcements import WindowNames
from .brief_types import Brief
from .items import build_item
from .notability import assess
from .pr_briefs import make_briefs
from .revert_flags import pair_reverts


def range_briefs(
    pairs: Sequence[tuple[PullRequest, Classification]],
    spelling: Spelling,
    ambiguous: Collection[str] = (),
    stored: Mapping[str, BriefText] | None = None,
    window: WindowNames | None = None,
) -> tuple[dict[str, Brief], dict[str, BriefText]]:
    """Each PR's brief by its commit (a number landed twice: both commits share the brief
    of its last landing; a direct push has none), and the words made here that were not
    stored (by content key), for the caller to store. `window`: the public names the
    range's PRs add, when the caller read them already."""
    ordered = sorted(pairs, key=_landing_order)
    built = [build_item(pr, cls) for pr, cls in ordered]
    pair_reverts(built, [], ambiguous)
    notes = assess(built, (), window)
    prs = [it for it in built if it.number is not None]
    by_number, made = make_briefs(prs, notes, spelling, stored)
    out = {it.pr.sha or "": by_number[it.number] for it in prs if it.number in by_number}
    return out, made


def _landing_order(pair: tuple[PullRequest, Classification]) -> tuple[str, str, int]:
    pr = pair[0]
    return (to_iso(pr.merged_at) if pr.merged_at else "", pr.sha or "", pr.number or 0)
