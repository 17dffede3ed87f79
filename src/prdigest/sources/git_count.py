"""How many commits a `--git` sync reads: a progress total, counted beside the log."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .git import popen_git


class CommitCount:
    """How many first-parent commits a range holds (`git rev-list --count`), for a
    progress total. Counted beside the log: the count starts when first asked for and
    is read once git has answered, so the log never waits for it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.revisions: list[str] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._value: int | None = None

    def set_range(self, revisions: list[str]) -> None:
        """The range to count (as `iter_git_records` reads it: give this as its on_range)."""
        self.revisions = revisions

    def poll(self) -> int | None:
        """The count if git has given it; None while it runs (the first call starts it)."""
        if self._value is not None or self.revisions is None:
            return self._value
        if self._process is None:
            args = ["rev-list", "--first-parent", "--count", *self.revisions, "--"]
            self._process = popen_git(self.path, args, subprocess.DEVNULL)
            return None
        if self._process.poll() is None:
            return None
        assert self._process.stdout is not None
        answer = self._process.stdout.read().strip()
        self.close()
        self.revisions = None  # asked once: a failed count stays unknown
        self._value = int(answer) if answer.isdigit() else None
        return self._value

    def close(self) -> None:
        """Stop a count still running (the log ended first) and reap it."""
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            assert process.stdout is not None
            process.stdout.close()
            process.wait()
