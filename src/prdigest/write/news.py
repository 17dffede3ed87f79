"""The news of a digest, as blocks any writer can render from the context: the breaking
changes and deprecations callout, the new components an area's section names, and the
phrases Key Takeaways opens with. Every PR they name is cited through the `Ledger`.

The callout follows PyTorch's release notes, where a BC-breaking entry says what changed
in the PR's own words and what users should do: here the PR's title as a sentence, the
public names it removes or renames (read from its diff, else its description), and, when
its description says what to use instead, that sentence quoted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..analyze.context_types import Announced, DigestContext, NewComponent
from ..analyze.english import plural, sentence_case
from ..render.markdown import code, inline
from .digest_blocks import Ledger
from .digest_document import Block, Line

CALLOUT_HEADING = "Breaking Changes and Deprecations"
LABELS = {"breaking": "Breaking", "deprecation": "Deprecation", "default": "New default"}
LEAD_SHOWN = 3  # news items Key Takeaways opens with
_SIBLINGS_SHOWN = 4


def callout(context: DigestContext, ledger: Ledger) -> Block | None:
    """`### Breaking Changes and Deprecations`: every announcement of the window, each
    cited, breaking changes first, then deprecations, then changed defaults. Three or more
    alike (`Delete deprecated X and related code` for six layouts) share one bullet."""
    rows = [r for r in context.news.breaking if ledger.has(r.pr)]
    bullets = []
    told: set[int] = set()
    for row in rows:
        if row.pr in told:
            continue
        alike = [r for r in rows if _alike(r, row)] if _template(row) else [row]
        if len(alike) < MERGED:
            alike = [row]
        told.update(r.pr for r in alike)
        bullets.append(ledger.line(_announcement(alike, ledger)))
    return Block(CALLOUT_HEADING, tuple(bullets)) if bullets else None


MERGED = 3  # announcements alike enough to share a bullet
_NAME = re.compile(r"^`?([A-Za-z_][\w.]*)`?$")


def _template(row: Announced) -> tuple[str, str] | None:
    """(the subject with its first name as `{}`, the name): `deprecated QDQLayout and
    related code deleted` → (`deprecated {} and related code deleted`, `QDQLayout`)."""
    if not row.subject or row.hint or row.reverted or _evidence(row):
        return None
    words = row.subject.split(" ")
    for i, word in enumerate(words):
        match = _NAME.match(word)
        name = match.group(1) if match else ""
        if name and ("_" in name or "." in name or sum(c.isupper() for c in name) >= 2):
            return " ".join([*words[:i], "{}", *words[i + 1 :]]), name
    return None


def _alike(row: Announced, other: Announced) -> bool:
    mine, theirs = _template(row), _template(other)
    return (
        row.kind == other.kind and mine is not None and theirs is not None and mine[0] == theirs[0]
    )


def _announcement(rows: list[Announced], ledger: Ledger) -> str:
    row = rows[0]
    if len(rows) > 1:
        names = [code(t[1]) for r in rows if (t := _template(r))]
        pattern = sentence_case(_template(row)[0])  # type: ignore[index]
        joined = pattern.split("{}", 1)[1].startswith(" and ")  # `X and related code`
        listing = ", ".join(names) if joined else ", ".join(names[:-1]) + " and " + names[-1]
        said = inline(pattern).replace("{}", listing, 1)
    else:
        plain_said = sentence_case(row.subject) if row.subject else row.sentence.rstrip(".")
        said = inline(plain_said)
        evidence = _evidence(row)
        if evidence:
            said += f"; {evidence}"
    text = f"**{LABELS[row.kind]}:** {said} ({ledger.cite_all([r.pr for r in rows])})"
    if row.reverted:
        text += ", reverted this week"
    text += "."
    if row.hint:
        text += f" In the PR's words: “{inline(row.hint, symbols=False)}”"
    return text


_EVIDENCE_SHOWN = 3  # removed names listed before "and N more"


def _evidence(row: Announced) -> str:
    """What the PR's diff (or description) shows it removes and renames, the names in
    backticks: "removes `A`, `B` and 2 more; renames `c` to `d`". A removed name the
    sentence names already (`Float8Layout` for `torchao.dtypes.Float8Layout`) is not
    repeated; '' when nothing is left to tell."""
    said = f"{row.subject} {row.sentence}"
    dotted = said.replace("/", ".")  # `Removes torchao/prototype/moe_quant`: its modules
    removed = [
        n
        for n in row.removed
        if n.rpartition(".")[2] not in said
        and not (n.count(".") > 1 and n.rpartition(".")[0] in dotted)
    ]
    renamed = row.renamed
    if not removed and all(old in said and new in said for old, new in renamed):
        return ""
    parts = []
    if removed:
        shown = [code(name) for name in removed[:_EVIDENCE_SHOWN]]
        rest = len(removed) - len(shown)
        listed = ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
        if rest > 0:
            listed = ", ".join(shown) + f" and {rest} more"
        parts.append(f"removes {listed}")
    if renamed:
        pairs = [f"{code(old)} to {code(new)}" for old, new in renamed[:_EVIDENCE_SHOWN]]
        rest = len(renamed) - len(pairs)
        parts.append("renames " + ", ".join(pairs) + (f" and {rest} more" if rest > 0 else ""))
    return "; ".join(parts)


def component_bullets(
    context: DigestContext,
    ledger: Ledger,
    areas: Iterable[str] = (),
    *,
    besides: Iterable[str] | None = None,
) -> list[Line]:
    """A bullet per change that created new components in these `areas` (or, with
    `besides`, in any area but those): "**New `backends/samsung/`:** what the PR says
    (its citation); 74 files." Components made by the same change share its bullet."""
    wanted, others = set(areas), None if besides is None else set(besides)
    by_maker: dict[str, list[NewComponent]] = {}
    for component in context.news.new_components:
        area = component.area
        if area in wanted or (others is not None and area not in others):
            key = str(component.lead or component.push)
            by_maker.setdefault(key, []).append(component)
    return [_component_bullet(group, ledger) for group in by_maker.values()]


def _component_bullet(group: list[NewComponent], ledger: Ledger) -> Line:
    first = group[0]
    names = [_component_name(c) for c in group]
    listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    text = f"**New {listed}:** {inline(first.sentence.rstrip('.'))}"
    if first.members and len(group) == 1:
        text = f"**New directories under {names[0]}:** {inline(first.sentence.rstrip('.'))}"
    cited = [n for n in first.prs if ledger.has(n)][:2]
    if cited:
        text += f" ({ledger.cite_all(cited)})"
    elif first.push:
        text += f" (a direct push, {code(first.push)})"
    files = sum(c.files for c in group)
    siblings = [m.rpartition("/")[2] for c in group for m in c.members]
    if siblings:
        shown = ", ".join(code(s) for s in siblings[:_SIBLINGS_SHOWN])
        rest = len(siblings) - _SIBLINGS_SHOWN
        shown += f" and {rest} more" if rest > 0 else ""
        text += f"; {plural(len(siblings), 'new directory', 'new directories')} ({shown}) with {plural(files, 'file')}"
    else:
        text += f"; {plural(files, 'file')}"
    return ledger.line(text + ".")


def _component_name(component: NewComponent) -> str:
    return code(component.path + "/")


@dataclass(frozen=True)
class LeadNews:
    """What the analysis judged most notable (`news.lead`, most notable first) and what a
    short phrase can tell of those PRs: a break or deprecation by its announcement (a
    changed default is not news enough to lead with), a new component by the largest
    the PR made. Both writers' Key Takeaways open from it."""

    lead: list[int]
    announced: dict[int, Announced]  # breaks and deprecations, by PR
    made: dict[int, NewComponent]  # each PR's largest new component

    def told(self, number: int) -> Announced | None:
        """The PR's announcement when it says what it removes or deprecates."""
        row = self.announced.get(number)
        return row if row is not None and row.subject else None


def lead_news(context: DigestContext) -> LeadNews:
    news = context.news
    announced = {row.pr: row for row in news.breaking if row.kind != "default"}
    made: dict[int, NewComponent] = {}
    for component in news.new_components:  # largest first: a PR's biggest
        if component.lead is not None:
            made.setdefault(component.lead, component)
    return LeadNews(list(news.lead), announced, made)


def most_notable(phrases: list[str], told: int, announced: int) -> str:
    """Key Takeaways' news line, in either writer: "Most notable this week: A (PR#1); B
    (PR#2); 2 more breaking changes and deprecations below." `told`: how many of the
    phrases tell a break or deprecation, of the window's `announced`; "" without news."""
    rest = announced - told
    word = "more " if told else ""
    more = plural(
        rest, f"{word}breaking change or deprecation", f"{word}breaking changes and deprecations"
    )
    if not phrases:
        return f"Most notable this week: {more}, listed below." if rest > 0 else ""
    tail = f"; {more} below" if rest > 0 else ""
    return f"Most notable this week: {'; '.join(phrases)}{tail}."
