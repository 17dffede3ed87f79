"""Week-over-week movement: each area's PR count against the previous window."""

from __future__ import annotations

from collections import Counter
from typing import Any


def _pct(now: int, before: int) -> int | None:
    return round(100 * (now - before) / before) if before else None


def trends(
    current: Counter[str], previous: Counter[str], total: int, previous_total: int
) -> dict[str, Any]:
    """Movers are areas whose count changed by at least 3 PRs and by a third (or are new)."""
    rows: list[dict[str, Any]] = []
    for area in sorted(set(current) | set(previous)):
        now, before = current.get(area, 0), previous.get(area, 0)
        rows.append(
            {
                "area": area,
                "count": now,
                "previous": before,
                "delta": now - before,
                "pct": _pct(now, before),
            }
        )
    moving = [
        r
        for r in rows
        if abs(r["delta"]) >= 3 and (r["previous"] == 0 or abs(r["delta"]) >= r["previous"] / 3)
    ]
    rising = sorted((r for r in moving if r["delta"] > 0), key=lambda r: (-r["delta"], r["area"]))
    falling = sorted((r for r in moving if r["delta"] < 0), key=lambda r: (r["delta"], r["area"]))
    return {
        "total": {
            "count": total,
            "previous": previous_total,
            "delta": total - previous_total,
            "pct": _pct(total, previous_total),
        },
        "areas": rows,
        "rising": rising,
        "falling": falling,
        "new_areas": [r["area"] for r in rows if r["previous"] == 0 and r["count"] > 0],
        "quiet_areas": [
            r["area"] for r in rows if r["count"] == 0 and r["previous"] > 0 and r not in falling
        ],
    }
