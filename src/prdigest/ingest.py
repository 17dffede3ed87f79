"""Ingest: bring a repository's PRs from a source into the store.

Incremental (each source keeps a cursor), resumable (a batch and its cursor
commit together) and idempotent (upserts by commit). `pipeline` re-exports this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any

from .config import Config
from .errors import ConfigError, UsageError
from .models import PullRequest
from .reporting import Reporter, SilentReporter
from .sources.jsonl import read_jsonl
from .sources.records import parse_record
from .store import Store, UpsertCounts
from .timeutil import parse_date, to_iso

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


def _cursor(position: str, floor: str) -> str:
    """`position|floor`; just the position when all history was read."""
    return f"{position}|{floor}" if floor else position


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
            _commit_batch(store, repo, source, batch, _cursor(cursor_of(*last), floor), result)
            reporter.progress(result.read, None, "records")
            batch = []
    if last is not None:
        _commit_batch(store, repo, source, batch, _cursor(cursor_of(*last), floor), result)
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
