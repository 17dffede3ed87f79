"""A PR's brief: what it does for the people who use the project and why, its public
surface, its kind with the evidence for it, its component and its status in the window.
Every output writes from briefs: the digest, the release notes, the site and the LLM
writer (which may write a brief's sentences, verified against that PR alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    """What became of a PR within its window."""

    LANDED = "landed"
    REVERTED = "reverted"  # a later PR of the window reverts it: not news
    REVERT = "revert"  # it reverts another PR
    RELAND = "reland"  # it lands again a change reverted before (by wrapper, title or diff)


class AnnouncementKind(StrEnum):
    """What a PR announces to its users, read from its labels, diff, body and title."""

    NOTHING = ""
    BREAKING = "breaking"
    DEPRECATION = "deprecation"
    DEFAULT = "default"  # a changed default


class Evidence(StrEnum):
    """Where a judgment was read, strongest first (the order is `EVIDENCE_ORDER`)."""

    LABEL = "label"
    DIFF = "diff"
    BODY = "body"
    TITLE = "title"


EVIDENCE_ORDER: tuple[Evidence, ...] = (
    Evidence.LABEL,
    Evidence.DIFF,
    Evidence.BODY,
    Evidence.TITLE,
)


@dataclass(frozen=True, slots=True)
class KindJudgment:
    kind: str  # a kind id (`kinds.py`)
    evidence: Evidence
    why: str  # short: "removes public `foo`", "labelled `bc-breaking`", "title: Fix …"


@dataclass(frozen=True, slots=True)
class Surface:
    """The public names a PR adds, removes and renames (as users write them)."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.renamed)


@dataclass(frozen=True, slots=True)
class Brief:
    number: int
    author: str  # who wrote it (one author's PRs on one thing are one theme)
    subject: str  # what a bullet names it by (`cp`, "GGUF", "Motif-Video"), or ""
    what: str  # a sentence without its closing stop, Markdown inline
    why: str  # the PR's stated motivation or result, or ""
    why_from: str  # result | reason (a clause told after `what`) | before | docs | release |
    # notice | model, or ""
    writer: str  # deterministic | model:<name>: who wrote `what` and `why`
    kind: str
    kind_evidence: KindJudgment
    component: str  # where its library lines land, as the project names it
    user_facing: bool
    chore: bool  # lint, typing, formatting, pins: never news
    announced: AnnouncementKind
    migration: str  # what users should do, in the PR's words, or ""
    surface: Surface
    status: Status
    status_of: int | None  # the PR it reverts or relands, or that reverts it
    release: str  # what it releases: `0.12.4` (the project), `tokio-util 0.7.19`, or ""
    series: str  # the series it is part of (its name), or ""
    figures: tuple[str, ...]  # the figures `why` quotes, each stated by this PR
    score: float  # how much it matters, for ordering (never told as a reason)

    @property
    def released_package(self) -> str:
        """The package its release names (`tokio-util`), "" for the project's own version."""
        name, _, version = self.release.rpartition(" ")
        return name if version else ""

    @property
    def project_release(self) -> bool:
        """Whether it releases a version of the project itself (no package named)."""
        return bool(self.release) and not self.released_package

    @property
    def news(self) -> bool:
        """Whether it may be told as the week's news: it stands in the window."""
        return self.status in (Status.LANDED, Status.RELAND)
