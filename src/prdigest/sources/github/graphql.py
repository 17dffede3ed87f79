"""GraphQL fetcher: one query brings 100 PRs with their labels and first 100 files."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from ...errors import GitHubError
from .http import GitHubClient
from .parse import FilesConnection, GraphQLPull, decode

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


class _ListingInfo(msgspec.Struct, frozen=True):
    hasNextPage: bool  # noqa: N815 - GitHub's names
    endCursor: str | None = None  # noqa: N815


class _PullConnection(msgspec.Struct, frozen=True):
    pageInfo: _ListingInfo  # noqa: N815
    nodes: list[GraphQLPull | None]  # a node GitHub cannot show is null
    totalCount: int | None = None  # noqa: N815


class _Repository(msgspec.Struct, frozen=True):
    pullRequests: _PullConnection  # noqa: N815


class _PullsData(msgspec.Struct, frozen=True):
    repository: _Repository | None = None


class _PullFiles(msgspec.Struct, frozen=True):
    files: FilesConnection | None = None


@dataclass
class GraphQLPage:
    nodes: list[GraphQLPull]
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
    repository = decode(
        data, _PullsData, f"a page of the PR listing of {repo}", "try --api rest"
    ).repository
    if repository is None:
        raise GitHubError(
            f"repository {repo} not found through GitHub's GraphQL API",
            "check the name (owner/name); for a private repository use a token that can read it",
        )
    pulls = repository.pullRequests
    return GraphQLPage(
        [n for n in pulls.nodes if n is not None],
        pulls.pageInfo.hasNextPage,
        pulls.pageInfo.endCursor,
        pulls.totalCount,
    )


FILES_PER_QUERY = 20  # PRs whose next 100 files one follow-up query asks for


def more_files(
    client: GitHubClient, repo: str, wanted: dict[int, str]
) -> dict[int, FilesConnection]:
    """The next 100 files of several PRs in one query: {number: files connection}."""
    owner, _, name = repo.partition("/")
    numbers = sorted(wanted)
    declared = ["$owner: String!", "$name: String!"]
    variables: dict[str, str | int | None] = {"owner": owner, "name": name}
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
    answered = decode(
        client.graphql(query, variables).get("repository") or {},
        dict[str, _PullFiles | None],
        f"the files of PRs of {repo}",
        "try --api rest",
    )
    empty = FilesConnection()
    return {
        number: ((answered.get(f"p{i}") or _PullFiles()).files or empty)
        for i, number in enumerate(numbers)
    }
