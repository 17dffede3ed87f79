-- LLM replies keyed by a hash of (model, messages, parameters): the same
-- request again costs no call. Token counts are kept for the run summary.
CREATE TABLE llm_cache (
    key TEXT PRIMARY KEY,            -- sha256 of the canonical request
    model TEXT NOT NULL,
    content TEXT NOT NULL,           -- the reply's message content (valid JSON)
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    exact_usage INTEGER NOT NULL DEFAULT 0,  -- 1: counts reported by the server
    created_at TEXT NOT NULL
);
