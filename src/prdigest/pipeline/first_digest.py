"""A first digest of a freshly synced clone (what scripts/quickstart.sh writes): its last
7 days, or the last 7 days that have something when nothing landed lately, and another
week worth suggesting next (one with something in it, so its digest is not empty)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ..store import Store
from ..timeutil import Window
from .digest_job import stored_span

DAYS = 7


@dataclass(frozen=True)
class FirstDigest:
    window: Window
    newest: datetime  # the newest landing, PR or direct push
    moved: bool  # nothing landed in the last 7 days: the window ends at the newest landing
    earlier_week: str | None  # `2026-W07`: the ISO week of the newest landing before it


def first_digest(store: Store, repo: str, today: date) -> FirstDigest:
    """The window of a first digest of `repo` on `today`, and another week to try."""
    _, newest = stored_span(store, repo)
    last = today
    moved = newest.date() < today - timedelta(days=DAYS - 1)
    if moved:
        last = newest.date()
    window = Window(last - timedelta(days=DAYS - 1), last)
    before = store.newest_landing_before(repo, window.start)
    earlier = None
    if before is not None:
        year, week, _ = before.isocalendar()
        earlier = f"{year}-W{week:02d}"
    return FirstDigest(window, newest, moved, earlier)
