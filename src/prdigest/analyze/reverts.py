"""Pairing reverts and relands with the PR they undo or redo, for the weekly digest.

Detection is `prdigest.reverts` (shared with classification and release notes). The
pairing stays here because the digest needs more than a range-local match: it looks
across this window and the one before, and keeps a target *number* even when that PR
is not in either (the digest still says "reverted #N"). A revert names its target,
strongest first, by the body's `Reverts owner/repo#N`, a `(#N)` inside the quoted title,
`Revert #N`, `This reverts commit <sha>`, and finally the quoted title matched against
the titles landed in this window or the previous one.

Policy shared with the release notes (`pair_all(prs, prose=False)`): only the wrapper
form (`Revert "X"`, `Back out X`) is a revert. A prose title (`Reverts the addition of
… (introduced in #17300)`) usually takes back part of a change, so it is a plain change
and its target is not marked reverted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .. import reverts as shared
from ..models import PullRequest
from ..titles import comparable

_QUOTED = re.compile(r'"(.+?)(?:"|…|\.\.\.)?\s*(?:\(#\d+\))?\s*"?\s*$')
_PR_IN_TITLE = re.compile(r"\(#(\d+)\)")
_REVERT_NUMBER = re.compile(
    r"(?i)^\s*(?:revert|back\s*out|reland|re-land|reapply)\s+(?:pr\s*)?#?(\d{2,})\b"
)
_BODY_REVERTS = re.compile(r"(?i)\breverts?\s+[\w.-]+/[\w.-]+#(\d+)")
_BODY_RELAND = re.compile(
    r"(?i)\bre-?land(?:s|ing)?\s+(?:of\s+)?(?:https://github\.com/[\w.-]+/[\w.-]+/pull/|#|pr\s*#?)(\d+)"
)


@dataclass(frozen=True)
class RevertLink:
    pr: PullRequest
    target_number: int | None  # the PR undone (revert) or redone (reland)
    target_title: str  # as quoted or as landed; may be empty


# The digest reports a revert of a revert as the reland it amounts to; prose reverts
# (`Reverts the addition of …`) are partial, hence no revert (see the module docstring).
def is_revert(pr: PullRequest) -> bool:
    return shared.revert_rest(pr.title, prose=False) is not None and not shared.undoes_a_revert(
        pr.title
    )


def is_reland(pr: PullRequest) -> bool:
    return shared.is_reland(pr.title) or shared.undoes_a_revert(pr.title)


def _key(title: str) -> str:
    return comparable(_PR_IN_TITLE.sub("", title))


def _quoted(title: str) -> str:
    inner = title
    for _ in range(2):  # `Revert "Revert "X""` → X
        match = _QUOTED.search(inner)
        if not match:
            break
        inner = match.group(1).strip().strip('"').strip()
    return inner if inner != title else ""


class TitleIndex:
    """Landed PRs of the window and the one before, by number, sha prefix and title."""

    def __init__(self, prs: Sequence[PullRequest]) -> None:
        self.by_number: dict[int, PullRequest] = {}
        self.by_title: dict[str, PullRequest] = {}
        self.by_sha: dict[str, PullRequest] = {}
        for pr in prs:
            if pr.number is not None:
                self.by_number.setdefault(pr.number, pr)
            self.by_title.setdefault(_key(pr.title), pr)
            if pr.sha:
                self.by_sha[pr.sha[:7]] = pr

    def title_of(self, number: int | None) -> str:
        pr = self.by_number.get(number) if number is not None else None
        return pr.title if pr else ""

    def find_title(self, quoted: str) -> PullRequest | None:
        if not quoted:
            return None
        key = _key(quoted)
        hit = self.by_title.get(key)
        if hit is None and len(key) >= 20:  # truncated quotes: `Revert "Switch fbcode builds…"`
            for title_key, pr in self.by_title.items():
                if title_key.startswith(key):
                    return pr
        return hit


def revert_target(pr: PullRequest, index: TitleIndex) -> RevertLink:
    quoted = _quoted(pr.title)
    number = _first_int(_BODY_REVERTS.findall(pr.body))
    if number is None:
        inner = _PR_IN_TITLE.findall(pr.title)
        number = int(inner[-1]) if inner and int(inner[-1]) != pr.number else None
    if number is None:
        match = _REVERT_NUMBER.match(pr.title)
        number = int(match.group(1)) if match else None
    if number is None:
        for sha in shared.REVERTS_COMMIT.findall(pr.body):
            hit = index.by_sha.get(sha[:7].lower())
            if hit is not None and hit.number is not None:
                number = hit.number
                break
    if number is None:
        hit = index.find_title(quoted)
        number = hit.number if hit is not None else None
    if number == pr.number:
        number = None
    title = index.title_of(number) or quoted
    return RevertLink(pr, number, title)


def reland_target(pr: PullRequest, index: TitleIndex) -> RevertLink:
    number = _first_int(_BODY_RELAND.findall(pr.body))
    if number is None:
        match = _REVERT_NUMBER.match(pr.title)
        number = int(match.group(1)) if match else None
    quoted = _quoted(pr.title)
    if number is None:
        stripped = shared.reland_rest(pr.title) or pr.title
        hit = index.find_title(quoted) or index.find_title(stripped)
        if hit is not None and hit is not pr:
            number = hit.number
    if number == pr.number:
        number = None
    return RevertLink(pr, number, index.title_of(number) or quoted)


def _first_int(values: Sequence[str]) -> int | None:
    return int(values[0]) if values else None
