"""`prdigest digest REPO [source options] [window] [--writer] [--format] [--out]`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import click

from .. import pipeline
from ..errors import ConfigError
from ..timeutil import Window, iso_week_window, window_between
from .common import AppContext, StderrReporter, emit, pass_app, source_options, source_spec


@click.command("digest")
@click.argument("repo")
@source_options
@click.option(
    "--week", metavar="YYYY-Www", help="ISO week, e.g. 2026-W07 (default: the last complete week)."
)
@click.option(
    "--until",
    "until_text",
    metavar="DATE",
    help="Last day of the window (inclusive), with --since.",
)
@click.option(
    "--writer",
    type=click.Choice(["auto", "deterministic", "llm"]),
    default="auto",
    show_default=True,
)
@click.option("--format", "fmt", type=click.Choice(["md", "json"]), default="md", show_default=True)
@click.option(
    "--profile", "profile_name", help="Classification profile (default: chosen per repository)."
)
@click.option("--out", type=click.Path(path_type=Path), help="Write to FILE instead of stdout.")
@pass_app
def digest_command(
    app: AppContext,
    repo: str,
    week: str | None,
    until_text: str | None,
    writer: str,
    fmt: str,
    profile_name: str | None,
    out: Path | None,
    **kwargs: Any,
) -> None:
    """Write the digest of one window of REPO's pull requests."""
    since_text = kwargs.get("since_text")
    window = _window(week, since_text, until_text)
    # --since names the window here; the sync before the digest reads all history,
    # which first-time authors and trends need (and which is incremental anyway).
    spec = dataclasses.replace(source_spec(kwargs), since=None)
    reporter = StderrReporter()
    if spec.given:
        result = pipeline.sync(app.store, repo, spec, reporter)
        reporter.info(result.summary())
    llm_options = {key: kwargs.pop(key) for key in list(kwargs) if key.startswith("llm_")}
    outcome = pipeline.digest(
        app.store,
        repo,
        window,
        app.config,
        writer=writer,
        profile_name=profile_name,
        llm_options=llm_options,
        reporter=reporter,
    )
    text = (
        json.dumps(outcome.context, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        if fmt == "json"
        else outcome.report.markdown
    )
    emit(text, out)
    counts = outcome.context.get("counts", {})
    reporter.done(
        f"digest of {repo} for {outcome.report.window_start}..{outcome.report.window_end}: "
        f"{counts.get('prs', 0)} PRs, written by the {outcome.report.writer} writer"
    )


def _window(week: str | None, since: str | None, until: str | None) -> Window | None:
    if week and (since or until):
        raise ConfigError(
            "--week was given with --since/--until", "give either --week or --since and --until"
        )
    if week:
        return iso_week_window(week)
    if until and not since:
        raise ConfigError("--until needs --since", "give both --since and --until, or --week")
    if since and until:
        return window_between(since, until)
    return None
