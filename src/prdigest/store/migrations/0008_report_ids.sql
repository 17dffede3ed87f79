-- dialect: sqlite
-- A deleted report's id is never given to another report (`reports delete 12` in a script
-- must not later delete some other report): AUTOINCREMENT keeps the highest id ever used.
-- PostgreSQL's identity columns never reuse an id: this migration is SQLite's only.
CREATE TABLE reports_ids (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
INSERT INTO reports_ids (id, repo_id, kind, window_start, window_end, writer, title, markdown, context, created_at)
    SELECT id, repo_id, kind, window_start, window_end, writer, title, markdown, context, created_at FROM reports;
DROP TABLE reports;
ALTER TABLE reports_ids RENAME TO reports;
