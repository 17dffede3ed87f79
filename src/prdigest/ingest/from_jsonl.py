"""Sync from a JSONL export: resume after the last committed line, if the file still
has the same record there."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from ..models import PullRequest
from ..reporting import Reporter
from ..sources.jsonl import JsonlFile, read_jsonl
from ..sources.records import parse_record
from ..store import Store
from .batches import ingest_records, resume_from
from .result import SyncResult


def sync_jsonl(
    store: Store, repo: str, path: Path, since: datetime | None, reporter: Reporter
) -> SyncResult:
    source = f"jsonl:{path.resolve()}"
    position, floor = resume_from(store.get_cursor(repo, source), since)
    start_line, last_sha = _jsonl_position(position)
    if start_line and not _line_has_sha(path, start_line, last_sha):
        start_line = 0  # the file changed under us: re-read it all (upserts are idempotent)

    file = JsonlFile(path)

    def records() -> Iterator[tuple[str, PullRequest]]:
        """(cursor position `line:sha`, record) line by line."""
        for line, raw in file.records(start_line):
            pr = parse_record(raw, repo, "jsonl", f"{path}:{line}")
            yield f"{line}:{pr.sha}", pr

    def progress(read: int, finished: bool) -> None:
        # The file's size is the total (the records in it are not known until read).
        done = file.size if finished else file.bytes_read()
        reporter.progress(done, file.size, "bytes", f"{read:,} records")

    return ingest_records(store, repo, source, records(), since, progress, floor)


def _jsonl_position(value: str) -> tuple[int, str]:
    if not value:
        return 0, ""
    line, _, sha = value.partition(":")
    return int(line), sha


def _line_has_sha(path: Path, line: int, sha: str) -> bool:
    for number, raw in read_jsonl(path, line - 1):
        return number == line and isinstance(raw, dict) and raw.get("sha") == sha
    return False
