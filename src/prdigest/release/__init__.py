"""Release notes in PyTorch's format, drafted from a range's PRs and curated in a worksheet.
The pipeline loads the PRs and stores the report (`prdigest.pipeline.release_notes`):

    from prdigest.pipeline import release_notes
    result = release_notes(store, "pytorch/executorch", config, window=window, worksheet=Path("notes.csv"))
    result.report.markdown, result.context.counts

See docs/release-notes.md.
"""

from __future__ import annotations

from .compose import Classifier, ReleaseNotesResult, compose_notes
from .notes_markdown import render_markdown
from .notes_plan import SECTIONS, draft_rows, resolve_rows
from .refs import RefRange, ref_range
from .reverted_in_range import find_reverts
from .sentences import to_sentence
from .worksheet import COLUMNS, WorksheetRow, read_worksheet, write_worksheet

__all__ = [
    "COLUMNS",
    "Classifier",
    "SECTIONS",
    "RefRange",
    "ReleaseNotesResult",
    "WorksheetRow",
    "compose_notes",
    "draft_rows",
    "find_reverts",
    "read_worksheet",
    "ref_range",
    "render_markdown",
    "resolve_rows",
    "to_sentence",
    "write_worksheet",
]
