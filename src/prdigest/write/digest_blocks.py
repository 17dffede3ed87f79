"""The closing blocks of the deterministic digest (reverts, week over week, contributors,
the empty window) and the `Ledger` every citation and figure goes through.

The ledger refuses a PR outside the window and a figure its PR does not state; `check`
re-reads the rendered Markdown so the closing line's counts are the text's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..analyze.claims import normalize
from ..analyze.context_types import AreaTheme, DigestContext, DirectPush, PRFacts, Reland, Revert
from ..analyze.english import plural
from ..errors import TemplateError
from ..render.markdown import code, inline, plain

_LINK = re.compile(r"\[PR#(\d+)\]\(([^)]*)\)")


@dataclass(frozen=True, slots=True)
class Bullet:
    """A line of a section, with the lines beneath it."""

    text: str
    sub: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Block:
    """A headed list of lines: the callout, Reverts and Relands, Week over Week, …"""

    heading: str
    bullets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SectionText:
    """A numbered section of the digest as it is rendered."""

    index: int
    heading: str
    intro: str
    bullets: tuple[Bullet, ...]


@dataclass(frozen=True, slots=True)
class TableRow:
    """A row of the Summary Table."""

    category: str
    component: str
    focus: str
    key: str


class Ledger:
    """Issues citations and figures, and remembers them for the final check."""

    def __init__(self, context: DigestContext) -> None:
        self.prs: dict[int, PRFacts] = context.prs
        self.repo: str = context.repo
        self.citations = 0
        self.links = 0  # citations with a link: those with no known GitHub repository have none
        self.figures = 0

    def has(self, number: int | None) -> bool:
        return number is not None and number in self.prs

    def cite(self, number: int) -> str:
        if not self.has(number):
            raise TemplateError(
                f"the digest cites PR #{number}, which is not in the window",
                "report this as a bug in prdigest",
            )
        self.citations += 1
        url = self.prs[number].url
        if not url:
            return f"PR#{number}"
        self.links += 1
        return f"[PR#{number}]({url})"

    def cite_all(self, numbers: Sequence[int]) -> str:
        return ", ".join(self.cite(n) for n in numbers if self.has(n))

    def figure_ok(self, text: str, number: int) -> bool:
        pr = self.prs.get(number)
        if pr is None:
            return False
        said = normalize(text)
        return any(said in normalize(source) for source in [pr.title, *pr.claims])

    def quote(self, text: str, number: int) -> str:
        self.figures += 1
        return f"“{inline(text, symbols=False)}” ({self.cite(number)})"


_MOVES = 3  # areas named per line of Week over Week: the biggest moves say it
_NAMES = 5  # first-time contributors named before "and N more"
REVERTS_SHOWN = 6  # reverts (and relands of earlier changes) told one by one; the rest counted


def reverts(context: DigestContext, ledger: Ledger) -> Block | None:
    """Reverts, first those not relanded in the window (what is still out), then relands
    of earlier changes; past REVERTS_SHOWN a count line keeps the digest selective."""
    rows = sorted(context.reverts, key=lambda row: row.relanded_by is not None)
    told = {row.relanded_by for row in rows}  # told beside their revert, or counted with it
    relands = [row for row in context.relands if row.reland not in told]
    # One line more tells the last entry rather than counting it.
    shown = (
        len(rows) + len(relands) if len(rows) + len(relands) <= REVERTS_SHOWN + 1 else REVERTS_SHOWN
    )
    lines = [_revert_line(row, ledger) for row in rows[:shown]]
    room = max(0, shown - len(lines))
    lines += [_reland_line(row, ledger) for row in relands[:room]]
    untold, untold_relands = rows[shown:], relands[room:]
    if untold or untold_relands:
        lines.append(_untold(untold, len(untold_relands)))
    return Block("Reverts and Relands", tuple(lines)) if lines else None


def _revert_line(row: Revert, ledger: Ledger) -> str:
    who = (
        ledger.cite(row.revert)
        if row.revert is not None and ledger.has(row.revert)
        else f"A direct push ({code(row.sha[:7])})"
    )
    what = f"“{inline(row.title, symbols=False)}”" if row.title else "an earlier change"
    target = row.reverted
    if target is not None and ledger.has(target) and row.reverted_in_window:
        where = f" ({ledger.cite(target)}, landed this week)"
    elif target is not None:
        where = f" (#{target}, from an earlier week)"
    else:
        where = ""
    text = f"{who} reverted {what}{where}"
    if row.relanded_by is not None and ledger.has(row.relanded_by):
        text += f"; relanded by {ledger.cite(row.relanded_by)}"
    elif row.reverted_in_window:
        text += "; not relanded this week"
    return text + "."


def _reland_line(row: Reland, ledger: Ledger) -> str:
    who = (
        ledger.cite(row.reland)
        if row.reland is not None and ledger.has(row.reland)
        else f"A direct push ({code(row.sha[:7])})"
    )
    target = row.relanded
    if row.title:
        what = f"“{inline(row.title, symbols=False)}”"
        if target is not None and not row.relanded_in_window:
            what += f" (#{target}, from an earlier week)"
    elif target is not None:
        what = f"#{target} (from an earlier week)"
    else:
        what = "an earlier change"
    return f"{who} relanded {what}."


def _untold(rows: list[Revert], relands: int) -> str:
    parts = []
    if rows:
        relanded = sum(row.relanded_by is not None for row in rows)
        parts.append(
            plural(len(rows), "more revert")
            + (f" ({relanded} relanded this week)" if relanded else "")
        )
    if relands:
        parts.append(plural(relands, "more reland") + " of earlier changes")
    return f"Also {' and '.join(parts)}; `--format json` lists them all."


def trends(context: DigestContext) -> Block | None:
    """The areas that moved, or nothing: the total's movement is the Key Takeaways' to
    tell, and a block repeating it carries nothing."""
    trends = context.trends
    if not trends.total.previous or not (trends.rising or trends.falling):
        return None
    lines = []
    for label, rows in (("Rising", trends.rising), ("Falling", trends.falling)):
        if rows:
            parts = [f"{r.area} {r.previous} → {r.count}" for r in rows[:_MOVES]]
            lines.append(f"**{label}:** {plain('; '.join(parts))}.")
    return Block("Week over Week", tuple(lines))


def first_timers(count: int, context: DigestContext) -> str:
    """`2 first-time contributors`, and since when when the synced history has a start
    (`sync --since`): before it, the store cannot tell who is new."""
    since = context.first_time_since
    return plural(count, "first-time contributor") + (f" since {since}" if since else "")


def people(context: DigestContext, *, list_pushes: bool = True) -> Block | None:
    """First-time contributors and direct pushes; nothing when there are neither (a bare
    count of authors carries nothing a reader acts on)."""
    counts = context.counts
    lines = []
    first = context.first_time_authors
    if not first and not context.direct_pushes:
        return None
    line = f"{plural(counts.authors, 'author')} landed changes"
    if first:
        unnamed = len(first) - _NAMES
        names = ", ".join(first[:_NAMES]) + (f" and {unnamed} more" if unnamed > 0 else "")
        line += f"; {first_timers(len(first), context)}: {names}"
    lines.append(plain(line + "."))
    pushes = context.direct_pushes
    if pushes and not list_pushes:
        lines.append(
            f"{plural(len(pushes), 'direct push', 'direct pushes')} (commits without a PR)."
        )
    elif pushes:
        shown = "; ".join(f"{inline(p.clean_title)} ({code(p.sha[:7])})" for p in pushes[:4])
        more = f"; and {len(pushes) - 4} more" if len(pushes) > 4 else ""
        lines.append(
            f"{plural(len(pushes), 'direct push', 'direct pushes')} (commits without a PR), counted apart from the PRs: {shown}{more}."
        )
    return Block("Contributors", tuple(lines))


def empty(context: DigestContext, ledger: Ledger) -> dict[str, Any]:
    """A window without PRs: says so, and what was pushed without one, area by area (a
    repository that lands commits directly still gets a digest of its work)."""
    counts = context.counts
    text = f"No pull requests landed in {context.repo} during {context.window.label}"
    if counts.direct_pushes:
        text += f"; {plural(counts.direct_pushes, 'direct push', 'direct pushes')} did"
    if counts.previous_prs:
        text += f" (the week before had {plural(counts.previous_prs, 'PR')})"
    sections = _push_sections(context.direct_pushes)
    return {
        "title": plain(context.title),
        "takeaways": plain(text + (", by area below." if sections else ".")),
        "sections": sections,
        "extras": [
            b for b in (people(context, list_pushes=not sections),) if b and counts.direct_pushes
        ],
        "table": [],
    }


_PUSHES_SHOWN = 5  # a section's direct pushes, by title; the rest are counted
_PUSH_SECTIONS = 6  # past this many areas, those with one push share "Other Areas"


def _push_sections(pushes: Sequence[DirectPush]) -> list[SectionText]:
    """One section per area of the window's direct pushes, busiest first, each push by its
    title and short sha (a direct push has no PR to link); areas of a single push share a
    last section when there are many."""
    by_area: dict[str, list[DirectPush]] = {}
    for push in pushes:
        by_area.setdefault(push.area or "Unplaced", []).append(push)
    ordered = sorted(by_area.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    singles: list[tuple[str, DirectPush]] = []
    if len(ordered) > _PUSH_SECTIONS:
        singles = [(area, members[0]) for area, members in ordered if len(members) == 1]
        ordered = [(area, members) for area, members in ordered if len(members) > 1]
    sections = []
    for area, members in ordered:
        bullets = [_push_line(p) for p in members[:_PUSHES_SHOWN]]
        if len(members) > _PUSHES_SHOWN:
            rest = plural(len(members) - _PUSHES_SHOWN, "more direct push", "more direct pushes")
            bullets.append(Bullet(f"**Also:** {rest}."))
        sections.append(
            (plain(area), plural(len(members), "direct push", "direct pushes"), bullets)
        )
    if singles:
        intro = f"{plural(len(singles), 'direct push', 'direct pushes')} across {plural(len(singles), 'smaller area')}"
        bullets = [_push_line(p, label=area) for area, p in singles]
        sections.append(("Other Areas", intro, bullets))
    return [
        SectionText(i, heading, plain(intro), tuple(bullets))
        for i, (heading, intro, bullets) in enumerate(sections, start=1)
    ]


def _push_line(push: DirectPush, label: str = "") -> Bullet:
    text = f"{inline(push.clean_title.rstrip('.'))} ({code(push.sha[:7])})."
    return Bullet(f"**{plain(label)}:** {text}" if label else text)


def closing(ledger: Ledger) -> str:
    checked = f"All {plural(ledger.citations, 'citation')} and {plural(ledger.figures, 'figure')} checked against the PRs of the window."
    if ledger.links == ledger.citations:
        return checked
    return (
        f"{checked} PRs are cited by number, without links: {code(ledger.repo)} names no GitHub"
        " repository. To link them, sync the clone under its GitHub name:"
        f" {code('prdigest sync OWNER/NAME --git PATH')}"
        f" (or {code('./scripts/quickstart.sh PATH OWNER/NAME')})."
    )


def check(markdown: str, context: DigestContext, ledger: Ledger) -> None:
    """The rendered text, re-read: every PR link is a PR of the window, counted once."""
    found = _LINK.findall(markdown)
    for number, url in found:
        pr = context.prs.get(int(number))
        if pr is None or pr.url != url:
            raise TemplateError(
                f"digest links PR #{number} ({url}), which is not in the window",
                "report this as a bug in prdigest",
            )
    if len(found) != ledger.links:
        raise TemplateError(
            f"digest has {len(found)} PR links but {ledger.links} were issued",
            "report this as a bug in prdigest",
        )


def theme_label(theme: AreaTheme) -> str:
    """`**Name:** ` before a theme's sentence; nothing for a theme without a name (one PR)."""
    return f"**{inline(theme.name)}:** " if theme.name else ""


def more_prs(count: int, theme: AreaTheme) -> str:
    """`3 more PRs on this theme`; `3 related PRs` when the theme has no name to refer to."""
    return (
        f"{plural(count, 'more PR')} on this theme" if theme.name else plural(count, "related PR")
    )
