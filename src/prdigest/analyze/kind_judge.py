"""One judgment of a PR's kind, for the digest and the release notes alike, with the
evidence it rests on. Evidence is weighed in a fixed order, written down as data
(`EVIDENCE_ORDER`): a label beats what the diff shows, the diff beats what the body says,
the body beats the title's words (which the classifier read).

- label: a kind the classifier read from a GitHub label stands; so does the type of the
  news fragment the PR adds for the changelog (towncrier's `changelog/123.bugfix.rst`).
- diff: public names removed or renamed (a break), a public module created (a new
  feature, unless the title's own type or a label says otherwise), deprecation warnings added, library
  code untouched (docs only → docs; the build or developer tools only → developers;
  tests, CI only → not user-facing), library code changed under a title that calls the
  work developers' or internal (unless its author says so too).
- body: the PR says it breaks or deprecates something, calls itself a refactor or says it
  changes no behaviour, or its title's type is `internal:` (its size then makes it no
  improvement), or states a measured speed-up.
- title: the classifier's kind from the title's words; a break or a deprecation it named
  that nothing else bears out is a fix (its title fixes) or an improvement.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .. import kinds
from .brief_types import EVIDENCE_ORDER, AnnouncementKind, Evidence, KindJudgment

_SPEED = re.compile(
    r"(?i)\b(?:fast\w*|speed\s?ups?|speeds? up|latency|throughput|slow\w*|\d+(?:\.\d+)?\s?x\b|"
    r"tokens?/s|tok/s|it/s|qps|(?:runtime|time) (?:reduc|improv|decreas)\w*)"
)
_QUIET_KINDS = (kinds.NOT_USER_FACING, kinds.DEVS, kinds.DOCS)
LIBRARY_LINES = 50  # library code of this size is work users get, whatever the title says


@dataclass(frozen=True, slots=True)
class KindEvidence:
    """What `judge_kind` weighs, read once per PR (`pr_reading`)."""

    classified: str  # the classifier's kind
    classified_by: str  # its rule (`…/label`, `…/wording`, `model:…`)
    announced: AnnouncementKind
    announced_from: Evidence  # where the announcement was read (diff, body or title)
    announced_why: str
    library_lines: int
    only_docs: bool  # every file it changes is documentation
    no_library: bool  # it changes files, none of them library code
    claims: tuple[str, ...]
    developer_only: bool = False  # every file it changes is the build's or a developer tool
    title_fixes: bool = False  # its title says it fixes something
    adds_module: bool = False  # its diff creates a public module and takes no public name away
    declared: str = ""  # the type of the news fragment it adds (`bugfix`), or ""
    declared_in: str = ""  # that fragment's path
    says_internal: bool = False  # its author calls it internal: a refactor, no behaviour
    # change (the body), `internal:` (the title's type)


def judge_kind(evidence: KindEvidence) -> KindJudgment:
    """The kind, from the strongest evidence at hand."""
    for source in EVIDENCE_ORDER:
        found = _READERS[source](evidence)
        if found is not None:
            return found
    return KindJudgment(evidence.classified, Evidence.TITLE, f"title ({evidence.classified_by})")


def _label(e: KindEvidence) -> KindJudgment | None:
    if e.classified_by.endswith("/label"):
        return KindJudgment(e.classified, Evidence.LABEL, f"labelled ({e.classified_by})")
    declared = FRAGMENT_KINDS.get(e.declared)
    if declared is not None:  # the author filed it for the changelog: a label of sorts
        return KindJudgment(declared, Evidence.LABEL, f"its news fragment `{e.declared_in}`")
    return None


# towncrier's fragment types (`reading.news_fragments`) → kinds
FRAGMENT_KINDS = {
    "breaking": kinds.BC_BREAKING, "removal": kinds.BC_BREAKING,
    "deprecation": kinds.DEPRECATION, "feature": kinds.NEW_FEATURES,
    "improvement": kinds.IMPROVEMENTS, "enhancement": kinds.IMPROVEMENTS,
    "vendor": kinds.IMPROVEMENTS, "bugfix": kinds.BUG_FIXES, "bug": kinds.BUG_FIXES,
    "fix": kinds.BUG_FIXES, "security": kinds.BUG_FIXES, "doc": kinds.DOCS,
    "docs": kinds.DOCS, "documentation": kinds.DOCS, "perf": kinds.PERFORMANCE,
    "performance": kinds.PERFORMANCE, "contrib": kinds.DEVS,
    "misc": kinds.NOT_USER_FACING, "trivial": kinds.NOT_USER_FACING,
    "internal": kinds.NOT_USER_FACING,
}  # fmt: skip


def _diff(e: KindEvidence) -> KindJudgment | None:
    if e.announced_from is Evidence.DIFF:
        said = _ANNOUNCED_KIND.get(e.announced)
        if said is not None:
            return KindJudgment(said, Evidence.DIFF, e.announced_why)
    if e.only_docs:
        return KindJudgment(kinds.DOCS, Evidence.DIFF, "changes documentation only")
    if e.developer_only and e.classified not in _QUIET_KINDS:
        return KindJudgment(kinds.DEVS, Evidence.DIFF, "changes only the build or developer tools")
    if e.no_library and e.classified not in _QUIET_KINDS:
        return KindJudgment(
            kinds.NOT_USER_FACING, Evidence.DIFF, "changes no library code (tests, CI, build)"
        )
    if (
        e.adds_module
        and e.classified == kinds.IMPROVEMENTS
        and e.classified_by.endswith(("/default", "/wording"))
    ):
        return KindJudgment(kinds.NEW_FEATURES, Evidence.DIFF, "adds a public module")
    if (
        e.classified in _QUIET_KINDS
        and e.library_lines >= LIBRARY_LINES
        and e.classified != kinds.DOCS
        and not e.says_internal
    ):
        return KindJudgment(
            kinds.IMPROVEMENTS, Evidence.DIFF, f"changes library code ({e.library_lines} lines)"
        )
    return None


def _body(e: KindEvidence) -> KindJudgment | None:
    if e.announced_from is Evidence.BODY:
        said = _ANNOUNCED_KIND.get(e.announced)
        if said is not None:
            return KindJudgment(said, Evidence.BODY, e.announced_why)
    if e.says_internal and not e.claims:
        kind = e.classified if e.classified in _QUIET_KINDS else kinds.NOT_USER_FACING
        return KindJudgment(kind, Evidence.BODY, "its author calls it internal")
    speed = next((c for c in e.claims if _SPEED.search(c)), "")
    if speed and e.classified in (kinds.IMPROVEMENTS, kinds.NEW_FEATURES, kinds.BUG_FIXES):
        return KindJudgment(kinds.PERFORMANCE, Evidence.BODY, f"states “{speed}”")
    return None


def _title(e: KindEvidence) -> KindJudgment | None:
    if e.announced_from is Evidence.TITLE:
        said = _ANNOUNCED_KIND.get(e.announced)
        if said is not None:
            return KindJudgment(said, Evidence.TITLE, e.announced_why)
    if e.classified in _ANNOUNCED_KIND.values() and e.announced is AnnouncementKind.NOTHING:
        # wording named a break or a deprecation ("Fix deprecation warning of …") that the
        # reading of labels, diff, body and title does not bear out
        kind = kinds.BUG_FIXES if e.title_fixes else kinds.IMPROVEMENTS
        return KindJudgment(kind, Evidence.TITLE, "announces no break or deprecation")
    return None


_ANNOUNCED_KIND = {
    AnnouncementKind.BREAKING: kinds.BC_BREAKING,
    AnnouncementKind.DEPRECATION: kinds.DEPRECATION,
}
# what each kind of evidence says of the kind, read in EVIDENCE_ORDER
_READERS: dict[Evidence, Callable[[KindEvidence], KindJudgment | None]] = {
    Evidence.LABEL: _label,
    Evidence.DIFF: _diff,
    Evidence.BODY: _body,
    Evidence.TITLE: _title,
}
