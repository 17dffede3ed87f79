"""The LLM digest as a `Digest` document, which the one template renders. Counts and the
order of areas come from the context; only theme names, summaries and the takeaway's prose
come from the model (verified), each line with the PRs it cites and the figures it quotes.

The title says "AI Analysis" only when the model wrote the key takeaway and most
sections; a section whose themes are prdigest's own says so and why, and the
closing line says how many sections the model wrote.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from ...analyze.context_types import Area, DigestContext, PRFacts, Section
from ...analyze.english import as_clause, plural, sentence_case
from ...analyze.families import member_name
from ...render.markdown import inline, plain
from ..digest_blocks import Ledger
from ..digest_document import Block, Digest, Figure, Line
from ..digest_document import Section as DigestSection
from ..digest_verifier import figure_in_text
from ..news import callout, component_bullets
from ..sections import lone_line, shown_plan
from .grounding import balance_markup
from .notable import notable_line
from .tally import Tally
from .verify import Theme, extract_figures

MAX_BULLETS = 4
# Lines a section tells in words, the model's and the "Also" line's; the rest of its PRs
# are cited and counted, as the deterministic digest counts them ("Also: 4 more PRs"):
# selecting, not listing. A family member or a small area is told in one line.
SECTION_TOLD = 3
MAX_CITATIONS = 6  # a theme cites its PRs (the schema lets it cite six)
TOP_AREAS_IN_TAKEAWAY = 4


@dataclass(frozen=True)
class Authorship:
    """Who wrote what: the areas whose themes are the model's, why the others'
    are prdigest's own, and whether the key takeaway is the model's."""

    model_areas: frozenset[str] = frozenset()
    why_not: Mapping[str, str] = field(default_factory=dict)
    takeaway: bool = False


@dataclass(frozen=True)
class Assembled:
    """The LLM digest as a document, with how many sections it has and the model wrote."""

    digest: Digest
    sections: int
    model_sections: int

    @property
    def ai(self) -> bool:
        return self.digest.title.startswith("AI Analysis")


def assemble_digest(
    context: DigestContext,
    themes: Mapping[str, list[Theme]],
    takeaway: str,
    texts: Mapping[int, str],
    tally: Tally,
    authorship: Authorship,
    why: Mapping[int, str] | None = None,
) -> Assembled:
    """The sections follow the analysis' plan, as the deterministic writer's do: an area's
    section tells its themes, a family's a line per member area, Other Areas a line per
    small area. Every PR the plan places in a section is cited there: what the model's
    themes leave out gets prdigest's own "Also:" line. `why`: the model's verified
    "why it matters" sentence for each of the week's most notable PRs."""
    repo = context.repo
    label = context.window.label
    areas = [a for a in context.areas if a.count > 0]
    by_name = {a.name: a for a in context.areas}
    prs = context.prs
    # the sections as the deterministic digest shows them: lone PRs in one line at the end
    shown, lone = shown_plan(context)
    plan = [
        entry for entry in shown if any(n in by_name and by_name[n].count > 0 for n in entry.areas)
    ]
    by_model = [section_by_model(entry, authorship) for entry in plan]
    written, total = sum(by_model), len(by_model)
    ai = authorship.takeaway and 2 * written > total
    title = f"{'AI ' if ai else ''}Analysis of Pull Requests for {repo} during {label}"
    # The analysis' news, as the deterministic writer tells it: every breaking change and
    # deprecation cited in the callout, each new component opening its area's section, and
    # Key Takeaways' opening when the model's takeaway did not pass.
    # prdigest's own lines (the news, the lone PRs' line) spend the citation budget as
    # in the deterministic digest; the themes' lines cite through a ledger of their own
    own, ledger = Ledger(context), Ledger(context)
    lead = Line(_takeaway(takeaway, context, areas))
    notable = notable_line(context, own, why or {}, texts)
    news = callout(context, own)
    sections: list[DigestSection] = []
    for index, entry in enumerate(plan, 1):
        members = [by_name[n] for n in entry.areas if by_name[n].count > 0]
        made = component_bullets(context, own, entry.areas)
        intro: tuple[str, ...]
        if entry.kind == "area":
            intro, lines = _area_section(members[0], made, ledger, themes, texts, authorship, prs)
        elif entry.kind == "family":
            across = f" across {len(members)} areas"
            phrase = _count_phrase(entry.count, entry.count - entry.previous_count, across)
            intro = (f"_{phrase}_",)
            lines = made + [
                _member_line(area, entry.family, ledger, themes, texts, authorship, prs)
                for area in members
            ]
        else:  # Other Areas (a blank line under its heading) names its components last
            intro = ("",)
            lines = [_other_line(a, ledger, themes, texts, authorship, prs) for a in members]
            lines += made
        sections.append(DigestSection(index, plain(entry.heading), intro, tuple(lines)))
    planned = [name for entry in plan for name in entry.areas]
    rest = component_bullets(context, own, besides=planned)
    if rest and sections:  # components of an area no section holds (a direct push's)
        sections[-1] = replace(sections[-1], lines=(*sections[-1].lines, *rest))
    digest = Digest(
        title=title,
        takeaways=lead,
        notable=notable,
        callout=news,
        sections=tuple(sections),
        tail=lone_line(context, lone, own, spent=ledger.citations),
        extras=_also(context),
        closing=_closing(written, total, authorship.takeaway, tally),
    )
    return Assembled(digest, total, written)


def section_by_model(entry: Section, authorship: Authorship) -> bool:
    """Whether the model wrote the section: its area's themes, or most of its lines."""
    mine = [name in authorship.model_areas for name in entry.areas]
    if entry.kind == "area":
        return all(mine)
    return 2 * sum(mine) >= len(mine)


def _area_section(
    area: Area,
    made: list[Line],
    ledger: Ledger,
    themes: Mapping[str, list[Theme]],
    texts: Mapping[int, str],
    authorship: Authorship,
    prs: Mapping[int, PRFacts],
) -> tuple[tuple[str, ...], list[Line]]:
    """The intro lines and the lines of an area's section."""
    name = area.name
    intro: tuple[str, ...] = (f"_{_count_phrase(area.count, area.delta)}_",)
    if name not in authorship.model_areas:
        why = authorship.why_not.get(name, "")  # a failed answer; a drop's why is a warning
        intro += (f"_Themes from prdigest's analysis{': ' + why if why else ''}._",)
    lines = made + [_bullet(theme, texts, ledger) for theme in themes.get(name, [])[:MAX_BULLETS]]
    also = also_line(area, cited_in(lines), ledger, prs, texts, room=SECTION_TOLD - len(lines))
    return intro, lines + ([also] if also else [])


def _member_line(
    area: Area,
    family: str | None,
    ledger: Ledger,
    themes: Mapping[str, list[Theme]],
    texts: Mapping[int, str],
    authorship: Authorship,
    prs: Mapping[int, PRFacts],
) -> Line:
    """A family member's line: `NXP (3 PRs): **Theme:** what it says (PR#1).`"""
    name = area.name
    own = "" if name in authorship.model_areas else ", themes from prdigest's analysis"
    text = f"{plain(member_name(name, family))} ({plural(area.count, 'PR')}{own})"
    first = themes.get(name, [])[:1]
    if first:  # the rest cited and counted on its line, as the deterministic digest does
        said = _with_rest(_bullet(first[0], texts, ledger), area, ledger, prs)
        return replace(said, text=f"{text}: {said.text}")
    also = also_line(area, set(), ledger, prs, texts, room=1)
    return Line(text, sub=(also,)) if also else Line(text)


def _other_line(
    area: Area,
    ledger: Ledger,
    themes: Mapping[str, list[Theme]],
    texts: Mapping[int, str],
    authorship: Authorship,
    prs: Mapping[int, PRFacts],
) -> Line:
    """A small area's line in Other Areas: its first theme, and what that leaves out."""
    name = area.name
    own = "" if name in authorship.model_areas else ", themes from prdigest's analysis"
    sub = [
        _with_rest(_bullet(t, texts, ledger), area, ledger, prs) for t in themes.get(name, [])[:1]
    ]
    if not sub:
        sub = [also] if (also := also_line(area, set(), ledger, prs, texts, room=1)) else []
    return Line(f"{name} ({plural(area.count, 'PR')}{own})", sub=tuple(sub))


def _with_rest(line: Line, area: Area, ledger: Ledger, prs: Mapping[int, PRFacts]) -> Line:
    """A small area's one line, then the area's PRs it leaves out, cited and counted:
    "… (PR#1); and 1 more PR (PR#2)." Every PR is cited; one line tells the area."""
    left = [n for n in area.prs if n in prs and n not in line.cites]
    if not left:
        return line
    more = (
        f"{line.text.rstrip('.')}; and {plural(len(left), 'more PR')} ({ledger.cite_each(left)})."
    )
    rest = ledger.line(more)
    return replace(line, text=more, cites=(*line.cites, *rest.cites))


def cited_in(lines: Iterable[Line]) -> set[int]:
    return {n for line in lines for n in line.cites}


def also_line(
    area: Area,
    cited: set[int],
    ledger: Ledger,
    prs: Mapping[int, PRFacts],
    texts: Mapping[int, str],
    room: int,
) -> Line | None:
    """`**Also:** …` for the area's PRs no line above cites, in prdigest's own words: an
    analysis theme's sentence when the PRs it is made from are among them, else each PR's
    title, while the section has `room` for more in words; the rest cited and counted.
    Every PR cited, and every figure stated by a PR cited beside it. None when nothing
    is left out."""
    left = [n for n in area.prs if n in prs and n not in cited]
    if not left:
        return None
    phrases: list[str] = []
    quoted: list[Figure] = []
    for theme in area.themes:
        members = theme.members or theme.prs
        quotes = theme.quotes or theme.prs[:1]
        mine = [n for n in members if n in left]
        sentence = theme.sentence
        figures = extract_figures(sentence)
        stated = all(any(figure_in_text(f, texts.get(n, "")) for n in mine) for f in figures)
        label = theme.name or theme.topic
        if mine and sentence and set(quotes) <= set(mine) and stated and len(phrases) < room:
            phrases.append(f"{inline(sentence.rstrip('.'))} ({ledger.cite_each(mine)})")
            quoted += [Figure(f) for f in figures]
        elif len(mine) > 1 and label:  # the rest of a theme told above, or of a series
            phrases.append(
                f"{plural(len(mine), 'more PR')} on {inline(label)} ({ledger.cite_each(mine)})"
            )
        else:
            continue
        left = [n for n in left if n not in mine]
    # the weightiest told in their own words, the rest cited: selecting, not listing
    left.sort(key=lambda n: -prs[n].score)
    told = max(room - len(phrases), 0)
    for number in left[:told]:
        info = prs[number]
        title = info.clean_title or info.title or f"PR {number}"
        # what it does, as the deterministic digest's lines say it ("Makes X", not "Make X")
        said = sentence_case(info.stated_action or as_clause(title))
        said = balance_markup(said.rstrip("."))  # a title cut at its limit may leave "(" open
        phrases.append(f"{inline(said)} ({ledger.cite(number)})")
    rest = left[told:]
    if rest:
        more = plural(len(rest), "more PR" if phrases else "PR")
        phrases.append(f"{'and ' if phrases else ''}{more} ({ledger.cite_each(rest)})")
    return ledger.line(f"**Also:** {'; '.join(phrases)}.", figures=quoted)


def _closing(written: int, total: int, takeaway: bool, tally: Tally) -> str:
    who = f"The model wrote {written} of {plural(total, 'section')}"
    if takeaway:
        who += " and the key takeaway"
    return f"_{who}; {tally.counts()}._"


def _takeaway(prose: str, context: DigestContext, areas: list[Area]) -> str:
    total = context.counts.prs
    top = [a.name for a in areas[:TOP_AREAS_IN_TAKEAWAY]]
    numbered = [f"({i}) {name}" for i, name in enumerate(top, 1)]
    if len(numbered) > 1:
        listing = (
            ", ".join(numbered[:-1]) + (", and " if len(numbered) > 2 else " and ") + numbered[-1]
        )
    else:
        listing = numbered[0] if numbered else "no area"
    counts = (
        f"The window totals {plural(total, 'PR')} across {listing}."
        if total
        else "No PR landed in this window."
    )
    return f"{prose.strip()} {counts}".strip()


def _count_phrase(count: int, delta: int, across: str = "") -> str:
    """`5 PRs, +2 on the previous window`, of an area or a family's section."""
    return plural(count, "PR") + across + f", {delta:+d} on the previous window"


def _bullet(theme: Theme, texts: Mapping[int, str], ledger: Ledger) -> Line:
    """`**Name:** what the theme says (PR#1, PR#2).`, its figures stated by the PRs cited."""
    links = ledger.cite_each(citations_to_show(theme, texts))
    summary = theme.summary.rstrip()
    if summary.endswith("."):
        summary = summary[:-1]
    figures = [Figure(f) for f in extract_figures(f"{theme.name} {theme.summary}")]
    return ledger.line(f"**{theme.name}:** {summary} ({links}).", figures=figures)


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


def _also(context: DigestContext) -> tuple[Block, ...]:
    counts = context.counts
    facts = []
    for value, one, many, since in (
        (counts.reverts, "revert", "reverts", None),
        (counts.relands, "reland", "relands", None),
        (
            counts.first_time_authors,
            "first-time contributor",
            "first-time contributors",
            context.first_time_since,
        ),
        (
            counts.direct_pushes,
            "direct push (no PR), counted apart",
            "direct pushes (no PR), counted apart",
            None,
        ),
    ):
        if value > 0:
            facts.append(plural(value, one, many) + (f" since {since}" if since else ""))
    if not facts:
        return ()
    return (Block("Also This Window", (Line("; ".join(facts) + "."),)),)
