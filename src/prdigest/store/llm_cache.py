"""SQL of the LLM reply cache (table `llm_cache`, migration 0003), and the store's side of
the LLM writer's `ReplyCache` protocol (`write.llm.cache`)."""

from __future__ import annotations

from ..models import CachedReply
from ..timeutil import now, to_iso
from .core import StoreCore


class ReplyCacheTable(StoreCore):
    def cached_reply(self, key: str) -> CachedReply | None:
        row = self.conn.execute(
            "SELECT key, model, content, prompt_tokens, completion_tokens, exact_usage"
            " FROM llm_cache WHERE key = ?",
            (key,),
        ).fetchone()
        if row is None:
            return None
        return CachedReply(row[0], row[1], row[2], int(row[3]), int(row[4]), bool(row[5]))

    def cache_reply(self, reply: CachedReply) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO llm_cache (key, model, content, prompt_tokens, completion_tokens,"
                " exact_usage, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET content = excluded.content,"
                " prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,"
                " exact_usage = excluded.exact_usage, created_at = excluded.created_at",
                (
                    reply.key,
                    reply.model,
                    reply.content,
                    reply.prompt_tokens,
                    reply.completion_tokens,
                    int(reply.exact_usage),
                    to_iso(now()),
                ),
            )

    def count_cached_replies(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM llm_cache").fetchone()[0])


class StoredReplies:
    """Replies kept in the store's `llm_cache` table; the writer sees only get and put."""

    def __init__(self, store: ReplyCacheTable) -> None:
        self.store = store

    def get(self, key: str) -> CachedReply | None:
        return self.store.cached_reply(key)

    def put(self, reply: CachedReply) -> None:
        self.store.cache_reply(reply)
