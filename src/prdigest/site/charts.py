"""SVG bar charts per week (PRs, reverts, contributors, PRs per area), made at build time
from the synced PRs (site/weekly_counts.py), or from stored digests where a repository has none.

Accessible without JavaScript: each chart is an `<svg role="img">` with a title and a
description that states the numbers, every bar has its own tooltip title, and the page
prints the same numbers in a table. Colours come from classes styled by style.css, so
dark mode applies and the Content-Security-Policy needs no inline style.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from html import escape
from typing import Any

from ..models import Report

WIDTH, HEIGHT = 640, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 16, 26
MAX_AREA_CHARTS = 8


@dataclass(frozen=True)
class WeekPoint:
    start: date
    end: date
    total: int  # PRs (direct pushes apart)
    areas: Mapping[str, int] = field(default_factory=dict)
    reverts: int = 0
    contributors: int = 0
    direct_pushes: int = 0

    def count(self, members: Iterable[str]) -> int:
        """PRs of these areas this week (one area, or a family's members)."""
        return sum(self.areas.get(name, 0) for name in members)


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    description: str
    svg: str  # safe markup: every text in it was escaped


def area_counts(context: Mapping[str, Any]) -> dict[str, int]:
    """`context["areas"]`: a list of {name, count} (or a {name: count} table)."""
    areas = context.get("areas", [])
    found: dict[str, int] = {}
    if isinstance(areas, Mapping):
        items: Iterable[tuple[Any, Any]] = areas.items()
    else:
        items = (
            (a.get("name"), a.get("count", a.get("prs"))) for a in areas if isinstance(a, Mapping)
        )
    for name, count in items:
        if isinstance(name, str) and isinstance(count, int) and not isinstance(count, bool):
            found[name] = found.get(name, 0) + count
    return found


def total_prs(context: Mapping[str, Any], areas: Mapping[str, int]) -> int:
    counts = context.get("counts")
    if isinstance(counts, Mapping) and isinstance(counts.get("prs"), int):
        return int(counts["prs"])
    return sum(areas.values())


def weekly_series(reports: Iterable[Report]) -> list[WeekPoint]:
    """One point per stored 7-day digest window, oldest first (for a repository whose PRs
    are not in the store; otherwise site/weekly_counts.py counts every week from the PRs)."""
    points = {}
    for report in reports:
        if report.kind != "digest":
            continue
        start, end = date.fromisoformat(report.window_start), date.fromisoformat(report.window_end)
        if (end - start).days != 6:
            continue  # charts compare weeks; other windows would distort them
        areas = area_counts(report.context)
        counts = report.context.get("counts")
        counts = counts if isinstance(counts, Mapping) else {}
        points[start] = WeekPoint(
            start,
            end,
            total_prs(report.context, areas),
            areas,
            reverts=_int(counts.get("reverts")),
            contributors=_int(counts.get("authors")),
            direct_pushes=_int(counts.get("direct_pushes")),
        )
    return [points[k] for k in sorted(points)]


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def top_areas(series: list[WeekPoint], limit: int = MAX_AREA_CHARTS) -> list[str]:
    totals: dict[str, int] = {}
    for point in series:
        for name, count in point.areas.items():
            totals[name] = totals.get(name, 0) + count
    ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    return [name for name, count in ranked[:limit] if count > 0]


def chart_rows(series: list[WeekPoint]) -> list[tuple[str, tuple[str, ...]]]:
    """What the area charts show, as (label, areas counted): the busiest areas, grouped by
    family as the digests group them; a family with two or more of them charted gets a
    chart of all its areas first (`Backends (all areas)`)."""
    from ..analyze.families import family_of

    chosen = top_areas(series)
    names = {name for point in series for name in point.areas}
    family = {name: family_of(name, names) for name in names}
    rows: list[tuple[str, tuple[str, ...]]] = []
    done: set[str] = set()
    for name in chosen:
        group = family[name]
        if group is None:
            rows.append((name, (name,)))
            continue
        if group in done:
            continue
        done.add(group)
        members = [m for m in chosen if family[m] == group]
        if len(members) >= 2:
            everyone = tuple(sorted(n for n in names if family[n] == group))
            rows.append((f"{group} (all areas)", everyone))
        rows += [(m, (m,)) for m in members]
    return rows


Unit = tuple[str, str]  # what a bar counts, for one and for several: ("revert", "reverts")


def repo_charts(repo: str, series: list[WeekPoint]) -> list[Chart]:
    if not series:
        return []
    charts = [
        bar_chart(
            "chart-total",
            f"PRs merged per week in {repo}",
            [(p.start, p.total) for p in series],
            ("PR merged", "PRs merged"),
        ),
        bar_chart(
            "chart-reverts",
            f"Reverts per week in {repo}",
            [(p.start, p.reverts) for p in series],
            ("revert", "reverts"),
        ),
        bar_chart(
            "chart-contributors",
            f"Contributors per week in {repo}",
            [(p.start, p.contributors) for p in series],
            ("contributor", "contributors"),
            summable=False,  # the same person in two weeks is one contributor, not two
        ),
    ]
    for i, (label, members) in enumerate(chart_rows(series), start=1):
        values = [(p.start, p.count(members)) for p in series]
        charts.append(
            bar_chart(
                f"chart-area-{i}",
                f"{label}: PRs per week",
                values,
                (f"{label} PR", f"{label} PRs"),
            )
        )
    return charts


def counted(value: int, unit: Unit) -> str:
    """`1 PR merged`, `2 PRs merged`."""
    return f"{value} {unit[0] if value == 1 else unit[1]}"


def nice_ticks(peak: int) -> list[int]:
    """The y axis: 0 and round steps (1, 2 or 5 times a power of ten) up to the first at
    or above `peak`, at most four steps: 9 gives 0, 5, 10; 180 gives 0, 50, …, 200."""
    peak = max(peak, 1)
    step = 1
    while True:
        for base in (1, 2, 5):
            if peak <= 4 * base * step:
                size = base * step
                top = -(-peak // size) * size
                return list(range(0, top + 1, size))
        step *= 10


# Month labels on the x axis: wide enough for "Sep 2026" in the phone's larger axis font
# (style.css), in viewBox units.
LABEL_ROOM = 84
_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def month_labels(first: date, weeks: int, slot: float) -> list[tuple[float, str]]:
    """(x, text) for the weeks where a month begins, every month or every 2, 3, 6 or 12 as
    room allows; the year is named on the first label and on every January."""
    per_month = slot * 52 / 12
    stride = next((n for n in (1, 2, 3, 6) if per_month * n >= LABEL_ROOM), 12)
    starts: list[tuple[float, date]] = []
    for index in range(weeks):
        monday = first + timedelta(days=7 * index)
        if monday.day > 7 or (monday.month - 1) % stride:
            continue  # not the first Monday of a labelled month
        x = LEFT + slot * index
        if x + LABEL_ROOM > WIDTH:
            break  # no room left before the right edge
        starts.append((x, monday))
    if not starts or starts[0][0] - LEFT >= LABEL_ROOM:
        starts.insert(0, (float(LEFT), first))  # the month the chart opens in
    return [
        (x, _MONTHS[day.month - 1] + (f" {day.year}" if i == 0 or day.month == 1 else ""))
        for i, (x, day) in enumerate(starts)
    ]


def bar_chart(
    chart_id: str,
    title: str,
    values: list[tuple[date, int]],
    unit: Unit,
    *,
    css_class: str = "bar",
    summable: bool = True,
) -> Chart:
    """Bars at every week from the first to the last point; a week with no digest stays empty."""
    first, last = values[0][0], values[-1][0]
    weeks = (last - first).days // 7 + 1
    known = dict(values)
    ticks = nice_ticks(max(v for _, v in values))
    top = ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / weeks
    bar_w = max(slot * 0.8, 1.0)
    parts = [
        f'<svg class="chart" id="{chart_id}" role="img" viewBox="0 0 {WIDTH} {HEIGHT}"'
        f' aria-labelledby="{chart_id}-title {chart_id}-desc" xmlns="http://www.w3.org/2000/svg">',
    ]
    description = describe(values, weeks, unit[1], summable)
    parts.append(f'<title id="{chart_id}-title">{escape(title)}</title>')
    parts.append(f'<desc id="{chart_id}-desc">{escape(description)}</desc>')
    for tick in ticks:
        y = TOP + plot_h * (1 - tick / top)
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        parts.append(
            f'<text class="axis" x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>'
        )
    for index in range(weeks):
        week = first + timedelta(days=7 * index)
        if week not in known:
            continue
        value = known[week]
        height = plot_h * value / top
        x = LEFT + slot * index + (slot - bar_w) / 2
        parts.append(
            f'<rect class="{css_class}" x="{x:.1f}" y="{TOP + plot_h - height:.1f}" width="{bar_w:.1f}"'
            f' height="{height:.1f}"><title>week of {week.isoformat()}:'
            f" {escape(counted(value, unit))}</title></rect>"
        )
    baseline = TOP + plot_h
    for x, text in month_labels(first, weeks, slot):
        parts.append(
            f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{baseline}" y2="{baseline + 5}"/>'
        )
        parts.append(
            f'<text class="axis month" x="{x:.1f}" y="{HEIGHT - 6}" text-anchor="start">{text}</text>'
        )
    parts.append("</svg>")
    return Chart(chart_id, title, description, "".join(parts))


def describe(values: list[tuple[date, int]], weeks: int, unit: str, summable: bool = True) -> str:
    """The chart in words, for screen readers and the alt text."""
    numbers = [v for _, v in values]
    peak_week, peak = max(values, key=lambda item: (item[1], item[0]))
    missing = weeks - len(values)
    total = f"{sum(numbers)} in total " if summable else ""
    text = (
        f"Bar chart of {unit} per week from the week of {values[0][0].isoformat()} to the week of "
        f"{values[-1][0].isoformat()}: {total}over {len(values)} weeks, "
        f"at most {peak} (week of {peak_week.isoformat()}), {values[-1][1]} in the latest week."
    )
    if missing:
        text += f" {missing} week{'s' if missing != 1 else ''} without a stored digest show no bar."
    return text
