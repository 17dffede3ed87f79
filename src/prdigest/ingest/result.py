"""What a sync did: records read, rows new / updated / unchanged."""

from __future__ import annotations

from dataclasses import dataclass

from ..store import UpsertCounts


@dataclass
class SyncResult:
    repo: str
    source: str
    counts: UpsertCounts
    read: int
    direct_pushes: int = 0

    def summary(self) -> str:
        c = self.counts
        return (
            f"synced {self.repo} from {self.source}: {self.read} read, {c.inserted} new, "
            f"{c.updated} updated, {c.unchanged} unchanged"
        )


def kept_note(repo: str, prs: int, pushes: int = 0) -> str:
    """What a sync that stopped early (a bad record, Ctrl-C) had stored: `500 PRs of o/n
    read before it are stored`."""
    if not (prs or pushes):
        return f"nothing of this sync of {repo} was stored"
    kept = _count(prs, "PR", "PRs")
    if pushes:
        kept += f" and {_count(pushes, 'direct push', 'direct pushes')}"
    return f"{kept} of {repo} read before it {'is' if prs + pushes == 1 else 'are'} stored"


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"
