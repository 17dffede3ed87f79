"""Per-PR facts the analysis works from, computed once per PR (never per pair)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..models import Classification, PullRequest
from ..reading import (
    CleanTitle,
    clean_title,
    series_key,
    series_label,
    series_links,
    series_name,
    stack_numbers,
)
from .claims import find_claims
from .english import VERB_NOUNS
from .symbols import find_symbols

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+\-]*[A-Za-z0-9+]|[A-Za-z]")

STOPWORDS = frozenset(
    """a an the and or of to in on for with from by at as is are be been it its this that these those
    into via when if not no new use using used more some all any only also than then so do does
    ez be up out via vs per e g ie eg etc et executorch torchao pytorch pr prs re re-submit resubmit
    support supports test tests op ops operator operators backend backends case cases code file files
    issue issues change changes minor small other misc default different missing""".split()
)

# Tags that say how a change was made, not what it is about: never a theme name.
STOP_TAGS = frozenset(
    {
        "ez",
        "easy",
        "be",
        "bc-breaking",
        "bc breaking",
        "reland",
        "revert",
        "wip",
        "minor",
        "nit",
        "test",
        "tests",
        "fix",
        "bugfix",
        "feat",
        "feature",
        "chore",
        "refactor",
        "ci",
        "doc",
        "docs",
        "lint",
        "perf",
        "executorch",
        "et",
        "ao",
        "torchao",
        "pytorch",
        "title",
        "summary",
        "diff train",
        "ghstack",
        "ready",
        "draft",
        "1/x",
        "2/x",
        "3/x",
    }
)


def theme_tags(tags: tuple[str, ...]) -> list[str]:
    """Tags usable as theme names (lower-cased keys), without process tags like `ez`."""
    out = []
    for tag in tags:
        key = tag.lower().strip()
        if key and key not in STOP_TAGS and not re.fullmatch(r"\d+\s*/\s*\w+", key):
            out.append(key)
    return out


@dataclass(eq=False)  # one landing is itself: never equal to another by its fields
class Item:
    pr: PullRequest
    cls: Classification
    clean: CleanTitle
    key: str
    series: str  # a part-marked title's series name (`series_name`); "" without a marker
    tags: list[str]
    terms: set[str]
    symbols: list[str]
    home: str
    claims: list[str]
    stack: tuple[int, ...]  # its ghstack list, and the PRs it says it continues
    score: float = 0.0
    revert_of: int | None = None
    reland_of: int | None = None
    is_revert: bool = False
    is_reland: bool = False
    reverted: bool = False  # undone by a revert landed in the same window
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def number(self) -> int | None:
        return self.pr.number

    @property
    def lines(self) -> int:
        return self.pr.additions + self.pr.deletions


def symbol_stem(symbol: str) -> str:
    """`op_registry.py` → `op_registry`; `torch.compile()` → `torch.compile`."""
    stem = symbol.rstrip("()").lower()
    return re.sub(
        r"\.(py|pyi|cpp|cc|c|h|hpp|mm|cu|glsl|yml|yaml|md|sh|txt|json|toml|bzl)$", "", stem
    )


def terms_of(clean: CleanTitle, symbols: Sequence[str], tags: Sequence[str]) -> set[str]:
    """Words, code symbols (by stem) and tags of a title, lower-cased: what TF-IDF weighs."""
    terms = {symbol_stem(s) for s in symbols}
    text = clean.text
    for symbol in sorted(symbols, key=len, reverse=True):  # words of a symbol are not words
        text = text.replace(symbol, " ")
    for word in _WORD.findall(text):
        low = word.lower()
        if len(low) >= 2 and low not in STOPWORDS and low not in VERB_NOUNS and not low.isdigit():
            terms.add(low)
    terms.update(f"[{t}]" for t in tags)
    return terms


def home_directory(pr: PullRequest) -> str:
    """The deepest directory holding at least 60% of the PR's files ('' for the root)."""
    paths = [f.path for f in pr.files]
    if not paths:
        return ""
    counts: Counter[str] = Counter()
    for path in paths:
        parts = path.split("/")[:-1]
        for depth in range(1, min(len(parts), 6) + 1):
            counts["/".join(parts[:depth])] += 1
    need = 0.6 * len(paths)
    best = ""
    for directory, n in counts.items():
        if n >= need and (
            directory.count("/") > best.count("/")
            or (directory.count("/") == best.count("/") and directory < best)
        ):
            best = directory
    return best


def stated_series(members: Sequence[Item]) -> str:
    """The name the titles give their series after the part marker (`[2/x] docs update:
    separate quick start` → `docs update`), as first written, when every member is of
    that series; "" otherwise."""
    names = {it.series for it in members}
    if len(names) != 1 or not next(iter(names)):
        return ""
    return next((label for it in members if (label := series_label(it.clean.tags))), "")


def title_terms(pr: PullRequest) -> set[str]:
    """The TF-IDF terms of a title alone (for background windows: no claims, no paths)."""
    clean = clean_title(pr.title, pr.number)
    return terms_of(clean, find_symbols(clean.text), theme_tags(clean.tags))


def build_item(pr: PullRequest, cls: Classification) -> Item:
    clean = clean_title(pr.title, pr.number)
    symbols = find_symbols(clean.text)
    tags = theme_tags(clean.tags)
    return Item(
        pr=pr,
        cls=cls,
        clean=clean,
        key=series_key(clean.text),
        series=series_name(clean.text, clean.tags) if clean.series_marker else "",
        tags=tags,
        terms=terms_of(clean, symbols, tags),
        symbols=symbols,
        home=home_directory(pr),
        claims=find_claims(pr.title, pr.body),
        stack=tuple(sorted({*stack_numbers(pr.body), *series_links(pr.title, pr.body)})),
    )


def inverse_document_frequency(documents: Iterable[set[str]]) -> dict[str, float]:
    """Smoothed IDF over title terms: the window and the previous one as background."""
    df: Counter[str] = Counter()
    total = 0
    for terms in documents:
        total += 1
        df.update(terms)
    return {term: math.log((total + 1) / (n + 1)) + 1.0 for term, n in df.items()}
