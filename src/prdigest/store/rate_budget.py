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

import hashlib

from ..timeutil import now, to_iso
from . import Store

_PROVISIONAL_WINDOW = 60  # seconds a refilled budget counts before GitHub names the reset


def token_key(token: str | None) -> str:
    if not token:
        return "anonymous"
    return hashlib.sha256(b"prdigest-token:" + token.strip().encode()).hexdigest()[:24]


class SharedRateBudget:
    def __init__(self, store: Store, api_url: str, token: str | None) -> None:
        self.store = store
        self.key = (api_url, token_key(token))

    def reserve(self, resource: str, clock: float) -> float:
        """Take one request; returns 0 to go ahead, else the seconds until the reset."""
        now_s = int(clock)
        with self.store.transaction():
            # A window that has passed refills at once, provisionally for a minute, so
            # workers keep counting until GitHub's next answer gives the real reset.
            taken = self.store.conn.execute(
                "UPDATE github_rate_budget SET remaining = quota - 1, reset_at = ?"
                " WHERE api_url = ? AND token_key = ? AND resource = ? AND reset_at <= ?"
                " AND quota IS NOT NULL AND quota > 0 RETURNING remaining",
                (now_s + _PROVISIONAL_WINDOW, *self.key, resource, now_s),
            ).fetchone()
            if taken is None:
                taken = self.store.conn.execute(
                    "UPDATE github_rate_budget SET remaining = remaining - 1"
                    " WHERE api_url = ? AND token_key = ? AND resource = ? AND remaining > 0"
                    " RETURNING remaining",
                    (*self.key, resource),
                ).fetchone()
            if taken is not None:
                return 0.0
            row = self.store.conn.execute(
                "SELECT reset_at FROM github_rate_budget"
                " WHERE api_url = ? AND token_key = ? AND resource = ?",
                (*self.key, resource),
            ).fetchone()
        if row is None or int(row[0]) <= clock:
            return 0.0  # nothing known yet: the first answer tells
        return float(int(row[0]) - clock) + 1.0

    def observe(self, resource: str, quota: int | None, remaining: int, reset_at: int) -> None:
        with self.store.transaction():
            self.store.conn.execute(
                "INSERT INTO github_rate_budget"
                " (api_url, token_key, resource, quota, remaining, reset_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (api_url, token_key, resource) DO UPDATE SET"
                " quota = excluded.quota, updated_at = excluded.updated_at,"
                " remaining = CASE WHEN excluded.reset_at <> github_rate_budget.reset_at"
                "   OR excluded.remaining < github_rate_budget.remaining"
                "   THEN excluded.remaining ELSE github_rate_budget.remaining END,"
                " reset_at = excluded.reset_at",
                (*self.key, resource, quota, remaining, reset_at, to_iso(now())),
            )
