"""REST fetchers: the PR listing (sorted by last update, newest first) and a PR's files."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import GitHubError
from ...models import FileChange
from .http import ApiResponse, GitHubClient
from .parse import RestFile, RestPull, decode, parse_rest_file

PAGE_SIZE = 100  # GitHub's maximum


@dataclass(frozen=True)
class RestPage:
    """One page of the listing: the answer (status, ETag, links) and its pulls (none when
    not modified)."""

    response: ApiResponse
    pulls: list[RestPull]


def listing_path(repo: str) -> str:
    return f"/repos/{repo}/pulls"


def listing_params(page: int, per_page: int = PAGE_SIZE) -> dict[str, str | int]:
    params: dict[str, str | int] = {
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
) -> RestPage:
    """One page of the listing (no pulls when not modified)."""
    response = client.get(listing_path(repo), listing_params(page, per_page), etag=etag)
    if response.not_modified:
        return RestPage(response, [])
    if not isinstance(response.data, list):
        raise GitHubError(f"GitHub's PR listing of {repo} is not a list", "check --github-api-url")
    pulls = decode(
        response.data,
        list[RestPull],
        f"a pull request in the PR listing of {repo}",
        "report this with the repository name",
    )
    return RestPage(response, pulls)


def fetch_files(client: GitHubClient, repo: str, number: int) -> list[FileChange]:
    """Every changed file of one PR, following `Link: rel="next"` (GitHub stops at 3,000)."""
    files: list[FileChange] = []
    url: str | None = f"/repos/{repo}/pulls/{number}/files"
    params: dict[str, str | int] | None = {"per_page": PAGE_SIZE}
    while url:
        response = client.get(url, params)
        if not isinstance(response.data, list):
            raise GitHubError(
                f"GitHub's file list of {repo}#{number} is not a list", "check --github-api-url"
            )
        entries = decode(
            response.data, list[RestFile], f"a file entry of {repo}#{number}", "report this"
        )
        files.extend(parse_rest_file(entry) for entry in entries)
        url, params = response.link("next"), None  # the next link carries its own query
    return files
