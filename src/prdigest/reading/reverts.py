"""Reverts and relands: which PRs are, and which earlier PR each one undoes or redoes.

One reading, with one set of evidence rules, for classification, the digest, the release
notes and the site. Detection is the wrapper (`reading.wrappers`): `Revert "X"`, `Back
out "X"`, `Reland X`, `[Reland] X`, `Reapply "X"`; `Revert "Revert "X""` undoes the first
revert, so it lands X again.

Evidence for the target, strongest first (`Pairing.how` names the kind that matched):

1. `revert`: for `Revert "Revert "X""`, the first revert, by its title;
2. `sha`: the body's `This reverts commit <sha>`; `number`: a PR the revert names, in
   its body (`Reverted https://github.com/o/r/pull/N`, `Reverts o/r#N`, `Reland of
   https://…/pull/N`, a ghstack body's `Revert "X (#N)"`) or after its wrapper: the
   `(#N)` of the quoted title (`Revert "X (#12)"`), any `#N` outside the quotes
   (`Revert Android PRs #19099, #19124`, `Reapply #9841: X`), `Revert 11294`;
3. `phab`: a Phabricator `D123` outside the quotes, matched with the `Differential
   Revision` trailer (`Revert D68246404`, `Re-apply D101260086: X`);
4. `title`: the quoted title, matched with the latest PR of that title landed before
   (a title cut short by `…` matches by its beginning).

Targets are looked up among the PRs landed before, in the sequence given: a release
range, or a digest window after the window before it. The rules were once three
readers' (classification, release notes, digest); they were made one on their merits:

- A prose title (`Reverts the addition of …`, `Reverting …`, `Unland …`) is no revert
  anywhere: it usually takes back part of a change (#17407 takes one pass out of #17300),
  so the change stays in the notes and the digest, and classification reads the title as
  any other (#17407: `improvements`, the default, no longer `kind/revert`).
- The fuller evidence is everyone's: `D123` with the trailer, `#N` anywhere after the
  wrapper, a ghstack body's quoted number. It pairs `Revert D68246404` and `Revert
  Android PRs #19099, …`, which the digest once left unpaired. Two limits keep it
  honest: an id inside the quoted title belongs to that title (`Back out "Re-apply
  D101260086: X"` backs out the re-apply, not D101260086), and a `#N` or `D123` after
  `from`, `by`, `of` … is no target (`Revert accidental change … from #14234` takes back
  part of #14234; `Reapply changes reverted by #11506` names the revert).
- A target must have landed before its revert. (The digest once matched a quoted
  title with its window's first PR of that title, and paired #15530 with #15539, the
  reland that came after it.)
- A reland that names a revert lands what the revert took out: git titles the revert
  of a revert `Reapply "X (#revert)"` (#14842 relands #14090, not the revert #14307).
- An abbreviated sha that names two commits landed before the revert is no evidence:
  neither is taken. Commits outside the sequence count too (a digest's sequence is two
  windows; the other commit may be older): the caller, which can ask the store, names
  such shas in `ambiguous` (`abbreviated_reverts` lists the shas to ask about).
- A PR the revert names that is not in the sequence is no target (the evidence goes on
  to the Phabricator id and the title); its number stays in `Pairing.original`, so a
  digest can still say "reverted #19719": that is presentation, not evidence. A
  reland's quoted `(#N)` is not said so, as it may be the revert's own number.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import NamedTuple

from ..models import PullRequest
from .patterns import PHAB_ID, TRAILING_PR_REF, comparable
from .wrappers import read_wrapper, reland_rest, revert_rest, unquote

_REVERTS_COMMIT = re.compile(r"(?i)this reverts commit ([0-9a-f]{7,40})")
_REVERTED_PR = re.compile(r"(?i)reverted\s+https://github\.com/[^/\s]+/[^/\s]+/pull/(\d+)")
_REVERTS_REF = re.compile(r"(?i)\breverts?\s+[\w.-]+/[\w.-]+#(\d+)")  # GitHub's revert button
_RELANDS_PR = re.compile(
    r"(?i)\bre-?land(?:s|ing)?\s+(?:of\s+)?(?:https://github\.com/[\w.-]+/[\w.-]+/pull/|#|pr\s*#?)(\d+)"
)
# In a wrapper's text outside quotes: `#N` or `D123`, with the word before it.
_REF = re.compile(r"(?:\b(?P<word>\w+)\s+)?(?:#(?P<number>\d+)\b|\bD(?P<phab>\d{6,})\b)")
# `… from #14234`, `changes reverted by #11506`: part of a change, or the PR that took it
# out; the reference is no target.
_NOT_THE_TARGET = frozenset("from by of in after since see".split())
_SQUASH_REF = re.compile(r"\(#(\d+)\)")  # `Revert "X (#12)"`: the quoted PR's own number
_LEAD_NUMBER = re.compile(r"(?i)^(?:pr\s*)?#?(\d{2,})\b")  # `Revert 11294 v2`, `Reland #17206`
# ghstack and Phabricator bodies repeat the reverted title with its number.
_BODY_QUOTED_NUMBER = re.compile(r'(?im)^\W*revert "[^\n]*\(#(\d+)\)"')
_ANY_QUOTED = re.compile(r'"(.+)"')
# The innermost quoted title, without a closing `…` or `(#N)`: `Revert "Revert "X (#1)""`.
_QUOTED_TAIL = re.compile(r'"(.+?)(?:"|…|\.\.\.)?\s*(?:\(#\d+\))?\s*"?\s*$')


@dataclass(frozen=True, slots=True)
class Pairing:
    """PR `position` reverts or relands `targets` (positions, possibly none).

    `how` names the evidence: revert | sha | number | phab | title | unmatched, where
    `revert` means `Revert "Revert …"` matched the first revert by its title.
    `original` is the number of the change finally undone or landed again: the latest
    target's, X's for `Revert "Revert "X""`, or, without a target, a PR it names that
    the sequence lacks (information for the reader, not evidence).
    """

    position: int
    relands: bool
    targets: tuple[int, ...]
    how: str
    nested: bool = False  # `Revert "Revert …"`: undoes a revert, i.e. relands
    original: int | None = None


def kind_of(title: str) -> str | None:
    """`revert`, `reland` or None, as `pair_all` reads `title` (a revert of a revert is
    a reland): for callers that count reverts without pairing them."""
    rest = revert_rest(title)
    if rest is not None:
        return "reland" if revert_rest(unquote(rest)) is not None else "revert"
    return "reland" if reland_rest(title) is not None else None


def quoted_title(title: str) -> str:
    """`Revert "Revert "X (#1)""` → `X`: the innermost quoted title ('' without quotes)."""
    inner = title
    for _ in range(2):
        match = _QUOTED_TAIL.search(inner)
        if not match:
            break
        inner = match.group(1).strip().strip('"').strip()
    return inner if inner != title else ""


def abbreviated_reverts(prs: Sequence[PullRequest]) -> list[tuple[str, datetime]]:
    """The abbreviated shas `prs` say they revert (`This reverts commit 1a9a59b`), with
    when each landed: the shas to check against the whole history, for `pair_all`'s
    `ambiguous`."""
    return [
        (sha.lower(), pr.merged_at)
        for pr in prs
        if pr.merged_at is not None
        for sha in _REVERTS_COMMIT.findall(pr.body)
        if len(sha) < 40
    ]


def _by_sha(item: tuple[int, PullRequest]) -> str:
    return item[1].sha or ""


class LandingIndex:
    """The sequence's PRs by sha, number, title and Phabricator id (positions). The maps
    are built on first use: most windows hold one revert or none."""

    def __init__(self, prs: Sequence[PullRequest], ambiguous: Collection[str] = ()) -> None:
        self.prs = prs
        self.ambiguous = ambiguous
        self.by_number: dict[int, list[int]] = {}
        for i, pr in enumerate(prs):
            if pr.number is not None:
                self.by_number.setdefault(pr.number, []).append(i)

    @cached_property
    def shas(self) -> dict[str, int]:
        return {pr.sha: i for i, pr in sorted(enumerate(self.prs), key=_by_sha) if pr.sha}

    @cached_property
    def by_title(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, pr in enumerate(self.prs):
            found.setdefault(comparable(pr.title), []).append(i)
        return found

    @cached_property
    def by_phab(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for i, pr in enumerate(self.prs):
            for value in pr.trailer("Differential Revision"):
                for phab in PHAB_ID.findall(value):
                    found.setdefault(phab, i)
        return found

    def sha(self, prefix: str, before: int) -> int | None:
        """The one PR before `before` whose sha starts with `prefix` (ambiguous here or
        in the history: none)."""
        prefix = prefix.lower()
        if prefix in self.ambiguous:
            return None
        hits = [i for sha, i in self.shas.items() if sha.startswith(prefix) and i < before]
        return hits[-1] if len(hits) == 1 else None

    def number(self, number: int, before: int) -> int | None:
        hits = [i for i in self.by_number.get(number, []) if i < before]
        return hits[-1] if hits else None

    def phab(self, phab: str, before: int) -> int | None:
        hit = self.by_phab.get(phab)
        return hit if hit is not None and hit < before else None

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


class _Reader:
    def __init__(self, prs: Sequence[PullRequest], ambiguous: Collection[str] = ()) -> None:
        self.prs = prs
        self.index = LandingIndex(prs, ambiguous)

    def named(self, pr: PullRequest, rest: str, *, relands: bool) -> list[int]:
        """The PRs `pr` names (not itself): body links first, then its title."""
        if relands:
            named = [int(n) for n in _RELANDS_PR.findall(pr.body)]
        else:
            named = [int(n) for n in _REVERTS_REF.findall(pr.body) + _REVERTED_PR.findall(pr.body)]
        refs = _references(rest)
        named += refs.quoted + refs.outright
        lead = _lead_number(pr.title)
        named += [] if lead is None else [lead]
        if not relands:
            named += [int(n) for n in _BODY_QUOTED_NUMBER.findall(pr.body)]
        return [n for n in dict.fromkeys(named) if n != pr.number]

    def titles(self, rest: str, relands: bool) -> list[str]:
        """The titles a revert or reland quotes, to match with the titles landed before."""
        if not relands:
            return [unquote(rest)] if rest.startswith('"') else []
        found = [unquote(re.sub(r"^#\d+\s*:\s*", "", rest))]
        quoted_anywhere = _ANY_QUOTED.search(rest)  # `Reland "X" v2`, `Reapply D123: "X"`
        if quoted_anywhere:
            found.append(TRAILING_PR_REF.sub("", quoted_anywhere.group(1)))
        return found

    def by_title(self, texts: list[str], i: int) -> int | None:
        hits = (self.index.title(text, i) for text in texts)
        return next((hit for hit in hits if hit is not None), None)

    def revert(self, i: int, rest: str) -> Pairing:
        inner = unquote(rest)
        if revert_rest(inner) is not None:  # `Revert "Revert "X""`
            hit = self.index.title(inner, i)  # its target is the first revert
            targets, how, _ = ((hit,), "revert", []) if hit is not None else self.targets(i, rest)
            lands = self.reland(i, rest, unquote(revert_rest(inner) or "")).original  # X
            if lands is None and hit is not None:  # X is what the first revert took out
                lands = self.landed_again(hit, [])[1]
            return Pairing(i, False, targets, how, True, lands)
        targets, how, named = self.targets(i, rest)
        return Pairing(i, False, targets, how, original=self.original(targets, named))

    def original(self, targets: Sequence[int], named: list[int]) -> int | None:
        """The latest target's number; else (no target, or a direct push) the PR named."""
        number = self.prs[targets[-1]].number if targets else None
        return next(iter(named), None) if number is None else number

    def targets(self, i: int, rest: str) -> tuple[tuple[int, ...], str, list[int]]:
        """The PRs a revert undoes, the evidence that found them, and the PRs it names."""
        pr, index = self.prs[i], self.index
        named = self.named(pr, rest, relands=False)
        found = [index.sha(sha, i) for sha in _REVERTS_COMMIT.findall(pr.body)]
        how = "sha" if any(hit is not None for hit in found) else "number"
        found += [index.number(number, i) for number in named]
        targets = tuple(sorted({hit for hit in found if hit is not None}))
        if targets:
            return targets, how, named
        phab = {index.phab(value, i) for value in _references(rest).phabs} - {None}
        if phab:
            return tuple(sorted(hit for hit in phab if hit is not None)), "phab", named
        hit = self.by_title(self.titles(rest, relands=False), i)
        return ((hit,), "title", named) if hit is not None else ((), "unmatched", named)

    def reland(self, i: int, rest: str, quoted: str | None = None) -> Pairing:
        """The PR a reland lands again; `quoted`: X, for `Revert "Revert "X""`."""
        named = self.named(self.prs[i], rest, relands=True)
        found = [(self.index.number(number, i), "number") for number in named]
        refs = _references(rest)
        found += [(self.index.phab(phab, i), "phab") for phab in refs.phabs]
        texts = self.titles(rest, relands=True) if quoted is None else [quoted]
        found.append((self.by_title(texts, i), "title"))
        hit, how = next(((hit, how) for hit, how in found if hit is not None), (None, "unmatched"))
        if hit is None:  # `Reapply "X (#N)"`: #N may be the revert it undoes, so unsaid
            outright = [n for n in named if n not in refs.quoted]
            return Pairing(i, True, (), how, original=self.original((), outright))
        targets, original = self.landed_again(hit, named)
        return Pairing(i, True, targets, how, original=original)

    def landed_again(self, hit: int, named: list[int]) -> tuple[tuple[int, ...], int | None]:
        """What a reland naming PR `hit` lands again, and its number: `hit`, or what `hit`
        took out when it is a revert (`Reapply "X (#14307)"`: git names the revert)."""
        rest = revert_rest(self.prs[hit].title)
        undone = None if rest is None else self.revert(hit, rest)
        if undone is None or undone.nested:
            return (hit,), self.original((hit,), named)
        return undone.targets[-1:], undone.original


class _Refs(NamedTuple):
    quoted: list[int]  # the `(#N)` of a quoted title
    outright: list[int]  # `#N` outside quotes
    phabs: list[str]  # `D123` outside quotes


def _references(rest: str) -> _Refs:
    """The PR numbers and Phabricator ids a wrapper's text names as what it undoes or
    redoes: in the quoted title, its `(#N)`; outside the quotes, `#N` and `D123` unless a
    word such as `from` or `by` ties them to something else."""
    first, last = rest.find('"'), rest.rfind('"')
    if first < 0:
        inside, outside = "", rest
    else:  # a quote cut short by `…` runs to the end
        last = len(rest) if last == first else last + 1
        inside, outside = rest[first:last], rest[:first] + " " + rest[last:]
    refs = _Refs([int(n) for n in _SQUASH_REF.findall(inside)], [], [])
    for ref in _REF.finditer(outside):
        if (ref["word"] or "").lower() in _NOT_THE_TARGET:
            continue
        if ref["number"]:
            refs.outright.append(int(ref["number"]))
        else:
            refs.phabs.append(ref["phab"])
    return refs


def _lead_number(title: str) -> int | None:
    """`Revert 11294 v2`, `Reland #17206`: the PR named right after a plain wrapper."""
    wrapper = read_wrapper(title)
    if wrapper is None or not wrapper.plain:
        return None
    match = _LEAD_NUMBER.match(wrapper.rest)
    return int(match.group(1)) if match else None


def pair_all(
    prs: Sequence[PullRequest], *, start: int = 0, ambiguous: Collection[str] = ()
) -> Iterator[Pairing]:
    """Every revert and reland of `prs[start:]` (`prs` in landing order) paired with its
    targets among the PRs landed before it (`prs[:start]` included). `ambiguous`:
    abbreviated shas (lower case) that name two or more commits landed before the
    revert naming them, some perhaps outside `prs`: no evidence."""
    reader = _Reader(prs, ambiguous)
    for i in range(start, len(prs)):
        title = prs[i].title
        rest = revert_rest(title)
        if rest is not None:
            yield reader.revert(i, rest)
            continue
        rest = reland_rest(title)
        if rest is not None:
            yield reader.reland(i, rest)
