"""The digest context as types: what the analysis of one window hands the writers.

`build_context` (context.py) makes a `DigestContext`, complete when built and never
edited after (frozen; its sequences are tuples): a writer reads attributes, so mypy checks
the contract between the stages. It becomes JSON only at the edges (`--format json`, the
stored report) through `as_dict`, and a dumped or stored context comes back through
`from_dict`. `msgspec` does both conversions, by these annotations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec
import msgspec.json

from .brief_types import Brief
from .digest_plan import DigestPlan

SCHEMA = 1


@dataclass(frozen=True, slots=True)
class WindowSpan:
    start: str  # first day, YYYY-MM-DD
    end: str  # last day, inclusive
    label: str
    iso_week: str | None  # None: a window that is no ISO week
    days: int


@dataclass(frozen=True, slots=True)
class Counts:
    prs: int
    direct_pushes: int
    authors: int
    first_time_authors: int
    reverts: int
    relands: int
    previous_prs: int
    previous_direct_pushes: int
    # merged and opened side by side, when GitHub said when the PRs were opened
    merged: int | None = None
    opened: int | None = None


@dataclass(frozen=True, slots=True)
class Area:
    name: str
    family: str | None
    catch_all: bool  # the profile's catch-all: named by its paths in prose
    description: str
    count: int
    previous_count: int
    delta: int
    prs: tuple[int, ...]
    top_paths: tuple[tuple[str, int], ...]
    kinds: dict[str, int]  # most first
    components: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    count: int
    previous_count: int
    areas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reason:
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class SubstanceFacts:
    library_lines: int
    library_files: int
    user_facing: bool
    chore: bool
    capability: bool
    surface: str
    enables: str


@dataclass(frozen=True, slots=True)
class NotabilityFacts:
    score: float
    reasons: tuple[Reason, ...] = ()
    substance: SubstanceFacts | None = None


@dataclass(frozen=True, slots=True)
class PRFacts:
    number: int
    title: str
    clean_title: str
    tags: tuple[str, ...]
    url: str | None  # None: cited as PR#N, without a link
    author: str | None
    area: str
    kind: str
    area_rule: str
    kind_rule: str
    additions: int | None
    deletions: int | None
    files: int
    top_paths: tuple[str, ...]
    symbols: tuple[str, ...]
    claims: tuple[str, ...]
    labels: tuple[str, ...]
    merged_at: str | None
    score: float
    notability: NotabilityFacts
    is_revert: bool
    is_reland: bool
    reverted: bool
    landings: int = 1


@dataclass(frozen=True, slots=True)
class Revert:
    revert: int | None  # None: a direct push
    sha: str
    reverted: int | None
    reverted_in_window: bool
    title: str
    revert_title: str
    relanded_by: int | None


@dataclass(frozen=True, slots=True)
class Reland:
    reland: int | None
    sha: str
    relanded: int | None
    relanded_in_window: bool
    title: str
    reland_title: str


@dataclass(frozen=True, slots=True)
class Claim:
    pr: int
    text: str


@dataclass(frozen=True, slots=True)
class Trend:
    area: str
    count: int
    previous: int
    delta: int
    pct: int | None


@dataclass(frozen=True, slots=True)
class TotalTrend:
    count: int
    previous: int
    delta: int
    pct: int | None


@dataclass(frozen=True, slots=True)
class Trends:
    total: TotalTrend
    areas: tuple[Trend, ...]
    rising: tuple[Trend, ...]
    falling: tuple[Trend, ...]
    new_areas: tuple[str, ...]
    quiet_areas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DirectPush:
    sha: str
    title: str
    clean_title: str
    author: str | None
    area: str


@dataclass(frozen=True, slots=True)
class DigestContext:
    repo: str
    window: WindowSpan
    title: str
    counts: Counts
    areas: tuple[Area, ...]
    families: tuple[Family, ...]
    prs: dict[int, PRFacts]  # the window's PRs by number, in landing order
    reverts: tuple[Revert, ...]
    relands: tuple[Reland, ...]
    claims: tuple[Claim, ...]
    trends: Trends
    first_time_authors: tuple[str, ...]
    first_time_since: str | None  # first-time since this day (the synced history's start)
    direct_pushes: tuple[DirectPush, ...]
    count_mode: str = "merged"
    llm: dict[str, Any] | None = None  # what the LLM run did, when one was asked
    briefs: dict[int, Brief] = field(default_factory=dict)  # every PR's brief, by number
    plan: DigestPlan | None = None  # what the digest tells, how it groups, what it counts
    schema: int = SCHEMA

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (`--format json`, the stored report): numbers as string keys, and
        the keys only some digests have (llm, merged/opened, substance) only there."""
        # through JSON itself: what comes back is exactly what a reader of the dump sees
        out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(self))
        for parent, key in ((out, "llm"), (out["counts"], "merged"), (out["counts"], "opened")):
            if parent[key] is None:
                del parent[key]
        for pr in out["prs"].values():
            if pr["notability"]["substance"] is None:
                del pr["notability"]["substance"]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DigestContext:
        """A context from its JSON form (a dump, a stored report)."""
        return convert(data, cls)


T = TypeVar("T")


def convert(data: Any, into: type[T]) -> T:
    """`data` (built-in values, e.g. parsed JSON) as `into`, checked by its annotations."""
    return msgspec.convert(data, into, strict=False)
