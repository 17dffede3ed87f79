"""A repository's PR listing, newest update first: its pages, their cursors, and
each changed PR fetched whole (labels, files).

The source reads and nothing else: which pages to walk, where to stop and what
to store is ingestion's call (`prdigest.ingest.from_github`), which commits each page
with the cursor of the page after it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from urllib.parse import parse_qs, urlsplit

from ...models import PullRequest
from ...reporting import Reporter
from ...timeutil import parse_datetime, to_iso
from . import graphql, rest
from .http import GitHubClient, GitHubUnavailable
from .parse import (
    FilesConnection,
    GraphQLPull,
    RestPull,
    parse_graphql_files,
    parse_graphql_pull,
    parse_rest_pull,
    pull_updated_at,
)
from .rest import RestPage

_MIN_GRAPHQL_PAGE = 10


@dataclass(frozen=True)
class ListingCursor:
    """Where a page of the listing starts. REST asks by page number, GraphQL after
    the end cursor of the page before; each API moves only its own."""

    page: int = 1
    after: str | None = None


@dataclass(frozen=True)
class ListingPage:
    """One page: listing items (REST's pull objects, or GraphQL's nodes), whether more follow, the cursor of the page after it, and the size of
    the whole listing as GitHub tells it (for progress): REST's last page number
    (`Link: rel="last"`), GraphQL's count of PRs (`totalCount`)."""

    items: Sequence[RestPull | GraphQLPull]
    has_next: bool
    next: ListingCursor
    last_page: int | None = None
    total_count: int | None = None


@dataclass(frozen=True)
class Probe:
    """The answer to "anything changed since this ETag?" (a 304 is free)."""

    url: str  # the URL the answer's ETag belongs to
    not_modified: bool
    etag: str | None
    first: RestPage | None = None  # REST asks with the first page itself: walk from it


class PullListing:
    def __init__(
        self, client: GitHubClient, repo: str, api: str, page_size: int, reporter: Reporter
    ) -> None:
        self.client, self.repo, self.api = client, repo, api
        self.page_size = page_size
        self.reporter = reporter

    # -- the listing -------------------------------------------------------------
    def probe_url(self) -> str:
        """The URL whose ETag tells whether the listing changed: REST's first page,
        or for GraphQL a one-item REST listing."""
        return self.client.url_key(rest.listing_path(self.repo), self._probe_params())

    def probe(self, etag: str | None) -> Probe:
        size = self.page_size if self.api == "rest" else 1
        page = rest.list_page(self.client, self.repo, 1, size, etag=etag)
        response = page.response
        first = page if self.api == "rest" and not response.not_modified else None
        return Probe(self.probe_url(), response.not_modified, response.etag, first)

    def pages(self, start: ListingCursor, first: RestPage | None = None) -> Iterator[ListingPage]:
        """The pages from `start` on. Each is fetched only when asked for, so the caller
        commits a page (with its `next` cursor) before the next request goes out."""
        cursor = start
        while True:
            page = self._page(cursor, first)
            first = None
            yield page
            if not page.has_next:
                return
            cursor = page.next

    def _probe_params(self) -> dict[str, str | int]:
        return rest.listing_params(1, self.page_size if self.api == "rest" else 1)

    def _page(self, cursor: ListingCursor, first: RestPage | None) -> ListingPage:
        if self.api == "rest":
            listed = first or rest.list_page(self.client, self.repo, cursor.page, self.page_size)
            response = listed.response
            has_next = response.link("next") is not None
            return ListingPage(
                listed.pulls,
                has_next,
                replace(cursor, page=cursor.page + 1),
                last_page=_page_number(response.link("last")) if has_next else cursor.page,
            )
        page = self._graphql_page(cursor.after)
        return ListingPage(
            page.nodes,
            page.has_next,
            replace(cursor, after=page.end_cursor),
            total_count=page.total_count,
        )

    def _graphql_page(self, after: str | None) -> graphql.GraphQLPage:
        """One GraphQL page; when GitHub keeps failing on it, ask for smaller pages."""
        while True:
            try:
                return graphql.list_page(self.client, self.repo, after, self.page_size)
            except GitHubUnavailable:
                if self.page_size <= _MIN_GRAPHQL_PAGE:
                    raise
                self.page_size = max(_MIN_GRAPHQL_PAGE, self.page_size // 2)
                self.reporter.info(
                    f"GitHub's GraphQL API is struggling: asking for {self.page_size} PRs a page"
                )

    # -- whole PRs ---------------------------------------------------------------
    def pull_requests(self, items: Sequence[RestPull | GraphQLPull]) -> list[PullRequest]:
        """The listing items as PRs with every changed file (REST: one /files walk
        each; GraphQL: the first 100 came along, the rest for several PRs a query)."""
        prs: list[PullRequest] = []
        more: dict[int, tuple[int, str]] = {}  # PR number → (index in prs, files cursor)
        for item in items:
            if isinstance(item, RestPull):
                files = rest.fetch_files(self.client, self.repo, item.number)
                prs.append(parse_rest_pull(item, self.repo, files))
                continue
            pr, complete = parse_graphql_pull(item, self.repo)
            info = (item.files or FilesConnection()).pageInfo
            cursor = info.endCursor if info else None
            if not complete and cursor:
                more[item.number] = (len(prs), cursor)
            elif not complete:  # no cursor to go on from: REST has them all
                files = rest.fetch_files(self.client, self.repo, item.number)
                pr = replace(pr, files=tuple(files))
            prs.append(pr)
        self._more_files(prs, more)
        return prs

    def _more_files(self, prs: list[PullRequest], more: dict[int, tuple[int, str]]) -> None:
        """The files past the first 100, for several PRs per GraphQL query."""
        while more:
            batch = dict(list(more.items())[: graphql.FILES_PER_QUERY])
            answers = graphql.more_files(
                self.client, self.repo, {n: c for n, (_, c) in batch.items()}
            )
            for number, connection in answers.items():
                index, _ = more.pop(number)
                files = parse_graphql_files(connection)
                prs[index] = replace(prs[index], files=prs[index].files + files)
                info = connection.pageInfo
                if files and info and info.hasNextPage and info.endCursor:
                    more[number] = (index, info.endCursor)


def updated_at(item: RestPull | GraphQLPull) -> str:
    """A listing item's last update, written as the store writes times."""
    return to_iso(parse_datetime(pull_updated_at(item)))


def _page_number(url: str | None) -> int | None:
    """The `page` a listing URL asks for (GitHub's `Link: rel="last"`), if it says."""
    pages = parse_qs(urlsplit(url).query).get("page") if url else None
    return int(pages[-1]) if pages and pages[-1].isdigit() else None
