"""Key Takeaways: what mattered first (the week's most notable news, from the analysis'
notability), then what dominated the week and the totals, then volume and people."""

from __future__ import annotations

from typing import Any

from ..analyze.english import number_word, plural, sentence_case
from ..render.markdown import code, inline, plain
from .digest_blocks import Ledger, first_timers
from .news import lead_sentence


def _lead_phrase(theme: dict[str, Any]) -> str:
    if theme["kind"] == "path":
        directory = theme["name"].rsplit("(", 1)[-1].strip("()`")
        return f"work in {code(directory)}"
    if theme["series"]:
        return f"a {number_word(len(theme['members']))}-part series on {inline(theme['name'])}"
    return inline(theme["topic"])


def takeaways(context: dict[str, Any], ledger: Ledger) -> str:
    counts = context["counts"]
    areas = context["areas"]
    news, quoted = lead_sentence(context, ledger)
    leaders = [a for a in areas[:2] if a["themes"]]
    parts = []
    for area in leaders:
        themes = [t for t in area["themes"] if t["topic"]][:2]
        phrases = " and ".join(_lead_phrase(t) for t in themes)
        parts.append(f"**{plain(area['name'])}**" + (f" ({phrases})" if phrases else ""))
    verb = "was dominated by" if counts["prs"] >= 20 else "centred on"
    lead = (
        f"This week's activity {verb} " + " and ".join(parts)
        if parts
        else "This week's activity was spread thin"
    )
    figure = None
    if not quoted:  # the news quoted a figure already: one is enough up here
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
        lead += f", with {inline(theme['topic']) or 'one PR'} reporting {ledger.quote(fig['text'], fig['pr'])}"
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
        extras.append(first_timers(counts["first_time_authors"], context))
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
    return (f"{news} " if news else "") + first + second
