"""Key Takeaways' line of news in the LLM digest: the week's most notable PRs as the
analysis judged them (`news.lead`), each cited with why it matters — the model's
sentence when it passed verification, else the analysis' own words. It is written
whatever the model's takeaway says: the model may phrase the news, the analysis decides
it."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...analyze.context_types import DigestContext
from ...analyze.substance import restates
from ...render.markdown import code, inline
from ..digest_blocks import Ledger
from ..digest_document import Figure, Line
from ..news import LEAD_SHOWN, LeadNews, lead_news, most_notable
from ..takeaways import lead_phrase
from .verify import extract_figures

# Why a break or deprecation matters when neither the model nor the PR says more; said
# once for the lead's items it covers ("A (PR#1) and B (PR#2) — code using them must
# change"), never once per item.
CONSEQUENCES = {
    "breaking": ("code using it must change", "code using them must change"),
    "deprecation": ("users should move off it", "users should move off them"),
}


def notable_line(
    context: DigestContext, ledger: Ledger, why: Mapping[int, str], texts: Mapping[int, str]
) -> Line | None:
    """ "Most notable this week: X added (PR#1) — it changes what `x` exports; old
    smoothquant implementation deleted (PR#2) and v1 of `Y` removed (PR#3) — code using
    them must change", or None when the analysis found no news. The figures of
    why each PR matters are stated by the PRs the line cites."""
    news = lead_news(context)
    with_ = context.news.lead_with  # a series told with its lead
    items: list[tuple[str, str]] = []  # (the kind whose consequence it shares, or "", phrase)
    figures: list[Figure] = []
    told = 0
    for number in news.lead:
        if len(items) >= LEAD_SHOWN or not ledger.has(number) or number not in texts:
            continue
        pr = ledger.prs[number]
        row = news.told(number)
        numbers = [number]
        if row is None:  # cited with the rest of its series, as the deterministic writer does
            numbers += [n for n in with_.get(number, ()) if n in texts]
        if row is not None:
            what = inline(row.subject)
            told += 1
        elif number in news.made:
            what = f"new {code(news.made[number].path + '/')}"
        else:
            what = lead_phrase(pr)  # its own change: two PRs of one theme are two things
        said = why.get(number, "")
        if restates(said, what):  # "X deprecated — deprecates X": the model said nothing more
            said = ""
        phrase = f"{what} ({ledger.cite_all(numbers)})"
        if row is not None and not said and not row.hint and row.kind in CONSEQUENCES:
            items.append((row.kind, phrase))
            continue
        reason = said or own_reason(context, number, news)
        if reason and not restates(reason, what):  # "X added — adds X" says it twice
            phrase += f" — {_clause(reason)}"
            figures += [Figure(f) for f in extract_figures(reason)]
        items.append(("", phrase))
    line = most_notable(_together(items), told, len(news.announced))
    return ledger.line(line, figures=figures) if line else None


def own_reason(context: DigestContext, number: int, news: LeadNews) -> str:
    """Why the PR matters in the analysis' own words: what a break or deprecation asks
    of users (and the PR's advice), what a new component is, the result the PR states,
    or the sentence of the theme made from it."""
    row = news.told(number)
    if row is not None:
        said = CONSEQUENCES[row.kind][0] if row.kind in CONSEQUENCES else ""
        if row.hint:
            said += f"; in the PR's words: “{row.hint}”"
        return said
    if number in news.made:
        return news.made[number].sentence
    pr = context.prs.get(number)
    if pr is not None and pr.claims:
        return f"the PR reports {pr.claims[0]}"
    substance = pr.notability.substance if pr is not None else None
    if substance is not None and substance.enables:  # what its description says it enables
        return substance.enables
    if substance is not None and substance.surface:
        return f"it changes what {code(substance.surface)} exports"
    for area in context.areas:
        for theme in area.themes:
            quotes = theme.quotes or theme.prs[:1]
            if number in quotes and theme.sentence:
                # the line cites the lead, not its series: "A two-part series adds X" → "adds X"
                return _SERIES_OPENING.sub("", theme.sentence)
    return ""


def _together(items: list[tuple[str, str]]) -> list[str]:
    """The phrases in order, those sharing a kind's consequence told together where the
    first of them stands: "A (PR#1) and B (PR#2) — code using them must change"."""
    out = []
    for index, (kind, phrase) in enumerate(items):
        if not kind:
            out.append(phrase)
        elif all(earlier != kind for earlier, _ in items[:index]):
            same = [p for k, p in items if k == kind]
            one, several = CONSEQUENCES[kind]
            told = f"{', '.join(same[:-1])} and {same[-1]}" if len(same) > 1 else same[0]
            out.append(f"{told} — {several if len(same) > 1 else one}")
    return out


_SERIES_OPENING = re.compile(r"^An? [\w-]+-part series (?=[a-z])")


def _clause(sentence: str) -> str:
    """A sentence as a clause after a dash: no closing stop, an ordinary first word in
    lower case (a name keeps its capital)."""
    text = inline(sentence.strip().rstrip("."))
    if re.match(r"[A-Z][a-z]+\b(?![.\w-])", text) and not re.match(r"[A-Z][a-z]+[A-Z]", text):
        text = text[0].lower() + text[1:]
    return text
