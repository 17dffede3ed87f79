"""`prdigest worker` and `prdigest status`: running queued work, and seeing it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from ..analyze.english import plural
from ..store.location import describe
from .common import AppContext, StderrReporter, pass_app

if TYPE_CHECKING:
    from ..queue.jobs import JobCount


@click.command("worker")
@click.option(
    "--concurrency",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Jobs run at once by this process.",
)
@click.option(
    "--until-empty", is_flag=True, help="Stop when the queue is empty instead of waiting."
)
@click.option(
    "--heartbeat",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Seconds between this worker's heartbeats.",
)
@click.option(
    "--stalled-after",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0.5),
    help="Seconds without a heartbeat before a worker's jobs are retried elsewhere.",
)
@pass_app
def worker_command(
    app: AppContext, concurrency: int, until_empty: bool, heartbeat: float, stalled_after: float
) -> None:
    """Run queued sync and digest jobs (PostgreSQL store); start one on each machine."""
    from ..queue import run_worker

    run_worker(
        app.db,
        app.config_path,
        concurrency=concurrency,
        until_empty=until_empty,
        heartbeat=heartbeat,
        stalled_after=stalled_after,
        reporter=StderrReporter(show_progress=False),  # concurrent jobs: their waits, no counts
    )


@click.command("status")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="One line per repository (text), or one JSON object for scripts (json).",
)
@pass_app
def status_command(app: AppContext, fmt: str) -> None:
    """Where the database is; repositories, their PRs and sync cursors; the job queue."""
    repos = app.existing_store.repository_status()
    jobs: list[JobCount] = []
    if app.store.dialect == "postgresql":
        from ..queue import queue_counts

        jobs = queue_counts(app.db or "")
    database = describe(app.db)
    if fmt == "json":
        data = {"database": database, "repositories": repos, "jobs": jobs}
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    click.echo(f"database: {database}")
    if not repos:
        click.echo("no repositories in the store")
    for repo in repos:
        first, last = repo["first_merged"], repo["last_merged"] or ""
        span = f"{first[:10]}..{last[:10]}" if first else "no landed PRs"  # ISO days, as errors say
        click.echo(
            f"{repo['name']}: {plural(repo['pull_requests'], 'PR')} and"
            f" {plural(repo['direct_pushes'], 'direct push', 'direct pushes')} ({span}),"
            f" {plural(repo['reports'], 'report')}"
        )
        run = repo["last_sync"]
        if run is not None and run["finished_at"] is None:
            started = run["started_at"][:16].replace("T", " ")
            click.echo(
                f"  its last sync ({run['source']}, started {started} UTC) did not finish:"
                " interrupted, or still running; the store holds part of the history until"
                " it is run again (it resumes)"
            )
        if repo["synced_since"]:
            click.echo(f"  synced from {repo['synced_since'][:10]} on (sync --since)")
        for cursor in repo["cursors"]:
            click.echo(
                f"  cursor {cursor['source']}: {cursor['value']} (at {cursor['updated_at']})"
            )
    if jobs:
        click.echo("jobs:")
        for row in jobs:
            click.echo(f"  {row['task']}: {row['count']} {row['status']}")
