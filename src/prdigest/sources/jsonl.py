"""JSONL source: records in the format of `../shared/data/README.md`, gzip or plain."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..errors import SourceError


def read_jsonl(path: Path, start_line: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, record) for lines after `start_line`; blank lines are skipped."""
    if not path.is_file():
        raise SourceError(f"{path}: no such file", "give the path of a .jsonl or .jsonl.gz file")
    try:
        with _open(path) as handle:
            for number, line in enumerate(handle, start=1):
                if number <= start_line or not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise SourceError(
                        f"{path}:{number}: not valid JSON ({exc.msg} at column {exc.colno})",
                        "fix or remove that line, then sync again",
                    ) from None
                yield number, record
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise SourceError(
            f"{path}: cannot read: {exc}", "check the file is JSONL, plain or gzip"
        ) from None


def _open(path: Path) -> IO[str]:
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")
