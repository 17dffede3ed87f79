"""GitHub's rate limits as one client meets them: a shared budget taken before each
request, the rate-limit headers noted after it, and the waits GitHub asks for.

The budget itself (shared by every process with the same token) is the store's
(`store/rate_budget.py`); the client only knows the `RateBudget` protocol.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

import httpx

from ...errors import RateLimitError

Wait = Callable[[float, str | None], None]  # sleep this long, saying why (None: quietly)


@dataclass
class RateState:
    resource: str | None = None
    limit: int | None = None
    remaining: int | None = None
    reset: datetime | None = None


class RateBudget(Protocol):
    """A rate-limit budget shared with other processes (see store/rate_budget.py)."""

    def reserve(self, resource: str, clock: float) -> float: ...

    def observe(self, resource: str, quota: int | None, remaining: int, reset_at: int) -> None: ...


class RateLimited(Exception):
    """GitHub refused a request for its rate limit; ask again after `seconds`."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class RateLimits:
    def __init__(
        self,
        rates: dict[str, RateState],
        *,
        budget: RateBudget | None,
        clock: Callable[[], float],
        wait: Wait,
        no_wait: bool,
        has_token: bool,
    ) -> None:
        self.rates = rates  # the last state seen per resource (kept up to date here)
        self.budget = budget
        self.clock = clock
        self.wait = wait
        self.no_wait = no_wait
        self.has_token = has_token

    def take(self, resource: str) -> None:
        """With a shared budget, wait (or stop) before asking when none is left."""
        if self.budget is None:
            return
        # Wait once for the reset; GitHub's own answer then says whether the window refilled.
        if (seconds := self.budget.reserve(resource, self.clock())) > 0:
            at = datetime.fromtimestamp(self.clock() + seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")
            if self.no_wait:
                raise RateLimitError(
                    f"the {resource} rate limit shared by this token is used up until {at}",
                    f"run the same command again after {at}; what was fetched is kept",
                )
            self.wait(seconds, f"the shared {resource} rate limit is used up; waiting until {at}")

    def note(self, headers: httpx.Headers) -> None:
        remaining = _int(headers.get("x-ratelimit-remaining"))
        if remaining is None:
            return
        resource = headers.get("x-ratelimit-resource", "core")
        reset = _int(headers.get("x-ratelimit-reset"))
        if self.budget is not None and reset is not None:
            self.budget.observe(resource, _int(headers.get("x-ratelimit-limit")), remaining, reset)
        self.rates[resource] = RateState(
            resource,
            _int(headers.get("x-ratelimit-limit")),
            remaining,
            datetime.fromtimestamp(reset, UTC) if reset is not None else None,
        )

    @property
    def remaining(self) -> int | None:
        known = [r.remaining for r in self.rates.values() if r.remaining is not None]
        return min(known) if known else None

    def check(self, response: httpx.Response) -> None:
        """A 403/429: raise `RateLimited` when it is GitHub's rate limit speaking."""
        headers = response.headers
        message = response_message(response).lower()
        if headers.get("x-ratelimit-remaining") == "0" and "secondary" not in message:
            self.wait_primary(headers, headers.get("x-ratelimit-resource", "core"))
            raise RateLimited(0.0)
        retry_after = _int(headers.get("retry-after"))
        if retry_after is not None:
            raise RateLimited(float(retry_after))
        if "rate limit" in message:
            raise RateLimited(60.0)  # GitHub's advice when it gives no Retry-After

    def wait_primary(self, headers: httpx.Headers, resource: str) -> None:
        reset = _int(headers.get("x-ratelimit-reset"))
        seconds = max(0.0, reset - self.clock()) + 1.0 if reset is not None else 60.0
        at = datetime.fromtimestamp(self.clock() + seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")
        if self.no_wait:
            advice = "" if self.has_token else "; a token (GITHUB_TOKEN) raises the limit"
            raise RateLimitError(
                f"GitHub's {resource} rate limit is used up until {at}",
                f"run the same command again after {at}; what was fetched is kept{advice}",
            )
        self.wait(seconds, f"GitHub's {resource} rate limit is used up; waiting until {at}")


def response_message(response: httpx.Response) -> str:
    """The `message` of a JSON error answer (first 200 characters), else ''."""
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return ""
    return str(body.get("message", ""))[:200] if isinstance(body, dict) else ""


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
