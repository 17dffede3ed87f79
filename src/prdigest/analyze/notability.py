"""Notability: why each PR of the window matters, with its reasons, and the window's news.

A PR's score adds up its substance (`substance.read_substance`), and its reasons say which,
in words:
- `breaking`, `deprecation`, `default`: what it announces to users (`announcements`);
- `new_component`: it created a directory first seen this window (`components`);
- `capability`: it adds something users can use (a new-feature kind, an adding verb on
  library code, a description saying what it enables);
- `measured`: a result it states (the claims the analysis quotes);
- `harm`, `failure`: what it spared users, in its words (a security hole or silently wrong
  results; a crash, a hang or a leak);
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
from ..reading.severity import Severity, severity
from .announcements import BREAKING, DEFAULT, DEPRECATION, Announcement, WindowNames, announce
from .claims import find_claims
from .components import Component
from .context_types import NotabilityFacts, Reason, SubstanceFacts
from .items import Item
from .substance import Substance, read_substance

WEIGHTS = {
    BREAKING: 4.0,
    DEPRECATION: 3.0,
    DEFAULT: 1.5,
    "new_component": 2.5,
    "measured": 2.5,
    "harm": 2.5,  # a security hole, silently wrong results, lost data (`reading.severity`)
    "failure": 1.0,  # a crash, a hang, a leak
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
    hurt = severity(pr.title, pr.body) if facing and not sub.chore else Severity.NONE
    score += {Severity.HARM: WEIGHTS["harm"], Severity.FAILURE: WEIGHTS["failure"]}.get(hurt, 0.0)
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
