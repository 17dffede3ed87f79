"""Core speed targets of issue 2, each beside a baseline measured in the same run.

    python benchmarks/bench_core.py

- sync --jsonl of all executorch records (CLI process): < 2 s, peak < 200 MB;
  baseline: decompress and json-parse the same file.
- one week's digest (CLI process): < 1 s; baseline: `prdigest --version` (start-up).
- all weeks of executorch in one process: < 10 s.
- a week's digest with 1x and 4x the history in the store: the cost must not grow.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
import sys
import tempfile
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from _common import EXECUTORCH, best_of, need, run_timed

from prdigest import pipeline
from prdigest.config import Config
from prdigest.sources.records import parse_record
from prdigest.store import Store
from prdigest.timeutil import iso_week_window

REPO = "pytorch/executorch"
PRDIGEST = [sys.executable, "-m", "prdigest"]


def main() -> None:
    data = need(EXECUTORCH)
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-bench-"))
    db = tmp / "bench.db"

    parse = best_of(3, lambda: [json.loads(x) for x in gzip.open(data, "rt", encoding="utf-8")])
    sync_s, sync_mb = run_timed([*PRDIGEST, "--db", str(db), "sync", REPO, "--jsonl", str(data)])
    print(
        f"sync --jsonl, 8,151 records (CLI): {sync_s:.2f} s, peak RSS {sync_mb:.0f} MB"
        f"  [baseline gzip+json.loads only: {parse:.2f} s; ratio {sync_s / parse:.1f}x]"
    )

    startup, _ = run_timed([*PRDIGEST, "--version"])
    week, _ = run_timed([*PRDIGEST, "--db", str(db), "digest", REPO, "--week", "2026-W07"])
    print(
        f"digest of 2026-W07 (CLI): {week:.2f} s  [baseline `prdigest --version`: {startup:.2f} s;"
        f" ratio {week / startup:.1f}x]"
    )

    store = Store(sqlite3.connect(str(db), isolation_level=None))
    summary = json.loads((data.parent / "summary.json").read_text())
    weeks = sorted(summary["per_iso_week"])
    start = time.perf_counter()
    for label in weeks:
        pipeline.digest(store, REPO, iso_week_window(label), Config(), writer="deterministic")
    all_weeks = time.perf_counter() - start
    print(
        f"all {len(weeks)} weekly digests in one process: {all_weeks:.2f} s"
        f" ({all_weeks / len(weeks) * 1000:.0f} ms a week)"
    )

    one = _week_cost(store)
    big = Store(sqlite3.connect(str(tmp / "4x.db"), isolation_level=None))
    _load_history(big, data, copies=4)
    four = _week_cost(big)
    print(
        f"digest of 2026-W07 in process, 1x history ({store.count_pull_requests(REPO)} rows): "
        f"{one * 1000:.0f} ms; 4x history ({big.count_pull_requests(REPO)} rows): {four * 1000:.0f} ms;"
        f" ratio {four / one:.2f}"
    )


def _week_cost(store: Store) -> float:
    window = iso_week_window("2026-W07")
    return best_of(
        5, lambda: pipeline.digest(store, REPO, window, Config(), writer="deterministic")
    )


def _load_history(store: Store, data: Path, copies: int) -> None:
    """The real records, plus copies shifted back in time by whole multiples of 86 weeks."""
    records = [json.loads(x) for x in gzip.open(data, "rt", encoding="utf-8")]
    for copy in range(copies):
        prs = []
        for i, raw in enumerate(records):
            pr = parse_record(raw, REPO, "jsonl", f"{data}:{i + 1}")
            if copy:
                shift = timedelta(weeks=86 * copy)
                pr = replace(
                    pr,
                    sha=hashlib.sha1(f"{copy}:{pr.sha}".encode()).hexdigest(),
                    merged_at=pr.merged_at - shift,  # type: ignore[index,operator]
                    number=pr.number and pr.number + 100_000 * copy,
                )
            prs.append(pr)
        for i in range(0, len(prs), 1000):
            store.upsert_pull_requests(REPO, prs[i : i + 1000])


if __name__ == "__main__":
    main()
