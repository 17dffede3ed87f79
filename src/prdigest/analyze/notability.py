"""Notability: why each PR of the window matters, with its reasons, and the window's news.

A PR's score adds up its evidence; its reasons say which evidence, in words:
- `breaking`, `deprecation`, `default`: what it announces to users (`announcements`);
- `new_component`: it created a directory first seen this window (`components`);
- `measured`: a result it states (the claims the analysis quotes);
- `size` and `reach`: many lines or files, many top-level directories;
- `revert`: it reverts a change, or a revert of this window took it back.
The score also weighs the kind (features and fixes over docs and chores), code symbols
in the title and low-value wording (lint, typos, pins); themes pick their representative
PRs by it, Key Takeaways leads with the strongest news, and the release notes rank their
highlight candidates by the same measure (`pr_score`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..models import PullRequest
from .announcements import BREAKING, DEFAULT, DEPRECATION, Announcement, WindowNames, announce
from .claims import find_claims
from .components import Component, is_component_dir
from .english import as_clause, sentence_case
from .items import Item

WEIGHTS = {BREAKING: 4.0, DEPRECATION: 3.0, DEFAULT: 1.5, "new_component": 2.5, "measured": 2.5}
_KIND_WEIGHT = {
    "bc_breaking": 1.0,
    "new_features": 1.0,
    "performance": 1.0,
    "improvements": 0.4,
    "bug_fixes": 0.3,
    "deprecation": 0.5,
    "docs": -0.6,
    "devs": -0.4,
    "not_user_facing": -0.6,
}
_LOW_VALUE = re.compile(
    r"(?i)\b(lint|format(?:ting)?|typo|bump|pin|nit|docformatter|pyre|flake8|clang-format|comment)\b"
)
BIG_LINES, BIG_FILES, WIDE_REACH = 1000, 40, 4
LEAD_SIZE = 5
NOTABLE_SIZE = 10


@dataclass
class Notability:
    score: float
    reasons: list[dict[str, str]] = field(default_factory=list)
    announcement: Announcement | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"score": self.score, "reasons": self.reasons}


def pr_score(
    pr: PullRequest, kind: str, claims: Sequence[str], announcement: Announcement | None
) -> float:
    """The evidence that a PR matters, without the window's facts (new components,
    reverts): what the release notes can weigh too."""
    lines = pr.additions + pr.deletions
    score = math.log1p(lines) * 0.6 + math.log1p(len(pr.files)) * 0.4
    score += WEIGHTS["measured"] if claims else 0.0
    score += WEIGHTS[announcement.kind] if announcement else 0.0
    score += _KIND_WEIGHT.get(kind, 0.0)
    if _LOW_VALUE.search(pr.title):
        score -= 1.5
    return score


def standalone_score(pr: PullRequest, kind: str) -> tuple[float, Announcement | None]:
    """A PR's notability outside a digest (the release notes): its announcement, stated
    results, size and kind; no window facts."""
    said = announce(pr, kind) if pr.number is not None else None
    return pr_score(pr, kind, find_claims(pr.title, pr.body), said), said


def assess(items: Sequence[Item], components: Sequence[Component]) -> dict[int, Notability]:
    """Each item's notability, by `id(item)`."""
    created: dict[int, Component] = {}
    for component in components:
        created.setdefault(id(component.lead), component)
    out: dict[int, Notability] = {}
    window = WindowNames([it.pr for it in items])
    for it in items:
        by_label = it.cls.kind_rule.endswith("/label")
        said = announce(it.pr, it.cls.kind, by_label, window) if it.number is not None else None
        score = pr_score(it.pr, it.cls.kind, it.claims, said)
        score += 0.6 if it.symbols else 0.0
        reasons: list[dict[str, str]] = []
        if said is not None:
            reasons.append({"kind": said.kind, "text": said.why})
        made = created.get(id(it))
        if made is not None:
            score += WEIGHTS["new_component"] + math.log1p(made.files) * 0.3
            reasons.append(
                {
                    "kind": "new_component",
                    "text": f"creates {made.path}/ ({made.files} files)",
                }
            )
        if it.claims:
            reasons.append({"kind": "measured", "text": f"states “{it.claims[0]}”"})
        if it.lines >= BIG_LINES or len(it.pr.files) >= BIG_FILES:
            reasons.append(
                {"kind": "size", "text": f"{it.lines:,} lines in {len(it.pr.files)} files"}
            )
        roots = _roots(it.pr)
        if len(roots) >= WIDE_REACH:
            score += 0.2 * (len(roots) - WIDE_REACH + 1)
            reasons.append({"kind": "reach", "text": f"touches {', '.join(roots)}"})
        if it.is_revert or it.reverted:
            score -= 4.0
            text = "reverts an earlier change" if it.is_revert else "reverted this week"
            if it.is_revert and it.revert_of is not None:
                text = f"reverts #{it.revert_of}"
            reasons.append({"kind": "revert", "text": text})
        out[id(it)] = Notability(round(score, 6), reasons, said)
    return out


def _roots(pr: PullRequest) -> list[str]:
    """The top-level directories a PR's code lives in (tests, docs and CI aside)."""
    roots = {
        f.path.split("/", 1)[0]
        for f in pr.files
        if "/" in f.path and is_component_dir(f.path.rsplit("/", 1)[0])
    }
    return sorted(roots)


_CHORE = re.compile(r"(?i)\b(?:copyright|license|headers?|spdx)\b")


def _leads(maker: Item) -> bool:
    """Whether the PR that made a new component may open the digest: not a revert, and
    not a chore whose first touches only look like new files (`Add copyright headers`
    on files older than the stored history)."""
    title = maker.clean.text
    return not (maker.reverted or _LOW_VALUE.search(title) or _CHORE.search(title))


_MOVED = re.compile(
    r"(?i)^(?:move|moves|moved|split|splits|rename|renames|refactor\w*|reorganiz\w*|migrat\w*)\b"
)


def _reshuffle(component: dict[str, Any]) -> tuple[bool, int]:
    """Components made by moving code come after those made by adding it."""
    return bool(_MOVED.match(component["sentence"])), -component["files"]


def _kind(note: Notability) -> str:
    return note.announcement.kind if note.announcement else ""


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
    items: Sequence[Item],
    notes: dict[int, Notability],
    components: Sequence[Component],
    figured: set[int],
) -> dict[str, Any]:
    """What the digest leads with: breaking changes and deprecations (every one), new
    components, and `lead`, the PRs to open Key Takeaways with, most notable first (a
    stated result only from `figured`, the PRs whose figure a theme quotes)."""
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
    breaking = [
        {
            "pr": it.number,
            "kind": announced(it).kind,
            "why": announced(it).why,
            "sentence": announced(it).sentence,
            "subject": announced(it).subject,
            "hint": announced(it).hint,
            "removed": list(announced(it).removed),
            "renamed": [list(pair) for pair in announced(it).renamed],
            "area": it.cls.area,
            "reverted": it.reverted,
        }
        for it in told
    ]
    new = [
        {
            "path": c.path,
            "files": c.files,
            "prs": c.prs,
            "lead": c.lead.number,  # None: a direct push made it
            "push": "" if c.lead.number is not None else (c.lead.pr.sha or "")[:7],
            "members": c.members,
            "area": c.lead.cls.area,
            "sentence": f"{sentence_case(as_clause(c.lead.clean.text))}.",
        }
        for c in components
    ]
    lead = _lead(prs, notes, told, new, figured)
    return {"breaking": breaking, "new_components": new, "lead": lead}


def _lead(
    prs: dict[int, Item],
    notes: dict[int, Notability],
    told: list[Item],
    new: list[dict[str, Any]],
    figured: set[int],
) -> list[int]:
    """The best of each kind of news in turn (a break or deprecation, a new component, a
    stated result), then the rest of each: most notable first, at most LEAD_SIZE."""
    live = [it for it in prs.values() if not (it.is_revert or it.reverted)]

    def by_score(group: list[Item]) -> list[int]:
        ordered = sorted(group, key=lambda it: (-notes[id(it)].score, it.number or 0))
        return [it.number for it in ordered if it.number is not None]

    breaks = [it for it in told if it in live and _kind(notes[id(it)]) != DEFAULT]
    queues = [
        by_score(breaks),
        [
            c["lead"]
            for c in sorted(new, key=_reshuffle)
            if c["lead"] in prs and _leads(prs[c["lead"]])
        ],
        by_score([it for it in live if it.claims and it.number in figured]),
    ]
    out: list[int] = []
    while any(queues) and len(out) < LEAD_SIZE:
        for queue in queues:
            while queue and queue[0] in out:
                queue.pop(0)
            if queue and len(out) < LEAD_SIZE:
                out.append(queue.pop(0))
    return out
