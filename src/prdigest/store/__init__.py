"""The store: the one place with SQL. A `Store` wraps an injected connection.

    from prdigest.store import open_store
    store = open_store("prdigest.db")         # or a postgresql:// URL; None: the default path
    store.merged_between("owner/name", start, end)

One style: every module that reads or writes tables is a mixin of methods on `StoreCore`
(core.py: connection, transactions, repositories, sync cursors), and `Store` (store.py)
inherits them all, so a caller always writes `store.method(...)`: prs.py, classifications.py,
stored_reports.py, github_store.py, coverage.py, status.py, identities.py,
landed_history.py, learned_spelling.py, paths.py, window_data.py (`store.window`),
llm_cache.py, rate_budget.py. rows.py (a PR and its row), upsert.py and
github_records.py are loaded only when a write or GitHub needs them.
"""

from __future__ import annotations

from .counts import UpsertCounts
from .location import default_db_path
from .opening import open_store
from .store import Store

__all__ = ["Store", "UpsertCounts", "default_db_path", "open_store"]
