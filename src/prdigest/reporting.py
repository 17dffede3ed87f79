"""Progress reporting: the library talks through a Reporter and never prints."""

from __future__ import annotations

from typing import Protocol


class Reporter(Protocol):
    def progress(self, done: int, total: int | None, what: str, detail: str = "") -> None:
        """`done` of `total` (None: not known, or not yet) `what`, a plural that names the
        unit ("commits", "pages", "bytes"), told as the work goes on; `detail` is a short
        note that changes with it ("4,870 requests left")."""

    def waiting(self, left: float, why: str) -> None:
        """A wait (a rate limit) with `left` seconds to go, told as it counts down; told
        once more with 0 when it is over."""

    def info(self, message: str) -> None: ...

    def warn(self, message: str) -> None: ...


class SilentReporter:
    def progress(self, done: int, total: int | None, what: str, detail: str = "") -> None:
        pass

    def waiting(self, left: float, why: str) -> None:
        pass

    def info(self, message: str) -> None:
        pass

    def warn(self, message: str) -> None:
        pass
