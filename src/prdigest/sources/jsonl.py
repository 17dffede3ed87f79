"""JSONL source: records in the format of `../shared/data/README.md`, gzip or plain."""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Iterator
from pathlib import Path

from ..errors import SourceError


def read_jsonl(path: Path, start_line: int = 0) -> Iterator[tuple[int, object]]:
    """Yield (line number, record) for lines after `start_line`; blank lines are skipped."""
    return JsonlFile(path).records(start_line)


class JsonlFile:
    """A records file, and how much of it has been read (for progress: its size on disk
    is the total, compressed or not)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._raw: io.BufferedReader | None = None

    @property
    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def bytes_read(self) -> int:
        """Bytes of the file read so far (ahead of the records by a buffer at most)."""
        raw = self._raw
        if raw is None:
            return 0
        return self.size if raw.closed else raw.tell()

    def records(self, start_line: int = 0) -> Iterator[tuple[int, object]]:
        """(line number, record) for lines after `start_line`; blank lines are skipped.
        A record is any JSON value: `records.parse_record` checks it is an object."""
        path = self.path
        if not path.is_file():
            raise SourceError(
                f"{path}: no such file", "give the path of a .jsonl or .jsonl.gz file"
            )
        try:
            with self.path.open("rb") as raw, _text(raw) as handle:
                self._raw = raw
                for number, line in enumerate(handle, start=1):
                    if number <= start_line or not line.strip():
                        continue
                    try:
                        record = json.loads(line.rstrip("\r\n"))  # a cut line: unterminated
                    except json.JSONDecodeError as exc:
                        raise SourceError(
                            f"{path}:{number}: not valid JSON at column {exc.colno}"
                            f" ({_plain(exc.msg)})",
                            "fix or remove that line, then sync again",
                        ) from None
                    yield number, record
        except (OSError, EOFError, UnicodeDecodeError, zlib.error) as exc:
            raise SourceError(
                f"{path}: cannot read: {exc}", "check the file is JSONL, plain or gzip"
            ) from None


def _plain(message: str) -> str:
    """json's message without its dangling place (`Unterminated string starting at`):
    the column is said once, by the caller."""
    for tail in (" starting at", " at"):
        message = message.removesuffix(tail)
    return message[:1].lower() + message[1:]


def _text(raw: io.BufferedReader) -> io.TextIOWrapper:
    """The file's lines, gunzipped when it starts with gzip's magic bytes."""
    compressed = raw.peek(2)[:2] == b"\x1f\x8b"
    binary: gzip.GzipFile | io.BufferedReader = (
        gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw
    )
    return io.TextIOWrapper(binary, encoding="utf-8")
