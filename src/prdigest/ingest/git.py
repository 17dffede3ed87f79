"""Sync from a git clone: first-parent history of a ref, resumed after the last
committed commit; then the clone's `.mailmap` over every stored author identity."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..reporting import Reporter
from ..sources import git as git_source  # looked up at each call (tests replace it)
from ..sources.mailmap import mailmap
from ..sources.spec import SourceSpec
from ..store import Store
from ..store.people import author_identities, replace_mailmap
from .records import ingest_records, resume_from
from .result import SyncResult


def sync_git(store: Store, repo: str, spec: SourceSpec, reporter: Reporter) -> SyncResult:
    clone = spec.git
    assert clone is not None
    ref_name, head = git_source.resolve_ref(clone, spec.ref)
    source = f"git:{clone.resolve()}:{ref_name}"
    after, floor = resume_from(store.get_cursor(repo, source), spec.since)

    def records() -> Iterator[tuple[str, dict[str, Any]]]:
        for raw in git_source.iter_git_records(
            clone, repo, ref=spec.ref, since=spec.since, after_sha=after or None, head=head
        ):
            yield f"{clone}@{str(raw.get('sha', '?'))[:12]}", raw

    result = ingest_records(
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
    # Who is who, as the clone's .mailmap says now, over every identity stored: an entry
    # added later reaches commits synced before it (the records stay as git recorded them).
    mapping = mailmap(clone, head, author_identities(store, repo))
    replace_mailmap(store, repo, mapping)
    return result
