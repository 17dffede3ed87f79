"""Every week of a repository's stored history, counted from its synced PRs (not from
whichever digests happen to be stored): PRs by area, direct pushes, reverts, people."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Protocol

from ..analyze.people import Identity, People, Persons
from ..reading import kind_of
from .charts import WeekPoint


class LandedRow(Protocol):
    """A landed commit as the store lists it (store/landed_history.py's `Landed`)."""

    @property
    def sha(self) -> str: ...
    @property
    def number(self) -> int | None: ...
    @property
    def title(self) -> str: ...
    @property
    def merged_at(self) -> datetime: ...
    @property
    def author_name(self) -> str: ...
    @property
    def author_email(self) -> str: ...
    @property
    def author_login(self) -> str: ...


def weekly_points(
    landed: Sequence[LandedRow], areas: Mapping[str, str], people: People
) -> list[WeekPoint]:
    """One point per ISO week from the first landed commit's to the last's, empty weeks
    included; `areas`: sha → the area its digest files it under."""
    if not landed:
        return []
    weeks: dict[date, list[LandedRow]] = {}
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


def _people(rows: Sequence[LandedRow], people: People) -> int:
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
