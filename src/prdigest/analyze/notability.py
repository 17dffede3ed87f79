"""Notability: why each PR of the window matters, with its reasons, and the window's news.

A PR's score adds up its substance (`substance.read_substance`), and its reasons say which,
in words:
- `breaking`, `deprecation`, `default`: what it announces to users (`announcements`);
- `new_component`: it created a directory first seen this window (`components`);
- `capability`: it adds something users can use (a new-feature kind, an adding verb on
  library code, a description saying what it enables);
- `measured`: a result it states (the claims the analysis quotes);
- `surface`: it changes a package's exports;
- `size` and `reach`: many lines of library code, many top-level directories;
- `internal`: its lines land in tests, CI, docs, benchmarks or build scripts;
- `chore`: lint, typing, formatting, pins;
- `revert`: it reverts a change, or a revert of this window took it back.
Size is measured on library code only, so a 55-file backend outweighs a one-file fix and
a regenerated table or a benchmark script outweighs nothing. Themes pick their
representative PRs by the score, Key Takeaways leads with the strongest PRs, and the
release notes rank their highlight candidates by the same measure (`pr_score`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import kinds
from ..models import PullRequest
from ..reading.api_changes import ApiChanges
from .announcements import BREAKING, DEFAULT, DEPRECATION, Announcement, WindowNames, announce
from .claims import find_claims
from .components import Component
from .context_types import (
    Announced,
    NewComponent,
    News,
    NotabilityFacts,
    Reason,
    SubstanceFacts,
)
from .english import sentence_case
from .items import Item
from .stated_action import what_it_does
from .substance import Substance, read_substance

WEIGHTS = {
    BREAKING: 4.0,
    DEPRECATION: 3.0,
    DEFAULT: 1.5,
    "new_component": 2.5,
    "measured": 2.5,
    "capability": 1.5,
    "surface": 1.0,
    "internal": -2.5,
    "chore": -4.0,
    "reach": 0.6,  # each top-level directory of library code past the first
}
_KIND_WEIGHT = {
    kinds.BC_BREAKING: 1.0,
    kinds.NEW_FEATURES: 1.0,
    kinds.PERFORMANCE: 1.0,
    kinds.IMPROVEMENTS: 0.4,
    kinds.BUG_FIXES: 0.3,
    kinds.DEPRECATION: 0.5,
    kinds.DOCS: -0.6,
    kinds.DEVS: -0.4,
    kinds.NOT_USER_FACING: -0.6,
}
BIG_LINES, BIG_FILES, MAX_REACH = 1000, 40, 4
LEAD_SIZE = 3
EFFORT_CITED = 3  # PRs of one effort a lead cites
NOTABLE_SIZE = 10


@dataclass
class Notability:
    score: float
    reasons: list[dict[str, str]] = field(default_factory=list)
    announcement: Announcement | None = None
    substance: Substance | None = None
    changes: ApiChanges | None = None  # the public names its diff adds, removes, renames

    @property
    def leads(self) -> bool:
        """Whether the PR may lead the digest: user-facing (or announcing a break or a
        deprecation) and no chore."""
        sub = self.substance
        said = self.announcement is not None and self.announcement.kind != DEFAULT
        return sub is None or ((sub.user_facing or said) and not sub.chore)

    def facts(self) -> NotabilityFacts:
        """What the digest context says of it."""
        sub = self.substance
        return NotabilityFacts(
            score=self.score,
            reasons=tuple(Reason(r["kind"], r["text"]) for r in self.reasons),
            substance=None
            if sub is None
            else SubstanceFacts(
                library_lines=sub.library_lines,
                library_files=sub.library_files,
                user_facing=sub.user_facing,
                chore=sub.chore,
                capability=sub.capability,
                surface=sub.surface,
                enables=sub.enables,
            ),
        )


def pr_score(
    pr: PullRequest,
    kind: str,
    claims: Sequence[str],
    announcement: Announcement | None,
    substance: Substance | None = None,
) -> float:
    """The evidence that a PR matters, without the window's facts (new components,
    reverts): what the release notes and the site weigh too."""
    sub = substance or read_substance(pr, kind)
    # a chore's size is no substance: a 30-file lint pass weighs nothing
    score = 0.0 if sub.chore else sub.size + math.log1p(sub.other_lines) * 0.15
    score += WEIGHTS["measured"] if claims else 0.0
    score += WEIGHTS[announcement.kind] if announcement else 0.0
    score += _KIND_WEIGHT.get(kind, 0.0)
    score += WEIGHTS["capability"] if sub.capability else 0.0
    # what a PR says it breaks or deprecates reaches users, wherever its lines land
    facing = sub.user_facing or (announcement is not None and announcement.kind != DEFAULT)
    score += WEIGHTS["surface"] if sub.surface and facing else 0.0
    score += WEIGHTS["internal"] if not facing else 0.0
    score += WEIGHTS["chore"] if sub.chore else 0.0
    # reach: library code in several top-level directories (a backend and the model it runs)
    score += WEIGHTS["reach"] * (min(len(sub.roots), MAX_REACH) - 1) if len(sub.roots) > 1 else 0.0
    return score


def standalone_score(pr: PullRequest, kind: str) -> tuple[float, Announcement | None]:
    """A PR's notability outside a digest (the release notes): its announcement, stated
    results, substance and kind; no window facts."""
    said = announce(pr, kind) if pr.number is not None else None
    return pr_score(pr, kind, find_claims(pr.title, pr.body), said), said


def assess(
    items: Sequence[Item], components: Sequence[Component], window: WindowNames | None = None
) -> dict[int, Notability]:
    """Each item's notability, by `id(item)`. `window`: the public names the items' PRs
    add, when the caller read them already (else read here)."""
    created: dict[int, Component] = {}
    for component in components:
        created.setdefault(id(component.lead), component)
    out: dict[int, Notability] = {}
    window = window if window is not None else WindowNames([it.pr for it in items])
    for it in items:
        by_label = it.cls.kind_rule.endswith("/label")
        said = announce(it.pr, it.cls.kind, by_label, window) if it.number is not None else None
        sub = read_substance(it.pr, it.cls.kind)
        score = pr_score(it.pr, it.cls.kind, it.claims, said, sub)
        score += 0.6 if it.symbols and sub.user_facing else 0.0
        reasons: list[dict[str, str]] = []
        if said is not None:
            reasons.append({"kind": said.kind, "text": said.why})
        if sub.capability:
            text = f"says it {sub.enables}" if sub.enables else "adds to what users can use"
            reasons.append({"kind": "capability", "text": text})
        made = created.get(id(it))
        if made is not None and not _MOVED.match(it.clean.text):
            score += WEIGHTS["new_component"] + math.log1p(made.files) * 0.3
            reasons.append(
                {
                    "kind": "new_component",
                    "text": f"creates {made.path}/ ({made.files} files)",
                }
            )
        if it.claims:
            reasons.append({"kind": "measured", "text": f"states “{it.claims[0]}”"})
        facing = sub.user_facing or (said is not None and said.kind != DEFAULT)
        if sub.surface and facing:
            reasons.append({"kind": "surface", "text": f"changes the exports of {sub.surface}"})
        if sub.library_lines >= BIG_LINES or sub.library_files >= BIG_FILES:
            text = f"{sub.library_lines:,} lines of library code in {sub.library_files} files"
            reasons.append({"kind": "size", "text": text})
        if not facing:
            reasons.append({"kind": "internal", "text": "tests, CI, docs, benchmarks or build"})
        if sub.chore:
            reasons.append({"kind": "chore", "text": "lint, typing, formatting or pins"})
        if len(sub.roots) > 1:
            reasons.append({"kind": "reach", "text": f"touches {', '.join(sub.roots)}"})
        if it.is_revert or it.reverted:
            score -= 4.0
            text = "reverts an earlier change" if it.is_revert else "reverted this week"
            if it.is_revert and it.revert_of is not None:
                text = f"reverts #{it.revert_of}"
            reasons.append({"kind": "revert", "text": text})
        changes = window.changes(it.pr) if it.number is not None else None
        out[id(it)] = Notability(round(score, 6), reasons, said, sub, changes)
    return out


# a directory made by moving code is no new component to weigh: `Split X`, `Move Y`
_MOVED = re.compile(
    r"(?i)^(?:move|moves|moved|split|splits|rename|renames|refactor\w*|reorganiz\w*|migrat\w*)\b"
)


def ranked(items: Sequence[Item], notes: dict[int, Notability], series: set[int]) -> list[int]:
    """The window's notable PRs, strongest first (a series member counts its series);
    reverts and reverted PRs never make the list."""
    order = sorted(
        (it for it in items if it.number is not None and not (it.is_revert or it.reverted)),
        key=lambda it: (-(notes[id(it)].score + (1.0 if it.number in series else 0.0)), it.number),
    )
    out: list[int] = []
    for it in order:
        if it.number is not None and it.number not in out:
            out.append(it.number)
        if len(out) >= NOTABLE_SIZE:
            break
    return out


def news(
    items: Sequence[Item], notes: dict[int, Notability], components: Sequence[Component]
) -> News:
    """What the digest leads with: breaking changes and deprecations (every one), new
    components, and `lead`, the PRs to open Key Takeaways with, most notable first."""
    prs = {it.number: it for it in items if it.number is not None}
    told: list[Item] = []
    for it in prs.values():
        said = notes[id(it)].announcement
        if said is not None:
            told.append(it)
    order = {BREAKING: 0, DEPRECATION: 1, DEFAULT: 2}

    def announced(it: Item) -> Announcement:
        said = notes[id(it)].announcement
        assert said is not None
        return said

    told.sort(key=lambda it: (order[announced(it).kind], -notes[id(it)].score, it.number or 0))
    breaking = tuple(
        Announced(
            pr=it.number or 0,
            kind=announced(it).kind,
            why=announced(it).why,
            sentence=announced(it).sentence,
            subject=announced(it).subject,
            hint=announced(it).hint,
            removed=tuple(announced(it).removed),
            renamed=tuple((old, new) for old, new in announced(it).renamed),
            area=it.cls.area,
            reverted=it.reverted,
        )
        for it in told
    )
    new = tuple(
        NewComponent(
            path=c.path,
            files=c.files,
            prs=tuple(c.prs),
            lead=c.lead.number,  # None: a direct push made it
            push="" if c.lead.number is not None else (c.lead.pr.sha or "")[:7],
            members=tuple(c.members),
            area=c.lead.cls.area,
            sentence=f"{sentence_case(what_it_does(c.lead.pr, c.lead.clean.text))}.",
        )
        for c in components
    )
    lead = _lead(prs, notes)
    return News(
        breaking=breaking,
        new_components=new,
        lead=tuple(lead),
        # the other PRs of each lead's effort, cited beside it
        lead_with={n: tuple(others) for n, others in lead.items() if others},
    )


def _lead(prs: dict[int, Item], notes: dict[int, Notability]) -> dict[int, list[int]]:
    """The PRs Key Takeaways names, most notable first, at most LEAD_SIZE, each with the
    other PRs of its effort (a stack, a tagged run by one author: told once, all cited).
    By substance: a break, a new component, a new capability, a stated result and the
    size of the library change all count in the score; never a revert, a reverted PR, a
    chore or a PR whose lines land only in tests, CI, docs, benchmarks or build scripts."""
    live = [
        it
        for it in prs.values()
        if not (it.is_revert or it.reverted) and notes[id(it)].leads and it.number is not None
    ]
    live.sort(key=lambda it: (-notes[id(it)].score, it.number or 0))
    out: dict[int, list[int]] = {}
    effort_of: dict[tuple[str, ...], int] = {}
    for it in live:
        number = it.number
        assert number is not None
        head = next((effort_of[e] for e in _efforts(it) if e in effort_of), None)
        if head is not None:
            if len(out[head]) < EFFORT_CITED - 1:
                out[head].append(number)
            continue
        if len(out) >= LEAD_SIZE:
            continue
        out[number] = []
        for effort in _efforts(it):
            effort_of[effort] = number
    return out


_GHSTACK_USER = re.compile(r"\bgh/([\w.-]+)/\d+/(?:head|base|orig)\b")


def _efforts(it: Item) -> list[tuple[str, ...]]:
    """The efforts a PR is part of: the stack its body lists, and its title's first
    bracketed tag (`[slimtensor]`, not a `Backend:` prefix, which names a component many
    efforts share) with its author (the ghstack branch's owner when a merge bot landed
    it)."""
    out: list[tuple[str, ...]] = [("stack", *map(str, it.stack))] if it.stack else []
    if it.tags and f"[{it.tags[0]}]" in it.pr.title.lower():
        user = _GHSTACK_USER.search(it.pr.body or "")
        who = user.group(1).lower() if user else (it.pr.author_email or it.pr.author or "")
        out.append(("tag", it.tags[0], who))
    return out
