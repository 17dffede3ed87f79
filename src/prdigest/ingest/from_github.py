"""Sync from the GitHub API: walk the listing newest-updated first, stop at what we have.

The state (a JSON cursor in the store) says what is covered: every PR updated
in [floor, watermark] is stored. A sync walks the listing from the newest
update down to the watermark (or `--since`), committing each page with the
position reached (`pending`), so a killed sync resumes at that page; PRs
updated meanwhile move to the top of the listing, where the pass that follows
the resumed one picks them up. Items whose `updated_at` we already hold are
skipped without fetching their files, so nothing is fetched or stored twice.

The source (`sources.github`) yields the pages and fetches PRs; this module keeps
the state, the ETags and the rate budget shared with other processes in the store.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..errors import ConfigError, SyncInterrupted
from ..reporting import Reporter
from ..sources.github import rest
from ..sources.github.http import DEFAULT_API_URL, GitHubClient, github_token
from ..sources.github.listing import ListingCursor, ListingPage, Probe, PullListing, updated_at
from ..sources.github.parse import GraphQLPull, RestPull
from ..sources.source_spec import SourceSpec
from ..store import Store, UpsertCounts
from ..store.github_records import GitHubSyncState, ListingPass
from ..store.rate_budget import SharedRateBudget
from ..timeutil import to_iso
from .result import SyncResult, kept_note


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


def sync_github(store: Store, repo: str, spec: SourceSpec, reporter: Reporter) -> GitHubSyncResult:
    """Sync `repo` from the GitHub API into the store (incremental, resumable)."""
    options = spec.github
    token = github_token()
    api = options.api or "auto"
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
    base_url = options.api_url or os.environ.get("GITHUB_API_URL") or None
    client = GitHubClient(
        base_url,
        token,
        reporter=reporter,
        no_wait=options.no_wait,
        timeout=options.timeout,
        backoff=options.backoff,
        max_attempts=options.max_attempts,
        sleep=options.sleep or time.sleep,
        transport=options.transport,
        budget=SharedRateBudget(store, (base_url or DEFAULT_API_URL).rstrip("/"), token),
    )
    with client:
        return GitHubSync(store, repo, client, api, spec.since, reporter, options.page_size).run()


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
        self.listing = PullListing(client, repo, api, page_size, reporter)
        self.result = GitHubSyncResult(repo, "github", UpsertCounts(), 0, api=api)
        self.pages = 0

    def run(self) -> GitHubSyncResult:
        try:
            return self._run()
        except KeyboardInterrupt:
            c = self.result.counts
            kept = c.inserted + c.updated + c.unchanged
            raise SyncInterrupted(kept_note(self.repo, kept)) from None

    def _run(self) -> GitHubSyncResult:
        state = self.store.github_state(self.repo)
        pending = state.pending
        if pending and (pending.api != self.api or pending.since != self.since):
            # another flavour or window: its position means nothing here; the watermark holds
            pending = state.pending = None
        if pending:
            self.reporter.info(f"resuming the interrupted GitHub sync of {self.repo}")
            self._segment(state, pending, conditional=False)
        self._segment(state, *self._new_segment(state))
        stats = self.client.stats
        if stats.rates and self.pages:
            self.store.save_rate_limits(self.client.base_url, stats.rates.values())
        r = self.result
        r.requests, r.not_modified, r.retries = stats.requests, stats.not_modified, stats.retries
        r.remaining = self.client.remaining
        return r

    def _new_segment(self, state: GitHubSyncState) -> tuple[ListingPass, bool]:
        """The pass after the resumed one, and whether it may ask if anything changed
        since the last (a complete pass that stops at the watermark)."""
        watermark, floor = state.watermark, state.floor
        covered = (
            watermark is not None
            and floor is not None
            and (floor == "" or (bool(self.since) and floor <= self.since))
        )
        stop: str | None
        if covered and watermark is not None and self.since <= watermark:
            stop, new_floor = watermark, floor
        else:
            stop, new_floor = (self.since or None), self.since
        listing = ListingPass(self.api, self.since, stop, new_floor)
        return listing, covered and stop == watermark

    # -- one pass down the listing ------------------------------------------------
    def _segment(self, state: GitHubSyncState, seg: ListingPass, conditional: bool) -> None:
        probe = self._probe(conditional) if seg.top is None else None
        if probe is not None and probe.not_modified:
            self.pages += 1
            return
        start = ListingCursor(page=seg.page, after=seg.after)
        # A backfill walks the whole listing, so its size is the total to show; a pass
        # that stops at the watermark or --since ends at a page no one can tell, and a
        # resumed GraphQL pass does not know how far down its cursor is.
        whole = seg.stop is None and start.after is None
        walked = 0  # GraphQL: listing items walked in this pass (its total is in PRs)
        for page in self.listing.pages(start, probe.first if probe is not None else None):
            items = page.items
            self.pages += 1
            walked += len(items)
            if seg.top is None:
                seg.top = updated_at(items[0]) if items else None
            changed, reached_stop = self._changed(items, seg.stop)
            if changed:  # its PRs' files come next, a request each: show where we are first
                self._report(page, walked - len(items), whole, before=True)
            prs = self.listing.pull_requests(changed)
            seg.page, seg.after = page.next.page, page.next.after
            done = reached_stop or not page.has_next or not items
            written = None
            with self.store.transaction():
                if prs:
                    written = self.store.upsert_github_prs(self.repo, prs)
                if done:
                    tops = [t for t in (state.watermark, seg.top) if t]
                    state.watermark = max(tops) if tops else None
                    state.floor, state.pending = seg.floor, None
                    if probe is not None and probe.etag:
                        self.store.put_etag(probe.url, probe.etag)
                else:
                    state.pending = seg
                self.store.save_github_state(self.repo, state)
            if written is not None:  # counted once committed: what a Ctrl-C message tells
                self.result.counts.add(written)
            self._report(page, walked, whole)
            if done:
                return

    def _report(self, page: ListingPage, walked: int, whole: bool, before: bool = False) -> None:
        """REST counts pages (numbered, so a resumed pass knows its place), GraphQL the
        PRs walked; the total is the listing's size when the pass walks all of it.
        `before`: the page is listed but its PRs are not stored yet."""
        left = self.client.remaining
        requests = [f"{left:,} requests left"] if left is not None else []
        if self.api == "rest":
            total = page.last_page if whole else None
            detail = ", ".join([f"{self.result.read:,} PRs", *requests])
            self.reporter.progress(page.next.page - 1 - before, total, "pages", detail)
        else:
            total = page.total_count if whole else None
            self.reporter.progress(walked, total, "PRs", ", ".join(requests))

    def _probe(self, conditional: bool) -> Probe | None:
        """Ask whether anything changed since the last complete pass (a 304 is free).

        REST asks with the first page itself; GraphQL with a one-item REST listing, and
        only on an incremental pass (the first ETag is taken on the second sync).
        """
        if self.api == "graphql" and not conditional:
            return None  # a first pass: a 304 could not end it, so the probe would be wasted
        etag = self.store.get_etag(self.listing.probe_url()) if conditional else None
        return self.listing.probe(etag)

    def _changed(
        self, items: Sequence[RestPull | GraphQLPull], stop: str | None
    ) -> tuple[list[RestPull | GraphQLPull], bool]:
        """The page's items above `stop` whose update the store does not hold yet."""
        known = self.store.known_updated_at(self.repo, [i.number for i in items])
        changed: list[RestPull | GraphQLPull] = []
        for item in items:
            updated = updated_at(item)
            if stop and updated < stop:
                return changed, True
            self.result.read += 1
            if known.get(item.number) == updated:
                self.result.counts.unchanged += 1
            else:
                changed.append(item)
        return changed, False
