"""Time the digest as a user runs it (a CLI process each), against a baseline tree in the
same run: `sync --jsonl` of the whole executorch history, the digest of its largest week
(178 PRs, 2025-W37), the digest of a five-week window of 603 PRs, and the same week again
(its briefs read from the store).

    python benchmarks/bench_digest_cli.py --baseline /tmp/base   # a worktree of the old commit
    git worktree add /tmp/base 678ca96                           # (made once, beforehand)

Each figure is the median of `--runs` CPU times (user + system of the child process) and
wall times; the ratio is this tree's over the baseline's, measured minutes apart on the
same machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import EXECUTORCH, need  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REPO = "pytorch/executorch"
WEEK = ["--week", "2025-W37"]  # 178 PRs
WINDOW = ["--since", "2025-08-25", "--until", "2025-09-28"]  # 5 weeks, 603 PRs


def _run(tree: Path, db: Path, *args: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one `prdigest` process on `tree`'s sources."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "PRDIGEST_DB": str(db)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "prdigest", "--db", str(db), *args],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _measure(tree: Path, runs: int) -> dict[str, tuple[float, float]]:
    records = str(need(EXECUTORCH))
    digest = ["digest", REPO, "--writer", "deterministic", "--out", os.devnull]
    samples: dict[str, list[tuple[float, float]]] = {}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.db"
            steps = {
                "sync --jsonl (whole history)": ["sync", REPO, "--jsonl", records],
                "digest, 178-PR week (first)": [*digest, *WEEK],
                "digest, same week again": [*digest, *WEEK],
                "digest, 603-PR window": [*digest, *WINDOW],
            }
            for name, args in steps.items():
                samples.setdefault(name, []).append(_run(tree, db, *args))
    return {
        name: (statistics.median(c for c, _ in s), statistics.median(w for _, w in s))
        for name, s in samples.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the old tree")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for tree in (args.baseline, ROOT):  # compiled once, so neither pays for it in a run
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "src")], check=True)
    base = _measure(args.baseline, args.runs)
    this = _measure(ROOT, args.runs)
    print("| step | baseline CPU / wall (s) | this tree CPU / wall (s) | ratio (CPU) |")
    print("| --- | --- | --- | --- |")
    for name, (cpu, wall) in this.items():
        b_cpu, b_wall = base[name]
        print(
            f"| {name} | {b_cpu:.2f} / {b_wall:.2f} | {cpu:.2f} / {wall:.2f} | {cpu / b_cpu:.2f} |"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
