"""Orchestration: each command is one function here, callable from Python with the
same result as the CLI. No SQL, HTTP or templates: those live in their modules."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any

from .config import Config
from .errors import ConfigError, SourceError, UsageError
from .models import Classification, PullRequest, Report
from .reporting import Reporter, SilentReporter
from .sources.jsonl import read_jsonl
from .sources.records import parse_record
from .store import Store, UpsertCounts
from .timeutil import Window, last_complete_week, now, parse_date, to_iso

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
            raise UsageError("--git and --jsonl were both given", "sync from one source at a time")


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


def configured_repos(config: Config) -> list[str]:
    """The repositories listed in prdigest.toml (`[repos."owner/name"]`)."""
    repos = sorted(config.section("repos"))
    if not repos:
        raise ConfigError(
            "no repositories are configured",
            'list them in prdigest.toml as [repos."owner/name"] tables (see docs/configuration.md)',
        )
    return repos


def spec_for(repo: str, config: Config) -> SourceSpec:
    """The source of a configured repository: `git` / `jsonl` paths, else the GitHub API."""
    settings = config.repo_settings(repo)
    since = settings.get("since")
    return SourceSpec(
        git=Path(settings["git"]).expanduser() if settings.get("git") else None,
        jsonl=Path(settings["jsonl"]).expanduser() if settings.get("jsonl") else None,
        ref=settings.get("ref"),
        since=datetime.combine(parse_date(str(since), "since"), time.min, UTC) if since else None,
        extra={
            "github_api_url": settings.get("github_api_url"),
            "api": settings.get("api", "auto"),
        },
    )


def resolve_spec(repo: str, config: Config, given: SourceSpec) -> SourceSpec:
    """Command-line source options win; without --git/--jsonl, the repository's configured
    source applies (GitHub options from the command line still count)."""
    if given.given:
        return given
    configured = spec_for(repo, config)
    extra = {
        **configured.extra,
        **{k: v for k, v in given.extra.items() if v not in (None, "auto", False)},
    }
    return SourceSpec(
        git=configured.git,
        jsonl=configured.jsonl,
        ref=given.ref or configured.ref,
        since=given.since or configured.since,
        extra=extra,
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

    return sync_github(store, repo, spec, reporter)


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
    position, floor = _resume_from(store.get_cursor(repo, source), since)
    start_line, last_sha = _jsonl_position(position)
    if start_line and not _line_has_sha(path, start_line, last_sha):
        start_line = 0  # the file changed under us: re-read it all (upserts are idempotent)

    def records() -> Iterator[tuple[str, dict[str, Any]]]:
        for line, raw in read_jsonl(path, start_line):
            yield f"{path}:{line}|{line}", raw

    return _ingest(
        store, repo, source, "jsonl", records(), since, reporter, _jsonl_cursor_value, floor
    )


def _resume_from(stored: str | None, since: datetime | None) -> tuple[str, str]:
    """(position to resume after, floor) from a stored cursor `position|floor`.

    The floor is the oldest landing the stored history covers ('' = all of it): a
    sync asking for older history than that starts again from the beginning, since
    the records before the floor were skipped, not stored."""
    asked = to_iso(since) if since else ""
    if not stored:
        return "", asked
    position, _, floor = stored.partition("|")
    if floor and (not asked or asked < floor):
        return "", asked
    return position, floor


def _jsonl_position(value: str) -> tuple[int, str]:
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

    clone = spec.git
    assert clone is not None
    ref_name, _head = resolve_ref(clone, spec.ref)
    source = f"git:{clone.resolve()}:{ref_name}"
    after, floor = _resume_from(store.get_cursor(repo, source), spec.since)

    def records() -> Iterator[tuple[str, dict[str, Any]]]:
        for raw in iter_git_records(
            clone, repo, ref=spec.ref, since=spec.since, after_sha=after or None
        ):
            yield f"{clone}@{str(raw.get('sha', '?'))[:12]}", raw

    return _ingest(
        store,
        repo,
        source,
        "git",
        records(),
        spec.since,
        reporter,
        lambda _w, raw: str(raw["sha"]),
        floor,
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
    floor: str,
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
            _commit_batch(store, repo, source, batch, f"{cursor_of(*last)}|{floor}", result)
            reporter.progress(result.read, None, "records")
            batch = []
    if last is not None:
        _commit_batch(store, repo, source, batch, f"{cursor_of(*last)}|{floor}", result)
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
    from .store.github_store import reapply_github

    with store.transaction():
        result.counts.add(store.upsert_pull_requests(repo, batch))
        reapply_github(
            store, repo, [pr.number for pr in batch]
        )  # keep GitHub's labels/state (issue 3)
        store.set_cursor(repo, source, cursor)


# -- digest --------------------------------------------------------------------


@dataclass
class DigestResult:
    report: Report
    context: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # for the closing summary line


def stored_span(store: Store, repo: str) -> tuple[datetime, datetime]:
    span = store.merged_range(repo)
    if span is None:
        raise SourceError(
            f"no pull requests of {repo} in the store",
            f"sync first: prdigest sync {repo} --git PATH (or --jsonl FILE)",
        )
    return span


COUNT_MODES = ("merged", "opened", "all")


def window_prs(
    store: Store, repo: str, start: datetime, end: datetime, count_mode: str = "merged"
) -> list[PullRequest]:
    """What counts in [start, end): PRs merged there (default), opened there, or either."""
    if count_mode == "merged":
        return store.merged_between(repo, start, end)
    if count_mode not in COUNT_MODES:
        raise ConfigError(f"unknown --count {count_mode!r}", "use merged, opened or all")
    from .store.github_store import created_between, has_github_data

    if count_mode == "opened" and not has_github_data(store, repo):
        raise ConfigError(
            f"--count opened needs to know when {repo}'s PRs were opened, which only GitHub says",
            f"sync from GitHub first (prdigest sync {repo}), or use --count merged",
        )
    opened = created_between(store, repo, start, end)
    if count_mode == "opened":
        return opened
    merged = store.merged_between(repo, start, end)
    seen = {(pr.number, pr.sha) for pr in merged}
    return merged + [pr for pr in opened if (pr.number, pr.sha) not in seen]


def classified(
    store: Store,
    repo: str,
    window: Window,
    config: Config,
    profile_name: str | None = None,
    count_mode: str = "merged",
) -> tuple[list[tuple[PullRequest, Classification]], list[tuple[PullRequest, Classification]], Any]:
    """The window's and the previous window's PRs with their classifications (stored too)."""
    from .classify import profile_for

    current = window_prs(store, repo, window.start, window.end, count_mode)
    previous_window = window.previous()
    previous = window_prs(store, repo, previous_window.start, previous_window.end, count_mode)
    profile = profile_for(repo, config, profile_name)
    decided = profile.classify_all([*current, *previous])
    store.save_classifications(repo, zip(current, decided[: len(current)], strict=True))
    pairs = list(zip(current, decided[: len(current)], strict=True))
    previous_pairs = list(zip(previous, decided[len(current) :], strict=True))
    return pairs, previous_pairs, profile


def build_digest_context(
    store: Store,
    repo: str,
    window: Window,
    config: Config,
    profile_name: str | None = None,
    count_mode: str = "merged",
) -> dict[str, Any]:
    from .analyze import build_context

    pairs, previous_pairs, profile = classified(
        store, repo, window, config, profile_name, count_mode
    )
    emails = {pr.author_email for pr, _ in pairs}
    known = store.authors_seen_before(repo, emails, window.start)
    descriptions = {name: profile.area_description(name) for name in profile.area_names()}
    context = build_context(
        repo, window, pairs, previous_pairs, known, area_descriptions=descriptions
    )
    return _with_count_mode(store, repo, window, context, count_mode)


def _with_count_mode(
    store: Store, repo: str, window: Window, context: dict[str, Any], count_mode: str
) -> dict[str, Any]:
    """Say which PRs the digest counts; merged and opened side by side when GitHub told us."""
    from .store.github_store import created_between, has_github_data

    context["count_mode"] = count_mode
    if has_github_data(store, repo):
        counts = context.setdefault("counts", {})
        merged = store.merged_between(repo, window.start, window.end)
        counts["merged"] = sum(pr.number is not None for pr in merged)
        counts["opened"] = len(created_between(store, repo, window.start, window.end))
    return context


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
    count_mode: str = "merged",
) -> DigestResult:
    """Analyse a window, write its digest and store it."""
    reporter = reporter or SilentReporter()
    _, newest = stored_span(store, repo)
    window = window or last_complete_week(min(newest, now()))
    if window.start > max(newest, now()) or (count_mode == "merged" and window.start > newest):
        raise SourceError(
            f"nothing of {repo} in the store for {window.label}: its newest landed PR is"
            f" from {newest:%Y-%m-%d}",
            f"sync first (prdigest sync {repo} …) or pick an earlier window",
        )
    context = build_digest_context(store, repo, window, config, profile_name, count_mode)
    markdown, used_writer, warnings, notes = _write(
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
    return DigestResult(report, context, warnings, notes)


def _write(
    store: Store,
    context: dict[str, Any],
    config: Config,
    writer: str,
    llm_options: dict[str, Any],
    reporter: Reporter,
) -> tuple[str, str, list[str], list[str]]:
    """(markdown, the writer that wrote it, warnings, notes for the closing summary)."""
    from .write import llm
    from .write.deterministic import write_digest

    if writer not in ("auto", "deterministic", "llm"):
        raise ConfigError(f"unknown writer {writer!r}", "use auto, deterministic or llm")
    if writer != "deterministic":
        outcome = llm.write_with_fallback(store, context, config, writer, llm_options, reporter)
        if outcome is not None:
            return outcome
    return write_digest(context), "deterministic", [], []
