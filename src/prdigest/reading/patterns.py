"""The pieces of a PR title every reader agrees on: `(#N)` references, `[tags]`, short
`Area:` prefixes, Phabricator ids, and the comparison key for titles.

A fix to one of them (say, the `(#N)` pattern) reaches classification, analysis and
release notes at once.
"""

from __future__ import annotations

import re

# `(#123)` anywhere in a title (squash merges append it; cherry-picks append two).
PR_REF = re.compile(r"\s*\(#\d+\)")
# `(#123)` closing a title.
TRAILING_PR_REF = re.compile(r"\s*\(#\d+\)\s*$")
# One `[tag]` (the group is the tag text); longer brackets are prose, not tags.
BRACKET_TAG = re.compile(r"\[([^\[\]]{1,60})\]")
# Leading `[ET-VK][ez] ` tags, as a pattern string so callers may wrap it in a group.
LEADING_TAGS = r"(?:\[[^\[\]]{1,40}\]\s*)+"
# A short `Area:` / `fix(ci):` prefix before the colon, as a pattern string.
COLON_PREFIX = r"[A-Za-z][\w.+/\- ]{0,30}?(?:\([\w\-/ `.,]{1,30}\))?!?"
# A Phabricator diff id `D12345678` (the group is the number).
PHAB_ID = re.compile(r"\bD(\d{6,})\b")
SPACES = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[\s_\-]+")


def comparable(text: str) -> str:
    """A key for comparing titles and sentences: lower case, letters and digits only."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def normalize_tag(text: str) -> str:
    """`ET-VK`, `et_vk`, ` Et vk ` → `et vk`: tags compare after this."""
    return _SEPARATORS.sub(" ", text.strip().lower()).strip()
