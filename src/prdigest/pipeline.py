"""Orchestration: each command is one function here, callable from Python with the
same result as the CLI. No SQL, HTTP or templates: those live in their modules."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .config import Config
from .errors import ConfigError, SourceError
from .models import Classification, PullRequest, Report
from .reporting import Reporter, SilentReporter
from .sources.jsonl import read_jsonl
from .sources.records import parse_record
from .store import Store, UpsertCounts
from .timeutil import Window, last_complete_week, now

BATCH = 500  # records per transaction: an interrupted sync keeps every committed batch


@dataclass(frozen=True)
class SourceSpec:
    """Where to sync from; exactly one of `git` / `jsonl` (neither: the GitHub API)."""

    git: Path | None = None
    jsonl: Path | None = None
    ref: str | None = None
    since: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def given(self) -> bool:
        return self.git is not None or self.jsonl is not None

    def validate(self) -> None:
        if self.git is not None and self.jsonl is not None:
            raise ConfigError("--git and --jsonl were both given", "sync from one source at a time")


@dataclass
class SyncResult:
    repo: str
    source: str
    counts: UpsertCounts
    read: int
    direct_pushes: int = 0

    def summary(self) -> str:
        c = self.counts
        return (
            f"synced {self.repo} from {self.source}: {self.read} read, {c.inserted} new, "
            f"{c.updated} updated, {c.unchanged} unchanged"
        )


def sync(store: Store, repo: str, spec: SourceSpec, reporter: Reporter | None = None) -> SyncResult:
    reporter = reporter or SilentReporter()
    spec.validate()
    _check_repo_name(repo)
    if spec.jsonl is not None:
        return _sync_jsonl(store, repo, spec.jsonl, spec.since, reporter)
    if spec.git is not None:
        return _sync_git(store, repo, spec, reporter)
    from .sources.github import sync_github  # the GitHub source (issue 3)

    return sync_github(store, repo, spec, reporter)  # type: ignore[no-any-return]


def _check_repo_name(repo: str) -> None:
    owner, slash, name = repo.partition("/")
    if not slash or not owner or not name or "/" in name or " " in repo:
        raise ConfigError(
            f"invalid repository {repo!r}", "write it as owner/name, e.g. pytorch/executorch"
        )


def _sync_jsonl(
    store: Store, repo: str, path: Path, since: datetime | None, reporter: Reporter
) -> SyncResult:
    source = f"jsonl:{path.resolve()}"
    start_line, last_sha = _jsonl_cursor(store.get_cursor(repo, source))
    if start_line and not _line_has_sha(path, start_line, last_sha):
        start_line = 0  # the file changed under us: re-read it all (upserts are idempotent)

    def records() -> Iterator[tuple[str, dict[str, Any]]]:
        for line, raw in read_jsonl(path, start_line):
            yield f"{path}:{line}|{line}", raw

    return _ingest(store, repo, source, "jsonl", records(), since, reporter, _jsonl_cursor_value)


def _jsonl_cursor(value: str | None) -> tuple[int, str]:
    if not value:
        return 0, ""
    line, _, sha = value.partition(":")
    return int(line), sha


def _jsonl_cursor_value(where: str, raw: dict[str, Any]) -> str:
    return f"{where.rpartition('|')[2]}:{raw.get('sha', '')}"


def _line_has_sha(path: Path, line: int, sha: str) -> bool:
    for number, raw in read_jsonl(path, line - 1):
        return number == line and raw.get("sha") == sha
    return False


def _sync_git(store: Store, repo: str, spec: SourceSpec, reporter: Reporter) -> SyncResult:
    from .sources.git import iter_git_records, resolve_ref

    assert spec.git is not None
    ref_name, _head = resolve_ref(spec.git, spec.ref)
    source = f"git:{spec.git.resolve()}:{ref_name}"
    after = store.get_cursor(repo, source)

    def records() -> Iterator[tuple[str, dict[str, Any]]]:
        for raw in iter_git_records(
            spec.git, repo, ref=spec.ref, since=spec.since, after_sha=after
        ):  # type: ignore[arg-type]
            yield f"{spec.git}@{raw.get('sha', '?')[:12]}", raw

    return _ingest(
        store, repo, source, "git", records(), spec.since, reporter, lambda _w, raw: str(raw["sha"])
    )


def _ingest(
    store: Store,
    repo: str,
    source: str,
    kind: str,
    records: Iterable[tuple[str, dict[str, Any]]],
    since: datetime | None,
    reporter: Reporter,
    cursor_of: Callable[[str, dict[str, Any]], str],
) -> SyncResult:
    """Parse and store in batches; each batch and its cursor commit together."""
    result = SyncResult(repo, source.split(":", 1)[0], UpsertCounts(), 0)
    batch: list[PullRequest] = []
    last: tuple[str, dict[str, Any]] | None = None
    for where, raw in records:
        pr = parse_record(raw, repo, kind, where.partition("|")[0])
        result.read += 1
        last = (where, raw)
        if since is not None and pr.merged_at is not None and pr.merged_at < since:
            continue
        result.direct_pushes += pr.is_direct_push
        batch.append(pr)
        if len(batch) >= BATCH:
            _commit_batch(store, repo, source, batch, cursor_of(*last), result)
            reporter.progress(result.read, None, "records")
            batch = []
    if last is not None:
        _commit_batch(store, repo, source, batch, cursor_of(*last), result)
    else:
        store.repo_id(repo)
    return result


def _commit_batch(
    store: Store,
    repo: str,
    source: str,
    batch: Sequence[PullRequest],
    cursor: str,
    result: SyncResult,
) -> None:
    with store.transaction():
        result.counts.add(store.upsert_pull_requests(repo, batch))
        store.set_cursor(repo, source, cursor)


# -- digest --------------------------------------------------------------------


@dataclass
class DigestResult:
    report: Report
    context: dict[str, Any]
    warnings: list[str] = field(default_factory=list)


def stored_span(store: Store, repo: str) -> tuple[datetime, datetime]:
    span = store.merged_range(repo)
    if span is None:
        raise SourceError(
            f"no pull requests of {repo} in the store",
            f"sync first: prdigest sync {repo} --git PATH (or --jsonl FILE)",
        )
    return span


def default_window(store: Store, repo: str) -> Window:
    return last_complete_week(min(stored_span(store, repo)[1], now()))


def classified(
    store: Store, repo: str, window: Window, config: Config, profile_name: str | None = None
) -> tuple[list[tuple[PullRequest, Classification]], list[tuple[PullRequest, Classification]], Any]:
    """The window's and the previous window's PRs with their classifications (stored too)."""
    from .classify import profile_for

    current = store.merged_between(repo, window.start, window.end)
    previous_window = window.previous()
    previous = store.merged_between(repo, previous_window.start, previous_window.end)
    profile = profile_for(repo, config, profile_name)
    decided = profile.classify_all([*current, *previous])
    store.save_classifications(repo, zip(current, decided[: len(current)], strict=True))
    pairs = list(zip(current, decided[: len(current)], strict=True))
    previous_pairs = list(zip(previous, decided[len(current) :], strict=True))
    return pairs, previous_pairs, profile


def build_digest_context(
    store: Store, repo: str, window: Window, config: Config, profile_name: str | None = None
) -> dict[str, Any]:
    from .analyze import build_context

    pairs, previous_pairs, profile = classified(store, repo, window, config, profile_name)
    emails = {pr.author_email for pr, _ in pairs}
    known = store.authors_seen_before(repo, emails, window.start)
    descriptions = {name: profile.area_description(name) for name in profile.area_names()}
    return build_context(repo, window, pairs, previous_pairs, known, area_descriptions=descriptions)


def digest(
    store: Store,
    repo: str,
    window: Window | None,
    config: Config,
    *,
    writer: str = "auto",
    profile_name: str | None = None,
    llm_options: dict[str, Any] | None = None,
    reporter: Reporter | None = None,
) -> DigestResult:
    """Analyse a window, write its digest and store it."""
    reporter = reporter or SilentReporter()
    stored_span(store, repo)
    window = window or default_window(store, repo)
    context = build_digest_context(store, repo, window, config, profile_name)
    markdown, used_writer, warnings = _write(
        store, context, config, writer, llm_options or {}, reporter
    )
    report = Report(
        repo=repo,
        kind="digest",
        window_start=window.first_day.isoformat(),
        window_end=window.last_day.isoformat(),
        writer=used_writer,
        title=markdown.splitlines()[0].lstrip("# ").strip()
        if markdown
        else context.get("title", ""),
        markdown=markdown,
        context=context,
        created_at=now(),
    )
    store.save_report(report)
    return DigestResult(report, context, warnings)


def _write(
    store: Store,
    context: dict[str, Any],
    config: Config,
    writer: str,
    llm_options: dict[str, Any],
    reporter: Reporter,
) -> tuple[str, str, list[str]]:
    from .write.deterministic import write_digest

    if writer not in ("auto", "deterministic", "llm"):
        raise ConfigError(f"unknown writer {writer!r}", "use auto, deterministic or llm")
    if writer != "deterministic":
        try:
            from .write import llm
        except ImportError:
            llm = None  # type: ignore[assignment]
        if llm is not None:
            outcome = llm.write_with_fallback(store, context, config, writer, llm_options, reporter)
            if outcome is not None:
                return outcome
        elif writer == "llm":
            raise ConfigError(
                "the LLM writer is not available in this build", "use --writer deterministic"
            )
    return write_digest(context), "deterministic", []
