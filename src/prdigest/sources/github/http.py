"""HTTP to the GitHub API: base URL, auth, timeouts, ETags; retries follow prdigest's
one policy (`retry`), rate limits are GitHub's own (`ratelimit`).

The token goes into one header and nowhere else: never into a URL, a message or
the store. Every error names the request by method and path only.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from ...errors import GitHubError, RateLimitError
from ...reporting import Reporter, SilentReporter
from ...retry import GaveUp, RetryPolicy, Transient
from .ratelimit import RateBudget, RateLimited, RateLimits, RateState, response_message

DEFAULT_API_URL = "https://api.github.com"
_USER_AGENT = "prdigest (+https://github.com/prdigest)"
_MAX_RATE_WAITS = 8  # secondary limits in a row before we give up on one request


def github_token() -> str | None:
    """GITHUB_TOKEN, else GH_TOKEN; empty means none."""
    for name in ("GITHUB_TOKEN", "GH_TOKEN"):
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


@dataclass
class ApiResponse:
    status: int
    data: object  # the decoded JSON (decoded further by `parse.decode`); None when not modified
    headers: httpx.Headers
    url: str
    links: dict[str, str] = field(default_factory=dict)  # the Link header: rel → URL

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    @property
    def etag(self) -> str | None:
        return self.headers.get("etag")

    def link(self, rel: str) -> str | None:
        return self.links.get(rel)


@dataclass
class ClientStats:
    requests: int = 0  # HTTP answers received (any status)
    data: int = 0  # answers that returned data (2xx)
    not_modified: int = 0  # 304 answers: free under GitHub's rate limit
    retries: int = 0
    waited_seconds: float = 0.0
    rates: dict[str, RateState] = field(default_factory=dict)


# A query string's parameters, or a GraphQL query's variables.
Params = Mapping[str, str | int | None]


class GitHubUnavailable(GitHubError):
    """GitHub kept failing (5xx, timeouts, broken answers) after every retry."""


class GitHubClient:
    def __init__(
        self,
        base_url: str | None,
        token: str | None,
        *,
        reporter: Reporter | None = None,
        no_wait: bool = False,
        timeout: float = 30.0,
        max_attempts: int = 6,
        backoff: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        transport: httpx.BaseTransport | None = None,
        budget: RateBudget | None = None,
    ) -> None:
        self.base_url = (base_url or DEFAULT_API_URL).rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise GitHubError(
                f"invalid GitHub API URL {self.base_url!r}",
                "give --github-api-url / GITHUB_API_URL as http(s)://host[/api/v3]",
            )
        self.has_token = bool(token)
        self.reporter = reporter or SilentReporter()
        self.retry = RetryPolicy(
            max_attempts,
            backoff,
            sleep=lambda seconds: self._wait(seconds, None),
            on_retry=self._retried,
        )
        self.sleep = sleep
        self.clock = clock
        self.stats = ClientStats()
        self.limits = RateLimits(
            self.stats.rates,
            budget=budget,
            clock=clock,
            wait=self._wait,
            no_wait=no_wait,
            has_token=self.has_token,
        )
        headers = {
            "Accept": "application/vnd.github+json",
            "User-Agent": _USER_AGENT,
            "X-GitHub-Api-Version": "2022-11-28",
        }
        if token:
            headers["Authorization"] = f"Bearer {token.strip()}"
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout),
            transport=transport,
            follow_redirects=True,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GitHubClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def graphql_url(self) -> str:
        # GitHub Enterprise serves REST under /api/v3 and GraphQL under /api/graphql.
        if self.base_url.endswith("/api/v3"):
            return self.base_url[: -len("/v3")] + "/graphql"
        return self.base_url + "/graphql"

    def url_key(self, path: str, params: Params | None = None) -> str:
        """The URL a stored ETag belongs to (no credentials in it)."""
        query = "&".join(f"{k}={params[k]}" for k in sorted(params)) if params else ""
        return f"{self.base_url}{path}" + (f"?{query}" if query else "")

    def get(self, path: str, params: Params | None = None, etag: str | None = None) -> ApiResponse:
        """GET a path (or a full URL from a Link header) and parse its JSON."""
        headers = {"If-None-Match": etag} if etag else {}
        return self._request("GET", path, params=params, headers=headers)

    def graphql(self, query: str, variables: Params) -> Mapping[str, object]:
        """POST a GraphQL query; returns its `data` (decoded further by `parse.decode`),
        raising on errors."""
        if not self.has_token:
            raise GitHubError(
                "GitHub's GraphQL API needs a token",
                "set GITHUB_TOKEN or GH_TOKEN, or use --api rest",
            )
        for _ in range(_MAX_RATE_WAITS):
            response = self._request(
                "POST", self.graphql_url, json_body={"query": query, "variables": variables}
            )
            body = response.data
            if not isinstance(body, dict):
                raise GitHubError(
                    "GitHub's GraphQL API answered with an unexpected shape", "try again later"
                )
            errors = body.get("errors") or []
            if any(e.get("type") == "RATE_LIMITED" for e in errors if isinstance(e, dict)):
                self.limits.wait_primary(response.headers, "graphql")
                continue
            if errors:
                raise graphql_error(errors)
            data = body.get("data")
            if not isinstance(data, dict):
                raise GitHubError("GitHub's GraphQL API answered without data", "try again later")
            return data
        raise RateLimitError(
            "GitHub kept refusing the GraphQL query for its rate limit", "try again later"
        )

    # -- one request: the retry policy around GitHub's rate limits -------------
    def _request(
        self,
        method: str,
        url: str,
        *,
        params: Params | None = None,
        headers: dict[str, str] | None = None,
        json_body: Mapping[str, object] | None = None,
    ) -> ApiResponse:
        where = f"{method} {urlsplit(url).path or url}"
        resource = "graphql" if url == self.graphql_url else "core"
        rate_waits = 0  # for the whole request, across attempts

        def within_limits() -> ApiResponse:
            # Waiting as GitHub tells us is not a failed attempt: it happens inside one.
            nonlocal rate_waits
            limited_just_now = False
            while True:
                if not limited_just_now:  # right after waiting out GitHub's own limit, just ask
                    self.limits.take(resource)
                try:
                    return self._attempt(method, url, where, params, headers, json_body)
                except RateLimited as limited:
                    limited_just_now = True
                    rate_waits += 1
                    if rate_waits > _MAX_RATE_WAITS:
                        raise RateLimitError(
                            f"GitHub kept rate-limiting {where}",
                            "wait a few minutes, then run again",
                        ) from None
                    if limited.seconds:
                        self._wait(
                            limited.seconds, "GitHub asked us to slow down (secondary rate limit)"
                        )

        try:
            return self.retry.call(within_limits)
        except GaveUp as gave_up:
            raise GitHubUnavailable(
                f"{where} {gave_up}",
                # Say what is true: with no answer at all, nothing was fetched.
                "GitHub may be having trouble; run again later; what was fetched is kept"
                if self.stats.data
                else "nothing was fetched: check the network (and --github-api-url),"
                " then run the command again",
            ) from None

    def _attempt(
        self,
        method: str,
        url: str,
        where: str,
        params: Params | None,
        headers: dict[str, str] | None,
        json_body: Mapping[str, object] | None,
    ) -> ApiResponse:
        try:
            response = self._http.request(
                method, url, params=params, headers=headers, json=json_body
            )
        except httpx.TimeoutException:
            raise Transient("timed out") from None
        except httpx.ConnectError:
            # Refused or unresolvable: rarely passing, and often a wrong --github-api-url.
            raise Transient(
                f"cannot connect to {self.base_url} (check --github-api-url / GITHUB_API_URL)",
                attempts=2,
            ) from None
        except httpx.TransportError as exc:  # resets, truncated bodies
            raise Transient(f"connection problem ({type(exc).__name__})") from None
        self.stats.requests += 1
        self.limits.note(response.headers)
        status = response.status_code
        if status == 304:
            self.stats.not_modified += 1
            return ApiResponse(304, None, response.headers, str(response.url), _links(response))
        if status in (403, 429):
            self.limits.check(response)
        if status >= 500:
            raise Transient(f"GitHub answered {status}")
        if status >= 400:
            raise self._http_error(status, response, where)
        try:
            data = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise Transient("the answer was not valid JSON") from None
        self.stats.data += 1
        return ApiResponse(status, data, response.headers, str(response.url), _links(response))

    def _retried(self, _problem: Transient) -> None:
        self.stats.retries += 1

    @property
    def remaining(self) -> int | None:
        return self.limits.remaining

    def _wait(self, seconds: float, why: str | None) -> None:
        """Sleep, counting down through the reporter when the wait is worth mentioning
        (a rate limit; a retry's short backoff passes quietly)."""
        self.stats.waited_seconds += seconds
        left = seconds
        while left > 0:
            if why:
                self.reporter.waiting(left, why)
            step = min(1.0, left)
            self.sleep(step)
            left -= step
        if why:
            self.reporter.waiting(0, why)

    def _http_error(self, status: int, response: httpx.Response, where: str) -> GitHubError:
        message = response_message(response)
        said = f" ({message})" if message else ""
        if status == 401:
            return GitHubError(
                f"GitHub refused the token: 401{said}",
                "set GITHUB_TOKEN or GH_TOKEN to a valid token, or unset both for public access",
            )
        if status == 404:
            return GitHubError(
                f"not found on {self.base_url}: {where} answered 404",
                "check the repository name (owner/name); for a private repository use a token"
                " that can read it",
            )
        if status == 403:
            return GitHubError(
                f"GitHub refused {where}: 403{said}",
                "check the token's permissions for this repository",
            )
        return GitHubError(f"{where} answered {status}{said}", "check the request, then run again")


def graphql_error(errors: list[object]) -> GitHubError:
    first = errors[0] if isinstance(errors[0], dict) else {"message": str(errors[0])}
    kind, message = first.get("type", ""), str(first.get("message", ""))[:200]
    if "something went wrong" in message.lower() or "timeout" in message.lower():
        return GitHubUnavailable(
            f"GitHub's GraphQL API gave up on the query: {message}", "try --api rest"
        )
    if kind == "NOT_FOUND":
        return GitHubError(
            f"GitHub's GraphQL API: {message}",
            "check the repository name (owner/name); for a private repository use a token that can read it",
        )
    return GitHubError(f"GitHub's GraphQL API refused the query: {message}", "try --api rest")


def _links(response: httpx.Response) -> dict[str, str]:
    """`Link: <url>; rel="next", …` → {"next": url, …}, as httpx parses it."""
    return {rel: link["url"] for rel, link in response.links.items() if rel and "url" in link}
