"""`sync --git` against git's own `git log --first-parent --numstat`, same commits, same run.

Replays N executorch records (default 2000) into a git repository (cached in a temp
dir between runs), then times, in R interleaved rounds:
  1. raw `git log --first-parent --numstat` (the baseline), and with `--patch` (what
     `sync --git` asks of git since it reads Python files' diffs),
  2. `iter_git_records` alone (our single streaming `git log` + parsing),
  3. the whole CLI `prdigest --db NEW.db sync pytorch/executorch --git REPO`,
and prints the ratios to the baseline (rounds interleaved, best of each). Target (issue 2): the CLI within 1.5x.

    python benchmarks/bench_sync_git.py [--records 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from prdigest.sources.git import iter_git_records  # noqa: E402
from replay import REPOSITORY_OVERRIDES, replay  # noqa: E402

DATA = Path(os.environ.get("PRDIGEST_SHARED_DATA", ROOT.parent / "shared" / "data"))
REPO = "pytorch/executorch"


def replayed_repo(count: int) -> Path:
    cache = Path(tempfile.gettempdir()) / f"prdigest-bench-replay-{count}"
    if (cache / "done").exists():
        return cache / "repo"
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    with gzip.open(DATA / "pytorch__executorch" / "prs.jsonl.gz", "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in islice(handle, count)]
    started = time.perf_counter()
    replay(records, cache / "repo", merge_at=count // 2)
    print(f"replayed {count} records in {time.perf_counter() - started:.1f} s -> {cache / 'repo'}")
    (cache / "done").touch()
    return cache / "repo"


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (git, the CLI and its git)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name in REPOSITORY_OVERRIDES:  # never let GIT_DIR & co. point git elsewhere
        os.environ.pop(name, None)
    repo = replayed_repo(args.records)
    commits = int(subprocess.run(["git", "-C", str(repo), "rev-list", "--first-parent", "--count", "HEAD"],
                                 capture_output=True, text=True, check=True).stdout)  # fmt: skip

    def raw_git_log() -> None:
        subprocess.run(["git", "-C", str(repo), "log", "--first-parent", "--numstat"],
                       stdout=subprocess.DEVNULL, check=True)  # fmt: skip

    def raw_git_log_patch() -> None:  # what `sync --git` asks of git since it reads diffs
        subprocess.run(["git", "-C", str(repo), "log", "--first-parent", "--numstat", "--patch"],
                       stdout=subprocess.DEVNULL, check=True)  # fmt: skip

    def records_only() -> None:
        count = sum(1 for _ in iter_git_records(repo, REPO))
        assert count == commits, (count, commits)

    workdir = Path(tempfile.mkdtemp(prefix="prdigest-bench-"))
    runs = iter(range(10**6))

    def cli_sync() -> None:
        db = workdir / f"sync-{next(runs)}.db"  # a fresh store each time: a full sync
        subprocess.run([sys.executable, "-c", "from prdigest.cli import main; main()", "--db", str(db),
                        "sync", REPO, "--git", str(repo)], check=True, capture_output=True)  # fmt: skip

    def cli_startup() -> None:
        subprocess.run([sys.executable, "-c", "from prdigest.cli import main; main()", "--version"],
                       check=True, capture_output=True)  # fmt: skip

    raw_git_log()  # warm the page cache for everyone
    # Interleaved rounds, best of each: the machine is shared, so load hits all three alike.
    names = ("git", "git_patch", "records", "cli", "startup")
    timings: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(args.repeat):
        for name, run in zip(
            names,
            (raw_git_log, raw_git_log_patch, records_only, cli_sync, cli_startup),
            strict=True,
        ):
            started, cpu_started = time.perf_counter(), _cpu()
            run()
            timings[name].append(time.perf_counter() - started)
            cpu[name].append(_cpu() - cpu_started)
    baseline, with_patch, ours, whole, startup = (min(timings[name]) for name in names)
    cpu_git, cpu_patch, cpu_ours, cpu_whole, cpu_startup = (min(cpu[name]) for name in names)
    shutil.rmtree(workdir, ignore_errors=True)
    print(f"commits (first-parent):                      {commits}")
    print(f"load average (1 min):                        {os.getloadavg()[0]:.1f}")
    print("                                             wall (best)        CPU user+sys (best)")
    print(
        f"git log --first-parent --numstat:            {baseline:.3f} s           {cpu_git:.3f} s"
    )
    print(f"git log ... --numstat --patch:               {with_patch:.3f} s ({with_patch / baseline:.2f}x)  "
          f"{cpu_patch:.3f} s ({cpu_patch / cpu_git:.2f}x)")  # fmt: skip
    print(f"iter_git_records:                            {ours:.3f} s ({ours / baseline:.2f}x)  "
          f"{cpu_ours:.3f} s ({cpu_ours / cpu_git:.2f}x)")  # fmt: skip
    print(f"prdigest sync --git (whole CLI, fresh db):   {whole:.3f} s ({whole / baseline:.2f}x)  "
          f"{cpu_whole:.3f} s ({cpu_whole / cpu_git:.2f}x)")  # fmt: skip
    print(
        f"  of which CLI start-up (prdigest --version):  {startup:.3f} s           {cpu_startup:.3f} s"
    )
    net, cpu_net = whole - startup, cpu_whole - cpu_startup
    print(f"  sync net of start-up:                       {net:.3f} s ({net / baseline:.2f}x)  "
          f"{cpu_net:.3f} s ({cpu_net / cpu_git:.2f}x)")  # fmt: skip
    verdict = "PASS" if whole <= 1.5 * baseline else "FAIL"
    print(f"target: CLI within 1.5x of git log -> {verdict}")
    # Since it reads Python diffs (issue 19) git's own work is `--patch`'s: measured
    # against it too; issue 19's bound (at most 2x the sync before diffs) is in benchmarks.md.
    print(
        f"CLI against git log --numstat --patch: wall {whole / with_patch:.2f}x, CPU {cpu_whole / cpu_patch:.2f}x"
    )
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
