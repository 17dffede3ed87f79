"""Analysis: a window of landed PRs → a JSON-serialisable digest context (pure, deterministic).

Everything a digest states is computed here: counts, areas, themes, series, reverts,
claims, trends, and what mattered (`notability`: what each PR announces, `announcements`,
and the components it creates, `components`, judged against the `history` the pipeline
reads from the store). Writers turn the context into prose and add nothing but wording.
`context` builds it from `items` (per-PR facts), `themes` (groups, names and sentences),
`reverts`, `window` (counts, first-time authors), `trends` and `notability`.
"""

from .context import SCHEMA, build_context

__all__ = ["SCHEMA", "build_context"]
