"""The command line: parse options, call one pipeline function, print."""

from __future__ import annotations

import sys
from typing import Any

import click

from .. import __version__
from ..errors import PrdigestError
from .common import AppContext


class PrdigestGroup(click.Group):
    """Turns a PrdigestError into one line on stderr and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PrdigestError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo(
                "Error: interrupted — what was committed is kept; run the command again to resume",
                err=True,
            )
            sys.exit(130)


@click.group(cls=PrdigestGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="prdigest")
@click.option(
    "--db",
    envvar="PRDIGEST_DB",
    metavar="PATH_OR_URL",
    help="Database (SQLite path; default in the user data dir).",
)
@click.option(
    "--config",
    "config_path",
    envvar="PRDIGEST_CONFIG",
    metavar="FILE",
    help="Configuration file (default ./prdigest.toml if present).",
)
@click.pass_context
def main(ctx: click.Context, db: str | None, config_path: str | None) -> None:
    """prdigest: turn a repository's pull requests into digests, release notes and a DevLog site."""
    ctx.obj = AppContext(db=db, config_path=config_path)


def _register() -> None:
    from . import digest, sync, teams

    main.add_command(sync.sync_command)
    main.add_command(digest.digest_command)
    main.add_command(teams.worker_command)
    main.add_command(teams.status_command)
    for module_name, attribute in _OPTIONAL_COMMANDS:
        try:
            module = __import__(f"{__name__}.{module_name}", fromlist=[attribute])
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module_name}":
                raise
            continue
        main.add_command(getattr(module, attribute))


# Commands from later issues, each in its own module.
_OPTIONAL_COMMANDS: list[tuple[str, str]] = [
    ("classify", "classify_group"),
    ("release_notes", "release_notes_command"),
    ("site", "site_group"),
    ("post", "post_group"),
]

_register()
