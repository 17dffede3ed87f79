"""The GitHub API source: its client, the PR listing's pages and cursors, and parsers.

It reads and nothing else; `prdigest.ingest.from_github` commits what it reads.
"""

from __future__ import annotations

from .http import GitHubClient, github_token
from .listing import ListingCursor, ListingPage, Probe, PullListing

__all__ = ["GitHubClient", "ListingCursor", "ListingPage", "Probe", "PullListing", "github_token"]
