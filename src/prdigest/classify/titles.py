"""Read the structure in a PR title: revert/reland wrappers, bracket tags,
`Component:` prefixes, conventional-commit types and the cleaned text.

Pure and fast: every regex is compiled at import time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..titles import BRACKET_TAG, TRAILING_PR_REF

# `Revert "…"`, `Back out "…"`, `Revert D12345: …`, `Reverted "…"` (also nested).
_REVERT = re.compile(
    r'^\s*(?:revert(?:s|ed)?|back(?:ed)?[ -]?out)\b(?!\s+(?:to|back)\b)\s*[:-]?\s*(?:"(?P<q>.*)"(?:\s*(?:v?\d+|\(#\d+\)))*\s*|(?P<rest>.*))$',
    re.I | re.S,
)
# `Reland …`, `Re-land …`, `Reapply …`, `Re-apply "…"`, `[reland] …`, `Reland2: …`.
_RELAND = re.compile(
    r'^\s*(?:re-?land|re-?apply|re-?commit)\d*\b\s*[:-]?\s*(?:"(?P<q>.*)"(?:\s*(?:v?\d+|\(#\d+\)))*\s*|(?P<rest>.*))$',
    re.I | re.S,
)
_RELAND_TAGS = frozenset({"reland", "reland2", "reland 2", "re land", "reapply", "retake"})
_LEADING_TAGS = re.compile(r"^(?:\s*\[[^\[\]]{1,60}\]\s*[:-]?)+\s*")
# Conventional commits: `fix:`, `fix(scope):`, `feat!:`.
_CONVENTIONAL = re.compile(r"^(?P<type>[A-Za-z]+)(?:\((?P<scope>[^()]{1,40})\))?(?P<bang>!)?:\s+")
# A leading component name: `Arm backend: …`, `Qualcomm AI Engine Direct - …`.
_PREFIX = re.compile(r"^(?P<name>[A-Za-z][\w./+#-]*(?: [\w./+#-]+){0,4}?)\s*(?::\s+| - )")
_SEPARATORS = re.compile(r"[\s_\-]+")
_SERIES = re.compile(r"^\d+(?:\.\d+)?\s*/\s*(?:\d+|[nx])$", re.I)

CONVENTIONAL_TYPES = frozenset(
    {
        "feat",
        "feature",
        "fix",
        "bugfix",
        "perf",
        "docs",
        "doc",
        "test",
        "tests",
        "ci",
        "chore",
        "refactor",
        "build",
        "style",
        "revert",
        "deps",
        "security",
    }
)


def normalize_tag(text: str) -> str:
    """`ET-VK`, `et_vk`, ` Et vk ` → `et vk`: tags compare after this."""
    return _SEPARATORS.sub(" ", text.strip().lower()).strip()


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
    inner, revert_of, reland = _unwrap(raw)
    tags: list[str] = []
    series = None
    leading = _LEADING_TAGS.match(inner)
    leading_end = leading.end() if leading else 0
    leading_count = 0
    for found in BRACKET_TAG.finditer(inner):
        tag = found.group(1)
        norm = normalize_tag(tag)
        if _SERIES.match(norm.replace(" ", "")):
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
    text = TRAILING_PR_REF.sub("", _LEADING_TAGS.sub("", inner))
    conventional_type = scope = prefix = None
    breaking = False
    match = _CONVENTIONAL.match(text)
    if match and match.group("type").lower() in CONVENTIONAL_TYPES:
        conventional_type = match.group("type").lower()
        scope = normalize_tag(match.group("scope")) if match.group("scope") else None
        breaking = bool(match.group("bang"))
        text = text[match.end() :]
    body = text.strip()
    if conventional_type is None:
        match = _PREFIX.match(text)
        if match:
            prefix = normalize_tag(match.group("name"))
            text = text[match.end() :]
    clean = _LEADING_TAGS.sub("", text).strip() or inner
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


def _unwrap(title: str) -> tuple[str, str | None, bool]:
    """Strip revert / reland wrappers (possibly nested: `Revert "Reland …"`)."""
    revert_of: str | None = None
    reland = False
    text = title
    for _ in range(4):
        match = _REVERT.match(text)
        if match and revert_of is None:
            inner = (
                match.group("q") if match.group("q") is not None else match.group("rest")
            ).strip()
            if inner:
                revert_of = inner
                text = inner
                continue
        match = _RELAND.match(text)
        if match:
            inner = (
                match.group("q") if match.group("q") is not None else match.group("rest")
            ).strip()
            if inner:
                reland = True
                text = inner
                continue
        break
    if text.startswith('"') and text.endswith('"') and len(text) > 1:
        text = text[1:-1]
    return text, revert_of, reland
