"""GraphQL fetcher: one query brings 100 PRs with their labels and first 100 files."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import GitHubError
from .http import GitHubClient

PAGE_SIZE = 100

PULLS_QUERY = """
query($owner: String!, $name: String!, $first: Int!, $after: String) {
  rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $name) {
    pullRequests(first: $first, after: $after, orderBy: {field: UPDATED_AT, direction: DESC}) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        number title body state isDraft createdAt updatedAt mergedAt
        author { login }
        mergeCommit { oid }
        labels(first: 100) { nodes { name } }
        files(first: 100) {
          pageInfo { hasNextPage endCursor }
          nodes { path additions deletions }
        }
      }
    }
  }
}
"""


@dataclass
class GraphQLPage:
    nodes: list[dict[str, Any]]
    has_next: bool
    end_cursor: str | None
    total_count: int | None = None  # PRs in the whole listing


def list_page(
    client: GitHubClient, repo: str, after: str | None, first: int = PAGE_SIZE
) -> GraphQLPage:
    owner, _, name = repo.partition("/")
    data = client.graphql(
        PULLS_QUERY, {"owner": owner, "name": name, "first": first, "after": after}
    )
    repository = data.get("repository")
    if repository is None:
        raise GitHubError(
            f"repository {repo} not found through GitHub's GraphQL API",
            "check the name (owner/name); for a private repository use a token that can read it",
        )
    try:
        pulls = repository["pullRequests"]
        info = pulls["pageInfo"]
        nodes = [n for n in pulls["nodes"] if isinstance(n, dict)]
        total = pulls.get("totalCount")
        return GraphQLPage(
            nodes,
            bool(info["hasNextPage"]),
            info.get("endCursor"),
            total if isinstance(total, int) else None,
        )
    except (KeyError, TypeError) as exc:
        raise GitHubError(f"GitHub's GraphQL answer lacks {exc}", "try --api rest") from None


FILES_PER_QUERY = 20  # PRs whose next 100 files one follow-up query asks for


def more_files(
    client: GitHubClient, repo: str, wanted: dict[int, str]
) -> dict[int, dict[str, Any]]:
    """The next 100 files of several PRs in one query: {number: files connection}."""
    owner, _, name = repo.partition("/")
    numbers = sorted(wanted)
    declared = ["$owner: String!", "$name: String!"]
    variables: dict[str, Any] = {"owner": owner, "name": name}
    parts = []
    for i, number in enumerate(numbers):
        declared.append(f"$c{i}: String")
        variables[f"c{i}"] = wanted[number]
        parts.append(
            f"p{i}: pullRequest(number: {int(number)}) {{ files(first: 100, after: $c{i}) {{"
            " pageInfo { hasNextPage endCursor } nodes { path additions deletions } } }"
        )
    query = (
        f"query({', '.join(declared)}) {{ repository(owner: $owner, name: $name) {{ "
        + " ".join(parts)
        + " } }"
    )
    repository = client.graphql(query, variables).get("repository") or {}
    return {
        number: ((repository.get(f"p{i}") or {}).get("files") or {})
        for i, number in enumerate(numbers)
    }
