"""What a write did: how many rows it inserted, updated, or found unchanged."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class UpsertCounts:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0

    def add(self, other: UpsertCounts) -> None:
        self.inserted += other.inserted
        self.updated += other.updated
        self.unchanged += other.unchanged

    def bump(self, outcome: str, by: int = 1) -> None:
        setattr(self, outcome, getattr(self, outcome) + by)
