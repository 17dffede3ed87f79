"""What a PR's new docs page says its subject is: the first sentence of the page's opening
paragraph ("Harbor is a framework for running agentic tasks in sandboxes"). A PR that lands
without a description often brings the page that explains it; its opening sentence is the
context a reader needs, in the project's own words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import FileChange
from ..reading.file_roles import FileRole, file_role, is_library
from ..reading.news_fragments import news_fragment
from ..reading.pr_body import read_body
from .statements import content_words, sentences

_PAGE = re.compile(r"(?i)\.(?:md|mdx|rst)$")
_NOT_A_PAGE = re.compile(r"(?i)(?:^|/)(?:changelog|changes|news|history|license|notice)[^/]*$")
# a sentence that says what something is or does ("X is a …", "X lets you …")
_DESCRIBES = re.compile(
    r"\b(?:is|are|lets|allows|enables|provides|makes|helps|adds|supports|gives|offers|"
    r"runs|trains|turns|implements|can)\b"
)
_RST_MARKUP = re.compile(r"^(?:\.\. |:\w+:|[=\-~^\"'`#*+]{3,}\s*$)")
MAX_WORDS = 35


def docs_intro(files: Sequence[FileChange], title: str) -> str:
    """The opening sentence of the first docs page the PR creates, when the PR changes the
    library too (the page documents what it brings) and the sentence speaks of what the
    title names; else ""."""
    if not any(is_library(f.path) for f in files):
        return ""
    for change in files:
        patch = change.patch or ""
        if (
            not patch.startswith("@@ -0,0 ")
            or not _PAGE.search(change.path)
            or _NOT_A_PAGE.search(change.path)
            or news_fragment([change]) is not None  # a changelog entry, not a page
            or file_role(change.path) is not FileRole.DOCS
        ):
            continue
        added = [line[1:] for line in patch.splitlines() if line.startswith("+")]
        sentence = _opening_sentence(added, rst=change.path.lower().endswith(".rst"))
        # about what the title names (its words after the verb)
        if sentence and content_words(sentence) & content_words(title.split(" ", 1)[-1]):
            return sentence
    return ""


def _opening_sentence(lines: list[str], *, rst: bool) -> str:
    if rst:  # directives and heading underlines are no prose; the rest reads as Markdown
        lines = [line for line in lines if not _RST_MARKUP.match(line.strip())]
    text = "\n".join(_without_front_matter(lines))
    for section in read_body(text).sections:
        for paragraph in section.paragraphs[:2]:
            first = _first_sentence(paragraph)
            if first:
                return first
    return ""


def _without_front_matter(lines: list[str]) -> list[str]:
    if lines and lines[0].strip() == "---" and "---" in (line.strip() for line in lines[1:]):
        return lines[[line.strip() for line in lines].index("---", 1) + 1 :]
    return lines


def _first_sentence(paragraph: str) -> str:
    """The paragraph's first sentence when it describes something in prose."""
    if paragraph.startswith(("<", "|", ">", "[!", "!", "{")):
        return ""
    first = (sentences(paragraph) or [""])[0].rstrip(".")
    words = first.split()
    if not 6 <= len(words) <= MAX_WORDS or first.count("`") % 2 or not _DESCRIBES.search(first):
        return ""
    return first
