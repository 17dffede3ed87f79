"""Records from git or JSONL into the store, in batches that commit with their cursor.

Incremental (each source keeps a cursor), resumable (a batch and its cursor
commit together; Ctrl-C commits what was read, so the next sync reads each commit
once) and idempotent (upserts by commit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import ExitStack
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING

from ..errors import SourceError, SyncInterrupted
from ..models import PullRequest
from ..store import Store, UpsertCounts
from ..timeutil import to_iso
from .result import SyncResult, kept_note

if TYPE_CHECKING:
    from ..store.upsert import PullRequestWriter

BATCH = 500  # records per transaction: an interrupted sync keeps every committed batch
PIECE = 50  # records written at a time within a batch's transaction (SQLite)
PROGRESS_EVERY = 100  # records read between progress reports

# Told the records read so far, and whether the source is exhausted (the last report).
Progress = Callable[[int, bool], None]


def resume_from(stored: str | None, since: datetime | None) -> tuple[str, str]:
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


def ingest_records(
    store: Store,
    repo: str,
    source: str,
    records: Iterable[tuple[str, PullRequest]],
    since: datetime | None,
    progress: Progress,
    floor: str,
) -> SyncResult:
    """Store the source's records, each with the cursor position it leaves (a record the
    source cannot parse stops the sync with a SourceError), in batches; each batch and its
    cursor commit together. Progress is told every PROGRESS_EVERY records, and at the end
    when it was told before (a short sync shows none)."""
    result = SyncResult(repo, source.split(":", 1)[0], UpsertCounts(), 0)
    batch = _Batch(store, repo, source, result)
    try:
        _ingest(store, repo, records, since, progress, floor, result, batch)
    except SourceError as exc:  # a bad record or a failing source: say what stays stored
        raise type(exc)(f"{exc.what} ({batch.kept_note()})", exc.fix) from exc
    except KeyboardInterrupt:
        raise SyncInterrupted(batch.kept_note()) from None
    if result.read >= PROGRESS_EVERY:
        progress(result.read, True)
    return result


def _ingest(
    store: Store,
    repo: str,
    records: Iterable[tuple[str, PullRequest]],
    since: datetime | None,
    progress: Progress,
    floor: str,
    result: SyncResult,
    batch: _Batch,
) -> None:
    last: str | None = None  # the cursor position of the last record handled
    with batch:
        try:
            for position, pr in records:
                result.read += 1
                if since is None or pr.merged_at is None or pr.merged_at >= since:
                    result.direct_pushes += pr.is_direct_push
                    batch.add(pr)
                last = position  # after add: a Ctrl-C in between re-reads one, loses none
                if batch.size >= BATCH:
                    batch.commit(_cursor(last, floor))
                if result.read % PROGRESS_EVERY == 0:
                    progress(result.read, False)
        except KeyboardInterrupt:
            # Ctrl-C while the source reads (a partial clone's slow part, say) or progress
            # is drawn: every record handled is whole, so the batch commits with them all
            # and the next sync resumes after the last one read. Mid-write, the batch rolls
            # back whole instead (never half a PR).
            if last is not None and not batch.writing:
                batch.commit(_cursor(last, floor))
            raise
        if last is not None:
            batch.commit(_cursor(last, floor))
        else:
            store.repo_id(repo)


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
        self.kept_prs = self.kept_pushes = 0  # committed by this sync
        self._committing: list[bool] = []  # the open batch: direct push or not, per record
        self._begun = False
        self.writing = False  # inside a write or a commit: stopping there keeps no piece of it

    def kept_note(self) -> str:
        """What this sync committed, said when it stops early."""
        return kept_note(self._repo, self.kept_prs, self.kept_pushes)

    def add(self, pr: PullRequest) -> None:
        self._committing.append(pr.number is None)
        self._pending.append(pr)
        self._numbers.append(pr.number)
        self.size += 1
        if len(self._pending) >= self._piece:
            self.writing = True
            self._write_pending()
            self.writing = False

    def commit(self, cursor: str) -> None:
        """Write what is pending, lay GitHub's records over the batch, move the cursor,
        commit. An empty batch still moves the cursor (records skipped by --since)."""
        self.writing = True
        self._write_pending()
        if self._store.has_github_records(self._repo):  # GitHub's records are loaded only then
            self._store.reapply_github(self._repo, self._numbers)  # keep GitHub's labels/state
        self._store.set_cursor(self._repo, self._source, cursor)
        if not self._begun:  # with the first batch: a sync that stores nothing leaves no trace
            self._store.begin_sync(self._repo, _label(self._source))
            self._begun = True
        assert self._writer is not None and self._transaction is not None
        self._result.counts.add(self._writer.counts)
        transaction, self._transaction = self._transaction, None
        transaction.close()  # commits
        self._writer, self._numbers, self.size = None, [], 0
        self.kept_pushes += sum(self._committing)
        self.kept_prs += len(self._committing) - sum(self._committing)
        self._committing = []
        self.writing = False

    def _write_pending(self) -> None:
        if self._transaction is None:
            self._begin()
        assert self._writer is not None
        if self._pending:
            self._writer.write(self._pending)
            self._pending = []

    def _begin(self) -> None:
        from ..store.upsert import PullRequestWriter  # loaded once the source runs (git: started)

        transaction = ExitStack()
        transaction.enter_context(self._store.transaction())
        self._transaction = transaction
        self._writer = PullRequestWriter(self._store, self._repo)

    def __enter__(self) -> _Batch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool | None:
        """An error mid-batch rolls the open batch back (committed ones stay)."""
        transaction, self._transaction = self._transaction, None
        return transaction.__exit__(kind, error, trace) if transaction is not None else None


def _label(source: str) -> str:
    """A cursor's source as the user gave it: `git:PATH:REF` → `--git PATH`."""
    kind, _, rest = source.partition(":")
    if kind == "git":
        return f"--git {rest.rpartition(':')[0] or rest}"
    return f"--{kind} {rest}" if rest else kind
