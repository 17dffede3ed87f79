"""The digest composed from the window's briefs as the analysis planned it
(`analyze.digest_plan`): Key Takeaways with the week's news and where the work went, a
section per kind of change (a small week) or per component (a large one), each bullet a
brief told with its reason, and one closing line for what was counted but not told.

What was checked (citations, figures) is no prose: it goes in an HTML comment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..analyze.brief_types import Brief, Status
from ..analyze.context_types import DigestContext
from ..analyze.digest_plan import DigestPlan, Entry, Grouping, PlannedSection, Untold
from ..analyze.english import number_word, plural
from ..render.markdown import inline, plain
from .brief_lines import lead_clause, sentence
from .digest_blocks import Ledger, first_timers
from .digest_document import Block, Digest, Figure, Line, Section

_UNTOLD_WORDS: dict[Untold, str] = {
    Untold.TESTS: "tests",
    Untold.CI: "CI and build",
    Untold.DOCS: "docs",
    Untold.DEPENDENCIES: "dependency updates",
    Untold.REVERTS: "reverts",
    Untold.OTHER: "smaller changes",
}


def composed_digest(context: DigestContext, plan: DigestPlan) -> Digest:
    """The digest of a window with PRs, from its plan and briefs."""
    ledger = Ledger(context)
    briefs = context.briefs
    sections = [
        _section(i, planned, briefs, ledger, plan.grouping)
        for i, planned in enumerate(plan.sections, start=1)
    ]
    return Digest(
        title=plain(context.title),
        takeaways=_takeaways(context, plan, ledger),
        sections=tuple(s for s in sections if s.lines),
        tail=_untold_line(plan, ledger),
        extras=tuple(b for b in (_reverts(context, ledger), _people(context)) if b),
    )


def _takeaways(context: DigestContext, plan: DigestPlan, ledger: Ledger) -> Line:
    """The week's news, then how much landed and where the work went."""
    briefs = context.briefs
    leads = [f"{lead_clause(briefs[n])} ({ledger.cite(n)})" for n in plan.lead if n in briefs]
    news = f"Main changes this week: {_series(leads)}." if leads else ""
    return ledger.line(" ".join(p for p in (news, _totals(context, plan)) if p))


def _series(parts: Sequence[str]) -> str:
    if len(parts) <= 2:
        return " and ".join(parts)
    return "; ".join(parts[:-1]) + f"; and {parts[-1]}"


def _totals(context: DigestContext, plan: DigestPlan) -> str:
    """`24 PRs landed: 2 new features, 4 improvements and 4 fixes; the rest tests, CI and
    docs.` in a week grouped by kind; the top components, numbered, in one by component."""
    counts = context.counts
    total = f"{plural(counts.prs, 'PR')} landed"
    if counts.direct_pushes:
        total += f" (and {plural(counts.direct_pushes, 'direct push', 'direct pushes')})"
    if plan.grouping is Grouping.COMPONENTS:
        areas = [a for a in plan.top_components if a]
        numbered = ", ".join(f"({i}) {plain(a)}" for i, a in enumerate(areas, start=1))
        return (
            f"{total}, most of the work in {numbered}{_movement(context)}."
            if areas
            else f"{total}."
        )
    told = [(s.heading.lower(), sum(len(e.prs) for e in s.entries)) for s in plan.sections]
    kinds = ", ".join(f"{n} {_singular(h, n)}" for h, n in told)
    rest = [_UNTOLD_WORDS[k] for k, prs in plan.untold if prs and k is not Untold.OTHER]
    tail = f"; the rest is mostly {_series(rest[:3])}" if rest else ""
    return f"{total}{_movement(context)}: {kinds}{tail}." if kinds else f"{total}."


def _singular(heading: str, n: int) -> str:
    word = {"new features": "new feature", "improvements": "improvement", "bug fixes": "fix",
            "breaking changes": "breaking change", "deprecations": "deprecation",
            "performance": "performance change", "releases": "release",
            "documentation": "docs change", "other changes": "other change"}.get(heading, heading)  # fmt: skip
    return (
        word
        if n == 1
        else {"fix": "fixes", "performance change": "performance changes"}.get(word, word + "s")
        if not word.endswith("s")
        else word
    )


def _movement(context: DigestContext) -> str:
    total = context.trends.total
    if not total.previous or total.pct is None or abs(total.pct) < 20:
        return ""
    return f", {'up' if total.delta > 0 else 'down'} from {total.previous} the week before"


def _section(
    index: int,
    planned: PlannedSection,
    briefs: Mapping[int, Brief],
    ledger: Ledger,
    grouping: Grouping,
) -> Section:
    lines = [_bullet(entry, briefs, ledger, grouping) for entry in planned.entries]
    return Section(index, plain(planned.heading), (), tuple(lines))


def _bullet(entry: Entry, briefs: Mapping[int, Brief], ledger: Ledger, grouping: Grouping) -> Line:
    members = [briefs[n] for n in entry.prs if n in briefs]
    lead = members[0]
    name = entry.name
    label = f"**{inline(name)}:** " if name else ""
    if len(members) == 1:
        text = f"{label}{sentence(lead, name=name)} ({ledger.cite(lead.number)})."
        return ledger.line(text, figures=_figures(lead))
    if entry.series:
        told = sentence(lead, name=name).rstrip(".")
        cites = ", ".join(ledger.cite(b.number) for b in members)
        text = f"{label}A {number_word(len(members))}-part series: {told} ({cites})."
        return ledger.line(text, figures=_figures(lead))
    head = ledger.line(label.rstrip() or plain(lead.component) + ":")
    subs = [
        ledger.line(f"{sentence(b, name=name)} ({ledger.cite(b.number)}).", figures=_figures(b))
        for b in members
    ]
    return Line(head.text, head.cites, head.figures, tuple(subs))


def _figures(brief: Brief) -> tuple[Figure, ...]:
    return tuple(Figure(f, brief.number) for f in brief.figures)


def _component_name(component: str) -> str:
    """A component as a bullet names it: the member of a family (`Backends: Arm` → Arm)."""
    return component.rsplit(": ", 1)[-1] if component else ""


def _untold_line(plan: DigestPlan, ledger: Ledger) -> Line | None:
    """One short line for what a reader would miss: the PRs counted but not told, by what
    they are."""
    groups = [(kind, prs) for kind, prs in plan.untold if prs]
    if not groups:
        return None
    total = sum(len(prs) for _, prs in groups)
    kinds = [_UNTOLD_WORDS[kind] for kind, _ in sorted(groups, key=lambda g: -len(g[1]))]
    listed = ", ".join(kinds[:-1]) + f" and {kinds[-1]}" if len(kinds) > 1 else kinds[0]
    told = "also landed" if plan.told else "landed"
    return ledger.line(
        f"*{plural(total, 'more PR')} {told}: {listed}.*".replace("*1 more PR", "*One more PR")
    )


def _reverts(context: DigestContext, ledger: Ledger) -> Block | None:
    """Changes reverted in the window: what was taken back, and whether it came back."""
    briefs = context.briefs
    lines: list[Line] = []
    for brief in briefs.values():
        if brief.status is not Status.REVERT or brief.status_of is None:
            continue
        target = briefs.get(brief.status_of)
        relanded = next(
            (
                b
                for b in briefs.values()
                if b.status is Status.RELAND and b.status_of == brief.status_of
            ),
            None,
        )
        what = inline(target.what) if target else f"#{brief.status_of}"
        cite = f" ({ledger.cite(target.number)})" if target else ""
        text = f"{what}{cite} was reverted ({ledger.cite(brief.number)})"
        text += f" and landed again ({ledger.cite(relanded.number)})." if relanded else "."
        lines.append(ledger.line(text))
    return Block("Reverts", tuple(lines)) if lines else None


def _people(context: DigestContext) -> Block | None:
    first = context.first_time_authors
    if not first:
        return None
    names = ", ".join(first[:5]) + (f" and {len(first) - 5} more" if len(first) > 5 else "")
    return Block(
        "Contributors",
        (Line(plain(f"{first_timers(len(first), context).capitalize()}: {names}.")),),
    )


def told_numbers(plan: DigestPlan) -> Sequence[int]:
    return plan.told
