"""Analysis: a window of landed PRs → a typed digest context (pure, deterministic).

Everything a digest states is computed here: counts, areas, themes, series, reverts,
claims, trends, and what mattered (`notability`: what each PR announces, `announcements`,
and the components it creates, `components`, judged against the `history` the pipeline
reads from the store). Writers turn the context into prose and add nothing but wording.
`context` builds it from `items` (per-PR facts), `themes` (groups, names and sentences),
`reverts`, `window` (counts, first-time authors), `trends` and `notability`; its types
(`DigestContext` and its parts) are in `context_types`, JSON only at the edges.
"""

from .context import build_context
from .context_types import SCHEMA, DigestContext

__all__ = ["SCHEMA", "DigestContext", "build_context"]
