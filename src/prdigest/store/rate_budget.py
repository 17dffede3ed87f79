"""GitHub's rate limit as one budget in the store, shared by every process and
machine that syncs with the same token.

Before each request a process takes one request from the budget; when none is
left before GitHub's reset, it waits (or stops) without asking GitHub. Each
answer's rate-limit headers then correct the budget: within one reset window
the lower figure wins, since answers from several workers arrive out of order;
a different reset time means GitHub's window moved, and that answer is taken whole.

The token is named by a one-way fingerprint, never stored itself.
"""

from __future__ import annotations

from ..timeutil import now, to_iso
from .core import StoreCore

_PROVISIONAL_WINDOW = 60  # seconds a refilled budget counts before GitHub names the reset


def token_key(token: str | None) -> str:
    if not token:
        return "anonymous"
    import hashlib  # not at start-up: only a GitHub sync names a token

    return hashlib.sha256(b"prdigest-token:" + token.strip().encode()).hexdigest()[:24]


class RateBudgetTable(StoreCore):
    def reserve_request(self, api_url: str, token: str, resource: str, clock: float) -> float:
        """Take one request from the budget of (`api_url`, `token`: a `token_key`);
        returns 0 to go ahead, else the seconds until the reset."""
        key = (api_url, token)
        now_s = int(clock)
        with self.transaction():
            # A window that has passed refills at once, provisionally for a minute, so
            # workers keep counting until GitHub's next answer gives the real reset.
            taken = self.conn.execute(
                "UPDATE github_rate_budget SET remaining = quota - 1, reset_at = ?"
                " WHERE api_url = ? AND token_key = ? AND resource = ? AND reset_at <= ?"
                " AND quota IS NOT NULL AND quota > 0 RETURNING remaining",
                (now_s + _PROVISIONAL_WINDOW, *key, resource, now_s),
            ).fetchone()
            if taken is None:
                taken = self.conn.execute(
                    "UPDATE github_rate_budget SET remaining = remaining - 1"
                    " WHERE api_url = ? AND token_key = ? AND resource = ? AND remaining > 0"
                    " RETURNING remaining",
                    (*key, resource),
                ).fetchone()
            if taken is not None:
                return 0.0
            row = self.conn.execute(
                "SELECT reset_at FROM github_rate_budget"
                " WHERE api_url = ? AND token_key = ? AND resource = ?",
                (*key, resource),
            ).fetchone()
        if row is None or int(row[0]) <= clock:
            return 0.0  # nothing known yet: the first answer tells
        return float(int(row[0]) - clock) + 1.0

    def observe_rate(
        self,
        api_url: str,
        token: str,
        resource: str,
        quota: int | None,
        remaining: int,
        reset_at: int,
    ) -> None:
        """Correct the budget by an answer's rate-limit headers."""
        with self.transaction():
            self.conn.execute(
                "INSERT INTO github_rate_budget"
                " (api_url, token_key, resource, quota, remaining, reset_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (api_url, token_key, resource) DO UPDATE SET"
                " quota = excluded.quota, updated_at = excluded.updated_at,"
                " remaining = CASE WHEN excluded.reset_at <> github_rate_budget.reset_at"
                "   OR excluded.remaining < github_rate_budget.remaining"
                "   THEN excluded.remaining ELSE github_rate_budget.remaining END,"
                " reset_at = excluded.reset_at",
                (api_url, token, resource, quota, remaining, reset_at, to_iso(now())),
            )


class SharedRateBudget:
    """The store's side of the GitHub client's `RateBudget` protocol, for one API and token."""

    def __init__(self, store: RateBudgetTable, api_url: str, token: str | None) -> None:
        self.store = store
        self.key = (api_url, token_key(token))

    def reserve(self, resource: str, clock: float) -> float:
        """Take one request; returns 0 to go ahead, else the seconds until the reset."""
        return self.store.reserve_request(*self.key, resource, clock)

    def observe(self, resource: str, quota: int | None, remaining: int, reset_at: int) -> None:
        self.store.observe_rate(*self.key, resource, quota, remaining, reset_at)
