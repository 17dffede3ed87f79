"""The release-notes worksheet: PyTorch's commitlist CSV, plus a `reason` column.

One row per commit of the range. Humans edit `category` (the module), `topic`
(the kind), `title` (the sentence), `merge_into` (another row's commit: its links
join that row's bullet) and `reason` (why a row stays out; clear it to restore
the row), or delete rows. Re-running keeps every edit and appends new commits.
"""

from __future__ import annotations

import bisect
import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from pathlib import Path

from ..errors import ConfigError
from ..fileio import write_atomic
from ..models import PullRequest

COLUMNS: tuple[str, ...] = (
    "commit_hash",
    "category",
    "topic",
    "title",
    "files_changed",
    "pr_link",
    "author",
    "accepter_1",
    "accepter_2",
    "accepter_3",
    "merge_into",
    "reason",
    "note",
)
# Without these a worksheet cannot be rendered faithfully; the rest is informational.
REQUIRED: tuple[str, ...] = ("commit_hash", "category", "topic", "title", "merge_into", "reason")
_MAX_FILES = 40  # keep cells readable in a spreadsheet


@dataclass(frozen=True)
class WorksheetRow:
    commit_hash: str
    category: str
    topic: str
    title: str
    files_changed: str = ""
    pr_link: str = ""
    author: str = ""
    accepter_1: str = ""
    accepter_2: str = ""
    accepter_3: str = ""
    merge_into: str = ""
    reason: str = ""
    note: str = ""  # what a human should check or write (informational)
    line: int = 0  # where it was read (0: drafted, not read)


def files_cell(pr: PullRequest) -> str:
    paths = [f.path for f in pr.files]
    if len(paths) > _MAX_FILES:
        return " ".join(paths[:_MAX_FILES]) + f" …(+{len(paths) - _MAX_FILES} more)"
    return " ".join(paths)


def accepters(pr: PullRequest) -> list[str]:
    """Up to three reviewers from the `Approved by` / `Reviewed By` trailers."""
    names: list[str] = []
    for key in ("Approved by", "Reviewed By"):
        for value in pr.trailer(key):
            for name in value.replace(",", " ").split():
                name = name.removeprefix("https://github.com/").strip("@/")
                if name and name not in names:
                    names.append(name)
    return (names + ["", "", ""])[:3]


def to_csv(rows: Iterable[WorksheetRow]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_inert(getattr(row, name)) for name in COLUMNS])
    return buffer.getvalue()


def _inert(cell: str) -> str:
    """PR titles are written by strangers: a cell a spreadsheet would run as a formula
    gets a leading space (reading strips it again, so the round trip is exact)."""
    return " " + cell if cell[:1] in ("=", "+", "-", "@") else cell


def write_worksheet(path: Path, rows: Sequence[WorksheetRow]) -> None:
    write_atomic(path, to_csv(rows))


def read_worksheet(path: Path) -> list[WorksheetRow]:
    """Rows as written (with their line numbers); a clear error on a bad file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(
            f"worksheet {path} not found", "check the path given to --apply"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read worksheet {path}: {exc}", "save it as UTF-8 CSV") from None
    return parse_worksheet(text, str(path))


def parse_worksheet(text: str, where: str) -> list[WorksheetRow]:
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if not header:
        raise ConfigError(f"{where} is empty", f"write a worksheet first with --worksheet {where}")
    names = [cell.strip().lower() for cell in header]
    missing = [name for name in REQUIRED if name not in names]
    if missing:
        raise ConfigError(
            f"{where} line 1: missing column(s) {', '.join(missing)}",
            f"keep the header row and these columns: {', '.join(COLUMNS)}",
        )
    known = {f.name for f in fields(WorksheetRow)} - {"line"}
    positions = {name: i for i, name in enumerate(names) if name in known}
    rows: list[WorksheetRow] = []
    for cells in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue  # blank lines are what a spreadsheet leaves behind
        values = {name: cells[i].strip() if i < len(cells) else "" for name, i in positions.items()}
        if not values.get("commit_hash"):
            raise ConfigError(
                f"{where} line {line}: no commit_hash", "fill it in or delete the row"
            )
        rows.append(WorksheetRow(line=line, **values))
    return rows


def merge_rows(
    existing: Sequence[WorksheetRow],
    drafted: Sequence[WorksheetRow],
    landed: dict[str, datetime | None],
) -> tuple[list[WorksheetRow], int]:
    """Keep every existing row as edited; append drafted rows for commits that landed
    after the newest commit already in the worksheet (older commits missing from it
    were deleted by a human and stay deleted). Both lists carry full shas.
    Returns the rows and how many were added."""
    present = {row.commit_hash for row in existing}
    times = [t for t in (landed.get(sha) for sha in present) if t is not None]
    newest = max(times) if times else None
    added = [
        replace(row, line=0)
        for row in drafted
        if row.commit_hash not in present
        and (newest is None or (landed.get(row.commit_hash) or newest) > newest)
    ]
    return [*existing, *added], len(added)


def with_full_shas(
    rows: Sequence[WorksheetRow], shas: Sequence[str], prs: dict[str, PullRequest], where: str
) -> list[WorksheetRow]:
    """Resolve commit_hash and merge_into (a sha prefix, `#N` or a PR link) to full shas
    of the range; an unknown or ambiguous one is an error naming the line."""
    resolver = _Resolver(shas, prs)
    seen: dict[str, int] = {}
    out = []
    for row in rows:
        sha = resolver.resolve(row.commit_hash, where, row.line, "commit_hash")
        if sha in seen:
            raise ConfigError(
                f"{where} line {row.line}: {row.commit_hash} is already on line {seen[sha]}",
                "keep one row per commit (use merge_into to join rows)",
            )
        seen[sha] = row.line
        merge = (
            resolver.resolve(row.merge_into, where, row.line, "merge_into")
            if row.merge_into
            else ""
        )
        out.append(replace(row, commit_hash=sha, merge_into=merge))
    return out


class _Resolver:
    def __init__(self, shas: Sequence[str], prs: dict[str, PullRequest]) -> None:
        self.shas = sorted(shas)
        self.by_number: dict[int, list[str]] = {}
        for sha in shas:
            number = prs[sha].number
            if number is not None:
                self.by_number.setdefault(number, []).append(sha)

    def resolve(self, text: str, where: str, line: int, column: str) -> str:
        value = text.strip()
        number = re.fullmatch(r"(?:#|https?://\S+/pull/)(\d+)/?", value)
        if number:
            hits = self.by_number.get(int(number.group(1)), [])
        elif re.fullmatch(r"[0-9a-fA-F]{7,40}", value):
            value = value.lower()
            at = bisect.bisect_left(self.shas, value)
            hits = []
            while at < len(self.shas) and self.shas[at].startswith(value) and len(hits) < 2:
                hits.append(self.shas[at])
                at += 1
        else:
            raise ConfigError(
                f"{where} line {line}: {column} {text!r} is not a commit hash",
                "give a commit hash (7+ hex digits), #N or a PR link",
            )
        if not hits:
            raise ConfigError(
                f"{where} line {line}: {column} {text} is not a PR of this range",
                "delete the row, or run with the range the worksheet was made for",
            )
        if len(hits) > 1:
            raise ConfigError(
                f"{where} line {line}: {column} {text} matches {len(hits)} commits",
                "give a longer commit hash",
            )
        return hits[0]
