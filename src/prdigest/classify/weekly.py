"""One PR, one area: every output files a PR as its ISO week's digest does.

A profile may derive its areas from the PRs (the generic profile does), so a PR's area
depends on the PRs it is classified with. The digest classifies a week's PRs with the
week before's, deriving the areas from the quarter up to the week's end (`AREA_BASIS`:
a directory keeps its area week to week); release notes, their worksheet, `classify
explain` and the site's charts classify each PR in that same batch, on the same basis,
with that week's spelling, whatever range they cover (a range's own batch would make
areas no week has, such as one of a `tests/assets/…` folder touched a few times).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from ..models import Classification, PullRequest
from ..reading.spelling import Spelling
from ..timeutil import Window, last_complete_week
from .base import Profile

# The span whose PRs shape the areas, ending with the week: a quarter, so a directory
# keeps its area week to week instead of standing alone one week and folding into its
# parent the next.
AREA_BASIS = timedelta(weeks=13)

Landed = Callable[[Window], list[PullRequest]]  # the PRs that landed in a window, oldest first
SpellingOf = Callable[[Window], Spelling]  # how the titles up to a window's end write names


def week_of(moment: datetime) -> Window:
    """The ISO week (Monday to Sunday, UTC) holding `moment`."""
    return last_complete_week(moment + timedelta(days=7))


def digest_batch(week: Window, landed: Landed) -> list[PullRequest]:
    """What a digest of `week` classifies together: the week's PRs, then the week before's."""
    return [*landed(week), *landed(week.previous())]


def area_basis(week: Window, landed: Landed) -> list[PullRequest]:
    """The PRs whose paths shape the areas of `week`'s digest: those of the `AREA_BASIS`
    up to its end, oldest first."""
    weeks = [week]
    while weeks[-1].start > week.end - AREA_BASIS:
        weeks.append(weeks[-1].previous())
    return [pr for w in reversed(weeks) for pr in landed(w)]


def position_in(batch: list[PullRequest], pr: PullRequest) -> int:
    """Where `pr` is in `batch`, appending it when the batch lacks it."""
    for index, other in enumerate(batch):
        if other.sha == pr.sha and other.number == pr.number:
            return index
    batch.append(pr)
    return len(batch) - 1


def classify_as_digests(
    profile: Profile, prs: Sequence[PullRequest], landed: Landed, spelling_of: SpellingOf
) -> list[Classification]:
    """`prs` classified as their weeks' digests classify them (same order as `prs`); a PR
    that never landed is classified with the others that did not. A profile whose rules
    decide each PR alone (every built-in one but generic) gives the same answers in any
    batch, so it classifies `prs` at once."""
    if not profile.batch_dependent:
        return profile.classify_all(prs)
    loaded: dict[Window, list[PullRequest]] = {}

    def landed_once(week: Window) -> list[PullRequest]:  # a week is also the next one's "before"
        if week not in loaded:
            loaded[week] = landed(week)
        return loaded[week]

    out: list[Classification | None] = [None] * len(prs)
    weeks: dict[Window | None, list[int]] = {}
    for index, pr in enumerate(prs):
        weeks.setdefault(None if pr.merged_at is None else week_of(pr.merged_at), []).append(index)
    for week, indexes in weeks.items():
        basis: list[PullRequest] = []
        if week is None:
            batch = [prs[i] for i in indexes]
            where = list(range(len(indexes)))
        else:
            profile.use_spelling(spelling_of(week))
            batch = digest_batch(week, landed_once)
            where = [position_in(batch, prs[i]) for i in indexes]
            basis = area_basis(week, landed_once)
        decided = profile.classify_all(batch, basis)
        for i, at in zip(indexes, where, strict=True):
            out[i] = decided[at]
    return [c for c in out if c is not None]
