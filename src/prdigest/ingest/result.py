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
