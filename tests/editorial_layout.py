"""Rules on the digest's own page: names that name something and are not repeated by their
sentence, bullets that say what changed, and an Other Areas that stays a short tail."""

from __future__ import annotations

import re

from editorial_markdown import (
    Finding,
    Page,
    content_sections,
    held_by,
    names,
    unique_names,
    unmarked,
)

# A name that is only one of these names nothing; theme names get the longer list (an area
# may well be "Tests" or "Docs", a theme may not).
_AREA_GENERIC = {
    "none", "other", "others", "misc", "miscellaneous", "general", "various", "unknown",
    "unclassified", "uncategorized", "configurable", "fixes", "updates", "changes",
    "improvements", "support", "stuff",
}  # fmt: skip
_THEME_GENERIC = _AREA_GENERIC | {
    "tests", "test", "testing", "fix", "update", "change", "improvement", "refactor",
    "refactors", "refactoring", "cleanup", "cleanups", "features", "feature", "enhancements",
    "minor", "maintenance", "chores", "tweaks", "work", "code", "add", "remove", "use",
    "enable", "make", "move", "bump", "wip",
}  # fmt: skip
_TRAILING = {
    "to", "for", "in", "on", "with", "from", "into", "via", "by", "at", "of", "about", "as",
    "per", "than", "onto", "without", "within", "between", "through", "a", "an", "the", "and",
    "or", "vs",
}  # fmt: skip
_SERIES = re.compile(
    r"(?i)\bPR\s*\d+\s*/\s*(?:\d+|n|x)\b|[\[(]\s*\d+\s*/\s*(?:\d+|n|x)\s*[\])]|\b\d+\s*/\s*[nx]\b"
    r"|\bpt\.?\s*\d+\b|\bpart\s+\d+\b"
)


def restated_name(page: Page) -> list[Finding]:
    out = []
    for section in content_sections(page.digest):
        for bullet in section.bullets:
            if not bullet.name or not bullet.rest or bullet.name.lower() == "also":
                continue
            name = unmarked(bullet.name).lower().strip(" :")
            sentence = unmarked(bullet.rest).lower()
            if (
                name
                and sentence.startswith(name)
                and not sentence[len(name) : len(name) + 1].isalnum()
            ):
                why = f"the sentence opens by repeating the name {unmarked(bullet.name)!r} word for word"
                out.append(page.finding("restated_name", bullet.raw, why))
    return out


def non_name(page: Page) -> list[Finding]:
    out = []
    for name in unique_names(names(page.digest)):
        if name.kind.startswith("table"):
            continue
        text = unmarked(name.text).strip(" :")
        words = text.lower().split()
        generic = _THEME_GENERIC if name.kind == "theme" else _AREA_GENERIC
        if len(words) == 1 and words[0].strip(".") in generic:
            why = f"{text!r} is a lone generic word: it names nothing"
        elif words and words[-1] in _TRAILING:
            why = f"{text!r} ends in {words[-1]!r}: a cut phrase, not a name"
        elif _SERIES.search(text):
            why = f"{text!r} carries a series marker ({_SERIES.search(text).group(0)!r})"  # type: ignore[union-attr]
        else:
            continue
        out.append(page.finding("non_name", name.line, why))
    return out


def dangling_bullet(page: Page) -> list[Finding]:
    out = []
    for section in content_sections(page.digest):
        for bullet in section.bullets:
            if re.search(r":\**\s*$", bullet.body) and not bullet.children:
                out.append(
                    page.finding(
                        "dangling_bullet", bullet.raw, "ends in a colon with nothing under it"
                    )
                )
            elif (
                bullet.name
                and bullet.count is not None
                and bullet.rest in ("", ".")
                and not bullet.children
            ):
                why = "only a name and a count: it says nothing about what changed"
                out.append(page.finding("dangling_bullet", bullet.raw, why))
    return out


def other_share(page: Page) -> list[Finding]:
    total = page.digest.total
    out = []
    for section in page.digest.sections:
        if not section.is_other or not total:
            continue
        held = held_by(section)
        if held * 4 > total:
            why = f"Other holds {held} of the window's {total} PRs, more than a quarter"
            out.append(page.finding("other_share", f"### {section.heading}: {section.intro}", why))
    return out


def unsectioned_group(page: Page) -> list[Finding]:
    out = []
    for section in page.digest.sections:
        if not section.is_other:
            continue
        for bullet in section.bullets:
            if bullet.count is not None and bullet.count >= 5:
                what = "family" if bullet.family else "area"
                why = f"a {what} of {bullet.count} PRs sits in {section.heading} instead of having a section"
                out.append(page.finding("unsectioned_group", bullet.raw, why))
    return out
