"""`Store`: the one place with SQL, wrapping an injected connection (see opening.py for
opening one by path or URL). Its methods live by table or concern, each module a mixin
on `StoreCore` (core.py); this class puts them together."""

from __future__ import annotations

from .brief_tables import BriefTables
from .classifications import ClassificationTables
from .github_store import GitHubTables
from .identities import IdentityTables
from .learned_spelling import LearnedSpelling
from .llm_cache import ReplyCacheTable
from .paths import PathHistory
from .rate_budget import RateBudgetTable
from .status import StatusViews
from .stored_reports import ReportTables
from .window_data import WindowReads


class Store(
    WindowReads,
    ClassificationTables,
    ReportTables,
    GitHubTables,
    RateBudgetTable,
    IdentityTables,
    LearnedSpelling,
    PathHistory,
    StatusViews,
    ReplyCacheTable,
    BriefTables,
):
    """Every table's reads and writes on one connection."""
