"""Read a PR title: revert/reland wrappers, bracket tags, `Component:` prefixes,
conventional-commit types, part markers, and the text that says what changed.

`parse_title` is the one structured reading (classification reads its fields). The
digest and the release notes each want a cleaned text, made by one peeler (`_peel`):
tags, `Area:` and `Area - ` prefixes and `1/x:` come off the same way for both (they
once differed on all three; a dash prefix now needs a capitalised name or three words
after it). What differs is presentation, named in `_Display`: the digest keeps a
reland's wrapper, a release-notes bullet a prefix that looks like code.

Pure and fast: every regex is compiled at import time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .parts import SERIES_TAG, has_part_marker, remove_parts
from .patterns import (
    BRACKET_TAG,
    COLON_PREFIX,
    LEADING_TAGS,
    SPACES,
    TRAILING_PR_REF,
    normalize_tag,
)
from .wrappers import reland_subject, unwrap

# `(#123)`, `( #123 )` anywhere.
_PR_REF = re.compile(r"\s*\(\s*#\d+\s*\)")
_TAGS = re.compile(rf"^\s*({LEADING_TAGS})")
_COLON = re.compile(rf"^\s*({COLON_PREFIX})\s*:\s+(?=\S)")  # `Arm backend: …`, `fix(ci): …`
_DASH = re.compile(r"^\s*([A-Z][\w.+/]*(?: [\w.+/&]+){0,4}?)\s+-\s+(?=\S)")  # `Qualcomm … - …`
# A leading `(prototype) …`, `(WIP) …`: a tag in parentheses, a few words before the title.
_PAREN_TAG = re.compile(r"^\s*\(([A-Za-z][\w\- ]{0,20})\)\s+(?=[A-Za-z`])")
_LEADING_PART = re.compile(r"(?i)^\s*(\d+\s*/\s*(?:\d+|x|n))\s*:?\s+")  # `1/x: …`
# Ticket ids and bot words: `[ghstack-poisoned]`, `(fixes #12)`, `D12345678`, `#buildall`.
_TICKETS = re.compile(
    r"""(?ix)\s*\[?\b(?:ghstack-poisoned|skip\s+ci|ci\s+skip|codemod|wip)\b\]?
    |\s*\(?\b(?:fixes|closes|resolves):?\s+\#\d+\)? |\s*\(?\b[DT]\d{6,}\b\)? |\s*\#buildall\b"""
)
# the issue a title opens with: `fix #6881 - add policies …`, `Closes #12: …`
_ISSUE_FIRST = re.compile(
    r"(?i)^(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s+#\d+\s*[-–—:]\s*|"
    r"(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s*)?issue\s+#\d+\s*[-–—:]?\s+(?=[A-Za-z`]))"
)
# a state tag after the title: `Bitcast to mixin [PR]`, `Faster loads [WIP]`
_TRAILING_TAG = re.compile(r"(?i)\s+\[(?:pr|wip|draft|rfc)\]$")
# classification's reading: tags anywhere, `fix(scope)!:`, one `Component:` / `… - ` prefix.
_CLASSIFY_TAGS = re.compile(r"^(?:\s*\[[^\[\]]{1,60}\]\s*[:-]?)+\s*")
_CONVENTIONAL = re.compile(r"^(?P<type>[A-Za-z]+)(?:\((?P<scope>[^()]{1,40})\))?(?P<bang>!)?:\s+")
_PREFIX = re.compile(r"^(?P<name>[A-Za-z][\w./+#-]*(?: [\w./+#-]+){0,4}?)\s*(?::\s+| - )")
_RELAND_TAGS = frozenset({"reland", "reland2", "reland 2", "re land", "reapply", "retake"})
# numpy's and PEFT's bare upper-case types: `ENH Add support for Conv2d`, `FIX Bug when …`,
# `DOC: Fix typos` (the word in capitals, then a word: `CI Move slow tests`, not `CIFAR`)
_BARE_TYPE = re.compile(
    r"^\s*(?P<type>ENH|FEAT|FIX|BUG|DOCS?|CI|TST|TEST|CHORE|MAINT|REF|PERF|STY|BLD|DEP|SEC|"
    r"REL|BENCH)(?::|\s)\s*(?=[A-Za-z`\"'])"
)
_BARE_TYPES = {"enh": "enh", "feat": "feat", "fix": "fix", "bug": "fix", "doc": "docs",
               "docs": "docs", "ci": "ci", "tst": "test", "test": "test", "chore": "chore",
               "maint": "chore", "ref": "refactor", "perf": "perf", "sty": "style",
               "bld": "build", "dep": "deps", "sec": "security", "rel": "chore",
               "bench": "test"}  # fmt: skip

CONVENTIONAL_TYPES = frozenset(
    "feat feature fix bugfix perf docs doc test tests ci chore refactor build style revert "
    "deps security enh depr internal minor".split()  # rust-analyzer's `internal:`, `minor:`
)


@dataclass(frozen=True, slots=True)
class TitleInfo:
    raw: str
    inner: str  # revert/reland wrapper removed
    clean: str  # inner without leading tags, prefix and `(#N)`: for wording rules and display
    body: str  # like `clean` but keeping a `Component:` prefix (`Fix UnboundLocalError: …` is no component)
    tags: tuple[str, ...]  # normalized bracket tags, in title order (compound tags also split)
    leading_tags: int  # how many of `tags` precede the text (and any `Component:` prefix)
    prefix: str | None  # normalized `Component:` prefix (not a conventional type)
    conventional_type: str | None  # `fix`, `feat`, … (lower case)
    conventional_scope: str | None  # normalized scope of `fix(scope):`
    breaking: bool  # `feat!:` style marker
    revert_of: str | None  # the reverted title when this is a revert
    reland: bool
    series: str | None  # `1/n`, `2/12` … when the title carries one


@lru_cache(maxsize=32768)
def parse_title(title: str) -> TitleInfo:
    raw = title.strip()
    inner, revert_of, reland = unwrap(raw)
    tags: list[str] = []
    series = None
    leading = _CLASSIFY_TAGS.match(inner)
    leading_end = leading.end() if leading else 0
    leading_count = 0
    for found in BRACKET_TAG.finditer(inner):
        tag = found.group(1)
        norm = normalize_tag(tag)
        if SERIES_TAG.match(norm.replace(" ", "")):
            series = norm.replace(" ", "")
            continue
        if norm in _RELAND_TAGS:
            reland = True
        tags.append(norm)
        for part in re.split(r"[/,&+]", tag):  # `[EE/BE]`, `[CI][binary-size]`
            piece = normalize_tag(part)
            if piece and piece != norm and piece not in tags:
                tags.append(piece)
        if found.end() <= leading_end:
            leading_count = len(tags)
    text = TRAILING_PR_REF.sub("", _CLASSIFY_TAGS.sub("", inner))
    conventional_type = scope = prefix = None
    breaking = False
    match = _CONVENTIONAL.match(text)
    if match and match.group("type").lower() in CONVENTIONAL_TYPES:
        conventional_type = match.group("type").lower()
        scope = normalize_tag(match.group("scope")) if match.group("scope") else None
        breaking = bool(match.group("bang"))
        text = text[match.end() :]
    bare = _BARE_TYPE.match(text) if conventional_type is None else None
    if bare is not None:
        conventional_type = _BARE_TYPES[bare.group("type").lower()]
        text = text[bare.end() :]
    body = text.strip()
    if conventional_type is None:
        match = _PREFIX.match(text)
        if match:
            prefix = normalize_tag(match.group("name"))
            text = text[match.end() :]
    clean = _CLASSIFY_TAGS.sub("", text).strip() or inner
    return TitleInfo(
        raw,
        inner,
        clean,
        body,
        tuple(tags),
        leading_count,
        prefix,
        conventional_type,
        scope,
        breaking,
        revert_of,
        reland,
        series,
    )


@dataclass(frozen=True, slots=True)
class _Display:
    """What a display keeps of a title that the other one peels off: presentation."""

    # A release-notes bullet stands alone under its area heading, so a prefix that
    # looks like code names the component it changed (`elementwise_util: Migrate …`);
    # the digest keeps every prefix as a tag beside the text (`gemma4_31b`).
    code_prefix: bool
    # The digest lists a reland as such (`Reapply #9841: X`); a release-notes bullet
    # says what the change does (`X`), the reland joined to its original's entry.
    reland: bool


_DIGEST = _Display(code_prefix=False, reland=True)
_RELEASE = _Display(code_prefix=True, reland=False)


def _peel(text: str, keep: _Display) -> tuple[str, list[str]]:
    """Strip leading `[tags]`, `Area:` and `Area -` prefixes and `1/x:` (they stack:
    `[ET-VK][ez] Cortex-M: …`); return the rest and what was stripped, as written. A
    title that is only tags comes back empty: the caller falls back to it as written."""
    tags: list[str] = []
    for _ in range(4):
        before = text
        match = _TAGS.match(text)
        if match:
            tags.extend(t.strip() for t in BRACKET_TAG.findall(match.group(1)))
            text = text[match.end() :]
        match = _PAREN_TAG.match(text)
        if match and len(text[match.end() :].split()) >= 2:
            tags.append(match.group(1).strip())
            text = text[match.end() :]
        match = _COLON.match(text)
        if match and len(text) - match.end() >= 8 and not (keep.code_prefix and _code(match[1])):
            tags.append(match.group(1).strip().rstrip("!"))  # `fix!:` breaks, and is a fix
            text = text[match.end() :]
        match = _LEADING_PART.match(text)
        if match:
            tags.append(match.group(1).strip())
            text = text[match.end() :]
        match = _BARE_TYPE.match(text)
        if match and len(text[match.end() :].split()) >= 2:
            tags.append(match.group("type"))
            text = text[match.end() :]
        match = _DASH.match(text)
        if match and len(text[match.end() :].split()) >= (2 if _name(match[1]) else 3):
            tags.append(match.group(1).strip())
            text = text[match.end() :]
        subject = None if keep.reland else reland_subject(text)
        if subject is not None:
            text = subject.strip()
            if text.startswith('"'):
                text = text.strip('"').strip()
        if text == before:
            break
    return text, tags


def _name(words: str) -> bool:
    """`Qualcomm AI Engine Direct`: capitalised words name a component, so two words
    after its dash say enough; after `Fold redundant DQ - > Q` the dash is prose."""
    return all(word[:1].isupper() or word[:1].isdigit() for word in words.split())


def _code(prefix: str) -> bool:
    prefix = prefix.strip(" :")
    return "." in prefix or "::" in prefix or ("_" in prefix and " " not in prefix)


@dataclass(frozen=True)
class CleanTitle:
    text: str  # the change itself, first letter upper-cased
    tags: tuple[str, ...]  # stripped tags and prefixes, in order, as written
    series_marker: bool  # `[1/4]`, `pt.2`, `(group 3)` …


# gitmoji: a title opening with emoji (`🔐`, `⬆️`) or their codes (`:bug:`)
_GITMOJI = re.compile(
    r"^(?:(?:[\U0001F000-\U0001FAFF\u2190-\u21FF\u2300-\u27BF\u2B00-\u2BFF\uFE0F\u200D]+|"
    r":[a-z0-9_+-]+:)\s*)+"
)


def clean_title(title: str, number: int | None = None) -> CleanTitle:
    """The digest's reading: strip `(#N)`, leading `[tags]` and `Area:`/`Area -` prefixes;
    keep them as tags.

    A title that is only tags stays as written (minus `(#N)`); one that is only `(#N)`
    becomes `PR #<number>` (`number` is the PR's own), so no bullet is ever empty."""
    text = _PR_REF.sub("", TRAILING_PR_REF.sub("", SPACES.sub(" ", title).strip()))
    text = _GITMOJI.sub("", text) or text  # `🐛 Fix …`, `:bug: Fix …`: the kind, as a picture
    marker = has_part_marker(text)
    text, tags = _peel(text, _DIGEST)
    text = _TRAILING_TAG.sub("", _ISSUE_FIRST.sub("", text)).strip().rstrip(".").strip()
    if not text:  # the whole title was tags: keep it as written
        text = _PR_REF.sub("", TRAILING_PR_REF.sub("", SPACES.sub(" ", title))).strip()
        text = SPACES.sub(" ", text).strip(" .:-")
    if not text:
        text = f"PR #{number}" if number is not None else "Untitled change"
    return CleanTitle(text=text[:1].upper() + text[1:], tags=tuple(tags), series_marker=marker)


def strip_noise(title: str) -> str:
    """The release notes' reading: the change itself, without tags, prefixes, `(#N)`,
    ticket ids, a reland wrapper and part markers."""
    text = _TICKETS.sub("", _PR_REF.sub("", SPACES.sub(" ", title).strip()))
    text = _GITMOJI.sub("", text) or text
    text, _ = _peel(text, _RELEASE)
    text = remove_parts(_ISSUE_FIRST.sub("", text), "")
    text = SPACES.sub(" ", text).strip().rstrip(".").strip()
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1].strip()
    text = text.rstrip(" -–:,")
    return text or SPACES.sub(" ", _PR_REF.sub("", title)).strip()


# git's own subject for a merge: `Merge branch 'x'`, `Merge branches 'a' and 'b'`, `Merge
# remote-tracking branch 'origin/x'`, `Merge tag 'v1'`, `Merge commit 'abc'`, optionally
# `of URL` and `into y`. It names the branch, not its work (a subject of its own, `Merge
# llm20: the LLM writer …`, is not one).
_GIT_MERGE = re.compile(
    r"^Merge (?:(?:remote-tracking )?branch(?:es)?|tag|commit) '[^']+'"
    r"(?:(?:, | and )'[^']+')*(?: of \S+)?(?: into \S+)?\s*$"
)


def is_branch_merge(title: str) -> bool:
    """Whether a subject is git's default one for a merge, which says nothing of its work."""
    return bool(_GIT_MERGE.match(title))
