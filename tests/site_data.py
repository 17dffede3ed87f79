"""Stored digests for the site tests, made from real records by the real pipeline
(`prdigest.pipeline.digest` with the deterministic writer): no stand-in reports.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from prdigest import pipeline
from prdigest.config import Config
from prdigest.models import Report
from prdigest.pipeline import SourceSpec, sync
from prdigest.store import Store
from prdigest.timeutil import Window

REPO = "pytorch/executorch"


def sync_executorch(store: Store, jsonl: Path) -> None:
    sync(store, REPO, SourceSpec(jsonl=jsonl))


def iso_weeks(
    store: Store, repo: str, limit: int | None = None, before: date | None = None
) -> list[Window]:
    """Complete ISO weeks covered by the store's data (ending before `before`), newest last."""
    span = store.merged_range(repo)
    assert span is not None, f"no PRs of {repo} in the store"
    first = span[0].date() + timedelta(days=(7 - span[0].weekday()) % 7)
    weeks = []
    monday = first
    last = min(span[1].date(), before) if before else span[1].date()
    while monday + timedelta(days=7) <= last:
        weeks.append(Window(monday, monday + timedelta(days=6)))
        monday += timedelta(days=7)
    return weeks[-limit:] if limit else weeks


def store_weekly_digests(
    store: Store, repo: str, limit: int | None = None, before: date | None = None
) -> list[Report]:
    """Store one pipeline-made digest per complete ISO week; returns the stored reports."""
    return [
        pipeline.digest(store, repo, window, Config(), writer="deterministic").report
        for window in iso_weeks(store, repo, limit, before)
    ]
