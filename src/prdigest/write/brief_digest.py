"""The digest composed from the window's briefs as the analysis planned it
(`analyze.digest_plan`): Key Takeaways with the week's news and where the work went, a
section per kind of change (a small week) or per component (a large one), each bullet a
brief told with its reason, and one closing line for what was counted but not told.

What was checked (citations, figures) is no prose: it goes in an HTML comment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..analyze.brief_types import Brief, Status
from ..analyze.context_types import DigestContext
from ..analyze.digest_plan import (
    PROJECT_WORK,
    DigestPlan,
    Entry,
    Grouping,
    PlannedSection,
    SectionKind,
    Untold,
)
from ..analyze.english import number_word, plural, sentence_case, verb_base
from ..render.markdown import inline, plain
from .brief_lines import lead_clause, named, sentence, shared_sentence
from .digest_blocks import Ledger, first_timers, merges_among
from .digest_document import Block, Digest, Figure, Line, Section

MANY_RELEASES = 3  # more of the project's own versions in a window are told in one line
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
    sections = [_section(i, planned, briefs, ledger) for i, planned in enumerate(plan.sections, 1)]
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
    told = [briefs[n] for n in plan.lead if n in briefs]
    versions = [b for b in told if b.project_release]
    leads = [f"{lead_clause(b)} ({ledger.cite(b.number)})" for b in told if b not in versions]
    if len(versions) > 2:  # "15 releases, 0.140.1 to 0.141.1 (#1, #15)"
        low, high = _version_order(versions)[0], _version_order(versions)[-1]
        cites = f"{ledger.cite(low.number)}, {ledger.cite(high.number)}"
        leads.insert(0, f"{len(versions)} releases, {low.release} to {high.release} ({cites})")
    elif len(versions) > 1:  # "versions 0.12.4 and 0.12.5 (#1, #2)"
        numbers = " and ".join(b.release for b in versions)
        cites = ", ".join(ledger.cite(b.number) for b in versions)
        leads.insert(0, f"versions {numbers} ({cites})")
    elif versions:
        leads.insert(0, f"{lead_clause(versions[0])} ({ledger.cite(versions[0].number)})")
    news = f"Highlights: {_series(leads)}." if leads else ""
    if not leads and any(s.heading == PROJECT_WORK for s in plan.sections):
        news = "No change that users see landed: the work went to the project itself."
    return ledger.line(" ".join(p for p in (news, _totals(context, plan)) if p))


def _series(parts: Sequence[str]) -> str:
    if len(parts) <= 2:
        return " and ".join(parts)
    return "; ".join(parts[:-1]) + f"; and {parts[-1]}"


def _totals(context: DigestContext, plan: DigestPlan) -> str:
    """How much landed, and in a week grouped by component where most of the work went,
    numbered as the reference digests number it."""
    counts = context.counts
    total = f"{plural(counts.prs, 'PR')} landed{_movement(context)}"
    areas = [a for a in plan.top_components if a]
    if plan.grouping is Grouping.COMPONENTS and areas:
        numbered = ", ".join(f"({i}) {plain(a)}" for i, a in enumerate(areas, start=1))
        return f"{total}, most of the work in {numbered}."
    return f"{total}."


def _movement(context: DigestContext) -> str:
    total = context.trends.total
    if not total.previous or total.pct is None or abs(total.pct) < 20:
        return ""
    return f", {'up' if total.delta > 0 else 'down'} from {total.previous} the week before"


def _version_order(releases: Sequence[Brief]) -> list[Brief]:
    """The project's releases, lowest version first (`0.140.9` before `0.140.10`)."""
    return sorted(
        releases, key=lambda b: [int(p) if p.isdigit() else 0 for p in b.release.split(".")]
    )


def _releases_line(releases: Sequence[Brief], ledger: Ledger) -> Line:
    """Many versions of the project in one window (a release per merged PR): one line."""
    ordered = _version_order(releases)
    cites = ", ".join(ledger.cite(b.number) for b in ordered)
    low, high = ordered[0].release, ordered[-1].release
    return ledger.line(f"Releases {len(ordered)} versions, {low} to {high} ({cites}).")


def _section(
    index: int, planned: PlannedSection, briefs: Mapping[int, Brief], ledger: Ledger
) -> Section:
    if planned.kind is SectionKind.RELEASES:
        own = [briefs[e.prs[0]] for e in planned.entries if briefs[e.prs[0]].project_release]
        if len(own) > MANY_RELEASES:
            rest = [e for e in planned.entries if briefs[e.prs[0]] not in own]
            lines = [_releases_line(own, ledger), *(_bullet(e, briefs, ledger, "") for e in rest)]
            return Section(index, plain(planned.heading), (), tuple(lines))
    entries: list[Entry] = []
    for entry in planned.entries:  # a group named as its section is: its changes, one each
        if len(entry.prs) > 1 and not entry.series and _restates(entry.name, planned.heading):
            entries += [Entry("", (n,)) for n in entry.prs]
        else:
            entries.append(entry)
    lines = [_bullet(entry, briefs, ledger, planned.heading) for entry in entries]
    return Section(index, plain(planned.heading), (), tuple(lines))


def _bullet(entry: Entry, briefs: Mapping[int, Brief], ledger: Ledger, heading: str) -> Line:
    members = [briefs[n] for n in entry.prs if n in briefs]
    lead = members[0]
    # no name that the heading says already, nor one the sentence's own subject says
    name = "" if _restates(entry.name, heading) else entry.name
    name = name if len(members) > 1 or named(lead, name) else ""
    label = f"**{inline(name)}:** " if name else ""
    if len(members) == 1:
        cites = ", ".join(ledger.cite(n) for n in (lead.number, *entry.cited_with))
        text = f"{label}{sentence(lead, name=name)} ({cites})."
        return ledger.line(text, figures=_figures(lead))
    shared = "" if entry.series or name else shared_sentence(members)
    if entry.series or shared:
        cites = ", ".join(ledger.cite(b.number) for b in members)
        if shared:  # "Enables PGO for Linux x86-64 and macOS ARM64 uv releases"
            return ledger.line(f"{shared} ({cites}).", figures=_figures(lead))
        told = sentence(lead, name=name).rstrip(".")
        text = f"{label}A {number_word(len(members))}-part series: {told} ({cites})."
        return ledger.line(text, figures=_figures(lead))
    if not name:  # one effort without one name: its changes in one sentence, each cited
        parts = [f"{sentence(b)} ({ledger.cite(b.number)})" for b in members]
        figures = tuple(f for b in members for f in _figures(b))
        return ledger.line(
            "; ".join(parts[:1] + [_lowered(p) for p in parts[1:]]) + ".", figures=figures
        )
    head = ledger.line(label.rstrip())
    subs = [
        ledger.line(f"{sentence(b, name=name)} ({ledger.cite(b.number)}).", figures=_figures(b))
        for b in members
    ]
    return Line(head.text, head.cites, head.figures, tuple(subs))


def _restates(name: str, heading: str) -> bool:
    """Whether a bullet's name says what its section's heading says (`Arm backend` under
    "Arm")."""
    bare, head = name.strip("`").lower(), heading.lower()
    generic = re.sub(r"\s+(?:backends?|support|delegate|integration)$", "", bare)
    return bare == head or generic == head


def _lowered(text: str) -> str:
    """A sentence continuing another after "; ": its first word in lower case, unless
    that word is a name (`API`, `MoE`, `cp`)."""
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first[1:].islower() and first.isalpha() else text


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


REVERTS_TOLD = 3  # reverts told one by one (those still out first); the rest cited in a line


class _Taken(NamedTuple):
    """A revert of the window, as the Reverts block tells it."""

    revert: int
    target: Brief | None  # the change it took back, when it landed in the window
    what: str  # what it took back, in words ("" when nothing says)
    again: int | None  # the PR that landed it again


def _reverts(context: DigestContext, ledger: Ledger) -> Block | None:
    """Changes reverted in the window: what was taken back (by its brief, or the title the
    revert quotes when it landed before the window), and whether it came back; those
    still out first, a few told, the rest cited in one line."""
    briefs = context.briefs
    taken: list[_Taken] = []
    for row in context.reverts:
        if row.revert is None:
            continue
        target = briefs.get(row.reverted) if row.reverted is not None else None
        what = inline(sentence_case(target.what)) if target else plain(row.title)
        relands = [
            b.number
            for b in briefs.values()
            if b.status is Status.RELAND
            and row.reverted is not None
            and b.status_of == row.reverted
        ]
        taken.append(
            _Taken(row.revert, target, what, row.relanded_by or min(relands, default=None))
        )
    taken.sort(key=lambda t: (t.again is not None, not t.what))
    lines: list[Line] = []
    for t in taken[:REVERTS_TOLD]:
        told = f"“{t.what}”" if t.what else "A change"
        if t.target is not None and verb_base(t.what.split(" ", 1)[0]):
            # "The change that fixes X (#1) was reverted"
            told = f"The change that {_lowered(t.what)} ({ledger.cite(t.target.number)})"
        elif t.target is not None:
            told = f"“{t.what}” ({ledger.cite(t.target.number)})"
        text = f"{told} was reverted ({ledger.cite(t.revert)})"
        text += f" and landed again ({ledger.cite(t.again)})." if t.again else "."
        lines.append(ledger.line(text))
    rest = [t.revert for t in taken[REVERTS_TOLD:]]
    if rest:
        cites = ", ".join(ledger.cite(n) for n in rest)
        lines.append(ledger.line(f"{plural(len(rest), 'more revert').capitalize()} ({cites})."))
    return Block("Reverts", tuple(lines)) if lines else None


def _people(context: DigestContext) -> Block | None:
    """Who is new (with history enough to tell), and what landed without a PR."""
    first = context.first_time_authors
    lines = []
    if first:
        names = ", ".join(first[:5]) + (f" and {len(first) - 5} more" if len(first) > 5 else "")
        lines.append(Line(plain(f"{first_timers(len(first), context).capitalize()}: {names}.")))
    pushes = context.direct_pushes
    if pushes:  # beside PRs, pushes are mostly syncs and fix-ups: counted, not told
        many = plural(len(pushes), "direct push", "direct pushes")
        lines.append(Line(f"{many} (commits without a PR) also landed{merges_among(pushes)}."))
    return Block("Contributors", tuple(lines)) if lines else None
