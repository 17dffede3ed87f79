"""The closing blocks of the deterministic digest (reverts, week over week, contributors,
the empty window) and the `Ledger` every citation and figure goes through.

The ledger refuses a PR outside the window and hands each line the PRs it cites and the
figures it quotes, as the document (`digest_document.Line`) carries them for the verifier.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..analyze.context_types import AreaTheme, DigestContext, DirectPush, PRFacts, Reland, Revert
from ..analyze.english import plural
from ..reading import is_branch_merge
from ..render.markdown import code, inline, plain
from .digest_document import Block, Digest, Figure, Line, Section
from .digest_verifier import stated_by


class Ledger:
    """Issues citations and quoted figures, and gives each line those issued for it."""

    def __init__(self, context: DigestContext) -> None:
        self.prs: dict[int, PRFacts] = context.prs
        self.repo: str = context.repo
        self.citations = 0
        self._cites: list[int] = []
        self._figures: list[Figure] = []

    def has(self, number: int | None) -> bool:
        return number is not None and number in self.prs

    def cite(self, number: int) -> str:
        """`[PR#N](url)`, or `PR#N` with no link to give; a PR outside the window is the
        verifier's to refuse (`digest_verifier`), as the line records it."""
        self.citations += 1
        self._cites.append(number)
        pr = self.prs.get(number)
        return f"[PR#{number}]({pr.url})" if pr is not None and pr.url else f"PR#{number}"

    def cite_all(self, numbers: Sequence[int]) -> str:
        """The PRs of the window among `numbers`, cited."""
        return ", ".join(self.cite(n) for n in numbers if self.has(n))

    def cite_each(self, numbers: Sequence[int]) -> str:
        """Every one of `numbers` cited, whether the window has it or not (the verifier
        refuses a line citing one it has not)."""
        return ", ".join(self.cite(n) for n in numbers)

    def figure_ok(self, text: str, number: int) -> bool:
        """Whether the PR states the figure, in its title or a claim the analysis found."""
        pr = self.prs.get(number)
        return pr is not None and stated_by(text, [pr.title, *pr.claims])

    def quoted(self, text: str, number: int) -> None:
        """A figure of PR `number` the line being written quotes."""
        self._figures.append(Figure(text, number))

    def quote(self, text: str, number: int) -> str:
        self.quoted(text, number)
        return f"“{inline(text, symbols=False)}” ({self.cite(number)})"

    def line(self, text: str, sub: Sequence[Line] = (), figures: Sequence[Figure] = ()) -> Line:
        """The line `text`, with the citations and figures issued since the last line."""
        made = Line(text, tuple(self._cites), (*self._figures, *figures), tuple(sub))
        self._cites, self._figures = [], []
        return made


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
    lines = [ledger.line(_revert_line(row, ledger)) for row in rows[:shown]]
    room = max(0, shown - len(lines))
    lines += [ledger.line(_reland_line(row, ledger)) for row in relands[:room]]
    untold, untold_relands = rows[shown:], relands[room:]
    if untold or untold_relands:
        lines.append(Line(_untold(untold, len(untold_relands))))
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


def trends(context: DigestContext, told: Collection[str] = ()) -> Block | None:
    """The areas that moved, or nothing: the total's movement is the Key Takeaways' to
    tell, and a block repeating it carries nothing. An area whose own section's intro
    says its movement already (`told`: "6 PRs, up from 3") is not told again."""
    trends = context.trends
    if not trends.total.previous:
        return None
    lines = []
    for label, moved in (("Rising", trends.rising), ("Falling", trends.falling)):
        rows = [r for r in moved if r.area not in told]
        if rows:
            parts = [f"{r.area} {r.previous} → {r.count}" for r in rows[:_MOVES]]
            lines.append(Line(f"**{label}:** {plain('; '.join(parts))}."))
    return Block("Week over Week", tuple(lines)) if lines else None


def first_timers(count: int, context: DigestContext) -> str:
    """`2 first-time contributors`, and since when when the synced history has a start
    (`sync --since`): before it, the store cannot tell who is new."""
    since = context.first_time_since
    return plural(count, "first-time contributor") + (f" since {since}" if since else "")


def people(context: DigestContext, *, list_pushes: bool = True) -> Block | None:
    """First-time contributors and direct pushes; nothing when there are neither (a bare
    count of authors carries nothing a reader acts on)."""
    counts = context.counts
    first = context.first_time_authors
    if not first and not context.direct_pushes:
        return None
    line = f"{plural(counts.authors, 'author')} landed changes"
    if first:
        unnamed = len(first) - _NAMES
        names = ", ".join(first[:_NAMES]) + (f" and {unnamed} more" if unnamed > 0 else "")
        line += f"; {first_timers(len(first), context)}: {names}"
    lines = [Line(plain(line + "."))]
    pushes = context.direct_pushes
    if pushes and not list_pushes:
        lines.append(
            Line(f"{plural(len(pushes), 'direct push', 'direct pushes')} (commits without a PR).")
        )
    elif pushes:
        named = [p for p in pushes if not is_branch_merge(p.title)][:4]
        shown = "; ".join(f"{inline(p.clean_title)} ({code(p.sha[:7])})" for p in named)
        more = len(pushes) - len(named)
        text = f"{plural(len(pushes), 'direct push', 'direct pushes')} (commits without a PR), counted apart from the PRs"
        if named:
            text += f": {shown}" + (f"; and {more} more" if more else "")
        text += _merges_among(pushes)
        lines.append(Line(text + "."))
    return Block("Contributors", tuple(lines))


def empty(context: DigestContext) -> Digest:
    """A window without PRs: says so, and what was pushed without one, area by area (a
    repository that lands commits directly still gets a digest of its work)."""
    counts = context.counts
    text = f"No pull requests landed in {context.repo} during {context.window.label}"
    if counts.direct_pushes:
        text += f"; {plural(counts.direct_pushes, 'direct push', 'direct pushes')} did"
        text += _merges_among(context.direct_pushes)
    if counts.previous_prs:
        text += f" (the week before had {plural(counts.previous_prs, 'PR')})"
    told = [p for p in context.direct_pushes if not is_branch_merge(p.title)]
    sections = _push_sections(told)
    return Digest(
        title=plain(context.title),
        takeaways=Line(plain(text + (", by area below." if sections else "."))),
        sections=tuple(sections),
        extras=tuple(
            b for b in (people(context, list_pushes=not sections),) if b and counts.direct_pushes
        ),
    )


_PUSHES_SHOWN = 5  # a section's direct pushes, by title; the rest are counted
_PUSH_SECTIONS = 6  # past this many areas, those with one push share "Other Areas"


def _merges_among(pushes: Sequence[DirectPush]) -> str:
    """` (3 merges of branches among them, not listed)`: git's own subject for a merge
    (`Merge branch 'x'`) says nothing of the work, so those pushes are counted, not listed."""
    merges = sum(1 for p in pushes if is_branch_merge(p.title))
    if not merges:
        return ""
    what = "1 merge of a branch" if merges == 1 else f"{merges} merges of branches"
    return f" ({what} among them, not listed)"


def _push_sections(pushes: Sequence[DirectPush]) -> list[Section]:
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
            bullets.append(Line(f"**Also:** {rest}."))
        sections.append(
            (plain(area), plural(len(members), "direct push", "direct pushes"), bullets)
        )
    if singles:
        intro = f"{plural(len(singles), 'direct push', 'direct pushes')} across {plural(len(singles), 'smaller area')}"
        bullets = [_push_line(p, label=area) for area, p in singles]
        sections.append(("Other Areas", intro, bullets))
    return [
        Section(i, heading, (f"*{plain(intro)}*",), tuple(bullets))
        for i, (heading, intro, bullets) in enumerate(sections, start=1)
    ]


def _push_line(push: DirectPush, label: str = "") -> Line:
    text = f"{inline(push.clean_title.rstrip('.'))} ({code(push.sha[:7])})."
    return Line(f"**{plain(label)}:** {text}" if label else text)


def closing(digest: Digest, context: DigestContext) -> str:
    """What was checked, counted from the lines of the digest."""
    lines = list(digest.lines())
    citations = [n for line in lines for n in line.cites]
    figures = sum(len(line.figures) for line in lines)
    checked = f"All {plural(len(citations), 'citation')} and {plural(figures, 'figure')} checked against the PRs of the window."
    if all(context.prs[n].url for n in citations):
        return checked
    return (
        f"{checked} PRs are cited by number, without links: {code(context.repo)} names no GitHub"
        " repository. To link them, sync the clone under its GitHub name:"
        f" {code('prdigest sync OWNER/NAME --git PATH')}"
        f" (or {code('./scripts/quickstart.sh PATH OWNER/NAME')})."
    )


def theme_label(theme: AreaTheme) -> str:
    """`**Name:** ` before a theme's sentence; nothing for a theme without a name (one PR)."""
    return f"**{inline(theme.name)}:** " if theme.name else ""


def more_prs(count: int, theme: AreaTheme) -> str:
    """`3 more PRs on this theme`; `3 related PRs` when the theme has no name to refer to."""
    return (
        f"{plural(count, 'more PR')} on this theme" if theme.name else plural(count, "related PR")
    )
