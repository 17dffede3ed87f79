"""Reverts and relands: which PRs are, and which earlier PR each one undoes or redoes.

One reading for classification, the digest and the release notes. Detection is the
wrapper (`reading.wrappers`): `Revert "X"`, `Back out "X"`, `Reland X`, `[Reland] X`,
`Reapply "X"`; `Revert "Revert "X""` undoes the first revert, so it lands X again.

Evidence for the target, strongest first (`Pairing.how` names the kind that matched):

1. `revert`: for `Revert "Revert "X""`, the first revert, by its title;
2. `sha`: the body's `This reverts commit <sha>`; `number`: a PR the revert names, in
   its body (`Reverted https://github.com/o/r/pull/N`, `Reverts o/r#N`, `Reland of
   https://…/pull/N`) or its title (`Revert "X (#12)"`, `Reapply #9841: X`, `Revert
   11294`), or a ghstack body's `Revert "X (#N)"`;
3. `phab`: a Phabricator `D123`, matched with the `Differential Revision` trailer;
4. `title`: the quoted title, matched with the titles landed before (a title cut short
   by `…` matches by its beginning).

Targets are looked up among the PRs landed before, in the sequence given: a release
range, or a digest window after the window before it. `Evidence` says what a reader
accepts; the digest's few differences are kept there so its output stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..models import PullRequest
from .patterns import PHAB_ID, PR_REF, TRAILING_PR_REF, comparable
from .wrappers import read_wrapper, reland_rest, revert_rest, unquote

_REVERTS_COMMIT = re.compile(r"(?i)this reverts commit ([0-9a-f]{7,40})")
_REVERTED_PR = re.compile(r"(?i)reverted\s+https://github\.com/[^/\s]+/[^/\s]+/pull/(\d+)")
_REVERTS_REF = re.compile(r"(?i)\breverts?\s+[\w.-]+/[\w.-]+#(\d+)")  # GitHub's revert button
_RELANDS_PR = re.compile(
    r"(?i)\bre-?land(?:s|ing)?\s+(?:of\s+)?(?:https://github\.com/[\w.-]+/[\w.-]+/pull/|#|pr\s*#?)(\d+)"
)
_NUMBER = re.compile(r"#(\d+)\b")
_PR_IN_TITLE = re.compile(r"\(#(\d+)\)")
_LEAD_NUMBER = re.compile(r"(?i)^(?:pr\s*)?#?(\d{2,})\b")  # `Revert 11294 v2`, `Reland #17206`
# ghstack and Phabricator bodies repeat the reverted title with its number.
_BODY_QUOTED_NUMBER = re.compile(r'(?im)^\W*revert "[^\n]*\(#(\d+)\)"')
_ANY_QUOTED = re.compile(r'"(.+)"')
# The innermost quoted title, without a closing `…` or `(#N)`: `Revert "Revert "X (#1)""`.
_QUOTED_TAIL = re.compile(r'"(.+?)(?:"|…|\.\.\.)?\s*(?:\(#\d+\))?\s*"?\s*$')


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a reader takes as a revert and as evidence of its target. The defaults are
    the full reading; the digest's departures from it are pinned by its golden output."""

    prose: bool = True  # `Reverts the addition of …` is a revert (else a plain change)
    # The digest reads a title narrowly: numbers only as `(#N)` (reverts) or right after
    # the wrapper (`Revert 11294`), quotes only around the whole title, no `D123`: so
    # `Revert Android PRs #19099, …` and `Revert D68246404` stay unpaired there.
    narrow: bool = False
    # A PR the revert names but the sequence lacks is its target ("reverted #19719"),
    # before any title match.
    unseen: bool = False
    # The digest matches a quoted title with the window's first PR of that title, else the
    # previous window's, landed before the revert or not (#15530 → #15539, its reland),
    # ignoring `(#N)`; a cut-short title by any key of 20 characters or more. (Elsewhere
    # `(#N)` counts: ignoring it pairs #17831 in the 2026 Q1 release notes differently.)
    window_titles: bool = False


FULL = Evidence()  # classification
RELEASE = Evidence(prose=False)  # a prose revert is usually partial (#17407 in #17300)
DIGEST = Evidence(prose=False, narrow=True, unseen=True, window_titles=True)


@dataclass(frozen=True, slots=True)
class Pairing:
    """PR `position` reverts or relands `targets` (positions, possibly none).

    `how` names the evidence: revert | sha | number | phab | title | unmatched, where
    `revert` means `Revert "Revert …"` matched the first revert by its title.
    `original` is the number of the change finally undone or landed again: the latest
    target's, X's for `Revert "Revert "X""`, or (with `Evidence.unseen`) a named PR.
    """

    position: int
    relands: bool
    targets: tuple[int, ...]
    how: str
    nested: bool = False  # `Revert "Revert …"`: undoes a revert, i.e. relands
    original: int | None = None


def kind_of(title: str, evidence: Evidence = FULL) -> str | None:
    """`revert`, `reland` or None, as `pair_all` reads `title` with `evidence` (a revert
    of a revert is a reland): for callers that count reverts without pairing them."""
    rest = revert_rest(title, prose=evidence.prose)
    if rest is not None:
        return "reland" if revert_rest(unquote(rest), prose=False) is not None else "revert"
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


def _window_key(title: str) -> str:
    return comparable(PR_REF.sub("", title))


def _by_sha(item: tuple[int, PullRequest]) -> str:
    return item[1].sha or ""


class LandingIndex:
    """The sequence's PRs by sha, number, title and Phabricator id (positions); `start`
    is where the digest's window begins (for `Evidence.window_titles`). The maps are
    built on first use: most windows hold one revert or none."""

    def __init__(self, prs: Sequence[PullRequest], start: int = 0) -> None:
        self.prs, self.start = prs, start
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

    @cached_property
    def window_first(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for i in [*range(self.start, len(self.prs)), *range(self.start)]:
            found.setdefault(_window_key(self.prs[i].title), i)
        return found

    def sha(self, prefix: str, before: int) -> int | None:
        """The one PR before `before` whose sha starts with `prefix` (ambiguous: none)."""
        prefix = prefix.lower()
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

    def first_title(self, text: str) -> int | None:
        """`Evidence.window_titles`: the window's first PR with this title, else the
        previous window's; a key of 20 characters or more also matches by prefix."""
        key = _window_key(text)
        if not key:
            return None
        hit = self.window_first.get(key)
        if hit is None and len(key) >= 20:
            hit = next((i for k, i in self.window_first.items() if k.startswith(key)), None)
        return hit


class _Reader:
    def __init__(self, prs: Sequence[PullRequest], evidence: Evidence, start: int) -> None:
        self.prs = prs
        self.evidence = evidence
        self.index = LandingIndex(prs, start)

    def named(self, pr: PullRequest, rest: str, *, relands: bool) -> list[int]:
        """The PRs `pr` names (not itself): body links first, then its title."""
        narrow = self.evidence.narrow
        if relands:
            named = [int(n) for n in _RELANDS_PR.findall(pr.body)]
        else:
            named = [int(n) for n in _REVERTS_REF.findall(pr.body) + _REVERTED_PR.findall(pr.body)]
        if not narrow:
            named += [int(n) for n in _NUMBER.findall(rest)]
        elif not relands:
            named += [int(n) for n in reversed(_PR_IN_TITLE.findall(pr.title))]
        lead = _lead_number(pr.title)
        named += [] if lead is None else [lead]
        if not narrow and not relands:
            named += [int(n) for n in _BODY_QUOTED_NUMBER.findall(pr.body)]
        return [n for n in dict.fromkeys(named) if n != pr.number]

    def titles(self, pr: PullRequest, rest: str, relands: bool) -> list[str]:
        """The titles a revert or reland quotes, to match with the titles landed before."""
        if self.evidence.narrow:
            quoted = [quoted_title(pr.title)]
            return [*quoted, reland_rest(pr.title) or pr.title] if relands else quoted
        if not relands:
            return [unquote(rest)] if rest.startswith('"') else []
        found = [unquote(re.sub(r"^#\d+\s*:\s*", "", rest))]
        quoted_anywhere = _ANY_QUOTED.search(rest)  # `Reland "X" v2`, `Reapply D123: "X"`
        if quoted_anywhere:
            found.append(TRAILING_PR_REF.sub("", quoted_anywhere.group(1)))
        return found

    def by_title(self, texts: list[str], i: int) -> int | None:
        for text in texts:
            if self.evidence.window_titles:
                hit = self.index.first_title(text)
                hit = None if hit == i else hit
            else:
                hit = self.index.title(text, i)
            if hit is not None:
                return hit
        return None

    def revert(self, i: int, rest: str) -> Pairing:
        pr = self.prs[i]
        inner = unquote(rest)
        if revert_rest(inner, prose=False) is not None:  # `Revert "Revert "X""`
            hit = self.index.title(inner, i)  # its target is the first revert
            targets, how, _ = ((hit,), "revert", []) if hit is not None else self.targets(i, rest)
            lands = self.reland(i, rest, quoted_title(pr.title))  # and it lands X again
            return Pairing(i, False, targets, how, True, lands.original)
        targets, how, named = self.targets(i, rest)
        if targets:
            original = self.prs[targets[-1]].number
        else:
            original = named[0] if named and self.evidence.unseen else None
        return Pairing(i, False, targets, how, original=original)

    def targets(self, i: int, rest: str) -> tuple[tuple[int, ...], str, list[int]]:
        """The PRs a revert undoes, the evidence that found them, and the PRs it names."""
        pr, index, evidence = self.prs[i], self.index, self.evidence
        named = self.named(pr, rest, relands=False)
        found = [index.sha(sha, i) for sha in _REVERTS_COMMIT.findall(pr.body)]
        how = "sha" if any(hit is not None for hit in found) else "number"
        found += [index.number(number, i) for number in named]
        targets = tuple(sorted({hit for hit in found if hit is not None}))
        if targets or (named and evidence.unseen):
            return targets, how, named
        if not evidence.narrow:
            phab = {index.phab(value, i) for value in PHAB_ID.findall(rest)}
            if phab - {None}:
                return tuple(sorted(hit for hit in phab if hit is not None)), "phab", named
        hit = self.by_title(self.titles(pr, rest, relands=False), i)
        return ((hit,), "title", named) if hit is not None else ((), "unmatched", named)

    def reland(self, i: int, rest: str, quoted: str | None = None) -> Pairing:
        """The PR a reland lands again; `quoted`: X, for `Revert "Revert "X""`."""
        pr = self.prs[i]
        named = self.named(pr, rest, relands=True)
        for number in named:
            hit = self.index.number(number, i)
            if hit is not None:
                return Pairing(i, True, (hit,), "number", original=self.prs[hit].number)
        if named and self.evidence.unseen:
            return Pairing(i, True, (), "number", original=named[0])
        texts = self.titles(pr, rest, relands=True) if quoted is None else [quoted]
        hit = self.by_title(texts, i)
        if hit is None:
            return Pairing(i, True, (), "unmatched")
        return Pairing(i, True, (hit,), "title", original=self.prs[hit].number)


def _lead_number(title: str) -> int | None:
    """`Revert 11294 v2`, `Reland #17206`: the PR named right after a plain wrapper."""
    wrapper = read_wrapper(title)
    if wrapper is None or not wrapper.plain or wrapper.prose:
        return None
    match = _LEAD_NUMBER.match(wrapper.rest)
    return int(match.group(1)) if match else None


def pair_all(
    prs: Sequence[PullRequest], evidence: Evidence = FULL, *, start: int = 0
) -> Iterator[Pairing]:
    """Every revert and reland of `prs[start:]` (`prs` in landing order) paired with its
    targets among the PRs landed before it."""
    reader = _Reader(prs, evidence, start)
    for i in range(start, len(prs)):
        title = prs[i].title
        rest = revert_rest(title, prose=evidence.prose)
        if rest is not None:
            yield reader.revert(i, rest)
            continue
        rest = reland_rest(title)
        if rest is not None:
            yield reader.reland(i, rest)
