"""Release notes in tests: worksheet rows read and written, a PR's bullet and module."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from prdigest.release.worksheet import COLUMNS


def read_rows(path: Path) -> list[dict[str, str]]:
    """A worksheet's rows, as dicts by column."""
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def write_rows(path: Path, rows: Sequence[dict[str, str]]) -> None:
    """Write worksheet rows back, as a person editing it would."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def bullet_of(markdown: str, number: int) -> str:
    """The one bullet (past the highlights) that links PR `number`."""
    body = markdown.split("\n## ", 2)[-1]  # past the highlights
    hits = [
        line
        for line in body.splitlines()
        if f"[#{number}](" in line and line.startswith(("* ", "### "))  # `###`: a breaking change
    ]
    assert len(hits) == 1, f"#{number} is in {len(hits)} bullets"
    return hits[0]


def module_of(markdown: str, number: int) -> tuple[str, str]:
    """(section, module) of the bullet that links PR `number`, highlights aside."""
    section = module = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            section, module = line[3:], ""
        elif line.startswith("### ") and f"[#{number}](" in line:
            return section, ""  # a Backwards Incompatible change: its own `###`, no module
        elif line.startswith("### "):
            module = line[4:]
        elif line.startswith("**") and line.endswith("**") and section != "Highlights":
            # a sub-area's lead-in under its top-level area (`### Backends`, `**Arm**`)
            lead = line.strip("*")
            group = module.split(": ", 1)[0]
            module = lead if group == "Miscellaneous" else f"{group}: {lead}"
        elif line.startswith("* ") and f"[#{number}](" in line and section != "Highlights":
            return section, module
    raise AssertionError(f"#{number} is not in the notes")
