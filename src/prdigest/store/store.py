"""`Store`: the one place with SQL, wrapping an injected connection (see opening.py for
opening one by path or URL). Its methods live by table in core.py, prs.py,
classifications.py and reports.py."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .classifications import ClassificationTables
from .identities import IdentityTables
from .learned_spelling import LearnedSpelling
from .paths import PathHistory
from .prs import PullRequestTables
from .status import StatusViews
from .stored_reports import ReportTables

if TYPE_CHECKING:
    from ..timeutil import Window
    from .window_data import WindowData


class Store(
    PullRequestTables,
    ClassificationTables,
    ReportTables,
    StatusViews,
    IdentityTables,
    LearnedSpelling,
    PathHistory,
):
    """Every table's reads and writes on one connection."""

    def window(
        self,
        repo: str,
        window: Window,
        count_mode: str = "merged",
        span: tuple[datetime, datetime] | None = None,
    ) -> WindowData:
        """A digest's window, read in one call (window_data.py). `span`: the stored
        history's first and last landing, when the caller read it already."""
        from .window_data import load_window

        return load_window(self, repo, window, count_mode, span)
