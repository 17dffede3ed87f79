"""What every digest has besides its briefs: the `Ledger` every citation and figure goes
through, the contributors, the digest of a window without PRs, and the closing note of
what was checked.

The ledger refuses a PR outside the window and hands each line the PRs it cites and the
figures it quotes, as the document (`digest_document.Line`) carries them for the verifier.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analyze.context_types import DigestContext, DirectPush, PRFacts
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


_NAMES = 5  # first-time contributors named before "and N more"


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
        text += merges_among(pushes)
        lines.append(Line(text + "."))
    return Block("Contributors", tuple(lines))


def empty(context: DigestContext) -> Digest:
    """A window without PRs: says so, and what was pushed without one, area by area (a
    repository that lands commits directly still gets a digest of its work)."""
    counts = context.counts
    text = f"No pull requests landed in {context.repo} during {context.window.label}"
    if counts.direct_pushes:
        text += f"; {plural(counts.direct_pushes, 'direct push', 'direct pushes')} did"
        text += merges_among(context.direct_pushes)
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


def merges_among(pushes: Sequence[DirectPush]) -> str:
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
    checked = f"<!-- All {plural(len(citations), 'citation')} and {plural(figures, 'figure')} checked against the PRs of the window. -->"
    if all(context.prs[n].url for n in citations):
        return checked
    return (
        f"{checked} PRs are cited by number, without links: {code(context.repo)} names no GitHub"
        " repository. To link them, sync the clone under its GitHub name:"
        f" {code('prdigest sync OWNER/NAME --git PATH')}"
        f" (or {code('./scripts/quickstart.sh PATH OWNER/NAME')})."
    )
