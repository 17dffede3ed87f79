"""The deterministic writer: a digest context → Markdown, with every citation and figure checked.

It writes only what the context holds: theme names and sentences from the analysis,
figures quoted from the PRs, counts computed from the data. Each `[PR#N](…)` link and
each quoted figure goes through `Ledger`, which refuses a PR outside the window and a
figure that its cited PR does not state; the closing line reports what was checked.
"""

from __future__ import annotations

from typing import Any

from ..analyze.english import number_word, plural, sentence_case
from ..render.markdown import code, inline, plain, render_template
from .digest_blocks import Ledger, check, closing, empty, people, reverts, trends
from .sections import MIN_SECTION, citation_budget
from .sections import sections as area_sections

__all__ = ["MIN_SECTION", "citation_budget", "write_digest"]


def write_digest(context: dict[str, Any]) -> str:
    ledger = Ledger(context)
    if context["counts"]["prs"] == 0:
        values = empty(context, ledger)
    else:
        sections, table = area_sections(context, ledger)
        values = {
            "title": plain(context["title"]),
            "takeaways": _takeaways(context, ledger),
            "sections": sections,
            "extras": [
                block
                for block in (reverts(context, ledger), trends(context), people(context))
                if block
            ],
            "table": table,
        }
    values["closing"] = closing(ledger)
    markdown = render_template("digest.md.j2", values)
    check(markdown, context, ledger)
    return markdown


# --- key takeaways and the closing blocks --------------------------------------------


def _lead_phrase(theme: dict[str, Any]) -> str:
    if theme["kind"] == "path":
        directory = theme["name"].rsplit("(", 1)[-1].strip("()`")
        return f"work in {code(directory)}"
    if theme["series"]:
        return f"a {number_word(len(theme['members']))}-part series on {inline(theme['name'])}"
    return inline(theme["name"])


def _takeaways(context: dict[str, Any], ledger: Ledger) -> str:
    counts = context["counts"]
    areas = context["areas"]
    leaders = [a for a in areas[:2] if a["themes"]]
    parts = []
    for area in leaders:
        themes = area["themes"][:2]
        phrases = " and ".join(_lead_phrase(t) for t in themes)
        parts.append(f"**{plain(area['name'])}** ({phrases})")
    verb = "was dominated by" if counts["prs"] >= 20 else "centred on"
    lead = (
        f"This week's activity {verb} " + " and ".join(parts)
        if parts
        else "This week's activity was spread thin"
    )
    figure = next(
        (
            (t, f)
            for a in areas[:4]
            for t in a["themes"]
            for f in t["figures"]
            if ledger.figure_ok(f["text"], f["pr"])
        ),
        None,
    )
    if figure is not None:
        theme, fig = figure
        lead += f", with {inline(theme['name'])} reporting {ledger.quote(fig['text'], fig['pr'])}"
    top = context["key_takeaways"]["top_areas"]
    numbered = [f"({i}) {plain(name)}" for i, name in enumerate(top, start=1)]
    listing = (
        ", ".join(numbered[:-1]) + (", and " if len(numbered) > 2 else " and ") + numbered[-1]
        if len(numbered) > 1
        else numbered[0]
    )
    first = f"{lead}, totaling {plural(counts['prs'], 'PR')} across {listing}."
    total = context["trends"]["total"]
    volume = ""
    if total["previous"]:
        change = total["delta"]
        volume = (
            f"Volume was {'up' if change > 0 else 'down'} {abs(total['pct'])}% on the week before ({total['previous']})"
            if change
            else f"Volume was level with the week before ({total['previous']})"
        )
    extras = []
    if counts["reverts"]:
        extras.append(plural(counts["reverts"], "revert"))
    if counts["first_time_authors"]:
        extras.append(plural(counts["first_time_authors"], "first-time contributor"))
    if counts["direct_pushes"]:
        extras.append(
            f"{plural(counts['direct_pushes'], 'direct push', 'direct pushes')} counted apart"
        )
    listed = ", ".join(extras)
    if volume and listed:
        second = f" {volume}; {listed}."
    elif volume or listed:
        second = f" {volume or sentence_case(listed)}."
    else:
        second = ""
    return first + second
