"""Read PyTorch's release-notes worksheet (`commitlist.csv`): the labelled data we train
and evaluate on.

Accepted shapes (CLI.md, `classify eval`):
- no header: `commit_hash, category, topic, title[, files_changed, pr_link, author, …]`
  (the column order of PyTorch's `scripts/release_notes/commitlist.py`);
- a header row naming these columns (any order; extra columns are ignored).
CRLF or LF line endings, UTF-8 with or without a BOM. Every row must have the same
number of columns as the first one (or the header): a row that does not is an error
naming the file and the line.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import SourceError
from .rule_tables import normalize_kind, normalize_name

REQUIRED = ("commit_hash", "category", "topic", "title")
# PyTorch's commitlist column order after the four required ones.
POSITIONAL = (*REQUIRED, "files_changed", "pr_link", "author")
UNTOPICED = "untopiced"
_PR_NUMBER = re.compile(r"\(#(\d+)\)")


@dataclass(frozen=True, slots=True)
class WorksheetRow:
    line: int  # 1-based line in the file, for messages
    commit_hash: str
    category: str  # normalized (CLI.md): `python_frontend`, `skip`, …
    topic: str | None  # a kind id, or None for `Untopiced` / unknown topics
    raw_topic: str
    title: str
    files: tuple[str, ...] = ()
    author: str = ""

    @property
    def number(self) -> int | None:
        """The PR number from the title's first `(#N)`."""
        match = _PR_NUMBER.search(self.title)
        return int(match.group(1)) if match else None


def read_worksheet(path: Path | str) -> list[WorksheetRow]:
    """All rows of a worksheet; SourceError (file and line) on anything malformed."""
    source = Path(path)
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        raise SourceError(f"labels file {source} not found", "check the --labels path") from None
    except OSError as exc:
        raise SourceError(
            f"cannot read labels file {source}: {exc.strerror}", "check the file's permissions"
        ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SourceError(
            f"{source}:{line}: not UTF-8 text", "save the worksheet as UTF-8 CSV"
        ) from None
    return parse_worksheet(text, str(source))


def parse_worksheet(text: str, source: str = "<labels>") -> list[WorksheetRow]:
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[WorksheetRow] = []
    columns: dict[str, int] | None = None
    width = 0
    try:
        for cells in reader:
            line = reader.line_num
            if not cells or all(not cell.strip() for cell in cells):
                continue
            if columns is None:
                columns, width, is_header = _layout(cells, source, line)
                if is_header:
                    continue
            if len(cells) != width:
                raise SourceError(
                    f"{source}:{line}: {len(cells)} columns, expected {width} "
                    f"({', '.join(name for name, _ in sorted(columns.items(), key=lambda kv: kv[1])) or '…'})",
                    "fix that row (quote titles that contain commas)",
                )
            rows.append(_row(cells, columns, line, source))
    except csv.Error as exc:
        raise SourceError(
            f"{source}:{reader.line_num}: malformed CSV: {exc}", "fix the quoting on that line"
        ) from None
    if not rows:
        raise SourceError(
            f"{source}: no labelled rows",
            "give a worksheet CSV with commit_hash,category,topic,title rows",
        )
    return rows


def _layout(cells: list[str], source: str, line: int) -> tuple[dict[str, int], int, bool]:
    """Column positions from a header row, or PyTorch's positional order."""
    names = [normalize_name(cell) for cell in cells]
    if "commit_hash" in names or ("category" in names and "title" in names):
        missing = [name for name in REQUIRED if name not in names]
        if missing:
            raise SourceError(
                f"{source}:{line}: header lacks {', '.join(missing)}",
                "name the columns commit_hash, category, topic, title",
            )
        wanted = set(POSITIONAL)
        return {name: i for i, name in enumerate(names) if name in wanted}, len(cells), True
    if len(cells) < len(REQUIRED):
        raise SourceError(
            f"{source}:{line}: {len(cells)} columns, expected at least 4 (commit_hash, category, topic, title)",
            "fix that row or add a header row",
        )
    return {name: i for i, name in enumerate(POSITIONAL[: len(cells)])}, len(cells), False


def _row(cells: list[str], columns: dict[str, int], line: int, source: str) -> WorksheetRow:
    def cell(name: str) -> str:
        index = columns.get(name)
        return cells[index].strip() if index is not None else ""

    category = normalize_name(cell("category"))
    if not category:
        raise SourceError(
            f"{source}:{line}: empty category",
            "fill it in, or use `skip` for rows outside the notes",
        )
    raw_topic = cell("topic")
    topic = None if normalize_name(raw_topic) in ("", UNTOPICED) else normalize_kind(raw_topic)
    files = tuple(cell("files_changed").split())
    return WorksheetRow(
        line, cell("commit_hash"), category, topic, raw_topic, cell("title"), files, cell("author")
    )


def area_key(name: str) -> str:
    """How area names compare with worksheet categories: CLI.md's normalisation, with
    `C++` read as `cpp` (so `C++ Frontend` ≡ `cpp_frontend`)."""
    return normalize_name(name.replace("++", "pp"))


# Worksheet categories whose area has another name in today's PyTorch release notes.
WORKSHEET_ALIASES = {
    "amd": "rocm",
    "vmap_frontend": "functorch",
    "dataloader_frontend": "dataloader",
}
