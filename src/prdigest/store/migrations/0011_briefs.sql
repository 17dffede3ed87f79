-- Each PR's brief, in words (what it does, why), keyed by its content and by who wrote
-- it (`deterministic@N`, `model:<name>@<prompt version>`): a PR is summarised once, and a
-- digest of the same window again reads its briefs back instead of making them.
CREATE TABLE briefs (
    content_key TEXT NOT NULL,
    writer TEXT NOT NULL,
    what TEXT NOT NULL,
    why TEXT NOT NULL,
    what_from TEXT NOT NULL,
    why_from TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (content_key, writer)
);
