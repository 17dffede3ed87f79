"""Part markers: `[1/4]`, `1/x:`, `(2/3)`, `PR2/N`, `pt.4-6`, `Part 2 of 5`, `(group 3)`, `#2`.

A title with one is a part of a series. One pattern finds every form, for every reader:
the digest's series key and flag and the release notes' series stem. (They once
differed: the digest alone knew `(group 3)` and `pt.4-6`, the release notes alone a
closing `#2` and the comma of `, Part 2`, and the digest's flag took any `16/32` in the
text for a marker.) A fraction is a marker at the start, alone in brackets, closing a
bracket (`[aoti-backend-consolidation 1/3]`) or with an open end anywhere (`msvc
support 1/N`, `[ET-VK] 2/n X`); elsewhere it is a number (`16/32 bit`, `at 1/16`,
`12.8/12.9`). A closing `#2` after `PR` or `issue` is a reference, not a part.
"""

from __future__ import annotations

import re

from .patterns import PR_REF, SPACES, comparable

_FRACTION = r"(?:pr\s*)?\d+\s*/\s*(?:\d+|x|n)"  # `2/3`, `1/N`, `PR2/N`
_WORDS = r"pt|part|group|step|phase|stage"
_PART = re.compile(
    rf"""(?ix)
    (?P<lead>^\s*\[?{_FRACTION}\]?\s*:?\s*)  # leading `[1/4]`, `1/x:`
    |(?P<bracket>\s*[\[(]\s*{_FRACTION}\s*[\])])  # `(2/3)`, `[1/N]`
    |\s*\b(?:pr\s*)?\d+(?:\.\d+)?\s*/\s*(?:[nx]\b|\d+(?=\s*[\])]))  # `1/N`, `5.1/ N`, `… 1/3]`
    |[,;]?\s*[\[(]?\b(?:{_WORDS})\.?\s*\d+(?:\s*[-–]\s*\d+)?(?:\s*(?:/|of)\s*(?:\d+|[nx]\b))?(?![\w])[\])]?
        # `pt.4-6`, `, Part 2`, `(group 3)`
    |(?<!\bpr)(?<!\bissue)\.?\s+\#\d{{1,2}}\s*\.?\s*$  # a closing `#3.`, not `PR #20`
    """
)
_DIGIT = re.compile(r"\d")  # every marker has one: most titles are done after this check
# `[1/n]`, `[5.1/N]`: a bracket tag that is a part marker (compared without spaces).
SERIES_TAG = re.compile(r"^(?:pr)?\d+(?:\.\d+)?\s*/\s*(?:\d+|[nx])$", re.I)


def remove_parts(text: str, replacement: str = " ") -> str:
    """`text` with its part markers replaced by `replacement`."""
    return _PART.sub(replacement, text) if _DIGIT.search(text) else text


def has_part_marker(text: str) -> bool:
    """Whether `text` carries a part marker: it is a part of a series."""
    return _DIGIT.search(text) is not None and _PART.search(text) is not None


def strip_part_markers(clean_text: str) -> str:
    """`Format Arm passes (group 3)` → `Format Arm passes`."""
    return SPACES.sub(" ", remove_parts(clean_text)).strip(" :-")


def series_key(clean_text: str) -> str:
    """The title with part markers and numbers removed: members of a series share it."""
    text = remove_parts(clean_text)
    text = re.sub(r"\d+", "#", text.lower())
    text = re.sub(r"[^\w# ]+", " ", text)
    return SPACES.sub(" ", text).strip()


def series_label(tags: tuple[str, ...]) -> str:
    """The name a title gives its series right after a bracketed part marker, as written
    (`[8/x] docs update: fix a docstring` → `docs update`: the step follows the colon);
    "" when none follows. `tags` are a cleaned title's, in title order."""
    for before, after in zip(tags, tags[1:], strict=False):
        if SERIES_TAG.match(before.replace(" ", "")) and not SERIES_TAG.match(
            after.replace(" ", "")
        ):
            return after
    return ""


def series_name(text: str, tags: tuple[str, ...]) -> str:
    """The series a part-marked title belongs to, as `series_key` writes it: its
    `series_label`, else the title without markers and numbers (`[1/x] docs update` →
    `docs update`). `text` and `tags` are a cleaned title's."""
    return series_key(series_label(tags) or text)


def series_stem(title: str) -> str | None:
    """For a title with a part marker (`[2/3]`, `part 2`, `(1/N)`), the title without it,
    lower-cased: PRs sharing a stem did one thing. None when there is no marker."""
    text = PR_REF.sub("", SPACES.sub(" ", title)).strip()
    if not has_part_marker(text):
        return None
    return comparable(re.sub(r"\([^()]*\)", " ", remove_parts(text)))
