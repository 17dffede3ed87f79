"""Which name a theme gets: the first of the names it could have that reads as one.

A name says what the theme's PRs have in common, as a noun phrase: no part marker (`PR2/N`,
`[3/5]`, `pt.2`, `Part 3`), no preposition, article or conjunction at either end, never a
lone generic word (`Tests`, `Other`, `Support`), and never the opening words of the
theme's own sentence ("**GA Static:** GA Static Gemma3-1B" says the name twice). A single
PR has no name at all: its sentence stands alone (`Theme.name == ""`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..reading import strip_part_markers
from .english import sentence_case

# Words a name never ends with (it would be a phrase cut short) …
_TAIL = frozenset(
    """to for in on with from into via by at of about as per than onto without within between
    through a an the and or vs versus when if where while that which is are be &  + - / –
    —""".split()
)
# … or starts with.
_HEAD = frozenset("a an the and or of for to with & + - / – —".split())
# Alone, these name nothing: what changed, not what it changed.
GENERIC = frozenset(
    """none other others misc miscellaneous general various unknown unclassified uncategorized
    configurable fixes fix updates update changes change improvements improvement support
    stuff tests test testing refactor refactors refactoring cleanup cleanups features feature
    enhancements enhancement minor maintenance chores chore tweaks work code add remove use
    enable make move bump wip removal docs documentation enablement migration renames
    adoption upgrade formatting split switch skips handling checks check options option
    helpers helper utils util scripts script script tooling tool ops op operators operator
    kernels kernel pass passes api flag config method function file files error errors
    overloads misc. new""".split()
)
_CODE = re.compile(r"`([^`]*)`")


def plain(text: str) -> str:
    """Text as a reader compares it: code ticks dropped, spaces collapsed, lower case."""
    return " ".join(_CODE.sub(r"\1", text).split()).lower()


def tidy_name(name: str) -> str:
    """`Fix stale docgen pt.2` → `Fix stale docgen`; `Check if portable/optimized in` →
    `Check if portable/optimized`; '' when nothing that names is left."""
    text = strip_part_markers(name)
    words = text.split()
    while words and words[-1].lower().strip(",;:.") in _TAIL:
        words.pop()
    while words and words[0].lower() in _HEAD:
        words.pop(0)
    text = " ".join(words).strip(" ,;:-–—")
    if text.count("(") != text.count(")"):
        text = text.split("(", 1)[0].strip() if text.count("(") > text.count(")") else text
    if not text or is_generic(text):
        return ""
    return sentence_case(text)


def is_generic(name: str) -> bool:
    words = plain(name).strip(" .:").split()
    return len(words) == 1 and words[0] in GENERIC


def restates(name: str, sentence: str) -> bool:
    """Whether `sentence` opens with `name`, word for word (as a reader sees both)."""
    said, text = plain(name).strip(" :"), plain(sentence)
    return bool(said) and text.startswith(said) and not text[len(said) : len(said) + 1].isalnum()


def choose_name(options: Iterable[str], opening: Sequence[str]) -> str:
    """The first option that tidies to a name no `opening` sentence starts with; ''
    when none does."""
    seen: set[str] = set()
    for option in options:
        name = tidy_name(option)
        if not name or plain(name) in seen:
            continue
        seen.add(plain(name))
        if not any(restates(name, sentence) for sentence in opening):
            return name
    return ""


# Generic names for a kind of work, which an area makes specific (`Arm tests`); the
# others (`None`, `Other`) stay names of nothing.
_KINDS_OF_WORK = frozenset(
    """tests testing fixes cleanup cleanups refactor refactors refactoring docs documentation
    migration tooling scripts helpers utils benchmarks examples kernels ops operators
    passes""".split()
)


def qualified(generic: str, area: str) -> str:
    """A generic name made specific by its area: `Tests` in `Backends: Arm` → `Arm tests`."""
    word = plain(generic).strip(" .:")
    owner = area.rsplit(":", 1)[-1].strip()
    if word not in _KINDS_OF_WORK or not owner or word in plain(owner).split():
        return ""
    return f"{owner} {word}"


def without_name(name: str, sentence: str) -> str:
    """The sentence with the name it opens with taken off, when what is left reads on its
    own (`GA Static Gemma3-1B.` under **GA Static** → `Gemma3-1B.`); '' otherwise."""
    if not restates(name, sentence):
        return ""
    said = len(plain(name).strip(" :").split())
    words = sentence.split()
    rest = words[said:]
    if len(rest) < 1 or rest[0].lower().strip(",;:") in _TAIL | {"-", "–", ":"}:
        return ""
    text = " ".join(rest).lstrip(",;:-–— ")
    return sentence_case(text) if len(text.rstrip(".")) >= 3 else ""
