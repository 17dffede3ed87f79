-- GitHub source (issue 3): what GitHub says about each PR, kept apart so it can be
-- laid over git/jsonl rows whichever source syncs first; ETags for conditional
-- requests; the last rate-limit state seen.
CREATE TABLE github_pull_requests (
    repo_id INTEGER NOT NULL REFERENCES repositories(id),
    number INTEGER NOT NULL,
    updated_at TEXT NOT NULL,       -- GitHub's updated_at: unchanged means nothing to fetch
    state TEXT NOT NULL,            -- merged | open | closed
    merge_commit_sha TEXT,
    content_hash TEXT NOT NULL,
    payload TEXT NOT NULL,          -- JSON: the parsed PR (labels, dates, login, files)
    PRIMARY KEY (repo_id, number)
);

-- One GitHub-only row per PR number (rows merged into a git/jsonl row are not 'github').
CREATE UNIQUE INDEX pull_requests_repo_github_number ON pull_requests(repo_id, number)
    WHERE source = 'github';
CREATE INDEX pull_requests_repo_created ON pull_requests(repo_id, created_at);

CREATE TABLE github_etags (
    url TEXT PRIMARY KEY,           -- base URL, path and query; never credentials
    etag TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE github_rate_limits (
    api_url TEXT NOT NULL,
    resource TEXT NOT NULL,         -- core | graphql | search …
    quota INTEGER,
    remaining INTEGER,
    reset_at TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (api_url, resource)
);
