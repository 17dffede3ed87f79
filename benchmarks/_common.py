"""Shared bits of the benchmark scripts: where the real data is, timing, peak memory."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("PRDIGEST_SHARED_DATA", ROOT.parent / "shared" / "data"))
EXECUTORCH = SHARED_DATA / "pytorch__executorch" / "prs.jsonl.gz"
AO = SHARED_DATA / "pytorch__ao" / "prs.jsonl.gz"


def need(path: Path) -> Path:
    if not path.exists():
        sys.exit(f"skipped: {path} is absent (set PRDIGEST_SHARED_DATA to the shared data folder)")
    return path


def run_timed(argv: list[str]) -> tuple[float, float]:
    """Run a command; return (wall seconds, peak RSS of that child in MB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the max over all children so far; run heavier commands last
    return elapsed, max(peak, before) / 1024


def best_of(n: int, func) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)
