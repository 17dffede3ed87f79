"""What the store knows from outside the window, handed to `build_context` in one piece.

The pipeline fills it from the store (`store/` queries, one per window or cached per run);
`analyze` never reads the store itself. Each field stands on its own line, and every field
has a default, so that the analysis of a window without history still runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .spelling import Spelling


@dataclass(frozen=True, kw_only=True)
class History:
    # how the repository's titles (up to the window's end) write words and names
    spelling: Spelling = field(default_factory=Spelling)
