"""`prdigest sync REPO [source options]`."""

from __future__ import annotations

from typing import Any

import click

from .. import pipeline
from .common import AppContext, StderrReporter, pass_app, source_options, source_spec


@click.command("sync")
@click.argument("repo")
@source_options
@pass_app
def sync_command(app: AppContext, repo: str, **kwargs: Any) -> None:
    """Fetch REPO's pull requests into the store (incremental, resumable)."""
    spec = source_spec(kwargs)
    reporter = StderrReporter()
    result = pipeline.sync(app.store, repo, spec, reporter)
    reporter.done(result.summary())
