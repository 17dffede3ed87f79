"""Per-PR facts the analysis works from, computed once per PR (never per pair)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..models import Classification, PullRequest
from ..reading import (
    CleanTitle,
    clean_title,
    series_name,
)
from .claims import find_claims
from .symbols import find_symbols

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


@dataclass(eq=False)  # one landing is itself: never equal to another by its fields
class Item:
    pr: PullRequest
    cls: Classification
    clean: CleanTitle
    series: str  # a part-marked title's series name (`series_name`); "" without a marker
    symbols: list[str]
    home: str
    claims: list[str]
    score: float = 0.0
    revert_of: int | None = None
    reland_of: int | None = None
    is_revert: bool = False
    is_reland: bool = False
    reverted: bool = False  # undone by a revert landed in the same window

    @property
    def number(self) -> int | None:
        return self.pr.number

    @property
    def lines(self) -> int:
        return self.pr.additions + self.pr.deletions


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


def build_item(pr: PullRequest, cls: Classification) -> Item:
    clean = clean_title(pr.title, pr.number)
    return Item(
        pr=pr,
        cls=cls,
        clean=clean,
        series=series_name(clean.text, clean.tags) if clean.series_marker else "",
        symbols=find_symbols(clean.text),
        home=home_directory(pr),
        claims=find_claims(pr.title, pr.body),
    )
