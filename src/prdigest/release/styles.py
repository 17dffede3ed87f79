"""The sections release notes are written in, by convention: PyTorch's (a section per
kind, in PyTorch's order) or Keep a Changelog's (Added, Changed, Deprecated, Removed,
Fixed, Security, then Documentation and Developers, which Keep a Changelog leaves to each
project), each after the breaking changes, which come first in both. The
worksheet keeps PyTorch's kinds either way (`topic`); a style only says where an entry
of a kind is told.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import kinds
from ..errors import ConfigError

PYTORCH, CHANGELOG = "pytorch", "changelog"
STYLES = (PYTORCH, CHANGELOG)
_SECURITY = re.compile(r"(?i)\b(?:security|vulnerab\w*|CVE-\d{4}-\d+|GHSA-\w{4})\b")
_TAKES_AWAY = re.compile(r"^(?:Removed|Deleted|Dropped)\b")

# Keep a Changelog's sections, after the breaking changes; a kind → its section
_CHANGELOG_SECTIONS: tuple[tuple[str, str], ...] = (
    (kinds.BC_BREAKING, "Breaking changes"),
    ("added", "Added"),
    ("changed", "Changed"),
    (kinds.DEPRECATION, "Deprecated"),
    ("removed", "Removed"),
    ("fixed", "Fixed"),
    ("security", "Security"),
    # beyond Keep a Changelog's six, last: what users of the docs and contributors get
    (kinds.DOCS, "Documentation"),
    (kinds.DEVS, "Developers"),
)
_CHANGELOG_OF = {
    kinds.BC_BREAKING: kinds.BC_BREAKING,
    kinds.DEPRECATION: kinds.DEPRECATION,
    kinds.NEW_FEATURES: "added",
    kinds.IMPROVEMENTS: "changed",
    kinds.PERFORMANCE: "changed",
    kinds.DOCS: kinds.DOCS,
    kinds.DEVS: kinds.DEVS,
    kinds.BUG_FIXES: "fixed",
}


@dataclass(frozen=True, slots=True)
class NotesStyle:
    name: str
    sections: tuple[tuple[str, str], ...]  # (key, heading), in the order they are told

    def section_of(self, kind: str, sentence: str) -> str:
        """The key of the section an entry of `kind` saying `sentence` goes to."""
        if self.name == PYTORCH:
            return kind
        if kind in (kinds.BUG_FIXES, kinds.IMPROVEMENTS) and _SECURITY.search(sentence):
            return "security"
        if kind != kinds.BC_BREAKING and _TAKES_AWAY.match(sentence):
            return "removed"
        return _CHANGELOG_OF.get(kind, "changed")


def style_named(name: str) -> NotesStyle:
    """The style called `name` (`pytorch` or `changelog`)."""
    if name == PYTORCH:
        return NotesStyle(PYTORCH, kinds.SECTIONS)
    if name == CHANGELOG:
        return NotesStyle(CHANGELOG, _CHANGELOG_SECTIONS)
    raise ConfigError(f"unknown release-notes style {name!r}", f"use one of {', '.join(STYLES)}")
