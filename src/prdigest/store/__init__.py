"""The store: the one place with SQL. A `Store` wraps an injected connection.

    from prdigest.store import open_store
    store = open_store("prdigest.db")         # or a postgresql:// URL; None: the default path
    store.merged_between("owner/name", start, end)

`Store` (store.py) gathers the tables' modules: core.py (connection, transactions,
repositories, sync cursors), prs.py, classifications.py, reports.py.
"""

from __future__ import annotations

from .counts import UpsertCounts
from .location import default_db_path
from .opening import open_store
from .store import Store

__all__ = ["Store", "UpsertCounts", "default_db_path", "open_store"]
