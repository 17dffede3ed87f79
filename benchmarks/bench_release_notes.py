"""Release notes of a year: ao's last twelve months (1,081 commits; issue 31's goal: a year
of 700 commits in < 3 s), then all of 2025 of executorch (~5,100 PRs), beside baselines
measured in the same run.

    python benchmarks/bench_release_notes.py

- ao's year, the CLI process end to end (`release-notes --since 2025-08-22 --until
  2026-08-21 --worksheet`) on a fresh database: the first run reads every PR and writes its
  brief's words (stored by content), the second finds them stored.

- in process: draft (classify, reverts, rows, render, store) with the worksheet written,
  and `--apply` of that worksheet; baseline: loading the same PRs from the store, which
  every way of writing these notes must pay.
- the CLI process end to end (`release-notes --since 2025-01-01 --until 2025-12-31
  --worksheet`); baseline: `prdigest --version` (start-up).
"""

from __future__ import annotations

import resource
import sqlite3
import sys
import tempfile
from pathlib import Path

from _common import AO, EXECUTORCH, best_of, need, run_timed

from prdigest import pipeline
from prdigest.config import Config
from prdigest.pipeline import SourceSpec, release_notes
from prdigest.store import Store
from prdigest.timeutil import window_between

REPO = "pytorch/executorch"
PRDIGEST = [sys.executable, "-m", "prdigest"]


def ao_year() -> None:
    """ao's last twelve months, as a user drafts them: wall and CPU seconds of the CLI."""
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-bench-ao-"))
    db = tmp / "ao.db"
    store = Store(sqlite3.connect(str(db), isolation_level=None))
    pipeline.sync(store, "pytorch/ao", SourceSpec(jsonl=need(AO)))
    store.close()
    for run in ("first run (briefs made)", "second run (briefs stored)"):
        (tmp / "ao.csv").unlink(missing_ok=True)
        before = _child_cpu()
        wall, _ = run_timed(
            [*PRDIGEST, "--db", str(db), "release-notes", "pytorch/ao", "--since", "2025-08-22",
             "--until", "2026-08-21", "--worksheet", str(tmp / "ao.csv"), "--out", str(tmp / "ao.md")]
        )  # fmt: skip
        cpu = _child_cpu() - before
        print(
            f"release-notes pytorch/ao 2025-08-22..2026-08-21 (1,081 commits), {run}:"
            f" {wall:.2f} s wall, {cpu:.2f} s CPU  target < 3 s: {'met' if wall < 3 else 'MISSED'}"
        )


def main() -> None:
    ao_year()
    data = need(EXECUTORCH)
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-bench-rn-"))
    db = tmp / "bench.db"
    store = Store(sqlite3.connect(str(db), isolation_level=None))
    pipeline.sync(store, REPO, SourceSpec(jsonl=data))
    window = window_between("2025-01-01", "2025-12-31")
    sheet = tmp / "notes.csv"

    load = best_of(3, lambda: store.merged_between(REPO, window.start, window.end))
    prs = len(store.merged_between(REPO, window.start, window.end))

    def draft() -> None:
        sheet.unlink(missing_ok=True)
        release_notes(store, REPO, Config(), window=window, worksheet=sheet)

    drafted = best_of(3, draft)
    applied = best_of(3, lambda: release_notes(store, REPO, Config(), window=window, apply=sheet))
    print(
        f"release notes of 2025, {prs} PRs, in process: draft + worksheet {drafted:.2f} s,"
        f" --apply {applied:.2f} s  [baseline: load the PRs from the store {load:.2f} s;"
        f" ratios {drafted / load:.1f}x, {applied / load:.1f}x]"
    )

    startup, _ = run_timed([*PRDIGEST, "--version"])
    sheet.unlink(missing_ok=True)
    before = _child_cpu()
    cli, peak = run_timed(
        [
            *PRDIGEST,
            "--db",
            str(db),
            "release-notes",
            REPO,
            "--since",
            "2025-01-01",
            "--until",
            "2025-12-31",
            "--worksheet",
            str(sheet),
            "--out",
            str(tmp / "notes.md"),
        ]
    )
    cpu = _child_cpu() - before
    print(
        f"release-notes for 2025 (CLI, worksheet written): {cli:.2f} s wall, {cpu:.2f} s CPU,"
        f" peak RSS {peak:.0f} MB"
        f"  [baseline `prdigest --version`: {startup:.2f} s; ratio {cli / startup:.1f}x]"
        f"  issue 6's < 3 s for this year of 5,100 PRs: {'met' if cli < 3 else 'missed'}"
    )


def _child_cpu() -> float:
    """CPU seconds of finished children: steadier than wall time on a shared machine."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
