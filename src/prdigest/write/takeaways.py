"""Key Takeaways: what mattered first (the week's most notable PRs by the analysis'
notability, each cited with a clause on why it matters, in the PR's own words), then the
totals and the top areas, then volume and people."""

from __future__ import annotations

import re

from ..analyze.context_types import AreaTheme, DigestContext, PRFacts
from ..analyze.english import number_word, plural, sentence_case, verb_base
from ..analyze.items import theme_tags
from ..render.markdown import code, inline, plain
from .digest_blocks import Ledger, first_timers
from .digest_document import Line
from .news import LEAD_SHOWN, LeadNews, lead_news, most_notable

_IRREGULAR = {
    "make": "made", "split": "split", "run": "run", "build": "built", "write": "written",
    "rewrite": "rewritten", "set": "set", "put": "put", "bring": "brought", "hide": "hidden",
    "cut": "cut", "speed": "sped", "shut": "shut", "get": "got", "keep": "kept", "let": "let", "reset": "reset",
}  # fmt: skip
_DOUBLED = re.compile(r"^[^aeiou]*[aeiou][bdgklmnprt]$")  # drop → dropped, pin → pinned
_PARTICLE = re.compile(r"(up|out|down|off|back|over|away)\s+(?=\S)")  # `speed up X`
_NEGATED = re.compile(r"(?i)(?:don'?t|do not|never)\s+(?=(\S+)\s)")
_PLACE = re.compile(r"\s+(?=(?:to|into|from|out of|as|under)\s)")  # `X moved| to Y`


def participle(verb: str) -> str:
    """`add` → `added`, `move` → `moved`, `drop` → `dropped`, `build` → `built`."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ied"
    if len(verb) <= 4 and _DOUBLED.match(verb):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _subject(pr: PRFacts) -> str:
    """What the title names its subject with, which the clean title moved to its tags: a
    prefix (`Metal backend: enable X`, `Qualcomm AI Engine Direct - Enable Y`) or the
    first bracketed tag that is no process tag (`[mxfp8 moe training]`, not `[ez]`)."""
    title = pr.title
    bare = re.sub(r"^(?:\s*\[[^\]]*\])+\s*", "", title)
    for tag in pr.tags:
        if re.match(re.escape(tag) + r"\s*(?::|\s-\s)", bare):
            return str(tag)
    for tag in pr.tags:
        if f"[{tag}]" in title and theme_tags((tag,)):
            return str(tag)
    return ""


def what_it_does(clean_title: str, subject: str = "") -> str:
    """A title as what happened: `Add X to Y` → `X added to Y`, with its `subject`
    (`Metal backend`) → `Metal backend: X added to Y`, unless the title names it already
    ("Enable Parakeet for Metal backend"); a title that opens with no verb stays as it is."""
    if subject and subject.lower() not in clean_title.lower():
        return f"{subject}: {what_it_does(clean_title)}"
    prefix, _, rest = clean_title.rpartition(": ")
    negated = _NEGATED.match(rest)
    if negated and verb_base(negated.group(1)):  # `Don't use X` → `X no longer used`
        rest = rest[negated.end() :]
    words = rest.split(" ", 1)
    base = verb_base(words[0])
    if not base or len(words) < 2 or (base in ("fix", "use") and not negated) or ";" in words[1]:
        # the title as it is, mid-sentence: `Fix X` as `X fixed` loses what was wrong, and
        # `Refactor X; support Y` holds two actions no one participle tells
        said = rest[:1].lower() + rest[1:] if base and words[0][1:].islower() else rest
        return f"{prefix}: {said}" if prefix else said
    verb, obj = participle(base), words[1]
    if negated:
        verb = f"no longer {verb}"
    particle = _PARTICLE.match(obj)
    if particle:  # `Speed up X` → `X sped up`
        verb, obj = f"{verb} {particle.group(1)}", obj[particle.end() :]
    head, _, tail = _PLACE.sub("\0", obj, count=1).partition("\0")
    said = f"{head} {verb}" + (f" {tail}" if tail else "")
    return f"{prefix}: {said}" if prefix else said


def lead_phrase(pr: PRFacts) -> str:
    """What a lead PR did, as Key Takeaways names it in either writer: "`X` support added",
    with the subject its title's prefix carried and the body's statement where the title
    only names a thing."""
    return inline(what_it_does(pr.stated_action or pr.clean_title, _subject(pr)))


def _why(number: int, pr: PRFacts, news: LeadNews, largest: int) -> str:
    """Why the PR matters, from its own text and files (its stated result aside): the
    component it creates, what its description says it enables, the public package it
    changes, or the size of its library change."""
    sub = pr.notability.substance
    made = news.made.get(number)
    if made is not None:
        return f", creating {code(made.path + '/')} ({plural(made.files, 'file')})"
    if sub is None:
        return ""
    enables = sub.enables
    if enables:  # `enables X` → ", which enables X"; `so users can X` as it is
        joined = "which " if enables.split()[0].lower().endswith("s") else ""
        return f", {joined}{inline(enables)}"
    if sub.surface:
        return f", changing what {code(sub.surface)} exports"
    lines = sub.library_lines
    if lines and lines >= largest:
        return f", the week's largest change to library code ({lines:,} lines)"
    if lines:
        files = sub.library_files
        where = f" in {files} files" if files > 1 else ""
        return f", {lines:,} lines of library code{where}"
    return ""


def lead_sentence(context: DigestContext, ledger: Ledger) -> tuple[str, bool]:
    """Key Takeaways' opening: the week's most notable PRs (`news.lead`), each cited with
    why it matters: a break or deprecation by what it removes or deprecates (the callout
    tells the rest), any other by what it does and its reason. "Most notable this week:
    `X` API removed (PR#1); `Y` support added (PR#2), which enables …". And whether it
    quotes a figure ('' and False when there is no lead)."""
    news = lead_news(context)
    with_ = context.news.lead_with
    largest = max(
        (p.notability.substance.library_lines if p.notability.substance else 0
         for p in context.prs.values()),
        default=0,
    )  # fmt: skip
    phrases: list[str] = []
    told = 0
    quoted = False
    for number in news.lead:
        if len(phrases) >= LEAD_SHOWN or not ledger.has(number):
            continue
        pr = ledger.prs[number]
        row = news.told(number)
        if number in news.announced:  # named here: "N more … below" counts only the others
            told += 1
        if row is not None:
            phrases.append(f"{inline(row.subject)} ({ledger.cite(number)})")
            continue
        what = lead_phrase(pr)
        numbers = [number, *with_.get(number, ())]
        if number not in news.made and pr.claims and ledger.figure_ok(pr.claims[0], number):
            # its stated result says why, quoted beside its citation
            ledger.quoted(pr.claims[0], number)
            figure = inline(pr.claims[0], symbols=False)
            phrases.append(f"{what}, reporting “{figure}” ({ledger.cite_all(numbers)})")
            quoted = True
            continue
        why = _why(number, pr, news, largest)
        phrases.append(f"{what} ({ledger.cite_all(numbers)}){why}")
    return most_notable(phrases, told, len(news.announced)), quoted


def _lead_phrase(theme: AreaTheme) -> str:
    if theme.kind == "path":
        directory = theme.name.rsplit("(", 1)[-1].strip("()`")
        return f"work in {code(directory)}"
    if theme.series:
        return f"a {number_word(len(theme.members))}-part series on {inline(theme.name)}"
    return inline(theme.topic)


def takeaways(context: DigestContext, ledger: Ledger) -> Line:
    counts = context.counts
    areas = context.areas
    news, quoted = lead_sentence(context, ledger)
    leaders = [a for a in areas[:2] if a.themes] if not news else []
    parts = []
    for area in leaders:
        themes = [t for t in area.themes if t.topic][:2]
        phrases = " and ".join(_lead_phrase(t) for t in themes)
        parts.append(f"**{plain(area.name)}**" + (f" ({phrases})" if phrases else ""))
    verb = "was dominated by" if counts.prs >= 20 else "centred on"
    if news:  # the lead said what mattered: the totals need no second summary
        lead = "The week saw activity"
    elif parts:
        lead = f"This week's activity {verb} " + " and ".join(parts)
    else:
        lead = "This week's activity was spread thin"
    figure = None
    if not quoted and not news:  # the news quoted a figure already: one is enough up here
        figure = next(
            (
                (t, f)
                for a in areas[:4]
                for t in a.themes
                for f in t.figures
                if ledger.figure_ok(f.text, f.pr)
            ),
            None,
        )
    if figure is not None:
        theme, fig = figure
        lead += (
            f", with {inline(theme.topic) or 'one PR'} reporting {ledger.quote(fig.text, fig.pr)}"
        )
    top = context.key_takeaways.top_areas
    numbered = [f"({i}) {plain(name)}" for i, name in enumerate(top, start=1)]
    listing = (
        ", ".join(numbered[:-1]) + (", and " if len(numbered) > 2 else " and ") + numbered[-1]
        if len(numbered) > 1
        else numbered[0]
    )
    comma = "" if news else ","
    first = f"{lead}{comma} totaling {plural(counts.prs, 'PR')} across {listing}."
    total = context.trends.total
    volume = ""
    if total.previous:
        change = total.delta
        volume = (
            f"Volume was {'up' if change > 0 else 'down'} {abs(total.pct or 0)}% on the week before ({total.previous})"
            if change
            else f"Volume was level with the week before ({total.previous})"
        )
    extras = []
    if counts.reverts:
        extras.append(plural(counts.reverts, "revert"))
    if counts.first_time_authors:
        extras.append(first_timers(counts.first_time_authors, context))
    if counts.direct_pushes:
        extras.append(
            f"{plural(counts.direct_pushes, 'direct push', 'direct pushes')} counted apart"
        )
    listed = ", ".join(extras)
    if volume and listed:
        second = f" {volume}; {listed}."
    elif volume or listed:
        second = f" {volume or sentence_case(listed)}."
    else:
        second = ""
    return ledger.line((f"{news} " if news else "") + first + second)
