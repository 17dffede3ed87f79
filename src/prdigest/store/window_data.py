"""A window as a digest reads it: what counts in it (merged, opened or either), what
counted the window before, and what the digest says of the stored history besides, read
once (`Store.window`) and handed down to the analysis and the writers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..errors import ConfigError
from ..models import PullRequest
from ..timeutil import Window
from .coverage import SyncCoverage
from .prs import PullRequestTables

COUNT_MODES = ("merged", "opened", "all")


@dataclass(frozen=True, slots=True)
class WindowData:
    """One digest's window as the store holds it, read once (`Store.window`) and handed
    down: what counts in it and in the window before, what merged in it (the LLM writer's
    texts), the stored history's span and start, and the merged and opened counts side
    by side when GitHub said when PRs were opened."""

    window: Window
    count_mode: str
    prs: tuple[PullRequest, ...]
    previous: tuple[PullRequest, ...]
    merged: tuple[PullRequest, ...]
    span: tuple[datetime, datetime] | None  # the first and last landing stored
    synced_since: datetime | None  # the synced history's start (`sync --since`)
    merged_and_opened: tuple[int, int] | None


class WindowReads(PullRequestTables, SyncCoverage):
    def window_prs(
        self, repo: str, start: datetime, end: datetime, count_mode: str = "merged"
    ) -> list[PullRequest]:
        """What counts in [start, end): PRs merged there (default), opened there, or either."""
        if count_mode == "merged":
            return self.merged_between(repo, start, end)
        if count_mode not in COUNT_MODES:
            raise ConfigError(f"unknown --count {count_mode!r}", "use merged, opened or all")
        if count_mode == "opened" and not self.has_github_records(repo):
            raise ConfigError(
                f"--count opened needs to know when {repo}'s PRs were opened, which only GitHub says",
                f"sync from GitHub first (prdigest sync {repo}), or use --count merged",
            )
        opened = self.created_between(repo, start, end)
        if count_mode == "opened":
            return opened
        merged = self.merged_between(repo, start, end)
        seen = {(pr.number, pr.sha) for pr in merged}
        return merged + [pr for pr in opened if (pr.number, pr.sha) not in seen]

    def window(
        self,
        repo: str,
        window: Window,
        count_mode: str = "merged",
        span: tuple[datetime, datetime] | None = None,
    ) -> WindowData:
        """A digest's window, read in one call: its PRs and what a digest of it needs from
        the store besides, each query run once. `span`: the stored history's span (its
        first and last landing), when the caller read it already."""
        if count_mode not in COUNT_MODES:
            raise ConfigError(f"unknown --count {count_mode!r}", "use merged, opened or all")
        current = self.window_prs(repo, window.start, window.end, count_mode)
        previous_window = window.previous()
        previous = self.window_prs(repo, previous_window.start, previous_window.end, count_mode)
        merged = (
            current
            if count_mode == "merged"
            else self.merged_between(repo, window.start, window.end)
        )
        side_by_side = None
        if self.has_github_records(repo):
            opened = (
                current
                if count_mode == "opened"
                else self.created_between(repo, window.start, window.end)
            )
            side_by_side = (sum(pr.number is not None for pr in merged), len(opened))
        return WindowData(
            window=window,
            count_mode=count_mode,
            prs=tuple(current),
            previous=tuple(previous),
            merged=tuple(merged),
            span=span or self.merged_range(repo),
            synced_since=self.synced_since(repo),
            merged_and_opened=side_by_side,
        )
