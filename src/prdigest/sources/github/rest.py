"""REST fetchers: the PR listing (sorted by last update, newest first) and a PR's files."""

from __future__ import annotations

from typing import Any

from ...errors import GitHubError
from ...models import FileChange
from .http import ApiResponse, GitHubClient
from .parse import parse_rest_file

PAGE_SIZE = 100  # GitHub's maximum


def listing_path(repo: str) -> str:
    return f"/repos/{repo}/pulls"


def listing_params(page: int, per_page: int = PAGE_SIZE) -> dict[str, Any]:
    params: dict[str, Any] = {
        "state": "all",
        "sort": "updated",
        "direction": "desc",
        "per_page": per_page,
    }
    if page > 1:
        params["page"] = page
    return params


def list_page(
    client: GitHubClient, repo: str, page: int, per_page: int = PAGE_SIZE, etag: str | None = None
) -> ApiResponse:
    """One page of the listing; `.data` is a list of pull objects (None when not modified)."""
    response = client.get(listing_path(repo), listing_params(page, per_page), etag=etag)
    if not response.not_modified and not isinstance(response.data, list):
        raise GitHubError(f"GitHub's PR listing of {repo} is not a list", "check --github-api-url")
    return response


def fetch_files(client: GitHubClient, repo: str, number: int) -> list[FileChange]:
    """Every changed file of one PR, following `Link: rel="next"` (GitHub stops at 3,000)."""
    files: list[FileChange] = []
    url: str | None = f"/repos/{repo}/pulls/{number}/files"
    params: dict[str, Any] | None = {"per_page": PAGE_SIZE}
    while url:
        response = client.get(url, params)
        if not isinstance(response.data, list):
            raise GitHubError(
                f"GitHub's file list of {repo}#{number} is not a list", "check --github-api-url"
            )
        files.extend(parse_rest_file(item) for item in response.data)
        url, params = response.link("next"), None  # the next link carries its own query
    return files
