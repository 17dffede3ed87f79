"""What a PR changes for its users, read from its files and its own words: how many lines
land in library code (not tests, CI, docs, benchmarks, build scripts, generated or
vendored files, lockfiles or data), whether it is user-facing at all, whether it is a
chore (lint, typing, formatting, pins), whether it adds a capability, whether it touches
a package's public surface, and the clause of its description that says what users can
now do. Notability weighs these; Key Takeaways quotes the clause.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .. import kinds
from ..models import PullRequest
from ..reading.file_roles import FileRole, file_role, is_public
from .claims import normalize, prose_lines
from .english import verb_base

FILE_CAP = 2000  # lines a file counts for at most: beyond, it is a table or generated
GENERATED_LINES = 10000  # one file changed by this many lines was not written by hand
USER_SHARE = 0.05  # library code below this share of its lines is incidental (a test refactor)
USER_LINES = 50  # … unless it is this many lines
# what users run: the library, and the examples they copy and run (their flags, their models)
USER_ROLES = (FileRole.LIBRARY, FileRole.EXAMPLE)


# lint, typing, formatting and pins change nothing users see, whatever their size
_CHORE = re.compile(
    r"(?i)\b(?:lint\w*|formatt(?:ing|er)|reformat\w*|typos?|spelling|bump\w*|"
    # a dependency's pin (`Pin ruff to 0.6.9`, `pin numpy<2`), not pinned memory or a commit pin
    r"(?:un)?pin(?:s|ned|ning)?\b(?=[^.]{0,40}(?:\d+\.\d|version|dependenc|requirement|[=<>]))|"
    r"nits?|docformatter|pyre|pyrefly|mypy|flake8|ruff|black|isort|clang-format|clang-tidy|"
    r"type (?:hints?|annotations?|errors?|checking)|typing|copyright|license headers?|"
    r"spdx|clean(?:s|ing|ed)?(?: up)?|cleanups?|tidy\w*|styl(?:e|ing)(?: fix\w*)?)\b"
)
_CAPABILITY_VERBS = frozenset(
    "add introduce implement enable support create expose integrate extend allow register".split()
)
# the description saying what users can now do, or what the change makes possible
_ENABLES = re.compile(
    r"(?i)\b(?:(?:this|the)\s+(?:pr|change|diff|commit|patch)\s+|this\s+)?"
    r"(?P<clause>(?:enables|allows|lets|makes it possible|adds support)\b.+|"
    r"so(?: that)? (?:users?|you|people|developers|models?) (?:can|don'?t|do not|no longer|"
    r"will)\b.+|users? (?:can|could) now\b.+|(?:now (?:supports?|runs?|works?)\b.+))"
)
_DISTRIBUTION = re.compile(
    r"(?i)\b(?:wheels?|binar(?:y|ies)|packages|installers?|releases|release (?:builds?|binar\w+))\b"
)
_TO_ENABLE = re.compile(r"(?i)\bto (?:allow|enable|support)\b")  # `update X to allow Y`
_MAX_WHY_WORDS = 24


@dataclass(frozen=True)
class Substance:
    library_lines: int  # lines changed in library code, each file counted up to FILE_CAP
    library_files: int
    other_lines: int  # tests, docs, CI, benchmarks, build, data (capped alike)
    user_facing: bool  # library code holds a real share of the change
    chore: bool  # lint, typing, formatting, pins: never news
    capability: bool  # adds something users can use
    surface: str  # the public package whose exports it changes (`torchao.quantization`), or ""
    enables: str  # the description's clause saying what it makes possible, or ""
    roots: tuple[str, ...] = ()  # the top-level directories its library code spans

    @property
    def size(self) -> float:
        return math.log1p(self.library_lines) * 0.7 + math.log1p(self.library_files) * 0.8


def read_substance(pr: PullRequest, kind: str) -> Substance:
    library = other = files = 0
    surfaces: list[tuple[bool, int, str]] = []  # (removes exports, depth, package)
    roots: set[str] = set()
    for change in pr.files:
        changed = (change.additions or 0) + (change.deletions or 0)
        lines = min(changed, FILE_CAP)
        if file_role(change.path) in USER_ROLES and changed < GENERATED_LINES:
            library += lines
            files += 1
            if "/" in change.path:
                roots.add(change.path.split("/", 1)[0])
            package = _package(change.path)
            if package:
                surfaces.append((bool(change.deletions), -package.count("."), package))
        else:
            other += lines
    # the package that loses exports tells most, then the shallowest
    surface = max(surfaces)[2] if surfaces else ""
    total = library + other
    user_facing = library > 0 and (library >= USER_LINES or library >= USER_SHARE * total)
    if not pr.files:  # a record without files: judge by its words alone
        user_facing = kind not in (kinds.NOT_USER_FACING, kinds.DOCS, kinds.DEVS)
    words = pr.title.split()
    first = verb_base(_after_prefix(words)) if words else ""
    if first in _CAPABILITY_VERBS and _DISTRIBUTION.search(pr.title):
        user_facing = (
            True  # `add Linux aarch64 wheels`, `enable PGO for releases`: CI files users install
        )
    chore = is_chore(pr.title)
    enables = enabling_clause(pr.body) if user_facing else ""
    if enables and restates(enables, pr.title):
        enables = ""  # "adds support for `aten.split`" under "Add aten.split support"
    capability = (
        user_facing
        and not chore
        and (
            kind == "new_features"
            or first in _CAPABILITY_VERBS
            or bool(enables)
            or bool(_TO_ENABLE.search(pr.title))
        )
    )
    return Substance(
        library,
        files,
        other,
        user_facing,
        chore,
        capability,
        surface,
        enables,
        tuple(sorted(roots)),
    )


def is_chore(title: str) -> bool:
    """Lint, typing, formatting, pins: work on the code's form, never news. `Format X`
    opens such a title; "format" elsewhere is mostly a data format."""
    words = title.rsplit(": ", 1)[-1].split()  # `Arm backend: Format Arm passes`
    return bool(_CHORE.search(title)) or (
        bool(words) and verb_base(_after_prefix(words)) in ("format", "reformat")
    )


def _after_prefix(words: list[str]) -> str:
    """The title's first word after a `[tag]` or `area:` prefix."""
    for word in words:
        if word.startswith("[") or word.endswith(":") or word.endswith("]"):
            continue
        return word
    return words[0]


def _package(path: str) -> str:
    """`torchao/quantization/__init__.py` → `torchao.quantization`: a package whose
    exports are its public surface ('' for any other file)."""
    if not path.endswith(("/__init__.py", "/__init__.pyi")):
        return ""
    package = path.rsplit("/", 1)[0]
    if "/" not in package:
        return ""  # a root package's `__init__` also loads, versions and configures
    if not is_public(path):
        return ""  # a private package, or examples and scripts no one imports
    return package.replace("/", ".")


_WORD = re.compile(r"[A-Za-z0-9_.]+")
_GLUE = frozenset("a an the of for to in on and with support supports adds add enables".split())


def restates(clause: str, title: str) -> bool:
    """Whether the clause says little the title does not: most of its words are the title's."""
    said = {_bare(w) for w in _WORD.findall(clause)} - _BARE_GLUE
    titled = {_bare(w) for w in _WORD.findall(title)}
    return not said or len(said - titled) <= max(1, len(said) // 3)


def _bare(word: str) -> str:
    """A word as `restates` compares it: lower case, without a closing stop or the ending
    of a tense ("Deprecates X." restates "X deprecated")."""
    word = word.lower().rstrip(".")
    return re.sub(r"(?<=\w{3})(?:es|ed|e|s|d)$", "", word)


_BARE_GLUE = frozenset(map(_bare, _GLUE))


def enabling_clause(body: str) -> str:
    """The first prose sentence of `body` that says what the change makes possible, from
    its verb to its end (`enables X for conv2d`), when it is short enough to quote whole."""
    if not body or not _ENABLES.search(body):
        return ""
    text = " ".join(line.strip() for line in prose_lines(body))
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        sentence = normalize(sentence)
        match = _ENABLES.search(sentence)
        if match is None or "`" in sentence and sentence.count("`") % 2:
            continue
        clause = match.group("clause").rstrip(".!?;: ").strip()
        words = clause.split()
        if 3 <= len(words) <= _MAX_WHY_WORDS and clause.count("(") == clause.count(")"):
            return clause
    return ""
