"""`prdigest digest REPO [source options] [window] [--writer] [--format] [--out]`."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import click

from .. import pipeline
from ..analyze.english import plural
from ..errors import ReadOnlyStoreError, UsageError
from ..reporting import Reporter
from ..store import Store
from ..timeutil import Window, iso_week_window, parse_date, window_between
from .common import (
    AppContext,
    StderrReporter,
    emit,
    llm_options,
    pass_app,
    repo_argument,
    source_options,
    source_spec,
    stored_repo,
)

SINCE_HELP = (
    "First day of the window (YYYY-MM-DD, UTC). Without --until the window is the 7 days"
    " from it: --since 2026-02-09 is 2026-02-09..2026-02-15."
)
# the window's options beside --since (`digest` takes --since with its source options)
week_option = click.option(
    "--week",
    metavar="YYYY-Www",
    help="ISO week, e.g. 2026-W07 (default: the last complete week in the data).",
)
until_option = click.option(
    "--until",
    "until_text",
    metavar="DATE",
    help="Last day of the window (YYYY-MM-DD, inclusive); needs --since.",
)


@click.command("digest")
@repo_argument(required=False)
@source_options(since_help=SINCE_HELP)
@week_option
@until_option
@click.option(
    "--writer",
    type=click.Choice(["auto", "deterministic", "llm"]),
    default="auto",
    show_default=True,
    help="Who writes the prose: the LLM when one is configured and reachable (auto),"
    " the deterministic writer, or the LLM (llm; falls back unless --strict).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "json"]),
    default="md",
    show_default=True,
    help="The digest in Markdown (md), or the analysis context it was written from (json).",
)
@click.option(
    "--profile", "profile_name", help="Classification profile (default: chosen per repository)."
)
@click.option("--out", type=click.Path(path_type=Path), help="Write to FILE instead of stdout.")
@llm_options
@click.option(
    "--count",
    "count_mode",
    type=click.Choice(["merged", "opened", "all"]),
    default="merged",
    show_default=True,
    help="Which PRs belong to the window: merged in it, opened in it (needs GitHub data), or either.",
)
@click.option(
    "--all",
    "all_repos",
    is_flag=True,
    help="Queue the window's digest of every repository in prdigest.toml for `prdigest worker`.",
)
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
    all_repos: bool,
    **kwargs: Any,
) -> None:
    """Write the digest of one window of REPO's pull requests."""
    since_text = kwargs.get("since_text")
    window = window_of(week, since_text, until_text)
    seven_days = bool(since_text) and not until_text
    if all_repos == bool(repo):
        raise UsageError(
            "give either REPO or --all", "e.g. prdigest digest pytorch/executorch --week 2026-W07"
        )
    if all_repos:
        _queue_all(app, window)
        return
    assert repo is not None
    # --since names the window here; the sync before the digest reads all history,
    # which first-time authors and trends need (and which is incremental anyway).
    spec = dataclasses.replace(source_spec(kwargs), since=None)
    reporter = StderrReporter()
    config = app.config  # a broken prdigest.toml is told before anything else
    # Only a command that syncs creates a database (CLI.md); reading one needs it there.
    store = app.store if spec.given else app.existing_store
    stored_repo(store, repo)
    if spec.given:
        result = pipeline.sync(store, repo, spec, reporter)
        reporter.info(result.summary())
    llm_flags = {key: kwargs.pop(key) for key in list(kwargs) if key.startswith("llm_")}
    outcome = pipeline.digest(
        store,
        repo,
        window,
        config,
        writer=writer,
        profile_name=profile_name,
        llm_options=llm_flags,
        reporter=reporter,
        count_mode=kwargs.pop("count_mode", "merged"),
        keep=False,
    )
    text = (
        json.dumps(outcome.context.as_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        if fmt == "json"
        else outcome.report.markdown
    )
    emit(text, out)  # first: a digest that could not be delivered is not stored
    counts = outcome.context.counts
    reporter.done(
        "; ".join(
            [
                f"digest of {repo} for {outcome.report.window_start}..{outcome.report.window_end}: "
                f"{_landed(counts.prs, counts.direct_pushes)}, written by the"
                f" {outcome.report.writer} writer",
                *outcome.notes,
                *(["7 days from --since (--until sets the last day)"] if seven_days else []),
                _kept(store, outcome, fmt, reporter),
            ]
        )
    )


def _landed(prs: int, pushes: int) -> str:
    """`12 PRs`, and the direct pushes when there are any: `0 PRs and 155 direct pushes`."""
    told = plural(prs, "PR")
    return f"{told} and {plural(pushes, 'direct push', 'direct pushes')}" if pushes else told


def _kept(store: Store, outcome: pipeline.DigestResult, fmt: str, reporter: Reporter) -> str:
    """Store the delivered digest; how the closing line says what was stored. `--format
    json` stores the Markdown digest too (what `site build` publishes and `reports show`
    prints), and says so: the JSON is the analysis behind it, not a report."""
    try:
        pipeline.keep_digest(store, outcome)
    except ReadOnlyStoreError:
        reporter.warn(
            "the digest was not stored: the database is read-only — make it writable (or give"
            " another --db) and run the command again to store and publish it"
        )
        return "not stored (read-only database)"
    if outcome.report_id is None:
        return outcome.unstored
    if fmt == "json":
        return (
            f"its Markdown digest stored as report {outcome.report_id}"
            f" (prdigest reports show {outcome.report_id}); the JSON is not stored"
        )
    return f"stored as report {outcome.report_id}"


def window_of(week: str | None, since: str | None, until: str | None) -> Window | None:
    if week and (since or until):
        raise UsageError(
            "--week was given with --since/--until", "give either --week or --since and --until"
        )
    if week:
        return iso_week_window(week)
    if until and not since:
        raise UsageError("--until needs --since", "give both --since and --until, or --week")
    if since:
        # --since alone: the 7 days from it (SINCE_HELP; the summary line names them).
        first = parse_date(since, "--since")
        return window_between(since, until or (first + timedelta(days=6)).isoformat())
    return None


def _queue_all(app: AppContext, window: Window | None) -> None:
    from ..queue import enqueue_digests

    if window is None:
        raise UsageError("--all needs a window", "add --week YYYY-Www or --since/--until")
    repos = pipeline.configured_repos(app.config)
    jobs = enqueue_digests(app.db, repos, [window])
    click.echo(
        f"queued {sum(1 for j in jobs if j)} digest jobs for {len(repos)} repositories", err=True
    )
