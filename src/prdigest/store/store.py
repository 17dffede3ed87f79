"""`Store`: the one place with SQL, wrapping an injected connection (see opening.py for
opening one by path or URL). Its methods live by table in core.py, prs.py,
classifications.py and reports.py."""

from __future__ import annotations

from .classifications import ClassificationTables
from .prs import PullRequestTables
from .stored_reports import ReportTables


class Store(PullRequestTables, ClassificationTables, ReportTables):
    """Every table's reads and writes on one connection."""
