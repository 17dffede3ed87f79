"""Queueing jobs, running workers and reading the queue's state."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Iterable
from typing import Any, TypedDict

import procrastinate
import psycopg
from procrastinate.schema import SchemaManager

from ..errors import ConfigError, StoreError
from ..reporting import Reporter, SilentReporter
from ..timeutil import Window
from .tasks import DIGEST_TASK, SYNC_TASK, register

_SCHEMA_LOCK = 7274632  # pg advisory lock key: one process installs the queue schema


def _require_postgres(db_url: str | None) -> str:
    if not db_url or not db_url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            "workers need a PostgreSQL store", "set --db / PRDIGEST_DB to a postgresql:// URL"
        )
    return db_url


def make_app(db_url: str) -> procrastinate.App:
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=db_url))
    register(app)
    return app


def ensure_queue_schema(db_url: str) -> None:
    """Install procrastinate's tables once, whoever comes first."""
    try:
        with psycopg.connect(db_url, autocommit=True) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            exists = conn.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL").fetchone()
            if not (exists and exists[0]):
                conn.execute(SchemaManager.get_schema())
    except psycopg.Error as exc:
        raise StoreError(
            f"cannot prepare the job queue: {exc}", "check the PostgreSQL URL"
        ) from exc


def enqueue_syncs(db_url: str | None, repos: Iterable[str]) -> list[int]:
    """One sync job per repository; a repository's jobs run one at a time, in order."""
    url = _require_postgres(db_url)
    ensure_queue_schema(url)
    app = make_app(url)
    with app.open():
        return [
            _defer(
                app.configure_task(SYNC_TASK, lock=repo, queueing_lock=f"sync:{repo}"), repo=repo
            )
            for repo in repos
        ]


def enqueue_digests(
    db_url: str | None, repos: Iterable[str], windows: Iterable[Window]
) -> list[int]:
    """One digest job per repository and window, after that repository's queued sync."""
    url = _require_postgres(db_url)
    ensure_queue_schema(url)
    app = make_app(url)
    jobs = []
    with app.open():
        for repo in repos:
            for window in windows:
                first, last = window.first_day.isoformat(), window.last_day.isoformat()
                deferrer = app.configure_task(
                    DIGEST_TASK, lock=repo, queueing_lock=f"digest:{repo}:{first}:{last}"
                )
                jobs.append(_defer(deferrer, repo=repo, first_day=first, last_day=last))
    return jobs


def _defer(deferrer: Any, **kwargs: Any) -> int:
    try:
        return int(deferrer.defer(**kwargs))
    except procrastinate.exceptions.AlreadyEnqueued:
        return 0  # the same job is already waiting: nothing to add


def run_worker(
    db_url: str | None,
    config_path: str | None,
    *,
    concurrency: int = 1,
    until_empty: bool = False,
    heartbeat: float = 10.0,
    stalled_after: float = 30.0,
    reporter: Reporter | None = None,
) -> None:
    """Run jobs until stopped (or, with `until_empty`, until the queue is empty).

    Alongside, every few seconds, jobs whose worker stopped sending heartbeats
    (killed, machine lost) are put back in the queue; jobs are idempotent, so a
    retried job doubles nothing."""
    url = _require_postgres(db_url)
    ensure_queue_schema(url)
    reporter = reporter or SilentReporter()
    app = make_app(url)

    run = functools.partial(
        app.run_worker_async,
        concurrency=concurrency,
        update_heartbeat_interval=heartbeat,
        stalled_worker_timeout=stalled_after,
        # in-process only: each job reports rate-limit waits and warnings through it
        additional_context={"db": url, "config": config_path, "reporter": reporter},
    )

    async def retry_stalled() -> int:
        stalled = list(
            await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after)
        )
        retried = 0
        for job in stalled:
            try:
                await app.job_manager.retry_job(job)
            except procrastinate.exceptions.ConnectorException:
                continue  # another worker saw it first and already put it back
            reporter.warn(f"job {job.id} ({job.task_name}) lost its worker; retrying it")
            retried += 1
        return retried

    async def recover_forever() -> None:
        while True:
            await asyncio.sleep(heartbeat)
            await retry_stalled()

    async def serve() -> None:
        recovery = asyncio.create_task(recover_forever())
        try:
            await run(wait=True)
        finally:
            recovery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await recovery

    async def drain() -> None:
        # Done only when nothing waits and nothing runs: a job still marked as running
        # belongs to a live worker (wait for it) or to a dead one (retried once stalled).
        while True:
            await run(wait=False, install_signal_handlers=False)
            await retry_stalled()
            if not _unfinished(url):
                return
            await asyncio.sleep(heartbeat)

    async def main() -> None:
        async with app.open_async():
            await (drain() if until_empty else serve())

    asyncio.run(main())


def _unfinished(db_url: str) -> int:
    return sum(int(r["count"]) for r in queue_counts(db_url) if r["status"] in ("todo", "doing"))


class JobCount(TypedDict):
    task: str
    status: str  # todo, doing, succeeded, failed, …
    count: int


def queue_counts(db_url: str) -> list[JobCount]:
    """Jobs by task and status (todo, doing, succeeded, failed, …)."""
    try:
        with psycopg.connect(db_url, autocommit=True) as conn:
            if not conn.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL").fetchone()[
                0
            ]:  # type: ignore[index]
                return []
            rows = conn.execute(
                "SELECT task_name, status::text, COUNT(*) FROM procrastinate_jobs"
                " GROUP BY task_name, status ORDER BY task_name, status"
            ).fetchall()
    except psycopg.Error as exc:
        raise StoreError(f"cannot read the job queue: {exc}", "check the PostgreSQL URL") from exc
    return [{"task": t, "status": s, "count": n} for t, s, n in rows]
