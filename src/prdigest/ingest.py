"""Ingest: bring a repository's PRs from a source into the store.

Incremental (each source keeps a cursor), resumable (a batch and its cursor
commit together) and idempotent (upserts by commit). `pipeline` re-exports this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Config
from .errors import ConfigError, UsageError
from .models import PullRequest
from .reporting import Reporter, SilentReporter
from .sources.records import parse_record
from .store import Store, UpsertCounts
from .timeutil import parse_date, to_iso

if TYPE_CHECKING:
    from .store.upsert import PullRequestWriter

BATCH = 500  # records per transaction: an interrupted sync keeps every committed batch
PIECE = 50  # records written at a time within a batch's transaction (SQLite)


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
    from .sources.jsonl import read_jsonl  # each source's module is loaded when used

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
    from .sources.jsonl import read_jsonl

    for number, raw in read_jsonl(path, line - 1):
        return number == line and raw.get("sha") == sha
    return False


def _sync_git(store: Store, repo: str, spec: SourceSpec, reporter: Reporter) -> SyncResult:
    from .sources.git import iter_git_records, resolve_ref

    clone = spec.git
    assert clone is not None
    ref_name, head = resolve_ref(clone, spec.ref)
    source = f"git:{clone.resolve()}:{ref_name}"
    after, floor = _resume_from(store.get_cursor(repo, source), spec.since)

    def records() -> Iterator[tuple[str, dict[str, Any]]]:
        for raw in iter_git_records(
            clone, repo, ref=spec.ref, since=spec.since, after_sha=after or None, head=head
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
    last: tuple[str, dict[str, Any]] | None = None
    with _Batch(store, repo, source, result) as batch:
        for where, raw in records:
            pr = parse_record(raw, repo, kind, where.partition("|")[0])
            result.read += 1
            last = (where, raw)
            if since is not None and pr.merged_at is not None and pr.merged_at < since:
                continue
            result.direct_pushes += pr.is_direct_push
            batch.add(pr)
            if batch.size >= BATCH:
                batch.commit(_cursor(cursor_of(*last), floor))
                reporter.progress(result.read, None, "records")
        if last is not None:
            batch.commit(_cursor(cursor_of(*last), floor))
        else:
            store.repo_id(repo)
    return result


class _Batch:
    """The open batch: one transaction, begun at its first write. On SQLite its records
    are written a piece at a time as they arrive, so when the source ends little is left
    to write; PostgreSQL gets the batch at once (each statement is a round trip there).
    The batch commits with its cursor, or rolls back whole."""

    def __init__(self, store: Store, repo: str, source: str, result: SyncResult) -> None:
        self._store, self._repo, self._source, self._result = store, repo, source, result
        self._piece = PIECE if store.dialect == "sqlite" else BATCH
        self._transaction: ExitStack | None = None
        self._writer: PullRequestWriter | None = None
        self._pending: list[PullRequest] = []
        self._numbers: list[int | None] = []
        self.size = 0

    def add(self, pr: PullRequest) -> None:
        self._pending.append(pr)
        self._numbers.append(pr.number)
        self.size += 1
        if len(self._pending) >= self._piece:
            self._write_pending()

    def commit(self, cursor: str) -> None:
        """Write what is pending, lay GitHub's records over the batch, move the cursor,
        commit. An empty batch still moves the cursor (records skipped by --since)."""
        self._write_pending()
        if self._store.has_github_records(self._repo):  # the overlay is loaded only then
            from .store.github_store import reapply_github

            reapply_github(self._store, self._repo, self._numbers)  # keep GitHub's labels/state
        self._store.set_cursor(self._repo, self._source, cursor)
        assert self._writer is not None and self._transaction is not None
        self._result.counts.add(self._writer.counts)
        transaction, self._transaction = self._transaction, None
        transaction.close()  # commits
        self._writer, self._numbers, self.size = None, [], 0

    def _write_pending(self) -> None:
        if self._transaction is None:
            self._begin()
        assert self._writer is not None
        if self._pending:
            self._writer.write(self._pending)
            self._pending = []

    def _begin(self) -> None:
        from .store.upsert import PullRequestWriter  # loaded once the source runs (git: started)

        transaction = ExitStack()
        transaction.enter_context(self._store.transaction())
        self._transaction = transaction
        self._writer = PullRequestWriter(self._store, self._repo)

    def __enter__(self) -> _Batch:
        return self

    def __exit__(self, *exc: Any) -> bool | None:
        """An error mid-batch rolls the open batch back (committed ones stay)."""
        transaction, self._transaction = self._transaction, None
        return transaction.__exit__(*exc) if transaction is not None else None


# -- digest --------------------------------------------------------------------
