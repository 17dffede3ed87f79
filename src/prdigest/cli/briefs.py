"""`prdigest briefs REPO [window] [--llm-* options] [--shown-only]`: the model's brief of
every PR of a window, made ahead of its digest."""

from __future__ import annotations

from typing import Any

import click

from .. import pipeline
from .common import AppContext, StderrReporter, llm_options, pass_app, repo_argument, stored_repo
from .digest import SINCE_HELP, until_option, week_option, window_of


@click.command("briefs")
@repo_argument()
@week_option
@click.option("--since", "since_text", metavar="DATE", help=SINCE_HELP)
@until_option
@click.option(
    "--shown-only",
    is_flag=True,
    help="Only the PRs the window's digest shows, not every PR of the window.",
)
@llm_options
@pass_app
def briefs_command(
    app: AppContext,
    repo: str,
    week: str | None,
    since_text: str | None,
    until_text: str | None,
    shown_only: bool,
    **llm_flags: Any,
) -> None:
    """Have the LLM write the brief of each PR of a window of REPO, ahead of its digest.

    Briefs are stored by each PR's content, model and prompt version: a PR is summarised
    once, and the digest of the window then sends no request."""
    window = window_of(week, since_text, until_text)
    reporter = StderrReporter()
    config = app.config
    store = app.existing_store
    stored_repo(store, repo)
    result = pipeline.make_briefs(
        store,
        repo,
        window,
        config,
        llm_options=llm_flags,
        shown_only=shown_only,
        reporter=reporter,
    )
    for number, why in sorted(result.failed.items()):
        reporter.warn(f"the brief of #{number} was not written ({why}); asked again next time")
    reporter.done(result.summary())
