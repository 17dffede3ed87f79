-- A GitHub rate-limit budget shared by every process using the same token
-- (teams: workers on several machines). The token itself is never stored: a
-- one-way fingerprint names it.
CREATE TABLE github_rate_budget (
    api_url TEXT NOT NULL,
    token_key TEXT NOT NULL,       -- sha256 fingerprint of the token, or 'anonymous'
    resource TEXT NOT NULL,        -- core | graphql
    quota INTEGER,
    remaining INTEGER NOT NULL,
    reset_at INTEGER NOT NULL,     -- epoch seconds when GitHub refills the budget
    updated_at TEXT NOT NULL,
    PRIMARY KEY (api_url, token_key, resource)
);
