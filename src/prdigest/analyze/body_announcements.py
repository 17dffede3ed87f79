"""What a PR's own release notes announce: its user-facing or release-notes section (or a
checked box of its template) saying the change breaks something, deprecates something or
changes a default. Authors who fill in "User-facing changes (Release notes)" write there
what users must act on: "(Breaking change!) `mkdir -v` now returns a table", "`watch`'s
closure argument is deprecated", "By default, the first non-empty row is read as the
header". Negations ("no breaking changes", "Breaking changes: none") announce nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..reading.pr_body import Role, read_body
from .statements import sentences

_BREAKS = re.compile(
    r"(?i)\b(?:breaking[- ]changes?|bc[- ]?breaking|backwards?[- ]incompatib\w+|"
    r"no longer (?:supported|accepted|available|works?)|(?:has|have) been (?:removed|renamed))\b"
)
_DEPRECATES = re.compile(r"(?i)\b(?:is|are|now|been|becomes?)\s+deprecated\b|\bdeprecates?\b")
_DEFAULT = re.compile(
    r"(?i)\bby default\b.{0,80}\bnow\b|\bnow\b.{0,60}\bby default\b|\bdefaults? (?:is|are) now\b|"
    r"\bnew default\b|\bdefault (?:behaviou?r )?(?:has )?changed\b"
)
_NEGATED = re.compile(
    r"(?i)\b(?:no|not(?: a)?|non|without|none|n/a|nothing)\b[\s:-]*(?:\w+[\s-]+){0,2}?"
    r"(?:breaking|bc|backwards?|deprecat)|\b(?:breaking[- ]changes?|deprecations?)\s*[:?-]?\s*"
    r"(?:none|no|n/?a|nothing)\b"
)
# "fixes a breaking change", "silences a deprecation warning": repairs, not announcements
_REPAIRS = re.compile(
    r"(?i)\b(?:fix(?:es|ed|ing)?|silenc\w*|suppress\w*|avoid\w*|revert\w*|undo\w*)\b"
    r".{0,30}\b(?:deprecat|breaking|bc[- ]?break|regression)"
)


_TAG = re.compile(r"^\s*(?:\[x\]\s*|\([^()]{2,40}\)\s*)+")
_EMPTY = re.compile(r"(?i)^\s*(?:none|n/?a|no|nothing|-+)?\s*\.?\s*$")
_CHECKED = "[x] "  # a template's box its author ticked (`read_body` keeps those)


def _said(sentence: str) -> str:
    """The sentence as a digest may quote it: no tag, no bold, and nothing when it only
    introduces what follows ("**Breaking changes** (intentional):")."""
    text = _TAG.sub("", sentence.replace("**", "")).strip()
    return "" if text.endswith(":") or len(text.split()) < 4 else text


@dataclass(frozen=True, slots=True)
class Said:
    kind: str  # breaking | deprecation | default
    sentence: str  # the PR's words that say it


def said_in_notes(body: str) -> Said | None:
    """The strongest announcement of the body's release notes, or None."""
    if not body:
        return None
    read = read_body(body)
    # a section's heading counts only with words under it: a template's empty "Breaking
    # changes" heading announces nothing (sections without words are not read at all)
    texts = [
        t
        for s in read.of(Role.USERS)
        for t in (
            s.heading if not _EMPTY.match((*s.paragraphs, *s.items, "")[0]) else "",
            *s.paragraphs[:4],
            *s.items[:6],
        )
        if t
    ]
    texts += [i for s in read.sections for i in s.items if i.startswith(_CHECKED)]
    for kind, pattern in (
        ("breaking", _BREAKS),
        ("deprecation", _DEPRECATES),
        ("default", _DEFAULT),
    ):
        for text in texts:
            for sentence in sentences(text):
                found = pattern.search(sentence)
                if found and not _NEGATED.search(sentence) and not _REPAIRS.search(sentence):
                    return Said(kind, _said(sentence))
    return None


# what a PR's note to its users says they must do differently: "now takes `keep_line`
# instead of `value`", "is no longer supported", "has been renamed"
# — not what a fix ends ("no longer fails", "mutated in place instead of cloned")
_USERS_CHANGE = re.compile(
    r"(?i)\b(?:use|pass|write|call|set|specify|import)\s+(?:\S+\s+){1,5}instead of\b|"
    r"\bno longer (?:be\s+)?(?:supported|accepted|available|allowed|exported|accepts?|supports?|"
    r"returns?|exists?|provided|provides?|recogni[sz]ed|valid|possible|works? with)\b|"
    r"\bnow (?:requires?|takes?|expects?|raises?)\b|\b(?:has|have) been (?:renamed|removed)\b|"
    r"\bmust (?:now )?(?:use|pass|set|update|change|rename|migrate|install|upgrade)\b"
)


def users_must_change(body: str) -> str:
    """The sentence of the body's note to users (its "release notes" or "what users need
    to know" section) that tells them to change what they write; "" when none does."""
    if not body or not _USERS_CHANGE.search(body):
        return ""
    for section in read_body(body).of(Role.USERS):
        for text in (*section.paragraphs, *section.items):
            for line in re.split(r"(?<=[.!])\s+", text):
                if _USERS_CHANGE.search(line):
                    return line.strip()
    return ""
