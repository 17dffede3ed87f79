"""`prdigest sync REPO [source options]` and `prdigest sync --all`."""

from __future__ import annotations

from typing import Any

import click

from .. import pipeline
from ..errors import UsageError
from .common import (
    AppContext,
    StderrReporter,
    pass_app,
    repo_argument,
    source_options,
    source_spec,
    stored_repo,
)


@click.command("sync")
@repo_argument(required=False)
@source_options
@click.option("--all", "all_repos", is_flag=True, help="Every repository listed in prdigest.toml.")
@click.option(
    "--queue/--no-queue",
    default=None,
    help="With --all: queue one job per repository for `prdigest worker` "
    "(default on a PostgreSQL store) or sync them here.",
)
@pass_app
def sync_command(
    app: AppContext, repo: str | None, all_repos: bool, queue: bool | None, **kwargs: Any
) -> None:
    """Fetch REPO's pull requests into the store (incremental, resumable)."""
    spec = source_spec(kwargs)
    reporter = StderrReporter()
    if all_repos == bool(repo):
        raise UsageError(
            "give either REPO or --all", "e.g. prdigest sync pytorch/executorch --git PATH"
        )
    if repo:
        stored_repo(app.store, repo)
        spec = pipeline.resolve_spec(repo, app.config, spec)
        reporter.done(pipeline.sync(app.store, repo, spec, reporter).summary())
        return
    if spec.given:
        raise UsageError(
            "--all takes each repository's source from prdigest.toml", "drop --git/--jsonl"
        )
    repos = pipeline.configured_repos(app.config)
    if queue if queue is not None else app.store.dialect == "postgresql":
        from ..queue import enqueue_syncs

        jobs = enqueue_syncs(app.db, repos)
        reporter.done(f"queued {sum(1 for j in jobs if j)} sync jobs for {len(repos)} repositories")
        return
    for name in repos:
        reporter.done(
            pipeline.sync(app.store, name, pipeline.spec_for(name, app.config), reporter).summary()
        )
