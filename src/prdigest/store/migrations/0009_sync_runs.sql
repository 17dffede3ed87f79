-- The last sync of each repository: when it started and whether it finished. A sync that
-- never finished (Ctrl-C, a kill, an error) left the store with part of the history:
-- `status` says so, and `digest` without a window does not take its newest week then.
CREATE TABLE sync_runs (
    repo_id INTEGER NOT NULL REFERENCES repositories(id),
    source TEXT NOT NULL,          -- what it read, as the user gave it: --git PATH, --jsonl FILE, GitHub
    started_at TEXT NOT NULL,
    finished_at TEXT,              -- NULL: it has not finished (interrupted, or still running)
    PRIMARY KEY (repo_id)
);
