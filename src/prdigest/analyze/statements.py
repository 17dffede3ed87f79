"""Sentences of a PR body read as statements of the change: "This PR adds X", "In this
PR, I fixed X", "We now support X", "Added X", "The `grid` command now accepts X" — each
turned into what a digest says, third person and present tense ("Adds X", "Fixes X",
"The `grid` command now accepts X"). A sentence that states nothing (a question, a
narrative of the author's day, a sentence of code) is no statement.
"""

from __future__ import annotations

import re

from .english import third_person, verb_base

# "This PR adds", "This change also", "The PR", "This", "Here we", "In this PR, I", "We",
# "I've", "I have"
_OPENER = re.compile(
    r"""(?ix)^
    (?:(?:in\s+)?this\s+(?:pr|pull\s+request|diff|change|commit|patch|stack|revision),?\s+
        (?:(?:i|we)\s+(?:have\s+|'ve\s+)?)?
      |(?:the|this)\s+(?:pr|pull\s+request|diff|change|commit|patch)\s+
      |this\s+(?=(?:adds|fixes|introduces|removes|makes|allows|enables|updates|implements|
                   improves|changes|moves|refactors|replaces|extends|deprecates)\b)
      |here,?\s+we\s+|(?:i|we)\s+(?:have\s+|'ve\s+|also\s+|now\s+)*
    )?
    (?:also\s+|now\s+|simply\s+|just\s+)?
    (?P<verb>[a-z][a-z-]+)\s+(?P<rest>\S.*)$
    """
)
# a sentence that has its own subject and says what is now true
_NOW = re.compile(
    r"(?i)^(?!(?:i|we|you|they|it|this|that|there|these|those)\s)"
    r"(?P<subject>(?:the\s+)?[`\w][\w`.:/()\- ]{0,60}?)\s+"
    r"(?:now|no longer|can now|will now|is now|are now|should now)\b"
)
_NOT_STATEMENT = re.compile(
    r"(?i)\?|\b(?:i think|maybe|perhaps|not sure|todo|wip|draft|please|feel free|let me know|"
    r"thanks|thank you|see (?:the )?(?:above|below|issue|pr)|as title|title says|"
    r"self[- ]explanatory|n/a)\b|^(?:fix(?:es)?|closes|resolves)\s+(?:#|https?:|[\w/-]+#\d)|"
    r"^(?:related|part of|follow[- ]?up|see|ref|cc|note|nit|also|and|but|so|then|after|"
    r"before|when|if)\b"
)
_CUT = re.compile(
    r"(?:,\s+(?:which|so that|so|because|since|while|where|and then|but)\s|"
    r"\s+(?:so that|in order to|because|since)\s|;\s|:\s|\s[-–—]\s)"
)
_SPAN = re.compile(r"`[^`]*`")
# what a sentence leaves hanging when the list or link it introduces is not carried over
# ("to hold parameters such as:", "which implements https://…")
_DANGLING = re.compile(
    r"(?i)(?:,?\s+(?:such as|like|including|e\.g\.?|for example|namely|the following(?:\s+\w+)?|"
    r"as follows|below|(?:which|that)\s+\w+|see|at|in|from|per|via|here))+\s*$"
)
_URL = re.compile(r"\(?<?https?://\S+")
# a release note's leading tag: "(Breaking change!) `mkdir -v` now returns a table"
_TAGGED = re.compile(r"^\s*(?:\([^()]{2,40}\)|\[[^\[\]]{2,40}\]|\*\*[^*]{2,40}\*\*:?)\s*")
_NEW = re.compile(r"(?i)^(?:an?\s+)?(?:new|initial)\s+\S")
_CODEY = re.compile(r"[{}=;<>]|\w\(.*\)\s*$")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
MAX_WORDS = 32
LONG_WORDS = 20  # past this, examples and elaborations go
_ASIDE = re.compile(r"\s+(?:--|—|–)\s+[^-—–]{3,80}?\s+(?:--|—|–)(?=\s)")  # " -- and so X -- "
_EXAMPLES = re.compile(r"\s*\((?:e\.g\.|i\.e\.|eg\.|for example|such as)[^()]*\)")


def sentences(text: str) -> list[str]:
    """The sentences of a paragraph (a full stop, `!` or `?` before a capital or a code
    span ends one; `e.g.` and `vs.` do not)."""
    text = text.strip()
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])(?<!\be\.g\.\s)(?<!\bi\.e\.\s)", text)
    return [p.strip() for p in parts if p.strip()]


def as_statement(sentence: str) -> str:
    """The sentence as a statement of the change ("Adds X", "`grid` now accepts X"), or ""
    when it is none."""
    text = _TAGGED.sub("", sentence.strip().strip("*_ "))
    text = _without_dangling(_OTHER_PRS.sub("", text))
    prose = _SPAN.sub("x", text)  # what code spans hold is no sign of code in the prose
    if not text or _NOT_STATEMENT.search(prose) or _CODEY.search(prose):
        return ""
    novel = _NEW.match(text)
    if novel:  # "A new command for X" says it adds one
        return shortened(f"Adds {text[:1].lower()}{text[1:]}")
    if _NOW.match(text):
        return shortened(_upper_first(text))
    match = _OPENER.match(text)
    if match is None:
        return ""
    base = verb_base(match.group("verb"))
    if not base:
        return ""
    rest = match.group("rest")
    rest = re.sub(r"(?i)^(?:also|now)\s+", "", rest)
    stated = f"{third_person(base).capitalize()} {rest}"
    return shortened(stated)


# where a sentence points at other PRs by the author's numbering, which a reader of the
# digest cannot follow ("… all the components from PRs 1 and 2")
_OTHER_PRS = re.compile(
    r"(?i)\s+(?:from|in|of|added in|introduced in)\s+(?:the\s+)?(?:previous\s+|earlier\s+)?"
    r"(?:PRs?|parts?)\s*#?\d+(?:(?:,\s*|,?\s+and\s+)#?\d+)*\b"
)


def _without_dangling(text: str) -> str:
    """The sentence without a link it points at nor the words left introducing a list
    that follows it ("Holds parameters such as:" → "Holds parameters"); "" when too
    little is left."""
    url = _URL.search(text)
    if url:
        text = text[: url.start()]
    cut = _DANGLING.sub("", text.rstrip(" :.")) if url or text.rstrip().endswith(":") else text
    cut = cut.rstrip(" :,")
    return cut if len(cut.split()) >= 2 else ""


def has_subject(statement: str) -> bool:
    """Whether a statement names what it is about before its verb ("`cp` now keeps
    symlinks"), rather than opening with the verb ("Adds …")."""
    return bool(_NOW.match(statement))


def shortened(text: str) -> str:
    """At most MAX_WORDS words, cut at a clause boundary; "" when no boundary comes early
    enough. A long statement loses its examples and what its colon elaborates. Closing
    punctuation is taken off (the writer adds its own)."""
    text = text.rstrip(" .;:,")
    if len(text.split()) > LONG_WORDS:
        text = without_asides(text)
        head, colon, _ = text.partition(": ")
        if colon and len(head.split()) >= 5 and _balanced(head):
            text = head
    if len(text.split()) <= MAX_WORDS:
        return text if _balanced(text) else ""
    for match in _CUT.finditer(text):
        head = text[: match.start()].rstrip(" ,")
        if 4 <= len(head.split()) <= MAX_WORDS and _balanced(head):
            return head
    return ""


def without_asides(text: str) -> str:
    """The text without its examples ("(e.g. …)") and dashed asides (" -- and so X -- ")."""
    return _ASIDE.sub("", _EXAMPLES.sub("", text))


def _balanced(text: str) -> bool:
    return text.count("`") % 2 == 0 and text.count("(") == text.count(")")


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() and text[:1] != "`" else text


def content_words(text: str) -> set[str]:
    """Words that say what a sentence is about, lower case, without a plural `s`."""
    from .items import STOPWORDS

    return {
        w.lower().removesuffix("s")
        for w in _WORD.findall(text)
        if len(w) >= 3 and w.lower() not in STOPWORDS
    }


def about_the_same(sentence: str, title: str) -> bool:
    """Whether a body's sentence speaks of what the title names: it shares a content word
    with a title of one or two, and a third of them with a longer one."""
    wanted = content_words(title)
    if not wanted:
        return True
    shared = len(wanted & content_words(sentence))
    return shared >= 2 or (shared >= 1 and 3 * shared >= len(wanted))
