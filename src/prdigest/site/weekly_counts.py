"""Every week of a repository's stored history, counted from its synced PRs (not from
whichever digests happen to be stored): PRs by area, direct pushes, reverts, people."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from datetime import date, timedelta

from ..analyze.people import Identity, People, Persons
from ..classify import Profile, profile_for
from ..classify.weekly import AREA_BASIS, classify_as_digests, week_of
from ..config import Config
from ..models import PullRequest
from ..reading import kind_of
from ..reading.spelling import Spelling
from ..store import Store
from ..store.identities import mailmap_of
from ..store.landed_history import Landed, landed_history
from ..store.learned_spelling import title_spelling
from ..timeutil import Window
from .charts import WeekPoint


def weekly_history(store: Store, config: Config, repo: str) -> list[WeekPoint]:
    """One point per ISO week from the first landed commit's to the last's, empty weeks
    included. A PR's area is the one its digest stored, else the profile's rules decide
    now (in memory: building the site writes nothing to the store)."""
    profile = profile_for(repo, config)
    landed = landed_history(store, repo, profile.name)
    if not landed:
        return []
    areas = _areas(store, repo, landed, profile)
    people = People(mailmap=mailmap_of(store, repo, {row.author_email for row in landed}))
    weeks: dict[date, list[Landed]] = {}
    for row in landed:
        weeks.setdefault(_monday(row.merged_at.date()), []).append(row)
    first, last = min(weeks), max(weeks)
    points = []
    for index in range((last - first).days // 7 + 1):
        monday = first + timedelta(days=7 * index)
        rows = weeks.get(monday, [])
        prs = [row for row in rows if row.number is not None]
        points.append(
            WeekPoint(
                start=monday,
                end=monday + timedelta(days=6),
                total=len(prs),
                areas=dict(Counter(areas[row.sha] for row in prs if row.sha in areas)),
                reverts=sum(_is_revert(row.title) for row in rows),
                contributors=_people(rows, people),
                direct_pushes=len(rows) - len(prs),
            )
        )
    return points


def _areas(store: Store, repo: str, landed: Sequence[Landed], profile: Profile) -> dict[str, str]:
    """sha → area: stored where a digest classified it; the rest classified as their
    weeks' digests would (classify/weekly.py), so a chart never files a PR under an area
    its digest does not."""
    found = {row.sha: row.area for row in landed if row.area is not None}
    missing = [row for row in landed if row.area is None]
    if not missing:
        return found
    wanted = {row.sha for row in missing}
    # Loaded once: the missing PRs' weeks and the area basis before the first (its
    # previous week and the quarter the generic profile derives its areas from).
    start = week_of(missing[0].merged_at).end - AREA_BASIS
    every = store.merged_between(repo, start, week_of(missing[-1].merged_at).end)
    prs = [pr for pr in every if pr.sha in wanted]
    moments = [pr.merged_at or start for pr in every]  # merged_between: all have landed

    def landed_in(week: Window) -> list[PullRequest]:
        return every[bisect_left(moments, week.start) : bisect_left(moments, week.end)]

    def spelling_of(week: Window) -> Spelling:
        return title_spelling(store, repo, week)

    for pr, decided in zip(
        prs, classify_as_digests(profile, prs, landed_in, spelling_of), strict=True
    ):
        found[pr.sha or ""] = decided.area
    return found


def _people(rows: Sequence[Landed], people: People) -> int:
    """How many people landed these, as a digest counts its authors (addresses, logins,
    names and the .mailmap of one person are one)."""
    identities = [Identity(row.author_name, row.author_email, row.author_login) for row in rows]
    who = Persons(identities, people)
    return len({who.person(identity) for identity in identities} - {""})


def _is_revert(title: str) -> bool:
    """As a digest counts reverts: undoing a revert is a reland."""
    return kind_of(title) == "revert"


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())
