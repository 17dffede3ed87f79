"""How long work shows on a terminal: rich's live progress bars on stderr, one per kind
of count, and a countdown bar while a rate limit is waited out. Imported only when a
bar is shown (rich costs ~30 ms to import; `prdigest --version` does not pay it).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TaskID
from rich.text import Text

from .progress import Pace, duration, figure_parts, fitted

BAR_WIDTH = 24  # on a terminal of 100 columns or more; narrower on a narrower one
MIN_BAR_WIDTH = 10


class _Figures(ProgressColumn):
    """What follows the bar: the count, percentage, ETA and rate (worded as the plain
    lines word them) and the task's note; or a countdown's time left and its reason.
    What does not fit the terminal is left out a whole figure at a time, the least
    telling first; only a countdown's reason, words, may end in an ellipsis."""

    def __init__(self, clock: Callable[[], float], room: Callable[[], int]) -> None:
        super().__init__()
        self.clock = clock
        self.room = room

    def render(self, task: Task) -> Text:
        now, fields = self.clock(), task.fields
        if "until" in fields:  # a countdown
            text = f"waiting, {duration(max(0.0, fields['until'] - now))} left: {fields['why']}"
            return Text(text, no_wrap=True, overflow="ellipsis")
        total = int(task.total) if task.total is not None else None
        first, *rest = figure_parts(int(task.completed), total, fields["what"], fields["pace"], now)
        notes = fields["detail"].split(", ") if fields["detail"] else []
        parts = [(", ", part) for part in rest]
        parts += [("; " if i == 0 else ", ", note) for i, note in enumerate(notes)]
        return Text(fitted(first, parts, self.room()), no_wrap=True, overflow="ignore")


class Bars:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        console = Console(stderr=True)
        bar = BarColumn(bar_width=max(MIN_BAR_WIDTH, min(BAR_WIDTH, console.width - 70)))
        self._progress = Progress(
            bar,
            # The columns right of the bar, less the space between the two columns.
            _Figures(clock, lambda: console.width - (bar.bar_width or BAR_WIDTH) - 1),
            console=console,
            transient=True,  # the closing summary line takes its place
            redirect_stdout=False,  # stdout is data (a digest): never into the bar's console
            redirect_stderr=False,
            refresh_per_second=4,
            get_time=clock,
        )
        self._counts: dict[str, TaskID] = {}  # by what they count
        self._wait: tuple[TaskID, str, float] | None = None  # the countdown, why, how long
        self._progress.start()

    def progress(self, done: int, total: int | None, what: str, detail: str = "") -> None:
        task = self._counts.get(what)
        if task is None:
            pace = Pace(done, self.clock())
            self._counts[what] = self._progress.add_task(
                what, total=total, completed=done, what=what, pace=pace, detail=detail
            )
        else:
            self._progress.update(task, total=total, completed=done, detail=detail)

    def waiting(self, left: float, why: str) -> None:
        if self._wait is not None and (left <= 0 or self._wait[1] != why):
            self._progress.remove_task(self._wait[0])
            self._wait = None
        if left <= 0:
            return
        until = self.clock() + left
        if self._wait is None:
            task = self._progress.add_task("waiting", total=left, why=why, until=until)
            self._wait = (task, why, left)
        task, _, total = self._wait
        self._progress.update(task, completed=total - left, until=until)

    def print(self, message: str) -> None:
        """A line above the bars (they are drawn again below it)."""
        self._progress.console.print(message, markup=False, highlight=False, emoji=False)

    def close(self) -> None:
        self._progress.stop()
