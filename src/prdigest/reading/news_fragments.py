"""A PR's news fragment: the changelog entry its author wrote for the release notes, in
towncrier's layout (`changelog/1234.bugfix.rst`, `newsfragments/567.feature.md`,
`changes/89.breaking.rst`), as pytest, pip, attrs, Twisted and many other projects keep
them. The fragment's type is the author's own filing of the change (a label of sorts),
and its text is the sentence users are meant to read.

Read from the diff alone: a file the PR creates in a fragments directory, named
`<id>.<type>[.<n>][.rst|.md|.txt]`, whose type is one towncrier projects use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import FileChange

# towncrier's usual types and their common variants; the kinds are read in `analyze`
TYPES = frozenset(
    """breaking removal deprecation feature improvement enhancement bugfix bug fix doc docs
    documentation perf performance security vendor contrib misc trivial internal""".split()
)
_FRAGMENT = re.compile(
    r"(?:^|/)(?:changelog|changes|newsfragments|news|changelog\.d|changes\.d|\.changelog)/"
    r"(?:[\w.-]+/)?[\w+-]+\.(?P<type>[a-z]+)(?:\.\d+)?(?:\.(?:rst|md|txt))?$"
)
_CREATED = re.compile(r"^@@ -0,0 \+1(?:,\d+)? @@")
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?(?P<name>[^`<]+?)(?:\s*<[^>]+>)?`")  # :func:`x`
_LITERAL = re.compile(r"``(?P<code>[^`]+)``")
_CREDIT = re.compile(
    r"\s*(?:--|—|–)?\s*\(?\bby\s+:user:`[^`]+`(?:\s*(?:and|,)\s*:user:`[^`]+`)*\)?\.?\s*$"
)


@dataclass(frozen=True, slots=True)
class NewsFragment:
    type: str  # `bugfix`, `feature`, … as the file names it
    text: str  # the entry, reST roles and literals made Markdown code
    path: str


def news_fragment(files: Sequence[FileChange]) -> NewsFragment | None:
    """The first news fragment the PR creates, or None."""
    for change in files:
        found = _FRAGMENT.search(change.path)
        if found is None or found.group("type") not in TYPES:
            continue
        patch = change.patch or ""
        if patch and not _CREATED.match(patch):
            continue  # an edit of a fragment another PR wrote
        lines = [line[1:] for line in patch.splitlines() if line.startswith("+")]
        return NewsFragment(found.group("type"), _markdown(" ".join(lines)), change.path)
    return None


def _markdown(text: str) -> str:
    """The fragment's reST as Markdown inline: roles and double backticks become code; a
    closing credit ("-- by :user:name") is the changelog's, not the change's."""
    text = _CREDIT.sub("", text)
    text = _ROLE.sub(lambda m: f"`{m.group('name').strip()}`", text)
    text = _LITERAL.sub(lambda m: f"`{m.group('code')}`", text)
    return re.sub(r"\s+", " ", text).strip()
