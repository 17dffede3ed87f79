"""Each PR's section, judged as the digest judges it: from what its body and diff say and
change, not from title words (`analyze.announcements`).

- A PR that removes or renames public names (flags, config fields, modules, classes) the
  range did not add itself, or says so in its body, is a Backwards Incompatible change;
  one that adds a deprecation warning or announces one is a Deprecation. A kind the
  classifier gave from wording alone ("Fixed deprecation warning …") that the reading
  does not bear out falls back to a fix or an improvement.
- A change added and removed within the range never reached a release: both PRs stay out
  of the notes, and the worksheet says so ("added #A, removed #B, both in range").
- Work on CI, typing, lint, the build and internal tooling is Developers' work, wherever
  the classifier filed it; a change that states a measured speed-up is Performance.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..analyze.announcements import BREAKING, DEPRECATION, Announcement, WindowNames, announce
from ..analyze.claims import find_claims
from ..kinds import (
    BC_BREAKING,
    BUG_FIXES,
    DEVS,
    IMPROVEMENTS,
    NEW_FEATURES,
    NOT_USER_FACING,
    PERFORMANCE,
)
from ..kinds import DEPRECATION as DEPRECATION_KIND
from ..models import Classification, PullRequest
from ..reading import parse_title
from ..reading.api_changes import ApiChanges, read_diff
from ..reading.file_roles import FileRole, file_role, is_public
from .reverted_in_range import label

# kinds a reading of the body and diff may move to another section
_MOVABLE = frozenset({NEW_FEATURES, IMPROVEMENTS, BUG_FIXES, PERFORMANCE, NOT_USER_FACING})
_FIX = re.compile(r"(?i)^\W*(?:\[[^\]]*\]\s*)*(?:fix\w*|unbreak\w*|repair\w*|correct\w*)\b")
# a developer's own tooling: CI, typing, lint, the build
_DEV_WORDS = re.compile(
    r"(?i)\b(?:ci|pyre|pyrefly|mypy|type[- ]?check\w*|type (?:hints?|annotations?|errors?)|"
    r"typing|lint\w*|ruff|flake8|clang-tidy|pre-commit|github actions?|"
    r"build system|cmake|buck2?|bazel|docker\w*|nightly builds?|wheel builds?|(?:github|ci) workflows?)\b"
)
_DEV_ROLES = frozenset({FileRole.CI, FileRole.BUILD, FileRole.TEST, FileRole.BENCH, FileRole.TOOL})
# a measured speed-up: "2.3x faster", "30% speedup", "reduces latency by 20%"
_SPEEDUP = re.compile(
    r"(?i)\b(?:speed[- ]?ups?|faster|latency|throughput|tokens?/s|tok/s|it/s|qps|"
    r"(?:runtime|time) (?:reduc|improv|decreas)\w*)\b"
)


@dataclass
class Judged:
    """The classifications, re-read, and the changes added and removed inside the range
    (sha → why both stay out)."""

    decided: list[Classification]
    unreleased: dict[str, str] = field(default_factory=dict)


def judge(
    prs: Sequence[PullRequest],
    decided: Sequence[Classification],
    window: WindowNames | None = None,
) -> Judged:
    """`window`: the range's names, read once by the caller (else read here)."""
    window = window if window is not None else WindowNames(list(prs))
    out = Judged([])
    diffs = {id(pr): read_diff(pr.files, pr.body, pr.title) for pr in prs}  # read once
    adders = _adders(prs, diffs)
    for pr, c in zip(prs, decided, strict=True):
        by_label = c.kind_rule.endswith("/label")
        said = announce(pr, c.kind, by_label, window) if pr.number is not None else None
        if (said is None or said.kind not in (BREAKING, DEPRECATION)) and (
            c.kind in _MOVABLE and deleted_library(pr)
        ):
            out.decided.append(
                replace(c, kind=BC_BREAKING, kind_rule="reading/deletes library code")
            )
            continue
        out.decided.append(_rekind(pr, c, said, by_label))
    for pr in prs:
        found = _taken_back(pr, diffs, adders, window)
        if found is not None:
            adder, remover = found
            why = f"added {label(adder)}, removed {label(remover)}, both in range"
            out.unreleased[adder.sha or ""] = why
            out.unreleased[remover.sha or ""] = why
    return out


def _rekind(
    pr: PullRequest, c: Classification, said: Announcement | None, by_label: bool
) -> Classification:
    if said is not None and said.kind == BREAKING and c.kind != BC_BREAKING:
        if c.kind in _MOVABLE or c.kind == DEPRECATION_KIND:
            return replace(c, kind=BC_BREAKING, kind_rule=f"reading/{said.why}")
    if said is not None and said.kind == DEPRECATION and c.kind in _MOVABLE:
        # a new feature that also warns its predecessor off stays a new feature
        if c.kind != NEW_FEATURES or not said.why.startswith("adds a deprecation warning"):
            return replace(c, kind=DEPRECATION_KIND, kind_rule=f"reading/{said.why}")
    if c.kind in (BC_BREAKING, DEPRECATION_KIND) and said is None and not by_label:
        # the wording named a break or a deprecation that the body and diff do not bear out
        kind = BUG_FIXES if _FIX.search(pr.title) else IMPROVEMENTS
        return replace(c, kind=kind, kind_rule="reading/announces nothing")
    if c.kind in (NEW_FEATURES, IMPROVEMENTS, BUG_FIXES) and _developers(pr):
        return replace(c, kind=DEVS, kind_rule="reading/developer tooling")
    if c.kind in (NEW_FEATURES, IMPROVEMENTS) and _measured_speedup(pr):
        return replace(c, kind=PERFORMANCE, kind_rule="reading/measured speed-up")
    return c


def _developers(pr: PullRequest) -> bool:
    """CI, typing, lint, build or test tooling: by its files, or by its title when its
    library lines are few (a pyrefly pass touches library files, and is still a chore)."""
    roles = [file_role(f.path) for f in pr.files]
    if roles and all(role in _DEV_ROLES for role in roles):
        return True
    return bool(_DEV_WORDS.search(pr.title))


def _measured_speedup(pr: PullRequest) -> bool:
    return any(_SPEEDUP.search(claim) for claim in find_claims(pr.title, pr.body))


def _adders(
    prs: Sequence[PullRequest], diffs: dict[int, ApiChanges]
) -> dict[str, list[PullRequest]]:
    """Public name → the PRs of the range that add it, in landing order."""
    out: dict[str, list[PullRequest]] = {}
    for pr in prs:
        for name in diffs[id(pr)].added:
            out.setdefault(name.name, []).append(pr)
    return out


def _taken_back(
    pr: PullRequest,
    diffs: dict[int, ApiChanges],
    adders: dict[str, list[PullRequest]],
    window: WindowNames,
) -> tuple[PullRequest, PullRequest] | None:
    """(adder, pr) when `pr` removes most of what one earlier PR of the range added, and
    removes nothing that was released: the feature came and went inside the range."""
    if pr.number is None or window.changes(pr).breaks:
        return None
    alone = diffs[id(pr)]
    gone = [n.name for n in alone.removed] + [old.name for old, _ in alone.renamed]
    if not gone or announce(pr) is None:
        return None
    when = pr.merged_at
    votes: dict[str, int] = {}
    by_sha = {}
    for name in gone:
        for adder in adders.get(name, []):
            if adder.sha != pr.sha and when and adder.merged_at and adder.merged_at < when:
                votes[adder.sha or ""] = votes.get(adder.sha or "", 0) + 1
                by_sha[adder.sha or ""] = adder
    if not votes:
        return None
    sha, count = max(votes.items(), key=lambda item: item[1])
    adder = by_sha[sha]
    added = diffs[id(adder)].added
    if adder.number is None or count * 2 < len(added):
        return None  # the adder did more than what was taken back: it stays
    return adder, pr


_REMOVAL_TITLE = re.compile(r"(?i)^(?:remov|delet|drop)\w*\b")
_IDLE = re.compile(r"(?i)\b(?:unused|dead|redundant|stale|leftover|no longer used)\b")
_MIN_DELETED = 100  # lines of library code a removal deletes to count as one
_ADDED_SHARE = 0.1  # … while adding at most this share of them back


def deleted_library(pr: PullRequest) -> list[str]:
    """The public library files a PR titled as a removal deletes from (it adds next to
    nothing back), when that is at least `_MIN_DELETED` lines; else []. What the diff
    shows only as counts (no patch) is told as files, never guessed as names."""
    title = parse_title(pr.title).clean.strip()
    if pr.number is None or not _REMOVAL_TITLE.match(title) or _IDLE.search(title):
        return []
    files = [f for f in pr.files if is_public(f.path)]
    deleted = sum(f.deletions or 0 for f in files)
    added = sum(f.additions or 0 for f in files)
    if deleted < _MIN_DELETED or added > deleted * _ADDED_SHARE:
        return []
    return [f.path for f in files if (f.deletions or 0) > 0 and not (f.additions or 0)]
