"""Week-over-week movement: each area's PR count against the previous window."""

from __future__ import annotations

from collections import Counter

from .context_types import TotalTrend, Trend, Trends


def _pct(now: int, before: int) -> int | None:
    return round(100 * (now - before) / before) if before else None


def trends(
    current: Counter[str], previous: Counter[str], total: int, previous_total: int
) -> Trends:
    """Movers are areas whose count changed by at least 3 PRs and by a third (or are new)."""
    rows: list[Trend] = []
    for area in sorted(set(current) | set(previous)):
        now, before = current.get(area, 0), previous.get(area, 0)
        rows.append(Trend(area, now, before, now - before, _pct(now, before)))
    moving = [
        r for r in rows if abs(r.delta) >= 3 and (r.previous == 0 or abs(r.delta) >= r.previous / 3)
    ]
    rising = sorted((r for r in moving if r.delta > 0), key=lambda r: (-r.delta, r.area))
    falling = sorted((r for r in moving if r.delta < 0), key=lambda r: (r.delta, r.area))
    return Trends(
        total=TotalTrend(
            total, previous_total, total - previous_total, _pct(total, previous_total)
        ),
        areas=tuple(rows),
        rising=tuple(rising),
        falling=tuple(falling),
        new_areas=tuple(r.area for r in rows if r.previous == 0 and r.count > 0),
        quiet_areas=tuple(
            r.area for r in rows if r.count == 0 and r.previous > 0 and r not in falling
        ),
    )
