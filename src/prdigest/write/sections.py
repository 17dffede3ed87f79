"""The digest's sections, as the analysis planned them (`context.sections`): an area's
section (its themes, cited within the citation budget), a family's (one line per member
area) and Other Areas (one line per small area or family, each saying what changed).

Every `[PR#N](…)` goes through the `Ledger`, which gives each line the PRs it cites. Past the citation budget the digest stays
selective by citing less, never by saying less: a section still tells its first themes,
and every line still links the PRs its sentence is made from.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ..analyze.context_types import Area, AreaTheme, DigestContext, Section
from ..analyze.english import as_clause, plural, sentence_case, verb_base
from ..analyze.families import (
    MIN_SECTION,
    OTHER_AREAS,
    OTHER_SHARE,
    member_name,
    plan_sections,
)
from ..kinds import LABELS as _KIND_LABELS
from ..render.markdown import code, inline, plain, table_cell
from .digest_blocks import Ledger, more_prs, theme_label
from .digest_document import Line, TableRow
from .digest_document import Section as DigestSection
from .news import component_bullets

__all__ = ["MIN_SECTION", "citation_budget", "sections"]

_LINE_CITES = 2  # PRs a member's line cites, within the budget
_TOLD_PAST_BUDGET = 3  # a section's themes told past the budget (the references: 3–5)
TABLE_SECTIONS = 6  # sections of their own (Other Areas aside) a Summary Table needs
_NAMED_REST = 2  # in a tiny week, an area's untold PRs up to this many are named, not counted
TINY_WEEK = 10  # PRs of a week read in under a minute
_SMALL_SECTION = 2  # a section this small goes back to Other Areas when it has room
_FAMILY_LINES = 4  # member areas a family section tells line by line; the rest are listed
_TAIL_NAMED = 6  # lone PRs the tail line names; the rest it counts


def citation_budget(prs: int) -> int:
    """About how many PR links the area sections of a digest of `prs` PRs carry (the
    references: 20–35 of 400–560; a 100-PR week gets 16); past it, a section still tells
    its first themes, each citing only the PRs its sentence is made from."""
    return min(30, 8 + prs // 12)


def sections(
    context: DigestContext, ledger: Ledger
) -> tuple[list[DigestSection], list[TableRow], Line | None]:
    """The numbered sections, the Summary Table's rows and the tail line of lone PRs."""
    areas = {a.name: a for a in context.areas}
    plan, lone = shown_plan(context)
    has_previous = bool(context.counts.previous_prs)
    total = context.counts.prs
    budget = citation_budget(total)
    out: list[DigestSection] = []
    table: list[TableRow] = []
    for entry in plan:
        members = [areas[name] for name in entry.areas]
        index = len(out) + 1
        # A section names the components its areas created first, told beside the
        # budget like a figure; Other Areas names those of its small areas last.
        told = ledger.citations
        news = component_bullets(context, ledger, entry.areas)
        budget += ledger.citations - told
        if entry.kind == "area":
            section = _area_section(
                members[0], index, has_previous, ledger, budget, total <= TINY_WEEK
            )
            table.append(_table_row(members[0], ledger))
        elif entry.kind == "family":
            section = _family_section(entry, members, index, has_previous, ledger, budget)
            table.append(_family_row(entry, members, ledger))
        else:
            section = _other_section(entry, members, index, ledger, budget)
            table.append(_other_row(members, ledger))
            section = replace(section, lines=section.lines + tuple(news))
            news = []
        out.append(replace(section, lines=(*news, *section.lines)))
    if out:  # components of an area no section holds (a direct push's) close the last one
        planned = [name for entry in plan for name in entry.areas]
        last = out[-1]
        out[-1] = replace(
            last, lines=last.lines + tuple(component_bullets(context, ledger, besides=planned))
        )
    tail = _tail([areas[name] for name in lone], ledger, budget)
    # the table sums up a week of several sections; for fewer, the headings say it all
    own = sum(entry.kind != "other" for entry in plan)
    return out, table if own >= TABLE_SECTIONS else [], tail


def shown_plan(context: DigestContext) -> tuple[list[Section], list[str]]:
    """The sections as a digest shows them, by either writer: the analysis' plan without
    its lone PRs' areas (a line of their own, `lone_line`), and with sections of two PRs
    back in Other Areas while it stays small; and the lone areas."""
    areas = {a.name: a for a in context.areas}
    plan, lone = _without_lone_areas(
        context.sections or plan_sections(context.areas, context.counts.prs), areas
    )
    return _small_into_other(plan, context.counts.prs), lone


def lone_line(
    context: DigestContext, lone: Sequence[str], ledger: Ledger, spent: int = 0
) -> Line | None:
    """`**Also, one PR each in 2 more areas:** …`, for a writer other than this one, whose
    other lines cited `spent` PRs beside `ledger`'s: past the budget it names as few as
    this writer does, and cites the PRs it counts (every PR of its digest is cited)."""
    areas = {a.name: a for a in context.areas}
    budget = citation_budget(context.counts.prs) - spent
    return _tail([areas[name] for name in lone], ledger, budget, cite_rest=True)


def _without_lone_areas(
    plan: Sequence[Section], areas: dict[str, Area]
) -> tuple[list[Section], list[str]]:
    """The plan without areas of a single PR, and those areas: a lone PR is a line in the
    tail, not a section nor a member line of Other Areas (which goes when it holds none)."""
    out: list[Section] = []
    lone: list[str] = []
    for entry in plan:
        if entry.kind == "family":
            out.append(entry)
            continue
        alone = [name for name in entry.areas if areas[name].count < 2]
        lone += alone
        kept = tuple(name for name in entry.areas if name not in alone)
        if kept:
            out.append(
                replace(
                    entry,
                    areas=kept,
                    count=sum(areas[name].count for name in kept),
                    previous_count=sum(areas[name].previous_count for name in kept),
                )
            )
    return out, lone


def _small_into_other(plan: list[Section], total: int) -> list[Section]:
    """Sections of two PRs the plan made to keep Other Areas small, back in Other Areas
    now that the lone PRs left it for the tail line: smallest first, while Other Areas
    holds at most its share of the window."""
    other = next((e for e in plan if e.kind == "other"), None)
    held = other.count if other else 0
    small = sorted(
        (e for e in plan if e.kind == "area" and e.count <= _SMALL_SECTION),
        key=lambda e: (e.count, -plan.index(e)),
    )
    moved = []
    for entry in small:
        if (held + entry.count) > OTHER_SHARE * total:
            break
        held += entry.count
        moved.append(entry)
    if not moved:
        return plan
    moved.sort(key=plan.index)
    kept = [e for e in plan if e not in moved and e.kind != "other"]
    joined = moved + ([other] if other else [])
    return kept + [
        Section(
            heading=OTHER_AREAS,
            kind="other",
            family=None,
            areas=tuple(name for e in joined for name in e.areas),
            count=held,
            previous_count=sum(e.previous_count for e in joined),
        )
    ]


def _weight(area: Area, ledger: Ledger) -> float:
    """An area's strongest PR by the analysis' score (size, reach, stated results)."""
    return max((ledger.prs[n].score for n in area.prs if ledger.has(n)), default=0.0)


def _lower_verb(sentence: str) -> str:
    """`Fixes X` → `fixes X` mid-line; a name (`Parakeet`, `TOSA`, `Add`-less) keeps its case."""
    first, _, rest = sentence.partition(" ")
    if first[:1].isupper() and first[1:].islower() and verb_base(first):
        return first.lower() + (f" {rest}" if rest else "")
    return sentence


def _tail(lone: list[Area], ledger: Ledger, budget: int, cite_rest: bool = False) -> Line | None:
    """`**Also, one PR each in 2 more areas:** Docs: updates … ([PR#1]); CI: fixes …
    ([PR#2]).`: every lone PR counted, the first ones named."""
    said = []
    # a lone PR that is part of a series told in another area is said there, not again
    elsewhere = [a for a in lone if not a.themes and not a.rest.count]
    # past the citation budget, a line cites the two PRs it says most of; the rest counted.
    # The weightiest lone PRs are named (by the analysis' score), in the areas' order.
    room = _TAIL_NAMED if ledger.citations < budget else _LINE_CITES
    candidates = [a for a in lone if a not in elsewhere]
    chosen = sorted(candidates, key=lambda a: -_weight(a, ledger))[:room]
    named = [a for a in lone if a in chosen]
    for area in named:
        label = _label(area, ledger)
        name = inline(label) if "`" in label else plain(label)
        theme = area.themes[0] if area.themes else None
        first = next((n for n in area.prs if ledger.has(n)), None)
        numbers: Sequence[int]
        if theme is not None and theme.prs:
            # a series (its other parts landed elsewhere) cites every part it speaks of
            sentence = theme.sentence
            numbers = theme.prs if theme.series else theme.prs[:1]
        elif first is not None:
            sentence = sentence_case(as_clause(ledger.prs[first].clean_title))
            numbers = [first]
        else:
            continue
        text = f"{name}: {inline(_lower_verb(sentence.rstrip('.')))}"
        cites = ledger.cite_all(numbers)
        said.append(text + (f" ({cites})" if cites else ""))
    rest = [a for a in candidates if a not in named]
    if rest:
        counted = [n for a in rest for n in a.prs if ledger.has(n)]
        said.append(
            f"and {plural(len(rest), 'more PR')} in "
            + plain(", ".join(_label(a, ledger) for a in rest[:3]))
            + (" and others" if len(rest) > 3 else "")
            + (f" ({ledger.cite_all(counted)})" if cite_rest and counted else "")
        )
    if elsewhere:
        said.append(plain(", ".join(_label(a, ledger) for a in elsewhere)) + " (in a series above)")
    if not said:
        return None
    head = f"one PR each in {plural(len(lone), 'more area')}" if len(lone) > 1 else "one PR in"
    return ledger.line(f"**Also, {head}:** {'; '.join(said)}.")


def _area_section(
    area: Area,
    index: int,
    has_previous: bool,
    ledger: Ledger,
    budget: int,
    tiny: bool = False,
) -> DigestSection:
    bullets = []
    skipped = 0
    for position, theme in enumerate(area.themes):
        # Themes while the digest stays selective, and any theme with a stated figure
        # (impact is what readers look for); past the budget, a section still tells its
        # first themes, citing only the PRs each sentence is made from.
        if theme.figures or ledger.citations + len(theme.prs) <= budget:
            bullets.append(_theme_bullet(theme, ledger))
        elif position < _TOLD_PAST_BUDGET:
            bullets.append(_lead_bullet(theme, ledger))
        else:
            skipped += len(theme.members)
    also = _also_bullet(area, ledger, skipped, tiny)
    if also:
        bullets.append(ledger.line(also))
    label = _label(area, ledger)
    return DigestSection(
        index,
        plain(area.name) if label == area.name else inline(label),
        (f"*{_intro(area.count, area.previous_count, area.kinds, has_previous)}*",),
        tuple(bullets),
    )


def _family_section(
    entry: Section,
    members: list[Area],
    index: int,
    has_previous: bool,
    ledger: Ledger,
    budget: int,
) -> DigestSection:
    """A family's members that have no section of their own, one line each (the
    references' "Hardware Backends" holding ROCm, MPS, XPU, CUDA)."""
    kinds: dict[str, int] = {}
    for area in members:
        for kind, n in area.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    across = f" across {len(members)} areas"
    told = members
    if len(members) > _FAMILY_LINES + 1:  # the members whose work weighs most, in order
        chosen = sorted(members, key=lambda a: -_weight(a, ledger))[:_FAMILY_LINES]
        told = [a for a in members if a in chosen]
    bullets = [_member_line(a, member_name(a.name, entry.family), ledger, budget) for a in told]
    rest = [a for a in members if a not in told]
    if rest:  # the smallest members, by name and count: the section stays selective
        listed = ", ".join(f"{member_name(a.name, entry.family)} ({a.count})" for a in rest)
        bullets.append(Line(f"**Also:** {plain(listed)}."))
    return DigestSection(
        index,
        plain(entry.heading),
        (f"*{_intro(entry.count, entry.previous_count, kinds, has_previous, across)}*",),
        tuple(bullets),
    )


def _member_line(area: Area, label: str, ledger: Ledger, budget: int) -> Line:
    """`**NXP** (3 PRs): what its strongest theme says, citing the PRs that sentence is
    made from (and, while the budget lasts, one more of the theme)."""
    name = inline(label) if "`" in label else plain(label)  # a name, not code (`FlatTensor`)
    text = f"**{name}** ({plural(area.count, 'PR')}): "
    if not area.themes:  # no theme: its PRs are news, reverts or relands
        if area.components:  # the new component its section opened with says it
            made = " and ".join(code(path + "/") for path in area.components[:2])
            return Line(text + f"the new {made} above.")
        if area.rest.reverts >= area.count:
            return Line(text + "reverts and relands only (see below).")
        first = next((n for n in area.prs if ledger.has(n)), None)
        if first is None:
            return Line(text + "no details.")
        title = inline(ledger.prs[first].clean_title.rstrip("."))
        return ledger.line(text + f"{title} ({ledger.cite(first)}).")
    # the strongest theme whose sentence does not open with the line's own name
    theme = next(
        (t for t in area.themes if not _restates(_unrepeated(t.sentence, label), label)),
        area.themes[0],
    )
    figures = [f for f in theme.figures if ledger.figure_ok(f.text, f.pr)][:1]
    figure_prs = [f.pr for f in figures]
    text += inline(_unrepeated(theme.sentence.rstrip("."), label))
    # every line links the PRs its sentence is made from; within the budget, another
    quoted = [n for n in theme.quotes if ledger.has(n) and n not in figure_prs]
    others = [n for n in theme.prs if ledger.has(n) and n not in figure_prs + quoted]
    room = _LINE_CITES - len(figures) if ledger.citations < budget else 0
    # a series' sentence speaks of every part: its line cites them all
    told = len(quoted) if theme.series else _LINE_CITES
    cited = quoted[:told] + others[: max(0, room - len(quoted))]
    if cited:
        text += f" ({ledger.cite_all(cited)})"
    for fig in figures:
        text += f", reporting {ledger.quote(fig.text, fig.pr)}"
    return ledger.line(text + ".")


def _label(area: Area, ledger: Ledger) -> str:
    """The area's name, except for the profile's catch-all (`Other`, where no rule placed
    its PRs): that is named by the directories its PRs change most, which say more."""
    if not area.catch_all:
        return area.name
    tops = Counter(
        ledger.prs[n].top_paths[0] for n in area.prs if ledger.has(n) and ledger.prs[n].top_paths
    )
    paths = [path or "/" for path, _ in sorted(tops.items(), key=lambda kv: (-kv[1], kv[0]))[:2]]
    return ", ".join(f"`{path}`" for path in paths) if paths else "Unplaced"


def _restates(sentence: str, label: str) -> bool:
    return re.match(rf"(?i){re.escape(label.strip('`'))}(?![\w-])", sentence) is not None


def _unrepeated(sentence: str, label: str) -> str:
    """The sentence without the line's name at its start: `**Android** (2 PRs): Android
    build uses …` says Android once."""
    match = re.match(rf"(?i){re.escape(label.strip('`'))}(?![\w-])[\s:,;\-–—]*", sentence)
    rest = sentence[match.end() :] if match else ""
    return sentence_case(rest) if rest and rest[:1].isalnum() else sentence


def _other_section(
    entry: Section, members: list[Area], index: int, ledger: Ledger, budget: int
) -> DigestSection:
    """The short tail: one line per small area, or per family (its members beneath), each
    saying what changed."""
    groups: dict[str, list[Area]] = {}
    for area in members:
        groups.setdefault(area.family or f"\0{area.name}", []).append(area)
    ordered = sorted(
        groups.values(), key=lambda g: (-sum(a.count for a in g), list(groups.values()).index(g))
    )
    bullets: list[Line] = []
    for group in ordered:
        if len(group) == 1:
            bullets.append(_member_line(group[0], _label(group[0], ledger), ledger, budget))
            continue
        family = group[0].family or ""
        names = [member_name(a.name, family) for a in group]
        total = sum(a.count for a in group)
        subs = [_member_line(a, names[i], ledger, budget) for i, a in enumerate(group)]
        bullets.append(
            ledger.line(
                f"**{plain(family)}** ({plural(total, 'PR')} across {plain(', '.join(names))}):",
                subs,
            )
        )
    intro = plain(f"{plural(entry.count, 'PR')} across {plural(len(members), 'smaller area')}")
    return DigestSection(index, plain(entry.heading), (f"*{intro}*",), tuple(bullets))


def _intro(
    count: int, before: int, kinds: dict[str, int], has_previous: bool, across: str = ""
) -> str:
    """`15 PRs, up from 3 · mostly internal`: the count, its movement, and the kind of
    work when one kind is most of it (a list of every kind is padding)."""
    if not has_previous:  # no data for the week before: say nothing about movement
        movement = ""
    elif before == 0:
        movement = "none the week before"
    elif count == before:
        movement = "as many as the week before"
    else:
        movement = f"{'up' if count > before else 'down'} from {before}"
    # most common first, whatever order the context's mapping came in (JSON sorts keys)
    ranked = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
    text = f"{plural(count, 'PR')}{across}" + (f", {movement}" if movement else "")
    if ranked and count >= 3 and ranked[0][1] * 3 >= count * 2:
        text += f" · mostly {_KIND_LABELS.get(ranked[0][0], ranked[0][0].replace('_', ' '))}"
    return plain(text)


def _theme_bullet(theme: AreaTheme, ledger: Ledger) -> Line:
    if theme.points:
        return _points_bullet(theme, ledger)
    return _sentence_bullet(theme, ledger)


def _points_bullet(theme: AreaTheme, ledger: Ledger) -> Line:
    """A theme of distinct changes: one sub-bullet each, cited beside its own words."""
    figures = {f.pr: f for f in theme.figures if ledger.figure_ok(f.text, f.pr)}
    subs = []
    points = [p for p in theme.points if ledger.has(p.pr)]
    for point in points:
        text = inline(point.text.rstrip("."))
        figure = figures.pop(point.pr, None)
        if figure is not None:
            text += f", reporting {ledger.quote(figure.text, figure.pr)}"
        else:
            text += f" ({ledger.cite(point.pr)})"
        subs.append(ledger.line(text + "."))
    for figure in figures.values():  # a figure of a cited PR that is no point of its own
        subs.append(ledger.line(f"{ledger.quote(figure.text, figure.pr)}."))
    total = len(theme.members)
    lead = f"{plural(total, 'PR')}, among them:" if total > len(points) else ""
    return ledger.line(f"{theme_label(theme)}{lead}".rstrip(), subs)


def _sentence_bullet(theme: AreaTheme, ledger: Ledger) -> Line:
    # a figure the sentence already states (its title's own words) is not quoted twice
    said = theme.sentence.lower()
    figures = [
        f
        for f in theme.figures
        if ledger.figure_ok(f.text, f.pr) and f.text.lower().rstrip(".") not in said
    ]
    figure_prs = {f.pr for f in figures}
    sentence = theme.sentence.rstrip(".")
    cites = ledger.cite_all([n for n in theme.prs if n not in figure_prs])
    text = f"{theme_label(theme)}{inline(sentence)}"
    if cites:
        text += f" ({cites})"
    for i, fig in enumerate(figures):
        text += f"{', reporting' if i == 0 else ' and'} {ledger.quote(fig.text, fig.pr)}"
    more = theme.more
    if more > 0:
        text += f", plus {more_prs(more, theme)}"
    return ledger.line(text + ".")


def _lead_bullet(theme: AreaTheme, ledger: Ledger) -> Line:
    """A theme in one sentence, citing only the PRs that sentence is made from: its first
    point and that point's PR, or its sentence and the PRs it quotes."""
    points = [p for p in theme.points if ledger.has(p.pr)]
    if points:
        sentence, leads = points[0].text, [points[0].pr]
    else:
        sentence = theme.sentence
        told = None if theme.series else _LINE_CITES
        leads = [n for n in theme.quotes if ledger.has(n)][:told]
    text = f"{theme_label(theme)}{inline(sentence.rstrip('.'))}"
    if leads:
        text += f" ({ledger.cite_all(leads)})"
    others = len(theme.members) - len(leads)
    if others > 0:
        text += f", plus {more_prs(others, theme)}"
    return ledger.line(text + ".")


def _also_bullet(area: Area, ledger: Ledger, skipped: int = 0, tiny: bool = False) -> str:
    rest = area.rest
    count = rest.count + skipped
    if count <= 0:
        return ""
    named = [n for n in rest.prs if ledger.has(n)]
    limit = _NAMED_REST if tiny else 1
    if not skipped and 0 < len(named) == count <= limit and not rest.reverts:
        # "1 more PR" hides a PR a short list would name for the same words
        said = [
            f"{inline(_lower_verb(as_clause(ledger.prs[n].clean_title).rstrip('.')))} ({ledger.cite(n)})"
            for n in named
        ]
        said[0] = said[0][:1].upper() + said[0][1:]
        return f"**Also:** {'; '.join(said)}."
    text = f"**Also:** {plural(count, 'more PR')}"
    paths = [f"{code(path)} ({n})" for path, n in rest.top_paths if n >= 2][:2]
    if paths:
        text += ", mostly under " + " and ".join(paths)
    if rest.reverts:
        text += f", including {plural(rest.reverts, 'revert or reland', 'reverts and relands')} (see below)"
    return text + "."


def _key_pr(area: Area, ledger: Ledger) -> str:
    """The section's strongest theme PR by the analysis' evidence score, as `#N` (the
    references' table style; the prose above carries the links)."""
    cited = [n for theme in area.themes for n in theme.prs if ledger.has(n)]
    if not cited:
        return "—"
    best = max(cited, key=lambda n: (ledger.prs[n].score, -cited.index(n)))
    return f"#{best}"


def _table_row(area: Area, ledger: Ledger) -> TableRow:
    category, _, component = area.name.partition(":")
    if not component.strip() and area.top_paths:
        component = ", ".join(code(path) for path, _ in area.top_paths[:2])
    focus = ", ".join(inline(t.topic) for t in area.themes[:3] if t.topic) or "—"
    return TableRow(
        category=table_cell(f"**{plain(category.strip())}**"),
        component=table_cell(
            component.strip() if "`" in component else plain(component.strip() or category.strip())
        ),
        focus=table_cell(focus),
        key=_key_pr(area, ledger),
    )


def _other_row(areas: list[Area], ledger: Ledger) -> TableRow:
    names = [_label(a, ledger) for a in areas[:3]] + (["…"] if len(areas) > 3 else [])
    topics = [a.themes[0].topic for a in areas[:3] if a.themes]
    focus = ", ".join(inline(topic) for topic in topics if topic) or "—"
    key = next((_key_pr(a, ledger) for a in areas if any(t.prs for t in a.themes)), "—")
    return TableRow(
        category="**Other**",
        component=table_cell(inline(", ".join(names))),
        focus=table_cell(focus),
        key=key,
    )


def _family_row(entry: Section, members: list[Area], ledger: Ledger) -> TableRow:
    names = [member_name(a.name, entry.family) for a in members]
    shown = names[:3] + (["…"] if len(names) > 3 else [])
    topics = [a.themes[0].topic for a in members[:3] if a.themes]
    focus = ", ".join(inline(topic) for topic in topics if topic) or "—"
    key = next((_key_pr(a, ledger) for a in members if any(t.prs for t in a.themes)), "—")
    return TableRow(
        category=table_cell(f"**{plain(entry.family or entry.heading)}**"),
        component=table_cell(plain(", ".join(shown))),
        focus=table_cell(focus),
        key=key,
    )
