"""Which PRs of a range were reverted (and not relanded), and which are relands.

Pure: it looks only at the range's own PRs, paired by `reading.pair_all` (the one
reading of reverts, shared with the digest and classification). Events are replayed in
landing order, so "landed, reverted, relanded" ends in the notes as one bullet and
"landed, reverted" ends out of them; a revert of a revert brings its target back.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ..models import PullRequest
from ..reading import pair_all


@dataclass
class RevertOutcome:
    out: dict[str, str] = field(default_factory=dict)  # sha → why it stays out of the notes
    merge_into: dict[str, str] = field(default_factory=dict)  # reland sha → the original's sha


def label(pr: PullRequest) -> str:
    return f"#{pr.number}" if pr.number is not None else (pr.sha or "?")[:10]


def find_reverts(prs: Sequence[PullRequest], ambiguous_shas: Collection[str] = ()) -> RevertOutcome:
    """Replay reverts and relands over the range's PRs (oldest first). `ambiguous_shas`:
    see `reading.pair_all`."""
    pairings = {pairing.position: pairing for pairing in pair_all(prs, ambiguous=ambiguous_shas)}
    root = list(range(len(prs)))  # the original change each PR belongs to
    on: dict[int, bool] = {}
    members: dict[int, list[int]] = {}
    last_revert: dict[int, int] = {}
    revert_of: dict[int, list[int]] = {}
    for i in range(len(prs)):
        pairing = pairings.get(i)
        if pairing is not None and not pairing.relands:
            targets = list(pairing.targets)
            revert_of[i] = targets
            for target in targets:
                if (target in revert_of and revert_of[target]) or pairing.nested:
                    # A revert of a revert relands what the first one took out.
                    for original in revert_of.get(target) or [target]:
                        group = root[original]
                        on[group] = True
                        members.setdefault(group, []).append(i)
                        root[i] = group
                    revert_of[i] = []
                else:
                    group = root[target]
                    on[group] = False
                    last_revert[group] = i
            continue
        if pairing is not None and pairing.targets:
            group = root[pairing.targets[0]]
            root[i] = group
            on[group] = True
            members.setdefault(group, []).append(i)
        else:
            on.setdefault(i, True)
    outcome = RevertOutcome()
    for i, targets in revert_of.items():
        if not targets:
            if root[i] == i:  # a revert of something outside the range
                outcome.out[prs[i].sha or ""] = "revert of a change not in this range"
            continue
        names = ", ".join(label(prs[t]) for t in targets)
        outcome.out[prs[i].sha or ""] = f"revert of {names}"
    for group, is_on in on.items():
        if root[group] != group:
            continue
        relands = [m for m in members.get(group, []) if m not in revert_of]
        undo = [m for m in members.get(group, []) if m in revert_of and not revert_of[m]]
        if is_on:
            for member in relands + undo:
                if member in undo:
                    outcome.out[prs[member].sha or ""] = (
                        f"revert of a revert: relands {label(prs[group])}"
                    )
                else:
                    outcome.merge_into[prs[member].sha or ""] = prs[group].sha or ""
            continue
        by = label(prs[last_revert[group]]) if group in last_revert else "a later revert"
        for member in [group, *relands, *undo]:
            sha = prs[member].sha or ""
            if member in undo:
                outcome.out[sha] = f"revert of a revert, itself reverted by {by}"
            else:
                outcome.out[sha] = f"reverted by {by}, not relanded in this range"
    return outcome
