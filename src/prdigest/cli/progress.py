"""How long work shows on stderr when it is not a terminal: plain lines, a line every
so often and one when a wait begins, never a control character (a log or a pipe keeps
them as they are). The terminal's bar (`progress_bars`) words its figures the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

LINE_EVERY = 30.0  # seconds between two progress lines
REMIND_EVERY = 300.0  # seconds between two "still waiting" lines
_PER = (("s", 1), ("min", 60), ("h", 3600))


class Pace:
    """Rate and ETA of one count, measured from when it was first told (so the work a
    resumed sync had done before does not pass for speed)."""

    def __init__(self, done: int, now: float) -> None:
        self.first, self.since = done, now

    def rate(self, done: int, now: float) -> float | None:
        elapsed = now - self.since
        return (done - self.first) / elapsed if elapsed > 0 and done > self.first else None

    def eta(self, done: int, total: int | None, now: float) -> float | None:
        rate = self.rate(done, now)
        if total is None or rate is None:
            return None
        return max(0.0, (total - done) / rate)


def figures(done: int, total: int | None, what: str, pace: Pace, now: float) -> str:
    """`1,500/2,001 commits (74%), ETA 0:00:01, 5,120 commits/s`, as much as is known."""
    return ", ".join(figure_parts(done, total, what, pace, now))


def figure_parts(done: int, total: int | None, what: str, pace: Pace, now: float) -> list[str]:
    """The figures, most telling first: the count, the ETA, the rate."""
    if what == "bytes":
        count = f"{size(done)}/{size(total)}" if total else size(done)
    else:
        count = f"{done:,}/{total:,} {what}" if total else f"{done:,} {what}"
    parts = [count + (f" ({min(100, done * 100 // total)}%)" if total else "")]
    eta = pace.eta(done, total, now)
    if eta is not None:
        parts.append(f"ETA {duration(eta)}")
    rate = pace.rate(done, now)
    if rate is not None:
        parts.append(rate_text(rate, what))
    return parts


def fitted(first: str, rest: list[tuple[str, str]], room: int) -> str:
    """`first`, then each (separator, figure) of `rest` in turn while the whole line fits
    in `room` columns: a figure is shown whole or not at all, never cut (`2,200 re…`)."""
    text = first
    for separator, part in rest:
        if len(text) + len(separator) + len(part) > room:
            break
        text += separator + part
    return text


def rate_text(per_second: float, what: str) -> str:
    """Per second, or per minute or hour when slower (a rate-limited GitHub backfill)."""
    if what == "bytes":
        return f"{size(round(per_second))}/s"
    value, unit = next(
        ((per_second * scale, unit) for unit, scale in _PER if per_second * scale >= 1),
        (per_second * 3600, "h"),
    )
    return f"{value:,.0f} {what}/{unit}" if value >= 10 else f"{value:.1f} {what}/{unit}"


def duration(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


def size(count: int) -> str:
    from rich.filesize import decimal  # a small module of rich's, no console behind it

    return decimal(count)


class PlainLines:
    """Progress as lines: at most one every `every` seconds (none for work shorter than
    that), a line when a wait begins and a reminder every `remind_every` seconds of it."""

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        clock: Callable[[], float] = time.monotonic,
        every: float = LINE_EVERY,
        remind_every: float = REMIND_EVERY,
    ) -> None:
        self.write, self.clock = write, clock
        self.every, self.remind_every = every, remind_every
        self._paces: dict[str, Pace] = {}
        self._last_line: float | None = None
        self._wait: tuple[str, float] | None = None  # why, and when it was last written

    def progress(self, done: int, total: int | None, what: str, detail: str = "") -> None:
        now = self.clock()
        pace = self._paces.setdefault(what, Pace(done, now))
        if self._last_line is None:
            self._last_line = now  # the first report starts the clock
        if now - self._last_line < self.every:
            return
        self._last_line = now
        self.write(figures(done, total, what, pace, now) + (f"; {detail}" if detail else ""))

    def waiting(self, left: float, why: str) -> None:
        now = self.clock()
        if left <= 0:
            self._wait = None
        elif self._wait is None or self._wait[0] != why:
            self._wait = (why, now)
            self.write(f"waiting {duration(left)}: {why}")
        elif now - self._wait[1] >= self.remind_every:
            self._wait = (why, now)
            self.write(f"still waiting, {duration(left)} left: {why}")
