"""What every command shares: the app context, source options, output and errors."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..config import Config, check_repo_name, llm_setting_problem, load_config
from ..errors import ConfigError, SourceError, StoreError
from ..fileio import write_atomic
from ..ingest import GitHubOptions, SourceSpec
from ..store import Store, open_store
from ..store.location import sqlite_path
from ..timeutil import parse_date

if TYPE_CHECKING:
    from .progress import PlainLines
    from .progress_bars import Bars

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class AppContext:
    db: str | None
    config_path: str | None
    _store: Store | None = field(default=None, repr=False)
    _config: Config | None = field(default=None, repr=False)

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store(self.db)
        return self._store

    @property
    def existing_store(self) -> Store:
        """The store of a command that only reads: a SQLite file that is not there is an
        error naming it (opening would create it, and a mistyped --db would pass silently)."""
        path = sqlite_path(self.db)
        if self._store is None and path is not None and not path.exists():
            raise StoreError(
                f"no database at {path}",
                "sync first (prdigest sync OWNER/NAME --git PATH or --jsonl FILE),"
                " or give the --db of an existing one",
            )
        return self.store

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config


pass_app = click.make_pass_decorator(AppContext)


class StderrReporter:
    """Talk on stderr. Progress: a rich bar on a terminal (rich is imported once a bar is
    shown), plain lines otherwise (`progress.PlainLines`); running commentary only on a
    terminal; warnings and the closing summary always. `show_progress=False`: no counts
    (a worker's concurrent jobs), only waits."""

    def __init__(self, *, show_progress: bool = True) -> None:
        self.tty = sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
        self.show_progress = show_progress
        self._bars: Bars | None = None
        self._lines: PlainLines | None = None
        context = click.get_current_context(silent=True)
        if context is not None:  # an error or Ctrl-C: the bar goes before the message
            context.call_on_close(self.close)

    def progress(self, done: int, total: int | None, what: str, detail: str = "") -> None:
        if self.show_progress:
            self._display().progress(done, total, what, detail)

    def waiting(self, left: float, why: str) -> None:
        self._display().waiting(left, why)

    def info(self, message: str) -> None:
        """Running commentary (a step is over: its bar goes): a terminal shows it; a log
        keeps only warnings, waits and the summary."""
        if self.tty:
            self.close()
            click.echo(message, err=True)

    def warn(self, message: str) -> None:
        if self._bars is not None:
            self._bars.print(f"Warning: {message}")
        else:
            click.echo(f"Warning: {message}", err=True)

    def done(self, message: str) -> None:
        self.close()
        click.echo(message, err=True)

    def close(self) -> None:
        """End the step's progress: its bar goes; the next step's is measured afresh."""
        bars, self._bars, self._lines = self._bars, None, None
        if bars is not None:
            bars.close()

    def _display(self) -> Bars | PlainLines:
        # Loaded once there is progress to show: most commands never do, and start-up stays fast.
        if not self.tty:
            if self._lines is None:
                from .progress import PlainLines

                self._lines = PlainLines(lambda line: click.echo(line, err=True))
            return self._lines
        if self._bars is None:
            from .progress_bars import Bars

            self._bars = Bars()
        return self._bars


def repo_argument(required: bool = True) -> Callable[[F], F]:
    """REPO as every command takes it: checked as GitHub checks names, before anything runs
    (a name no repository can have would otherwise be stored, and break the site's files)."""

    def checked(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        return None if value is None else check_repo_name(value)

    return click.argument("repo", required=required, callback=checked)


def llm_setting(key: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """An --llm-* flag's callback: the value checked by config's one check of LLM settings."""

    def checked(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        problem = None if value is None else llm_setting_problem(key, value)
        if problem is not None:
            raise click.BadParameter(problem)
        return value

    return checked


def stored_repo(store: Store, repo: str) -> None:
    """A REPO the store lacks but holds under another case (`PyTorch/TorchTitan` for
    `pytorch/torchtitan`) is an error that names the stored one."""
    names = store.repositories()
    if repo in names:
        return
    same = [name for name in names if name.lower() == repo.lower()]
    if same:
        raise SourceError(
            f"{repo} is not in the store, but {same[0]} is",
            f"use {same[0]} (the store keeps a repository under the name it was synced as)",
        )


def sync_again(store: Store, repo: str) -> str:
    """The command that syncs `repo` again from the source it was last synced from."""
    for source in store.sync_sources(repo):
        kind, _, rest = source.partition(":")
        if kind == "git":
            path, _, ref = rest.rpartition(":")
            return f"prdigest sync {repo} --git {path} --ref {ref.removeprefix('refs/heads/')}"
        if kind == "jsonl":
            return f"prdigest sync {repo} --jsonl {rest}"
        if kind == "github":
            return f"prdigest sync {repo}"
    return f"prdigest sync {repo} --git PATH (or --jsonl FILE)"


SYNC_SINCE_HELP = "Oldest activity to fetch (YYYY-MM-DD, UTC)."


def source_options(func: F | None = None, *, since_help: str = SYNC_SINCE_HELP) -> Any:
    """--git / --jsonl / --ref / --since, as in CLI.md; `since_help` says what --since means
    to the command (for `digest` it is the window's first day, not how far back to fetch)."""
    if func is None:
        return lambda f: source_options(f, since_help=since_help)
    options = [
        click.option(
            "--git", "git_path", type=click.Path(path_type=Path), help="A local clone to read."
        ),
        click.option(
            "--jsonl",
            "jsonl_path",
            type=click.Path(path_type=Path),
            help="Records file (.jsonl or .jsonl.gz).",
        ),
        click.option("--ref", help="Branch or ref of the clone (default: its default branch)."),
        click.option(
            "--since",
            "since_text",
            metavar="DATE",
            help=since_help,
        ),
        click.option("--github-api-url", envvar="GITHUB_API_URL", help="GitHub API base URL."),
        click.option(
            "--api",
            type=click.Choice(["auto", "rest", "graphql"]),
            default="auto",
            show_default=True,
            help="GitHub API flavour; `rest` forces REST.",
        ),
        click.option(
            "--no-wait", is_flag=True, help="On a GitHub rate limit, stop instead of waiting."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def source_spec(kwargs: dict[str, object]) -> SourceSpec:
    """Pop the source options (`source_options`) out of a command's kwargs."""
    since_text, ref = _text(kwargs.pop("since_text", None)), _text(kwargs.pop("ref", None))
    since = (
        datetime.combine(parse_date(since_text, "--since"), time.min, UTC) if since_text else None
    )
    git, jsonl = kwargs.pop("git_path", None), kwargs.pop("jsonl_path", None)
    github = GitHubOptions(
        api_url=_text(kwargs.pop("github_api_url", None)),
        api=_text(kwargs.pop("api", None)) or "auto",
        no_wait=bool(kwargs.pop("no_wait", False)),
    )
    spec = SourceSpec(
        git=git if isinstance(git, Path) else None,  # click.Path(path_type=Path) makes them
        jsonl=jsonl if isinstance(jsonl, Path) else None,
        ref=ref,
        since=since,
        github=github,
    )
    spec.validate()
    return spec


def _text(value: object) -> str | None:
    """A text option's value (click gives str, or None when not given)."""
    return str(value) if value is not None else None


def emit(text: str, out: Path | None) -> None:
    """Data to --out (atomically) or stdout."""
    if out is None:
        click.echo(text, nl=not text.endswith("\n"))
        return
    if out.is_dir():
        raise ConfigError(f"--out {out} is a directory", "give a file path")
    write_atomic(out, text)


def llm_options(func: F) -> F:
    """The LLM flags `digest` and `briefs` take (docs/llm.md), each into `llm_<name>`."""
    options = [
        click.option(
            "--llm-base-url",
            "llm_base_url",
            envvar="OPENAI_BASE_URL",
            metavar="URL",
            help="OpenAI-compatible server, e.g. http://localhost:11434/v1 (env OPENAI_BASE_URL).",
        ),
        click.option(
            "--llm-model",
            "llm_model",
            envvar="PRDIGEST_LLM_MODEL",
            metavar="NAME",
            help="Model name (env PRDIGEST_LLM_MODEL).",
        ),
        click.option(
            "--llm-concurrency",
            "llm_concurrency",
            type=int,
            callback=llm_setting("concurrency"),
            metavar="N",
            help="Requests in flight at once (default 2).",
        ),
        click.option(
            "--llm-context",
            "llm_context",
            type=int,
            callback=llm_setting("context"),
            metavar="TOKENS",
            help="Token budget of one request, prompt and answer (default 8192).",
        ),
        click.option(
            "--llm-timeout",
            "llm_timeout",
            type=float,
            callback=llm_setting("timeout"),
            metavar="SECONDS",
            help="Seconds to wait for one LLM answer (default: from the server's measured speed).",
        ),
        click.option(
            "--strict",
            "llm_strict",
            is_flag=True,
            help="Fail instead of falling back, or of giving prdigest's words for a model"
            " sentence that failed verification.",
        ),
        click.option(
            "--refresh",
            "llm_refresh",
            is_flag=True,
            help="Ask the model again for briefs already stored, and the server for its context.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func
