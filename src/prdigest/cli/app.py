"""The `prdigest` group: its global options, lazy command loading, and one-line errors."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from .. import __version__
from ..errors import PrdigestError, SyncInterrupted
from .common import AppContext

# Each command lives in its own module, imported only when that command runs (or
# --help lists them): start-up stays fast however heavy one command's imports are.
COMMANDS: dict[str, tuple[str, str]] = {
    "sync": ("sync", "sync_command"),
    "digest": ("digest", "digest_command"),
    "briefs": ("briefs", "briefs_command"),
    "release-notes": ("release_notes", "release_notes_command"),
    "classify": ("classify", "classify_group"),
    "site": ("site", "site_group"),
    "post": ("post", "post_group"),
    "worker": ("teams", "worker_command"),
    "status": ("teams", "status_command"),
    "reports": ("reports", "reports_group"),
}


class PrdigestGroup(click.Group):
    """Loads commands lazily; turns a PrdigestError into one line on stderr and exit code 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module_name, attribute = COMMANDS[name]
        module = importlib.import_module(f"{__package__}.{module_name}")
        command: click.Command = getattr(module, attribute)
        return command

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's own usage errors as one line too (exit code 2)."""
        try:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx else "prdigest"
            misplaced = _misplaced_global(exc)
            if misplaced:
                click.echo(f"Error: {misplaced}", err=True)
                sys.exit(2)
            click.echo(
                f"Error: {exc.format_message().rstrip('.')} — see '{where} --help'", err=True
            )
            sys.exit(2)
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()} — see 'prdigest --help'", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Error: aborted — run the command again to resume", err=True)
            sys.exit(1)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PrdigestError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt as exc:
            kept = exc.kept if isinstance(exc, SyncInterrupted) else "what was committed is kept"
            click.echo(f"Error: interrupted — {kept}; run the command again to resume", err=True)
            sys.exit(130)


GLOBAL_OPTIONS = ("--db", "--config")


def _misplaced_global(exc: click.UsageError) -> str | None:
    """`prdigest status --db X`: say where a global option goes, not only that the command
    has no such option."""
    if not isinstance(exc, click.NoSuchOption) or exc.ctx is None:
        return None
    option = exc.option_name.split("=", 1)[0]
    root = exc.ctx.find_root()
    if option not in GLOBAL_OPTIONS or exc.ctx is root:
        return None
    command = exc.ctx.command_path[len(root.command_path) :].strip()
    return (
        f"{option} is a global option and goes before the command, not after"
        f" '{command}' — write: prdigest {option} {'PATH' if option == '--db' else 'FILE'}"
        f" {command} …"
    )


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
