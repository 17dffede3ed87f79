"""The job bodies: each opens its own store, does one idempotent unit of work."""

from __future__ import annotations

from typing import TypedDict

import procrastinate

from .. import pipeline
from ..config import load_config
from ..reporting import Reporter, SilentReporter
from ..store import open_store
from ..timeutil import window_between


def _settings(context: procrastinate.JobContext) -> tuple[str, str | None, Reporter]:
    extra = context.additional_context or {}
    return str(extra["db"]), extra.get("config"), extra.get("reporter") or SilentReporter()


class SyncOutcome(TypedDict):
    """A sync job's result, as the queue keeps it."""

    read: int
    inserted: int


def sync_repository(context: procrastinate.JobContext, repo: str) -> SyncOutcome:
    """Sync one repository from its configured source; resumes from the stored cursor."""
    db, config_path, reporter = _settings(context)
    store = open_store(db)
    try:
        config = load_config(config_path)
        result = pipeline.sync(store, repo, pipeline.spec_for(repo, config), reporter)
        reporter.info(result.summary())
        return {"read": result.read, "inserted": result.counts.inserted}
    finally:
        store.close()


def digest_window(
    context: procrastinate.JobContext, repo: str, first_day: str, last_day: str
) -> str:
    """Write and store one window's digest (saving a report twice keeps one row)."""
    db, config_path, reporter = _settings(context)
    store = open_store(db)
    try:
        config = load_config(config_path)
        window = window_between(first_day, last_day)
        outcome = pipeline.digest(store, repo, window, config, reporter=reporter)
        return outcome.report.writer
    finally:
        store.close()


SYNC_TASK = "prdigest.sync_repository"
DIGEST_TASK = "prdigest.digest_window"


def register(app: procrastinate.App) -> None:
    """Name the job bodies on an app; a failing job is retried (each is idempotent)."""
    app.task(name=SYNC_TASK, pass_context=True, retry=3)(sync_repository)
    app.task(name=DIGEST_TASK, pass_context=True, retry=3)(digest_window)
