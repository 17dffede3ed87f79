"""Notable PRs: ranked by evidence (size, series, stated figures, BC-breaking words)."""

from __future__ import annotations

from collections.abc import Sequence

from .items import Item


def notable(items: Sequence[Item], series_members: set[int], limit: int = 10) -> list[int]:
    """PR numbers, strongest first; reverts and reverted PRs never make the list."""
    ranked = sorted(
        (it for it in items if it.number is not None and not (it.is_revert or it.reverted)),
        key=lambda it: (-(it.score + (1.0 if it.number in series_members else 0.0)), it.number),
    )
    out: list[int] = []
    for item in ranked:
        if item.number is not None and item.number not in out:
            out.append(item.number)
        if len(out) >= limit:
            break
    return out
