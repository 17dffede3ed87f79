-- Each file's diff, when the source has it (JSONL records with `patch`): what the
-- analysis reads the public names a PR adds, removes or renames from. The stored
-- `raw` payload keeps no copy of it.
ALTER TABLE files ADD COLUMN patch TEXT;
ALTER TABLE files ADD COLUMN patch_truncated INTEGER NOT NULL DEFAULT 0;
