-- Paths in byte order (BINARY here, "C" on PostgreSQL: the store adapts it), so that
-- whether anything under a directory landed before a date is a range scan of an index:
-- path >= 'dir/' AND path < 'dir0'. A rename's old path says the directory existed too.
-- (No question marks in this file: PostgreSQL reads them as placeholders.)
CREATE INDEX files_path ON files (path COLLATE BINARY);
CREATE INDEX files_old_path ON files (old_path COLLATE BINARY) WHERE old_path IS NOT NULL;
