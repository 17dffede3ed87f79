"""Markdown of an LLM digest. Counts and the order of areas come from the context;
only theme names, summaries and the takeaway's prose come from the model (verified).

The title says "AI Analysis" only when the model wrote the key takeaway and most
sections; a section whose themes are prdigest's own says so and why, and the
closing line says how many sections the model wrote.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...models import pr_url
from ..digest_blocks import Ledger
from ..news import callout, component_bullets, lead_sentence
from .tally import Tally
from .verify import Theme, extract_figures, figure_in_text

MAX_SECTIONS = 6
MAX_BULLETS = 4
MAX_CITATIONS = 4
TOP_AREAS_IN_TAKEAWAY = 4


@dataclass(frozen=True)
class Authorship:
    """Who wrote what: the areas whose themes are the model's, why the others'
    are prdigest's own, and whether the key takeaway is the model's."""

    model_areas: frozenset[str] = frozenset()
    why_not: Mapping[str, str] = field(default_factory=dict)
    takeaway: bool = False


@dataclass(frozen=True)
class Rendered:
    markdown: str
    sections: int
    model_sections: int

    @property
    def ai(self) -> bool:
        return self.markdown.startswith("# AI Analysis")


def render_digest(
    context: dict[str, Any],
    themes: Mapping[str, list[Theme]],
    takeaway: str,
    texts: Mapping[int, str],
    tally: Tally,
    authorship: Authorship,
) -> Rendered:
    repo = context["repo"]
    label = context.get("window", {}).get("label", "")
    areas = [a for a in context.get("areas", []) if int(a.get("count", 0)) > 0]
    shown, rest = areas[:MAX_SECTIONS], areas[MAX_SECTIONS:]
    by_model = [str(a["name"]) in authorship.model_areas for a in shown]
    if rest:
        rest_by_model = [str(a["name"]) in authorship.model_areas for a in rest]
        by_model.append(2 * sum(rest_by_model) >= len(rest))
    written, total = sum(by_model), len(by_model)
    ai = authorship.takeaway and 2 * written > total
    title = f"{'AI ' if ai else ''}Analysis of Pull Requests for {repo} during {label}"
    # The analysis' news, as the deterministic writer tells it: every breaking change and
    # deprecation cited in the callout, each new component opening its area's section, and
    # Key Takeaways' opening when the model's takeaway did not pass.
    ledger = Ledger(context)
    if not takeaway.strip():
        takeaway = lead_sentence(context, ledger)[0]  # "Most notable this week: …", cited
    lead = _takeaway(takeaway, context, areas)
    lines = [f"# {title}", "", "### Key Takeaways", lead, ""]
    news = callout(context, ledger)
    if news:
        lines += [f"### {news['heading']}", *(f"*   {b}" for b in news["bullets"]), ""]
    if areas:
        lines += ["---", ""]
    for index, area in enumerate(shown, 1):
        name = str(area["name"])
        lines += [f"### {index}. {name}", f"_{_count_phrase(area)}_", ""]
        if name not in authorship.model_areas:
            lines += [f"_Themes from prdigest's analysis: {_why(authorship, name)}._", ""]
        lines += [f"*   {b['text']}" for b in component_bullets(context, ledger, [name])]
        bullets = themes.get(name, [])[:MAX_BULLETS]
        lines += [_bullet(repo, theme, texts) for theme in bullets]
        if not bullets:
            lines.append(
                "*   No summary of this area passed verification; its PRs are counted above."
            )
        lines.append("")
    if rest:
        lines += [f"### {MAX_SECTIONS + 1}. Other Areas", ""]
        for area in rest:
            name = str(area["name"])
            own = "" if name in authorship.model_areas else ", themes from prdigest's analysis"
            lines.append(f"*   {name} ({_count_phrase(area)}{own})")
            for theme in themes.get(name, [])[:1]:
                lines.append("    " + _bullet(repo, theme, texts))
        lines.append("")
    shown_names = [str(a["name"]) for a in shown]
    made = component_bullets(context, ledger, besides=shown_names)
    if made:  # components of the areas Other Areas holds, or of a direct push
        lines += [f"### {len(shown) + (2 if rest else 1)}. New Components", ""]
        lines += [f"*   {b['text']}" for b in made] + [""]
    lines += _also(context)
    lines += ["---", "", _closing(written, total, authorship.takeaway, tally), ""]
    return Rendered("\n".join(lines), total, written)


def _why(authorship: Authorship, area: str) -> str:
    return authorship.why_not.get(area, "none of the model's themes for it passed verification")


def _closing(written: int, total: int, takeaway: bool, tally: Tally) -> str:
    who = f"The model wrote {written} of {total} section{'s' * (total != 1)}"
    if takeaway:
        who += " and the key takeaway"
    return f"_{who}; {tally.summary()}._"


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
