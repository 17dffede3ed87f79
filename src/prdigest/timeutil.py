"""Time comes from here: all datetimes are aware and UTC; tests pin `now`."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from .errors import ConfigError

_FIXED_NOW_ENV = "PRDIGEST_NOW"  # lets tests and reproducible runs pin the clock


def now() -> datetime:
    pinned = os.environ.get(_FIXED_NOW_ENV)
    if pinned:
        return parse_datetime(pinned)
    return datetime.now(UTC)


def parse_datetime(text: str) -> datetime:
    """Parse ISO 8601 (a trailing `Z` allowed) into an aware UTC datetime."""
    value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def to_iso(value: datetime) -> str:
    """The one text form of a datetime in the store and in contexts."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_date(text: str, option: str = "date") -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ConfigError(
            f"invalid {option} {text!r}", "give a date as YYYY-MM-DD, e.g. 2026-02-09"
        ) from None


@dataclass(frozen=True)
class Window:
    """Inclusive UTC days [first_day, last_day]; `start`/`end` are the half-open instants."""

    first_day: date
    last_day: date

    @property
    def start(self) -> datetime:
        return datetime.combine(self.first_day, time.min, UTC)

    @property
    def end(self) -> datetime:
        return datetime.combine(self.last_day + timedelta(days=1), time.min, UTC)

    @property
    def label(self) -> str:
        """`20261120-20261126`: the digest title's form (the seeds' own); nowhere else."""
        return f"{self.first_day:%Y%m%d}-{self.last_day:%Y%m%d}"

    @property
    def span(self) -> str:
        """`2026-11-20..2026-11-26`: how errors, summaries and status name a window."""
        return f"{self.first_day.isoformat()}..{self.last_day.isoformat()}"

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    @property
    def iso_week(self) -> str | None:
        year, week, weekday = self.first_day.isocalendar()
        if weekday == 1 and self.days == 7:
            return f"{year}-W{week:02d}"
        return None

    def previous(self) -> Window:
        """The window of the same length just before this one."""
        span = timedelta(days=self.days)
        return Window(self.first_day - span, self.last_day - span)

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment < self.end


_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


def iso_week_window(text: str) -> Window:
    match = _WEEK.match(text.strip())
    if not match:
        raise ConfigError(f"invalid week {text!r}", "give an ISO week as YYYY-Www, e.g. 2026-W07")
    year, week = int(match.group(1)), int(match.group(2))
    try:
        monday = date.fromisocalendar(year, week, 1)
    except ValueError:
        raise ConfigError(
            f"invalid week {text!r}: {year} has no week {week}", "pick a week from 01 to 52 (or 53)"
        ) from None
    return Window(monday, monday + timedelta(days=6))


def window_between(since: str, until: str) -> Window:
    first, last = parse_date(since, "--since"), parse_date(until, "--until")
    if last < first:
        raise ConfigError(f"--until {until} is before --since {since}", "swap the two dates")
    return Window(first, last)


def last_complete_week(latest: datetime) -> Window:
    """The last ISO week that ends at or before `latest` (the newest data point)."""
    day = latest.astimezone(UTC).date()
    monday = day - timedelta(days=day.weekday())
    # The week holding `latest` is complete only when `latest` is its very last instant.
    return Window(monday - timedelta(days=7), monday - timedelta(days=1))
