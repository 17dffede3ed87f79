"""Progress reporting: the library talks through a Reporter and never prints."""

from __future__ import annotations

from typing import Protocol


class Reporter(Protocol):
    def progress(self, done: int, total: int | None, what: str) -> None: ...

    def info(self, message: str) -> None: ...

    def warn(self, message: str) -> None: ...


class SilentReporter:
    def progress(self, done: int, total: int | None, what: str) -> None:
        pass

    def info(self, message: str) -> None:
        pass

    def warn(self, message: str) -> None:
        pass
