"""The one retry policy of prdigest's HTTP clients (GitHub and the LLM server), on tenacity.

A client raises `Transient` for a failure worth another attempt; anything else passes
through at once. Waits double from `backoff` up to `cap` seconds, unless the failure
names its own wait (an LLM server's Retry-After). After the last attempt the policy
raises `GaveUp`, and the client words the error its users read. GitHub's rate limits
are not failures: `sources/github/ratelimit.py` waits them out inside one attempt.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import tenacity

T = TypeVar("T")
MAX_WAIT = 60.0  # seconds: no backoff, and no server's Retry-After, waits longer


class Transient(Exception):
    """A failure worth another attempt."""

    def __init__(
        self, message: str, *, attempts: int | None = None, wait: float | None = None
    ) -> None:
        super().__init__(message)
        self.attempts = attempts  # fewer attempts than usual for this kind of failure
        self.wait = wait  # the wait the server asked for, instead of the backoff


class GaveUp(Exception):
    """Every attempt failed; `problem` is the last failure."""

    def __init__(self, attempts: int, problem: Transient) -> None:
        super().__init__(f"failed {attempts} times: {problem}")
        self.attempts = attempts
        self.problem = problem


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int  # in all, the first included
    backoff: float  # the first wait in seconds; doubles after each failure
    sleep: Callable[[float], None] = time.sleep
    on_retry: Callable[[Transient], None] | None = None  # told before each wait

    def call(self, attempt: Callable[[], T]) -> T:
        """`attempt()` until it returns or raises something other than `Transient`."""
        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception_type(Transient),
            stop=self._stop,
            wait=self._wait,
            sleep=self.sleep,
            before_sleep=self._before_sleep,
        )
        try:
            return retrying(attempt)
        except tenacity.RetryError as exc:
            last = exc.last_attempt
            problem = last.exception()
            assert isinstance(problem, Transient)
            raise GaveUp(last.attempt_number, problem) from None

    def _stop(self, state: tenacity.RetryCallState) -> bool:
        problem = _problem(state)
        limit = min(self.attempts, problem.attempts or self.attempts)
        return state.attempt_number >= limit

    def _wait(self, state: tenacity.RetryCallState) -> float:
        asked = _problem(state).wait
        if asked is not None:
            return min(max(asked, 0.0), MAX_WAIT)
        return min(self.backoff * 2 ** (state.attempt_number - 1), MAX_WAIT)

    def _before_sleep(self, state: tenacity.RetryCallState) -> None:
        if self.on_retry is not None:
            self.on_retry(_problem(state))


def _problem(state: tenacity.RetryCallState) -> Transient:
    assert state.outcome is not None
    problem = state.outcome.exception()
    assert isinstance(problem, Transient)
    return problem
