-- 0006's lower(author_email) index answers every lookup by address; the case-sensitive
-- one of 0001 is read by no query any more, and each insert paid for it.
DROP INDEX IF EXISTS pull_requests_repo_author;
