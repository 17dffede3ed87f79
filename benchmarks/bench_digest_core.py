"""Time the digest core (build_context + write_digest) per ISO week of the real data.

    python benchmarks/bench_digest_core.py [--repo executorch|ao] [--real]

Prints per-week figures, the whole run (every week in one process), and two ratios
measured in the same run: against a baseline linear pass over the same records (clean
each title), and a 4-week window against a 1-week one (linear work gives ~4x).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _common import AO, EXECUTORCH, need  # noqa: E402

from digest_weeks import classified, classified_inputs, iso_weeks, window_of  # noqa: E402
from prdigest.analyze import build_context  # noqa: E402
from prdigest.reading import clean_title  # noqa: E402
from prdigest.timeutil import iso_week_window  # noqa: E402
from prdigest.write.deterministic import write_digest  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", choices=["executorch", "ao"], default="executorch")
    parser.add_argument(
        "--real", action="store_true", help="the product's classifier instead of the stand-in"
    )
    args = parser.parse_args()
    path, repo = (
        (EXECUTORCH, "pytorch/executorch") if args.repo == "executorch" else (AO, "pytorch/ao")
    )
    pairs = classified(str(need(path)), repo, args.real)
    weeks = iso_weeks([pr for pr, _ in pairs])

    cold_start = time.perf_counter()
    first = classified_inputs(pairs, iso_week_window(weeks[-2]))
    write_digest(build_context(repo, **first))
    cold = time.perf_counter() - cold_start

    per_week: list[tuple[float, int, str]] = []
    baseline = 0.0
    total_start = time.perf_counter()
    for iso in weeks:
        inputs = classified_inputs(pairs, iso_week_window(iso))
        start = time.perf_counter()
        write_digest(build_context(repo, **inputs))
        per_week.append((time.perf_counter() - start, len(inputs["items"]), iso))
        start = time.perf_counter()
        for pr, _ in [*inputs["items"], *inputs["previous"]]:
            clean_title(pr.title)
        baseline += time.perf_counter() - start
    total = time.perf_counter() - total_start
    core = sum(t for t, _, _ in per_week)

    times = [t * 1000 for t, _, _ in per_week]
    slowest = max(per_week)
    print(f"{repo}: {len(weeks)} ISO weeks, {sum(n for _, n, _ in per_week)} records")
    print(f"first digest in the process (regex + template compile): {cold * 1000:.1f} ms")
    print(
        f"per week: median {statistics.median(times):.1f} ms, mean {statistics.mean(times):.1f} ms, "
        f"max {slowest[0] * 1000:.1f} ms ({slowest[2]}, {slowest[1]} records)"
    )
    hundred = [t * 1000 for t, n, _ in per_week if 80 <= n <= 120]
    if hundred:
        print(
            f"weeks of 80-120 records: median {statistics.median(hundred):.1f} ms over {len(hundred)} weeks"
        )
    print(f"all weeks in one process: {total:.2f} s (digest core {core:.2f} s)")
    print(
        f"baseline (clean every title of both windows, same run): {baseline:.3f} s; ratio {core / baseline:.1f}x"
    )

    # linearity: a 28-day window against the 7-day window it starts with
    start_day = iso_week_window(weeks[-6]).first_day
    for days in (7, 28):
        window = window_of(start_day, days)
        inputs = classified_inputs(pairs, window)
        best = min(_timed(repo, inputs) for _ in range(3))
        print(
            f"{days:>2}-day window from {start_day}: {len(inputs['items'])} records, {best * 1000:.1f} ms"
        )


def _timed(repo: str, inputs: dict) -> float:
    start = time.perf_counter()
    write_digest(build_context(repo, **inputs))
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
