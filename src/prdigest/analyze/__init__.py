"""Analysis: a window of landed PRs → a JSON-serialisable digest context (pure, deterministic).

Everything a digest states is computed here: counts, areas, themes, series, reverts,
claims, trends. Writers turn the context into prose and add nothing but wording.
`context` builds it from `items` (per-PR facts), `themes` (groups, names and sentences),
`reverts`, `window` (counts, first-time authors), `trends` and `notable`.
"""

from .context import SCHEMA, build_context

__all__ = ["SCHEMA", "build_context"]
