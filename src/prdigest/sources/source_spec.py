"""Where a repository's PRs are read from: a git clone, a JSONL file, or the GitHub API.

Both sides use it: the CLI and configuration build one, ingestion reads it. It lives
with the sources (which import neither the store nor ingestion) so neither side
imports the other to get it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True)
class GitHubOptions:
    """How the GitHub API is asked: the flags (and `[repos]` keys) `--github-api-url`,
    `--api`, `--no-wait`; the rest lets a test sync from a fake GitHub without waiting."""

    api_url: str | None = None  # None: GITHUB_API_URL, else api.github.com
    api: str = "auto"  # auto | rest | graphql
    no_wait: bool = False  # on a rate limit, stop instead of waiting
    timeout: float = 30.0  # seconds per request
    backoff: float = 1.0  # first retry's wait
    max_attempts: int = 6
    page_size: int = 100  # PRs a listing page (GitHub's maximum)
    sleep: Callable[[float], None] | None = None  # None: time.sleep
    transport: httpx.BaseTransport | None = None

    def under(self, given: GitHubOptions) -> GitHubOptions:
        """These (configured) options with the flags `given` on the command line over them."""
        return replace(
            self,
            api_url=given.api_url or self.api_url,
            api=given.api if given.api != "auto" else self.api,
            no_wait=given.no_wait or self.no_wait,
        )


@dataclass(frozen=True)
class SourceSpec:
    """Where to sync from; exactly one of `git` / `jsonl` (neither: the GitHub API)."""

    git: Path | None = None
    jsonl: Path | None = None
    ref: str | None = None
    since: datetime | None = None
    github: GitHubOptions = field(default_factory=GitHubOptions)

    @property
    def given(self) -> bool:
        return self.git is not None or self.jsonl is not None

    def validate(self) -> None:
        if self.git is not None and self.jsonl is not None:
            raise UsageError("--git and --jsonl were both given", "sync from one source at a time")
