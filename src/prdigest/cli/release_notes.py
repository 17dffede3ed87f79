"""`prdigest release-notes REPO [source options] (--from-ref A --to-ref B | --since DATE --until DATE)
[--worksheet FILE.csv] [--apply FILE.csv] [--out FILE] [--short-links] [--profile NAME]
[--style auto|pytorch|changelog]`."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from .. import pipeline
from ..errors import ConfigError
from ..release import ref_range
from ..release.refs import RefRange
from ..timeutil import Window, window_between
from .common import (
    AppContext,
    StderrReporter,
    emit,
    pass_app,
    repo_argument,
    source_options,
    source_spec,
    stored_repo,
)


@click.command("release-notes")
@repo_argument()
@source_options(since_help="First day of the range (YYYY-MM-DD, UTC), with --until.")
@click.option(
    "--from-ref", metavar="REF", help="The previous release (tag, branch or commit); needs --git."
)
@click.option(
    "--to-ref",
    metavar="REF",
    help="The new release; PRs reachable from it and not from --from-ref.",
)
@click.option(
    "--until", "until_text", metavar="DATE", help="Last day of the range (inclusive), with --since."
)
@click.option(
    "--worksheet",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the curation worksheet (CSV); an existing one keeps its edits and gains new rows.",
)
@click.option(
    "--apply",
    "apply_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Render the notes from an edited worksheet, keeping every edit.",
)
@click.option(
    "--short-links", is_flag=True, help="Write (#N) instead of full PR links (GitHub's size limit)."
)
@click.option(
    "--profile", "profile_name", help="Classification profile (default: chosen per repository)."
)
@click.option(
    "--style",
    type=click.Choice(["auto", "pytorch", "changelog"]),
    default="auto",
    show_default=True,
    help="Sections: PyTorch's (by kind), Keep a Changelog's (Added, Changed, Deprecated, "
    "Removed, Fixed, Security), or auto: PyTorch's for PyTorch's profiles, else Keep a Changelog's.",
)
@click.option("--out", type=click.Path(path_type=Path), help="Write to FILE instead of stdout.")
@pass_app
def release_notes_command(
    app: AppContext,
    repo: str,
    from_ref: str | None,
    to_ref: str | None,
    until_text: str | None,
    worksheet: Path | None,
    apply_path: Path | None,
    short_links: bool,
    profile_name: str | None,
    style: str,
    out: Path | None,
    **kwargs: Any,
) -> None:
    """Draft REPO's release notes for a ref or date range, in PyTorch's sections or Keep a
    Changelog's."""
    since_text = kwargs.get("since_text")
    if worksheet is not None and apply_path is not None:
        raise ConfigError(
            "--worksheet and --apply were both given",
            "write the worksheet first, edit it, then --apply it",
        )
    # --since names the range here; the sync before the notes reads all history.
    spec = dataclasses.replace(source_spec(kwargs), since=None)
    window, refs = _range(from_ref, to_ref, since_text, until_text, spec.git, spec.jsonl)
    reporter = StderrReporter()
    config = app.config  # a broken prdigest.toml is told before anything else
    # Only a command that syncs creates a database (CLI.md); reading one needs it there.
    store = app.store if spec.given else app.existing_store
    stored_repo(store, repo)
    if spec.given:
        if refs is not None and spec.ref is None:
            spec = dataclasses.replace(
                spec, ref=refs.to_ref
            )  # cherry-picks live on the release branch
        result = pipeline.sync(store, repo, spec, reporter)
        reporter.info(result.summary())
    if window is not None:
        pipeline.check_window(store, repo, window)
    outcome = pipeline.release_notes(
        store,
        repo,
        config,
        window=window,
        refs=refs,
        worksheet=worksheet,
        apply=apply_path,
        short_links=short_links,
        profile_name=profile_name,
        style=style,
    )
    emit(outcome.report.markdown, out)
    reporter.done(f"{outcome.summary()}; stored as report {outcome.report_id}")


def _range(
    from_ref: str | None,
    to_ref: str | None,
    since: str | None,
    until: str | None,
    git: Path | None,
    jsonl: Path | None,
) -> tuple[Window | None, RefRange | None]:
    if (from_ref or to_ref) and (since or until):
        raise ConfigError(
            "a ref range and a date range were both given",
            "give either --from-ref and --to-ref, or --since and --until",
        )
    if from_ref or to_ref:
        if not (from_ref and to_ref):
            raise ConfigError("--from-ref and --to-ref go together", "give both refs")
        if git is None:
            source = "--jsonl data" if jsonl is not None else "the store alone"
            raise ConfigError(
                f"--from-ref/--to-ref need a clone, and {source} has no git history",
                "give --git PATH (a local clone), or use --since DATE --until DATE",
            )
        return None, ref_range(git, from_ref, to_ref)
    if since and until:
        return window_between(since, until), None
    if since or until:
        raise ConfigError("--since and --until go together", "give both dates (YYYY-MM-DD)")
    raise ConfigError(
        "no range given", "give --from-ref A --to-ref B (with --git) or --since DATE --until DATE"
    )
