"""Markdown of an LLM digest. Counts and the order of areas come from the context;
only theme names, summaries and the takeaway's prose come from the model (verified)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...models import pr_url
from .verify import Tally, Theme, extract_figures, figure_in_text

MAX_SECTIONS = 6
MAX_BULLETS = 4
MAX_CITATIONS = 4
TOP_AREAS_IN_TAKEAWAY = 4


def render_digest(
    context: dict[str, Any],
    themes: Mapping[str, list[Theme]],
    takeaway: str,
    texts: Mapping[int, str],
    tally: Tally,
) -> str:
    repo = context["repo"]
    label = context.get("window", {}).get("label", "")
    areas = [a for a in context.get("areas", []) if int(a.get("count", 0)) > 0]
    lines = [f"# AI Analysis of Pull Requests for {repo} during {label}", "", "### Key Takeaways"]
    lines += [_takeaway(takeaway, context, areas), ""]
    if areas:
        lines += ["---", ""]
    for index, area in enumerate(areas[:MAX_SECTIONS], 1):
        lines.append(f"### {index}. {area['name']}")
        lines.append(f"_{_count_phrase(area)}_")
        lines.append("")
        bullets = themes.get(str(area["name"]), [])[:MAX_BULLETS]
        lines += [_bullet(repo, theme, texts) for theme in bullets]
        if not bullets:
            lines.append(
                "*   No summary of this area passed verification; its PRs are counted above."
            )
        lines.append("")
    rest = areas[MAX_SECTIONS:]
    if rest:
        lines += [f"### {MAX_SECTIONS + 1}. Other Areas", ""]
        for area in rest:
            lines.append(f"*   {area['name']} ({_count_phrase(area)})")
            for theme in themes.get(str(area["name"]), [])[:1]:
                lines.append("    " + _bullet(repo, theme, texts))
        lines.append("")
    lines += _also(context)
    lines += ["---", "", tally.closing_line(), ""]
    return "\n".join(lines)


def _takeaway(prose: str, context: dict[str, Any], areas: list[dict[str, Any]]) -> str:
    total = int(context.get("counts", {}).get("prs", 0))
    top = [str(a["name"]) for a in areas[:TOP_AREAS_IN_TAKEAWAY]]
    numbered = [f"({i}) {name}" for i, name in enumerate(top, 1)]
    if len(numbered) > 1:
        listing = (
            ", ".join(numbered[:-1]) + (", and " if len(numbered) > 2 else " and ") + numbered[-1]
        )
    else:
        listing = numbered[0] if numbered else "no area"
    counts = (
        f"The window totals {total} PR{'s' * (total != 1)} across {listing}."
        if total
        else "No PR landed in this window."
    )
    return f"{prose.strip()} {counts}".strip()


def _count_phrase(area: dict[str, Any]) -> str:
    count = int(area.get("count", 0))
    phrase = f"{count} PR{'s' * (count != 1)}"
    delta = area.get("delta")
    if isinstance(delta, int) and area.get("previous_count") is not None:
        phrase += f", {delta:+d} on the previous window"
    return phrase


def _bullet(repo: str, theme: Theme, texts: Mapping[int, str]) -> str:
    links = ", ".join(f"[PR#{n}]({pr_url(repo, n)})" for n in citations_to_show(theme, texts))
    summary = theme.summary.rstrip()
    if summary.endswith("."):
        summary = summary[:-1]
    return f"*   **{theme.name}:** {summary} ({links})."


def citations_to_show(theme: Theme, texts: Mapping[int, str]) -> list[int]:
    """PRs stating the bullet's figures first (they must stay), then the strongest others."""
    figures = extract_figures(f"{theme.name} {theme.summary}")
    needed: list[int] = []
    for figure in figures:
        if not any(figure_in_text(figure, texts.get(n, "")) for n in needed):
            stating = next((n for n in theme.prs if figure_in_text(figure, texts.get(n, ""))), None)
            if stating is not None:
                needed.append(stating)
    others = [n for n in theme.prs if n not in needed]
    return needed + others[: max(0, MAX_CITATIONS - len(needed))]


def _also(context: dict[str, Any]) -> list[str]:
    counts = context.get("counts", {})
    facts = []
    for key, singular, plural in (
        ("reverts", "revert", "reverts"),
        ("relands", "reland", "relands"),
        ("first_time_authors", "first-time contributor", "first-time contributors"),
        (
            "direct_pushes",
            "direct push (no PR), counted apart",
            "direct pushes (no PR), counted apart",
        ),
    ):
        value = counts.get(key)
        if isinstance(value, int) and value > 0:
            facts.append(f"{value} {singular if value == 1 else plural}")
    if not facts:
        return []
    return ["### Also This Window", "*   " + "; ".join(facts) + ".", ""]
