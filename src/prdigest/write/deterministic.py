"""The deterministic writer: a digest context → Markdown, with every citation and figure checked.

It writes only what the context holds: theme names and sentences from the analysis,
figures quoted from the PRs, counts computed from the data. Each `[PR#N](…)` link and
each quoted figure goes through `Ledger`, which refuses a PR outside the window and a
figure that its cited PR does not state; the closing line reports what was checked.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..analyze.english import plural
from ..analyze.name_choice import is_catch_all
from ..render.markdown import code, inline, plain, render_template, table_cell
from . import digest_blocks as blocks
from .digest_blocks import Ledger, check, closing, empty, people, reverts, trends
from .news import callout, component_bullets
from .takeaways import takeaways

MIN_SECTION = 5  # an area with this many PRs always gets its own section
_OTHER_AREAS_SHOWN = 5
_KIND_LABELS = {
    "bc_breaking": "BC-breaking",
    "deprecation": "deprecations",
    "new_features": "new features",
    "improvements": "improvements",
    "bug_fixes": "bug fixes",
    "performance": "performance",
    "docs": "docs",
    "devs": "developer-facing",
    "not_user_facing": "internal",
}
_KIND_SINGULAR = {
    "deprecation": "deprecation",
    "new_features": "new feature",
    "improvements": "improvement",
    "bug_fixes": "bug fix",
    "docs": "docs change",
}


def write_digest(context: dict[str, Any]) -> str:
    ledger = Ledger(context)
    if context["counts"]["prs"] == 0:
        values = empty(context, ledger)
    else:
        sections, table = _sections(context, ledger)
        values = {
            "title": plain(context["title"]),
            "takeaways": takeaways(context, ledger),
            "callout": callout(context, ledger),
            "sections": sections,
            "extras": [
                block
                for block in (reverts(context, ledger), trends(context), people(context))
                if block
            ],
            "table": table,
        }
    values.setdefault("callout", None)
    values["closing"] = closing(ledger)
    markdown = render_template("digest.md.j2", values)
    check(markdown, context, ledger)
    return markdown


# --- sections ------------------------------------------------------------------------


def citation_budget(prs: int) -> int:
    """About how many PR links the area sections of a digest of `prs` PRs carry (the
    references: 20–35 of 400–560; a 100-PR week gets 16); past it, a section still opens
    with its first theme, cited once."""
    return min(30, 8 + prs // 12)


def _own_section(area: dict[str, Any], rank: int) -> bool:
    return area["count"] >= MIN_SECTION or (rank < 3 and area["count"] >= 2)


def _sections(
    context: dict[str, Any], ledger: Ledger
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    areas = context["areas"]
    sections: list[dict[str, Any]] = []
    table: list[dict[str, str]] = []
    rest = []
    budget = citation_budget(context["counts"]["prs"])
    for rank, area in enumerate(areas):
        if not _own_section(area, rank):
            rest.append(area)
            continue
        bullets = []
        skipped = 0
        for index, theme in enumerate(area["themes"]):
            # Themes while the digest stays selective, and any theme with a stated figure
            # (impact is what readers look for); past the budget, a section still opens
            # with its first theme, cited once.
            if theme["figures"] or ledger.citations + len(theme["prs"]) <= budget:
                bullets.append(_theme_bullet(theme, ledger))
            elif index == 0:
                bullets.append(_lead_bullet(theme, ledger))
            else:
                skipped += len(theme["members"])
        also = _also_bullet(area, skipped)
        if also:
            bullets.append({"text": also, "sub": []})
        told = ledger.citations  # news first, told beside the budget like a figure
        bullets[:0] = component_bullets(context, ledger, [area["name"]])
        budget += ledger.citations - told
        sections.append(
            {
                "index": len(sections) + 1,
                "heading": plain(area["name"]),
                "intro": _intro(area, bool(context["counts"]["previous_prs"])),
                "bullets": bullets,
            }
        )
        table.append(_table_row(area, ledger))
    if rest:
        sections.append(_other_section(rest, len(sections) + 1, ledger, budget))
        table.append(_other_row(rest, ledger))
    if sections:  # new components of areas without a section of their own come last
        own = [a["name"] for a in areas if a not in rest]
        sections[-1]["bullets"] += component_bullets(context, ledger, besides=own)
    return sections, table


def _intro(area: dict[str, Any], has_previous: bool) -> str:
    count, before = area["count"], area["previous_count"]
    if not has_previous:  # no data for the week before: say nothing about movement
        movement = ""
    elif before == 0:
        movement = "none the week before"
    elif count == before:
        movement = "as many as the week before"
    else:
        movement = f"{'up' if count > before else 'down'} from {before} the week before"
    kinds = [_kind_count(kind, n) for kind, n in list(area["kinds"].items())[:3]]
    text = f"{plural(count, 'PR')}" + (f", {movement}" if movement else "")
    return plain(text + (" · " + ", ".join(kinds) if kinds else ""))


def _kind_count(kind: str, n: int) -> str:
    label = _KIND_LABELS.get(kind, kind.replace("_", " "))
    if n == 1:
        label = _KIND_SINGULAR.get(kind, label)
    return f"{n} {label}"


def _theme_bullet(theme: dict[str, Any], ledger: Ledger) -> dict[str, Any]:
    if theme.get("points"):
        return _points_bullet(theme, ledger)
    return _sentence_bullet(theme, ledger)


def _points_bullet(theme: dict[str, Any], ledger: Ledger) -> dict[str, Any]:
    """A theme of distinct changes: one sub-bullet each, cited beside its own words."""
    figures = {f["pr"]: f for f in theme["figures"] if ledger.figure_ok(f["text"], f["pr"])}
    subs = []
    points = [p for p in theme["points"] if ledger.has(p["pr"])]
    for point in points:
        text = inline(point["text"].rstrip("."))
        figure = figures.pop(point["pr"], None)
        if figure is not None:
            text += f", reporting {ledger.quote(figure['text'], figure['pr'])}"
        else:
            text += f" ({ledger.cite(point['pr'])})"
        subs.append(text + ".")
    for figure in figures.values():  # a figure of a cited PR that is no point of its own
        subs.append(f"{ledger.quote(figure['text'], figure['pr'])}.")
    total = len(theme["members"])
    lead = f"{plural(total, 'PR')}, among them:" if total > len(points) else ""
    return {"text": f"{blocks.theme_label(theme)}{lead}".rstrip(), "sub": subs}


def _sentence_bullet(theme: dict[str, Any], ledger: Ledger) -> dict[str, Any]:
    figures = [f for f in theme["figures"] if ledger.figure_ok(f["text"], f["pr"])]
    figure_prs = {f["pr"] for f in figures}
    sentence = theme["sentence"].rstrip(".")
    cites = ledger.cite_all([n for n in theme["prs"] if n not in figure_prs])
    text = f"{blocks.theme_label(theme)}{inline(sentence)}"
    if cites:
        text += f" ({cites})"
    for i, fig in enumerate(figures):
        text += f"{', reporting' if i == 0 else ' and'} {ledger.quote(fig['text'], fig['pr'])}"
    more = theme["more"]
    if more > 0:
        text += f", plus {blocks.more_prs(more, theme)}"
    return {"text": text + ".", "sub": []}


def _lead_bullet(theme: dict[str, Any], ledger: Ledger) -> dict[str, Any]:
    """A theme in one sentence with one citation: its first point, or its sentence and lead PR."""
    points = [p for p in theme.get("points") or () if ledger.has(p["pr"])]
    if points:
        sentence, lead = points[0]["text"], points[0]["pr"]
    else:
        sentence = theme["sentence"]
        lead = next((n for n in theme["prs"] if ledger.has(n)), None)
    text = f"{blocks.theme_label(theme)}{inline(sentence.rstrip('.'))}"
    if lead is not None:
        text += f" ({ledger.cite(lead)})"
    others = len(theme["members"]) - 1
    if others > 0:
        text += f", plus {blocks.more_prs(others, theme)}"
    return {"text": text + ".", "sub": []}


def _also_bullet(area: dict[str, Any], skipped: int = 0) -> str:
    rest = area["rest"]
    count = rest["count"] + skipped
    if count <= 0:
        return ""
    text = f"**Also:** {plural(count, 'more PR')}"
    paths = [f"{code(path)} ({n})" for path, n in rest["top_paths"] if n >= 2][:2]
    if paths:
        text += ", mostly under " + " and ".join(paths)
    if rest["reverts"]:
        text += f", including {plural(rest['reverts'], 'revert or reland', 'reverts and relands')} (see below)"
    return text + "."


def _family_groups(areas: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Small areas of one family (`Backends: NXP`, `Backends: Samsung`) share a bullet."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    order: list[str] = []
    for area in areas:
        key = area["family"] or area["name"]
        if key not in groups:
            order.append(key)
        groups[key].append(area)
    return sorted(
        ((k, groups[k]) for k in order),
        key=lambda kv: (-sum(a["count"] for a in kv[1]), order.index(kv[0])),
    )


def _small_area_line(area: dict[str, Any], ledger: Ledger, label: str, budget: int) -> str:
    text = f"**{inline(label)}** ({plural(area['count'], 'PR')})"
    if is_catch_all(label):  # the catch-all (`Other`) is no name: say what it holds
        text = f"{plural(area['count'], 'PR')} in no area of their own"
    if area["themes"] and ledger.citations < budget:
        theme = area["themes"][0]
        cited = [n for n in theme["prs"] if ledger.has(n)][:1]
        text += f": {inline(theme['sentence'].rstrip('.'))}"
        if cited:
            text += f" ({ledger.cite_all(cited)})"
    elif area["rest"]["reverts"]:
        text += ": reverts and relands only (see below)"
    return text + "."


def _other_section(
    areas: list[dict[str, Any]], index: int, ledger: Ledger, budget: int
) -> dict[str, Any]:
    bullets: list[dict[str, Any]] = []
    shown = 0
    leftover: list[dict[str, Any]] = []
    for family, members in _family_groups(areas):
        if shown >= _OTHER_AREAS_SHOWN:
            leftover.extend(members)
            continue
        shown += 1
        if len(members) == 1:
            line = _small_area_line(members[0], ledger, members[0]["name"], budget)
            bullets.append({"text": line, "sub": []})
            continue
        total = sum(a["count"] for a in members)
        names = [a["name"].split(":", 1)[-1].strip() for a in members]
        # one-PR members are named in the family line; the others get a sentence each
        subs = [
            _small_area_line(a, ledger, names[i], budget)
            for i, a in enumerate(members)
            if a["count"] >= 2
        ]
        singles = [f"{names[i]} (1)" for i, a in enumerate(members) if a["count"] < 2]
        if subs and singles:
            subs.append(f"Also {plain(', '.join(singles))}.")
        bullets.append(
            {
                "text": f"**{inline(family)}** ({plural(total, 'PR')} across {plain(', '.join(names))}):",
                "sub": subs,
            }
        )
    if leftover:
        listed = ", ".join(f"{a['name']} ({a['count']})" for a in leftover)
        bullets.append({"text": f"**Also:** {plain(listed)}.", "sub": []})
    total = sum(a["count"] for a in areas)
    families = {a["family"] for a in areas}
    heading = (
        f"Other {next(iter(families))}"
        if len(families) == 1 and None not in families
        else "Other Areas"
    )
    intro = plain(f"{plural(total, 'PR')} across {plural(len(areas), 'smaller area')}")
    return {"index": index, "heading": plain(heading), "intro": intro, "bullets": bullets}


def _key_pr(area: dict[str, Any], ledger: Ledger) -> str:
    """The section's strongest theme PR by the analysis' evidence score, as `#N` (the
    references' table style; the prose above carries the links)."""
    cited = [n for theme in area["themes"] for n in theme["prs"] if ledger.has(n)]
    if not cited:
        return "—"
    best = max(cited, key=lambda n: (ledger.prs[str(n)]["score"], -cited.index(n)))
    return f"#{best}"


def _table_row(area: dict[str, Any], ledger: Ledger) -> dict[str, str]:
    category, _, component = area["name"].partition(":")
    if not component.strip() and area.get("top_paths"):
        component = ", ".join(code(path) for path, _ in area["top_paths"][:2])
    focus = ", ".join(inline(t["topic"]) for t in area["themes"][:3] if t["topic"]) or "—"
    return {
        "category": table_cell(f"**{plain(category.strip())}**"),
        "component": table_cell(
            component.strip() if "`" in component else plain(component.strip() or category.strip())
        ),
        "focus": table_cell(focus),
        "key": _key_pr(area, ledger),
    }


def _other_row(areas: list[dict[str, Any]], ledger: Ledger) -> dict[str, str]:
    names = [a["name"] for a in areas[:3]] + (["…"] if len(areas) > 3 else [])
    topics = [a["themes"][0]["topic"] for a in areas[:3] if a["themes"]]
    focus = ", ".join(inline(topic) for topic in topics if topic) or "—"
    key = next((_key_pr(a, ledger) for a in areas if any(t["prs"] for t in a["themes"])), "—")
    return {
        "category": "**Other**",
        "component": table_cell(plain(", ".join(names))),
        "focus": table_cell(focus),
        "key": key,
    }
