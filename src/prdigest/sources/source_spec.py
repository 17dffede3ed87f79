"""Where a repository's PRs are read from: a git clone, a JSONL file, or the GitHub API.

Both sides use it: the CLI and configuration build one, ingestion reads it. It lives
with the sources (which import neither the store nor ingestion) so neither side
imports the other to get it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import UsageError


@dataclass(frozen=True)
class SourceSpec:
    """Where to sync from; exactly one of `git` / `jsonl` (neither: the GitHub API)."""

    git: Path | None = None
    jsonl: Path | None = None
    ref: str | None = None
    since: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def given(self) -> bool:
        return self.git is not None or self.jsonl is not None

    def validate(self) -> None:
        if self.git is not None and self.jsonl is not None:
            raise UsageError("--git and --jsonl were both given", "sync from one source at a time")
