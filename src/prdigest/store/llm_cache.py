"""SQL of the LLM reply cache (table `llm_cache`, migration 0003)."""

from __future__ import annotations

from dataclasses import dataclass

from ..timeutil import now, to_iso
from . import Store


@dataclass(frozen=True)
class CachedReply:
    key: str
    model: str
    content: str
    prompt_tokens: int
    completion_tokens: int
    exact_usage: bool


def get_reply(store: Store, key: str) -> CachedReply | None:
    row = store.conn.execute(
        "SELECT key, model, content, prompt_tokens, completion_tokens, exact_usage"
        " FROM llm_cache WHERE key = ?",
        (key,),
    ).fetchone()
    if row is None:
        return None
    return CachedReply(row[0], row[1], row[2], int(row[3]), int(row[4]), bool(row[5]))


def put_reply(store: Store, reply: CachedReply) -> None:
    with store.transaction():
        store.conn.execute(
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


def count_replies(store: Store) -> int:
    return int(store.conn.execute("SELECT COUNT(*) FROM llm_cache").fetchone()[0])
