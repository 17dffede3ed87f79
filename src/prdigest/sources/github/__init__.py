"""The GitHub API source: complete, incremental, rate-limit-proof PR sync.

`sync_github(store, repo, spec, reporter)` is what the pipeline calls when
neither `--git` nor `--jsonl` is given.
"""

from __future__ import annotations

from .client import GitHubClient
from .sync import GitHubSync, GitHubSyncResult, github_token, sync_github

__all__ = ["GitHubClient", "GitHubSync", "GitHubSyncResult", "github_token", "sync_github"]
