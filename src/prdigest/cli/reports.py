"""`prdigest reports list [REPO] | show ID | delete ID [--yes]`: what is stored, and so published."""

from __future__ import annotations

import sys

import click

from ..errors import SourceError, UsageError
from ..store.location import describe
from ..store.stored_reports import StoredReport
from .common import AppContext, StderrReporter, emit, pass_app, repo_argument, stored_repo


@click.group("reports")
def reports_group() -> None:
    """List, show and delete stored digests and release notes (`site build` publishes them)."""


@reports_group.command("list")
@repo_argument(required=False)
@pass_app
def list_command(app: AppContext, repo: str | None) -> None:
    """One stored report a line: ID, repository, kind, window, writer; newest window first."""
    if repo is not None:
        stored_repo(app.existing_store, repo)
    found = app.existing_store.list_reports(repo)
    if not found:
        of = f" of {repo}" if repo else ""
        StderrReporter().done(f"no reports{of} stored in {describe(app.db)}")
        return
    width = max(len(str(report.id)) for report in found)
    for report in found:
        click.echo(f"{report.id:>{width}}  {report.line}")


@reports_group.command("show")
@click.argument("report_id", metavar="ID", type=int)
@pass_app
def show_command(app: AppContext, report_id: int) -> None:
    """Print a stored report's Markdown, as it was written."""
    markdown = app.existing_store.report_markdown(report_id)
    if markdown is None:
        raise _missing(report_id)
    emit(markdown, None)


@reports_group.command("delete")
@click.argument("report_id", metavar="ID", type=int)
@click.option("--yes", is_flag=True, help="Delete without asking.")
@pass_app
def delete_command(app: AppContext, report_id: int, yes: bool) -> None:
    """Remove a stored report; the next `site build` no longer publishes it."""
    store = app.existing_store
    report = store.find_report(report_id)
    if report is None:
        raise _missing(report_id)
    if not yes and not _confirmed(report):
        StderrReporter().done(f"kept report {report.id}")  # the user's answer, not an error
        return
    store.delete_report(report_id)
    StderrReporter().done(
        f"deleted report {report.id} ({report.line}); the next site build no longer publishes it"
    )


def _confirmed(report: StoredReport) -> bool:
    if not sys.stdin.isatty():
        raise UsageError(
            f"deleting report {report.id} needs confirmation", "add --yes to delete it"
        )
    return click.confirm(f"Delete report {report.id} ({report.line})?", err=True)


def _missing(report_id: int) -> SourceError:
    return SourceError(
        f"no report {report_id} in the store", "see the stored ones with prdigest reports list"
    )
