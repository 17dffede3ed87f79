"""Orchestration of a GitHub sync: list newest-updated first, stop at what we have.

The state (a JSON cursor in the store) says what is covered: every PR updated
in [floor, watermark] is stored. A sync walks the listing from the newest
update down to the watermark (or `--since`), committing each page with the
position reached (`pending`), so a killed sync resumes at that page; PRs
updated meanwhile move to the top of the listing, where the pass that follows
the resumed one picks them up. Items whose `updated_at` we already hold are
skipped without fetching their files, so nothing is fetched or stored twice.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ...errors import ConfigError
from ...ingest import SourceSpec, SyncResult
from ...models import PullRequest
from ...reporting import Reporter
from ...store import Store, UpsertCounts
from ...store import github_store as gs
from ...store.rate_budget import SharedRateBudget
from ...timeutil import parse_datetime, to_iso
from . import graphql, rest
from .client import DEFAULT_API_URL, GitHubClient, GitHubUnavailable
from .parse import parse_graphql_files, parse_graphql_pull, parse_rest_pull, rest_updated_at


@dataclass
class GitHubSyncResult(SyncResult):
    api: str = "rest"
    requests: int = 0
    not_modified: int = 0
    retries: int = 0
    remaining: int | None = None

    def summary(self) -> str:
        left = f", {self.remaining} left in the rate limit" if self.remaining is not None else ""
        retried = f", {self.retries} retried" if self.retries else ""
        return (
            f"{super().summary()} ({self.api}: {self.requests} requests, "
            f"{self.not_modified} not modified{retried}{left})"
        )


def github_token() -> str | None:
    """GITHUB_TOKEN, else GH_TOKEN; empty means none."""
    for name in ("GITHUB_TOKEN", "GH_TOKEN"):
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def sync_github(store: Store, repo: str, spec: SourceSpec, reporter: Reporter) -> GitHubSyncResult:
    """Sync `repo` from the GitHub API into the store (incremental, resumable)."""
    extra = spec.extra or {}
    token = github_token()
    api = str(extra.get("api") or "auto")
    if api == "graphql" and not token:
        raise ConfigError(
            "--api graphql needs a token", "set GITHUB_TOKEN or GH_TOKEN, or use --api rest"
        )
    if api == "auto":
        api = "graphql" if token else "rest"
    if not token:
        reporter.warn(
            "no GITHUB_TOKEN or GH_TOKEN: using GitHub's public REST access (60 requests an hour)"
        )
    base_url = extra.get("github_api_url") or os.environ.get("GITHUB_API_URL") or None
    client = GitHubClient(
        base_url,
        token,
        reporter=reporter,
        no_wait=bool(extra.get("no_wait")),
        timeout=float(extra.get("timeout", 30.0)),
        backoff=float(extra.get("backoff", 1.0)),
        max_attempts=int(extra.get("max_attempts", 6)),
        **({"sleep": extra["sleep"]} if "sleep" in extra else {}),
        **({"transport": extra["transport"]} if "transport" in extra else {}),
        budget=SharedRateBudget(store, (base_url or DEFAULT_API_URL).rstrip("/"), token),
    )
    with client:
        page_size = int(extra.get("page_size", rest.PAGE_SIZE))
        return GitHubSync(store, repo, client, api, spec.since, reporter, page_size).run()


class GitHubSync:
    def __init__(
        self,
        store: Store,
        repo: str,
        client: GitHubClient,
        api: str,
        since: datetime | None,
        reporter: Reporter,
        page_size: int = rest.PAGE_SIZE,
    ) -> None:
        self.store, self.repo, self.client, self.api = store, repo, client, api
        self.since = to_iso(since) if since else ""
        self.reporter = reporter
        self.page_size = page_size
        self.result = GitHubSyncResult(repo, "github", UpsertCounts(), 0, api=api)
        self.pages = 0

    def run(self) -> GitHubSyncResult:
        state = gs.load_state(self.store, self.repo)
        pending = state.get("pending")
        if pending and (pending.get("api") != self.api or pending.get("since") != self.since):
            # another flavour or window: its position means nothing here; the watermark holds
            pending = state["pending"] = None
        if pending:
            self.reporter.info(f"resuming the interrupted GitHub sync of {self.repo}")
            self._segment(state, pending)
        self._segment(state, self._new_segment(state))
        stats = self.client.stats
        if stats.rates and self.pages:
            gs.save_rate_limits(self.store, self.client.base_url, stats.rates.values())
        r = self.result
        r.requests, r.not_modified, r.retries = stats.requests, stats.not_modified, stats.retries
        r.remaining = self.client.remaining
        return r

    def _new_segment(self, state: dict[str, Any]) -> dict[str, Any]:
        watermark, floor = state.get("watermark"), state.get("floor")
        covered = (
            watermark is not None
            and floor is not None
            and (floor == "" or (bool(self.since) and floor <= self.since))
        )
        if covered and watermark is not None and self.since <= watermark:
            stop, new_floor = watermark, floor
        else:
            stop, new_floor = (self.since or None), self.since
        return {
            "api": self.api,
            "since": self.since,
            "stop": stop,
            "floor": new_floor,
            "top": None,
            "page": 1,
            "after": None,
            "conditional": covered and stop == watermark,
        }

    # -- one pass down the listing ------------------------------------------------
    def _segment(self, state: dict[str, Any], seg: dict[str, Any]) -> None:
        first_etag = self._probe(seg) if seg["top"] is None else None
        if first_etag == "not-modified":
            return
        while True:
            items, has_next, advance = self._fetch_page(seg, first_etag)
            self.pages += 1
            if seg["top"] is None:
                seg["top"] = _norm(rest_updated_at(items[0])) if items else None
            prs, reached_stop = self._new_items(items, seg["stop"])
            advance(seg)
            done = reached_stop or not has_next or not items
            with self.store.transaction():
                if prs:
                    self.result.counts.add(gs.upsert_github_prs(self.store, self.repo, prs))
                if done:
                    tops = [t for t in (state.get("watermark"), seg["top"]) if t]
                    state.update(
                        watermark=max(tops) if tops else None, floor=seg["floor"], pending=None
                    )
                    if first_etag and first_etag[1]:
                        gs.put_etag(self.store, first_etag[0], first_etag[1])
                else:
                    state["pending"] = {k: v for k, v in seg.items() if k in _PENDING_KEYS}
                gs.save_state(self.store, self.repo, state)
            left = self.client.remaining
            self.reporter.progress(
                self.result.read,
                None,
                f"PRs from GitHub, page {self.pages}"
                + (f", {left} requests left" if left is not None else ""),
            )
            if done:
                return

    def _probe(self, seg: dict[str, Any]) -> Any:
        """Ask whether anything changed since the last complete pass (a 304 is free).

        Returns "not-modified", or (url, etag) to store once this pass completes, or None.
        REST asks with the first page itself; GraphQL with a one-item REST listing, and
        only on an incremental pass (the first ETag is taken on the second sync).
        """
        if self.api == "graphql" and not seg["conditional"]:
            return None  # a first pass: a 304 could not end it, so the probe would be wasted
        size = self.page_size if self.api == "rest" else 1
        url = self.client.url_key(rest.listing_path(self.repo), rest.listing_params(1, size))
        etag = gs.get_etag(self.store, url) if seg["conditional"] else None
        if self.api == "rest":
            seg["_first"] = rest.list_page(self.client, self.repo, 1, size, etag=etag)
            response = seg["_first"]
        else:
            response = rest.list_page(self.client, self.repo, 1, size, etag=etag)
        if response.not_modified:
            self.pages += 1
            return "not-modified"
        return (url, response.etag)

    def _fetch_page(
        self, seg: dict[str, Any], first_etag: Any
    ) -> tuple[list[dict[str, Any]], bool, Callable[[dict[str, Any]], None]]:
        if self.api == "rest":
            response = seg.pop("_first", None) or rest.list_page(
                self.client, self.repo, seg["page"], self.page_size
            )
            has_next = response.link("next") is not None

            def advance_rest(s: dict[str, Any]) -> None:
                s["page"] = int(s["page"]) + 1

            return list(response.data), has_next, advance_rest
        page = self._graphql_page(seg.get("after"))
        items = [_graphql_as_listing(n) for n in page.nodes]

        def advance_graphql(s: dict[str, Any]) -> None:
            s["after"] = page.end_cursor

        return items, page.has_next, advance_graphql

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

    def _new_items(
        self, items: list[dict[str, Any]], stop: str | None
    ) -> tuple[list[PullRequest], bool]:
        """Parse the page's items above `stop`, fetching files only for what changed."""
        numbers = [int(i["number"]) for i in items if isinstance(i.get("number"), int)]
        known = gs.known_updated_at(self.store, self.repo, numbers)
        prs: list[PullRequest] = []
        more: dict[int, tuple[int, str]] = {}  # PR number → (index in prs, files cursor)
        reached_stop = False
        for item in items:
            updated = _norm(rest_updated_at(item))
            if stop and updated < stop:
                reached_stop = True
                break
            self.result.read += 1
            if known.get(item.get("number", 0)) == updated:
                self.result.counts.unchanged += 1
                continue
            if "_graphql" not in item:
                files = rest.fetch_files(self.client, self.repo, int(item["number"]))
                prs.append(parse_rest_pull(item, self.repo, files))
                continue
            pr, complete = parse_graphql_pull(item["_graphql"], self.repo)
            cursor = ((item["_graphql"].get("files") or {}).get("pageInfo") or {}).get("endCursor")
            if not complete and cursor:
                more[int(item["number"])] = (len(prs), str(cursor))
            elif not complete:  # no cursor to go on from: REST has them all
                files = rest.fetch_files(self.client, self.repo, int(item["number"]))
                pr = replace(pr, files=tuple(files))
            prs.append(pr)
        self._more_files(prs, more)
        return prs, reached_stop

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
                info = connection.get("pageInfo") or {}
                if files and info.get("hasNextPage") and info.get("endCursor"):
                    more[number] = (index, str(info["endCursor"]))


_MIN_GRAPHQL_PAGE = 10
_PENDING_KEYS = ("api", "since", "stop", "floor", "top", "page", "after")


def _graphql_as_listing(node: dict[str, Any]) -> dict[str, Any]:
    """A GraphQL node wearing the two REST keys the walk reads."""
    return {"number": node.get("number"), "updated_at": node.get("updatedAt"), "_graphql": node}


def _norm(value: str) -> str:
    return to_iso(parse_datetime(value))
