"""Part markers: `[1/4]`, `1/x:`, `(2/3)`, `PR2/N`, `pt.4-6`, `Part 2 of 5`, `(group 3)`, `#2`.

A title with one is a part of a series. One pattern finds every form; a `PartForms`
says which forms a reader takes out. The digest's series key and the release notes'
series stem grew apart on a few forms, and both are kept as they were (their outputs
are pinned by the golden digests and release notes):

- the digest knows `(group 3)` and ranges (`pt.4-6`); the release notes know neither
  (`pt.4-6` leaves `-6`);
- the release notes also take a closing `#3` and the comma before `, Part 2`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .patterns import PR_REF, SPACES, comparable

_FRACTION = r"(?:pr\s*)?\d+\s*/\s*(?:\d+|x|n)"  # `2/3`, `1/N`, `PR2/N`
_WORDS = r"pt|part|group|step|phase"
_PART = re.compile(
    rf"""(?ix)
    (?P<lead>^\s*\[?{_FRACTION}\]?\s*:?\s*)  # leading `[1/4]`, `1/x:`
    |(?P<bracket>\s*[\[(]\s*{_FRACTION}\s*[\])])  # `(2/3)`, `[1/N]`
    |(?P<sep>\s*[,;])?(?P<word>\s*[\[(]?\b(?P<name>{_WORDS})\.?\s*\d+
        (?P<range>\s*[-–]\s*\d+)?(?:\s*(?:/|of)\s*\d+)?(?![\w])(?P<close>[\])])?)  # `pt.4-6`
    |(?P<hash>\s+\#\d{{1,2}}\s*\.?\s*$)  # a closing `#3.`
    """
)
_DIGIT = re.compile(r"\d")  # every marker has one: most titles are done after this check
# A marker anywhere (`1/n` inside the text too): the digest's "this title is a part".
_ANY_MARKER = re.compile(rf"(?i)\b{_FRACTION}\b|\b(?:{_WORDS})\.?\s*\d+(?![\w])")
# `[1/n]`, `[5.1/N]`: a bracket tag that is a part marker (compared without spaces).
SERIES_TAG = re.compile(r"^(?:pr)?\d+(?:\.\d+)?\s*/\s*(?:\d+|[nx])$", re.I)


@dataclass(frozen=True, slots=True)
class PartForms:
    """Which part markers a reader takes out of a title."""

    group: bool  # `(group 3)`
    ranges: bool  # `pt.4-6` as one marker (else `pt.4`, leaving `-6`)
    comma: bool  # the `,` before `, Part 2`
    hash: bool  # a closing `#3`


DIGEST_PARTS = PartForms(group=True, ranges=True, comma=False, hash=False)
RELEASE_PARTS = PartForms(group=False, ranges=False, comma=True, hash=True)


def _finds(match: re.Match[str], forms: PartForms) -> bool:
    if match.group("hash") is not None:
        return forms.hash
    return match.group("name") is None or forms.group or match.group("name").lower() != "group"


def remove_parts(text: str, forms: PartForms, replacement: str = " ") -> str:
    """`text` with the part markers `forms` takes replaced by `replacement`."""

    def replace(match: re.Match[str]) -> str:
        if not _finds(match, forms):
            return match.group(0)
        kept = "" if forms.comma else match.group("sep") or ""
        if match.group("range") and not forms.ranges:
            kept += match.group("range") + (match.group("close") or "")
        return kept + replacement

    return _PART.sub(replace, text) if _DIGIT.search(text) else text


def has_parts(text: str, forms: PartForms) -> bool:
    matches = _PART.finditer(text) if _DIGIT.search(text) else ()
    return any(_finds(match, forms) for match in matches)


def has_part_marker(text: str) -> bool:
    """A part marker anywhere, `1/n` in the middle included (the digest's flag)."""
    return _DIGIT.search(text) is not None and _ANY_MARKER.search(text) is not None


def strip_part_markers(clean_text: str) -> str:
    """`Format Arm passes (group 3)` → `Format Arm passes`."""
    return SPACES.sub(" ", remove_parts(clean_text, DIGEST_PARTS)).strip(" :-")


def series_key(clean_text: str) -> str:
    """The title with part markers and numbers removed: members of a series share it."""
    text = remove_parts(clean_text, DIGEST_PARTS)
    text = re.sub(r"\d+", "#", text.lower())
    text = re.sub(r"[^\w# ]+", " ", text)
    return SPACES.sub(" ", text).strip()


def series_stem(title: str) -> str | None:
    """For a title with a part marker (`[2/3]`, `part 2`, `(1/N)`), the title without it,
    lower-cased: PRs sharing a stem did one thing. None when there is no marker."""
    text = PR_REF.sub("", SPACES.sub(" ", title)).strip()
    if not has_parts(text, RELEASE_PARTS):
        return None
    return comparable(re.sub(r"\([^()]*\)", " ", remove_parts(text, RELEASE_PARTS)))
