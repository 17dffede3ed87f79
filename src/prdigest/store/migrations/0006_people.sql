-- Who is who. `mailmap`: the author identities of a repository that its clone's .mailmap
-- maps to another name or address, as `git check-mailmap` says (rewritten at each
-- `sync --git`, so a .mailmap entry added later reaches the whole stored history). The
-- indexes find an author's earlier PRs by address (any case), login or name as cheaply
-- as the e-mail index did by address alone.
CREATE TABLE mailmap (
    repo_id INTEGER NOT NULL REFERENCES repositories(id),
    name TEXT NOT NULL,            -- as recorded
    email TEXT NOT NULL,           -- as recorded
    mapped_name TEXT NOT NULL,     -- as .mailmap says
    mapped_email TEXT NOT NULL,
    PRIMARY KEY (repo_id, name, email)
);
CREATE INDEX mailmap_repo_email ON mailmap(repo_id, lower(email));
CREATE INDEX mailmap_repo_mapped ON mailmap(repo_id, lower(mapped_email));
CREATE INDEX pull_requests_repo_lower_email ON pull_requests(repo_id, lower(author_email), merged_at);
CREATE INDEX pull_requests_repo_login ON pull_requests(repo_id, author_login, merged_at);
CREATE INDEX pull_requests_repo_name ON pull_requests(repo_id, author_name, merged_at);
