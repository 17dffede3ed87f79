"""Sync from a git clone: first-parent history of a ref, resumed after the last
committed commit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from ..models import PullRequest
from ..reporting import Reporter
from ..sources import git as git_source
from ..sources.git_count import CommitCount
from ..sources.git_partial import iter_clone_records
from ..sources.mailmap import mailmap
from ..sources.records import parse_record
from ..sources.source_spec import SourceSpec
from ..store import Store
from .batches import ingest_records, resume_from
from .result import SyncResult

# Seconds a sync runs before the commits it reads are counted for the progress total:
# a shorter one needs no total and pays nothing for it (`git rev-list` costs ~5% of
# `git log`'s CPU on a 2,000-commit history).
COUNT_AFTER = 1.0


def sync_git(store: Store, repo: str, spec: SourceSpec, reporter: Reporter) -> SyncResult:
    clone = spec.git
    assert clone is not None
    ref_name, head = git_source.resolve_ref(clone, spec.ref)
    source = f"git:{clone.resolve()}:{ref_name}"
    after, floor = resume_from(store.get_cursor(repo, source), spec.since)
    count = CommitCount(clone)  # the progress total, counted beside the log
    unavailable: dict[str, int] = {}  # commit: its files without line counts (partial clone)

    def records() -> Iterator[tuple[str, PullRequest]]:
        """(cursor position: the commit, record) commit by commit."""
        for commit in iter_clone_records(
            clone,
            repo,
            ref=spec.ref,
            since=spec.since,
            after_sha=after or None,
            head=head,
            on_range=count.set_range,
            on_unavailable=unavailable.__setitem__,
        ):
            where = f"{clone}@{commit.sha[:12]}"
            yield commit.sha, parse_record(commit.as_record(), repo, "git", where)

    started = time.monotonic()

    def progress(read: int, finished: bool) -> None:
        if finished:
            total: int | None = read  # what was read is the whole of it
        elif time.monotonic() - started >= COUNT_AFTER:
            total = count.poll()  # the first call starts the count, the next ones read it
        else:
            total = None
        reporter.progress(read, total, "commits")

    try:
        result = ingest_records(
            store,
            repo,
            source,
            records(),
            spec.since,
            progress,
            floor,
        )
    finally:
        count.close()
    if unavailable:
        reporter.warn(_unavailable_note(clone, repo, unavailable))
    # Who is who, as the clone's .mailmap says now, over every identity stored: an entry
    # added later reaches commits synced before it (the records stay as git recorded them).
    mapping = mailmap(clone, head, store.author_identities(repo))
    store.replace_mailmap(repo, mapping)
    return result


def _unavailable_note(clone: Path, repo: str, unavailable: dict[str, int]) -> str:
    files, commits = sum(unavailable.values()), len(unavailable)
    return (
        f"{files} {'file' if files == 1 else 'files'} in {commits} "
        f"{'commit' if commits == 1 else 'commits'} {'has' if files == 1 else 'have'} no line counts: {clone} is a partial "
        "clone that lacks their contents, and prdigest fetches nothing (their PRs are all "
        f"stored) — to count them, sync {repo} from a full clone (git clone without --filter)"
    )
