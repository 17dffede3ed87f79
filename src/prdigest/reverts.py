"""Revert and reland detection, and pairing with the PR each one undoes or redoes.

Pure and shared by analysis, classification and release notes. A revert names its
target, strongest evidence first, by `This reverts commit <sha>`, `Reverted
https://github.com/o/r/pull/N`, a `#N` in its title (or `Revert "… (#N)"` in its body),
a Phabricator `D123` matched against the `Differential Revision` trailer, or the quoted
title of `Revert "X"` / `Back out "X"`. `Revert "Revert "X""` targets the first revert.
A reland (`Reland X`, `[Reland] X`, `Reapply "X"`, `[retake] X`) names its original by a
`#N` or by its inner title. Lookups only look at PRs landed before the one being paired.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .models import PullRequest
from .titles import PHAB_ID, TRAILING_PR_REF, comparable

# The wrapper form: `Revert "X"`, `[tag] Back out "X"`, `Revert D123: X`.
_REVERT_TITLE = re.compile(
    r"(?i)^\s*(?:\[[^\]]*\]\s*)*(?:revert|back\s*out|backout)\b\s*:?\s*(.*)$"
)
# The prose form: `Reverts the addition of …`, `Reverting …`, `Unland X`. Often a partial
# revert (#17407 takes one pass out of #17300), so callers may leave it unpaired.
_REVERT_PROSE = re.compile(r"(?i)^\s*(?:\[[^\]]*\]\s*)*(?:reverts|reverting|unland)\b\s*:?\s*(.*)$")
# `Reland X`, `[Reland] X`, `Reapply "X"`, `[retake] X`, `Reland v2: X`, `Reland2: X`
# (not `Redownload …`).
_RELAND_TITLE = re.compile(
    r"(?i)^\s*(?:\[[^\]]*\]\s*)*\[?(?:reland|re-land|reapply|re-apply|retake|redo)\d*\b\]?\s*:?\s*(?:v\d+\s*:?\s*)?(.*)$"
)
# A reland marker elsewhere: `[Arm] [reland] X`, or a title ending in `reland(ed)`.
_RELAND_MARK = re.compile(r"(?i)\[\s*re-?land\d*\s*\]|\bre-?land(?:ed)?\s*$")
REVERTS_COMMIT = re.compile(r"(?i)this reverts commit ([0-9a-f]{7,40})")
_REVERTED_PR = re.compile(r"(?i)reverted\s+https://github\.com/[^/\s]+/[^/\s]+/pull/(\d+)")
_NUMBER = re.compile(r"#(\d+)\b")
# ghstack and Phabricator bodies repeat the reverted title with its number.
_BODY_QUOTED_NUMBER = re.compile(r'(?im)^\W*revert "[^\n]*\(#(\d+)\)"')
_QUOTED = re.compile(r'^"(.*)"\s*$|^"(.*)$')
_ANY_QUOTED = re.compile(r'"(.+)"')


def revert_rest(title: str, *, prose: bool = True) -> str | None:
    """What follows the `Revert`/`Back out` wrapper (or, with `prose`, the `Reverts`/
    `Reverting`/`Unland` opening), or None when `title` is no revert."""
    match = _REVERT_TITLE.match(title) or (_REVERT_PROSE.match(title) if prose else None)
    return match.group(1) if match else None


def reland_rest(title: str) -> str | None:
    """What follows the `Reland`/`Reapply`/`[retake]` wrapper (None: no reland; a revert
    of a revert is reported by `revert_rest` and paired as a revert)."""
    if revert_rest(title) is not None:
        return None
    match = _RELAND_TITLE.match(title)
    if match:
        return match.group(1)
    if _RELAND_MARK.search(title):
        return _RELAND_MARK.sub(" ", title).strip()
    return None


def is_revert(title: str) -> bool:
    return revert_rest(title) is not None


def is_reland(title: str) -> bool:
    return reland_rest(title) is not None


def undoes_a_revert(title: str) -> bool:
    """`Revert "Revert "X""`: a revert by form, a reland by effect."""
    rest = revert_rest(title)
    return rest is not None and _REVERT_TITLE.match(unquote(rest)) is not None


def unquote(text: str) -> str:
    """`"X (#12)" (#13)` → `X`: the title inside one wrapper's quotes."""
    text = TRAILING_PR_REF.sub("", text.strip())
    match = _QUOTED.match(text)
    if match:
        text = match.group(1) if match.group(1) is not None else match.group(2)
    return TRAILING_PR_REF.sub("", text.strip())


class LandingIndex:
    """The range's PRs by sha, number, comparable title and Phabricator id (positions)."""

    def __init__(self, prs: Sequence[PullRequest]) -> None:
        self.position = {pr.sha: i for i, pr in enumerate(prs) if pr.sha}
        self.by_number: dict[int, list[int]] = {}
        self.by_title: dict[str, list[int]] = {}
        self.by_phab: dict[str, int] = {}
        for i, pr in enumerate(prs):
            if pr.number is not None:
                self.by_number.setdefault(pr.number, []).append(i)
            self.by_title.setdefault(comparable(pr.title), []).append(i)
            for value in pr.trailer("Differential Revision"):
                for phab in PHAB_ID.findall(value):
                    self.by_phab.setdefault(phab, i)
        self.shas = sorted(self.position)

    def sha(self, prefix: str, before: int) -> int | None:
        """The one PR before `before` whose sha starts with `prefix` (ambiguous: none)."""
        prefix = prefix.lower()
        hits = [self.position[s] for s in self.shas if s.startswith(prefix)]
        hits = [i for i in hits if i < before]
        return hits[-1] if len(hits) == 1 else None

    def number(self, number: int, before: int) -> int | None:
        hits = [i for i in self.by_number.get(number, []) if i < before]
        return hits[-1] if hits else None

    def title(self, text: str, before: int) -> int | None:
        """The latest PR before `before` with this title; `…`-truncated titles match by prefix."""
        truncated = text.rstrip().endswith(("…", "..."))
        key = comparable(text.rstrip(".… "))
        if not key:
            return None
        hits = [i for i in self.by_title.get(key, []) if i < before]
        if not hits and truncated:
            hits = [
                i for k, v in self.by_title.items() if k.startswith(key) for i in v if i < before
            ]
        return max(hits) if hits else None


@dataclass(frozen=True, slots=True)
class Pairing:
    """PR `position` reverts or relands `targets` (positions, possibly none).

    `how` names the evidence: revert | sha | number | phab | title | unmatched, where
    `revert` means `Revert "Revert …"` matched the first revert by its title.
    """

    position: int
    relands: bool
    targets: tuple[int, ...]
    how: str
    nested: bool = False  # `Revert "Revert …"`: undoes a revert, i.e. relands


def revert_targets(
    pr: PullRequest, rest: str, i: int, index: LandingIndex
) -> tuple[list[int], str]:
    """The earlier PRs the revert `pr` (at `i`, wrapper text `rest`) undoes, and how found."""
    inner = unquote(rest)
    if _REVERT_TITLE.match(inner):  # `Revert "Revert "X""`: its target is the first revert
        hit = index.title(inner, i)
        if hit is not None:
            return [hit], "revert"
    found: list[int] = []
    how = "unmatched"
    for sha in REVERTS_COMMIT.findall(pr.body):
        hit = index.sha(sha, i)
        if hit is not None:
            found.append(hit)
            how = "sha"
    for number in _REVERTED_PR.findall(pr.body):
        hit = index.number(int(number), i)
        if hit is not None:
            found.append(hit)
            how = "sha" if how == "sha" else "number"
    if not found:
        numbers = _NUMBER.findall(rest) or _BODY_QUOTED_NUMBER.findall(pr.body)
        for number in numbers:
            hit = index.number(int(number), i)
            if hit is not None:
                found.append(hit)
                how = "number"
    if not found:
        for phab in PHAB_ID.findall(rest):
            hit = index.by_phab.get(phab)
            if hit is not None and hit < i:
                found.append(hit)
                how = "phab"
    if not found and rest.startswith('"'):
        hit = index.title(inner, i)
        if hit is not None:
            found.append(hit)
            how = "title"
    return sorted(set(found)), how


def reland_target(rest: str, i: int, index: LandingIndex) -> tuple[int | None, str]:
    """The earlier PR a reland (wrapper text `rest`) lands again: by `#N`, else by title."""
    for number in _NUMBER.findall(rest):
        hit = index.number(int(number), i)
        if hit is not None:
            return hit, "number"
    hit = index.title(unquote(re.sub(r"^#\d+\s*:\s*", "", rest)), i)
    quoted = _ANY_QUOTED.search(rest)
    if hit is None and quoted:  # `Reland "X" v2`, `Reapply D123: "X"`, `Re-land the PR of "X"`
        hit = index.title(TRAILING_PR_REF.sub("", quoted.group(1)), i)
    return hit, "title" if hit is not None else "unmatched"


def pair_all(prs: Sequence[PullRequest], *, prose: bool = True) -> Iterator[Pairing]:
    """Every revert and reland of `prs` (in landing order) paired with its targets;
    `prose=False` treats prose reverts (`Reverts the addition of …`) as plain changes."""
    index = LandingIndex(prs)
    for i, pr in enumerate(prs):
        rest = revert_rest(pr.title, prose=prose)
        if rest is not None:
            targets, how = revert_targets(pr, rest, i, index)
            yield Pairing(i, False, tuple(targets), how, undoes_a_revert(pr.title))
            continue
        rest = reland_rest(pr.title)
        if rest is not None:
            hit, how = reland_target(rest, i, index) if rest else (None, "unmatched")
            yield Pairing(i, True, () if hit is None else (hit,), how)
