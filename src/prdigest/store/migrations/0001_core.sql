-- Core schema: repositories, landed PRs and direct pushes, files, labels,
-- classifications, sync cursors and stored reports.
CREATE TABLE repositories (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

CREATE TABLE pull_requests (
    id INTEGER PRIMARY KEY,
    repo_id INTEGER NOT NULL REFERENCES repositories(id),
    number INTEGER,                 -- NULL: a direct push
    sha TEXT,                       -- the landing commit; NULL for a PR not merged
    number_source TEXT,
    title TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    author_name TEXT NOT NULL DEFAULT '',
    author_email TEXT NOT NULL DEFAULT '',
    author_login TEXT,
    created_at TEXT,
    merged_at TEXT,
    authored_at TEXT,
    updated_at TEXT,
    state TEXT NOT NULL DEFAULT 'merged',
    draft INTEGER NOT NULL DEFAULT 0,
    source TEXT NOT NULL,
    parents TEXT NOT NULL DEFAULT '[]',   -- JSON list
    trailers TEXT NOT NULL DEFAULT '[]',  -- JSON list of [key, [values]]
    raw TEXT,                             -- the source payload, JSON
    content_hash TEXT NOT NULL            -- to tell an unchanged re-sync from an update
);
CREATE UNIQUE INDEX pull_requests_repo_sha ON pull_requests(repo_id, sha);
CREATE INDEX pull_requests_repo_number ON pull_requests(repo_id, number);
CREATE INDEX pull_requests_repo_merged ON pull_requests(repo_id, merged_at);
CREATE INDEX pull_requests_repo_author ON pull_requests(repo_id, author_email, merged_at);

CREATE TABLE files (
    pr_id INTEGER NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    path TEXT NOT NULL,
    old_path TEXT,
    additions INTEGER,
    deletions INTEGER,
    is_binary INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (pr_id, position)
);

CREATE TABLE labels (
    pr_id INTEGER NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    PRIMARY KEY (pr_id, name)
);

CREATE TABLE classifications (
    pr_id INTEGER NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    profile TEXT NOT NULL,
    area TEXT NOT NULL,
    kind TEXT NOT NULL,
    area_rule TEXT NOT NULL,
    kind_rule TEXT NOT NULL,
    confidence REAL NOT NULL,
    PRIMARY KEY (pr_id, profile)
);

CREATE TABLE sync_cursors (
    repo_id INTEGER NOT NULL REFERENCES repositories(id),
    source TEXT NOT NULL,          -- e.g. git:<ref>, jsonl:<path>, github
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, source)
);

CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    repo_id INTEGER NOT NULL REFERENCES repositories(id),
    kind TEXT NOT NULL,            -- digest | release_notes
    window_start TEXT NOT NULL,
    window_end TEXT NOT NULL,
    writer TEXT NOT NULL,
    title TEXT NOT NULL,
    markdown TEXT NOT NULL,
    context TEXT NOT NULL,         -- JSON
    created_at TEXT NOT NULL,
    UNIQUE (repo_id, kind, window_start, window_end, writer)
);
