"""Release notes in PyTorch's format, drafted from the store and curated in a worksheet.

    from prdigest.release import release_notes, ref_range
    result = release_notes(store, "pytorch/executorch", config, window=window, worksheet=Path("notes.csv"))
    result.report.markdown, result.context.counts

See docs/release-notes.md.
"""

from __future__ import annotations

from .build import ReleaseNotesResult, prs_in_range, release_notes
from .notes_markdown import render_markdown
from .notes_plan import SECTIONS, draft_rows, resolve_rows
from .refs import RefRange, ref_range
from .reverted_in_range import find_reverts
from .sentences import to_sentence
from .worksheet import COLUMNS, WorksheetRow, read_worksheet, write_worksheet

__all__ = [
    "COLUMNS",
    "SECTIONS",
    "RefRange",
    "ReleaseNotesResult",
    "WorksheetRow",
    "draft_rows",
    "find_reverts",
    "prs_in_range",
    "read_worksheet",
    "ref_range",
    "release_notes",
    "render_markdown",
    "resolve_rows",
    "to_sentence",
    "write_worksheet",
]
