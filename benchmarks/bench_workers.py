"""Teams (issue 8): one backfill on SQLite in one process, then on PostgreSQL with workers.

The real records of pytorch/executorch are dealt round-robin into ten
repositories (acme/part0 … acme/part9) served by the fake GitHub on 127.0.0.1
with a latency per request. The backfill is: sync each repository from
`--since` over the REST API (one listing page per 100 PRs plus one /files
request per PR), then write one week's digest of each.

1. SQLite, one process: `pipeline.sync` of each repository, then
   `pipeline.digest` of each (in this process).
2. PostgreSQL, a fresh database per run: `prdigest sync --all` and
   `prdigest digest --all --week W` queue the jobs, then N ×
   `prdigest worker --until-empty --concurrency 1` start together; the wall
   time runs from their start until all have exited.
3. The same with the fake enforcing a low rate limit with a short window
   (`--rate-limit` requests per `--reset-in` seconds): the workers share the
   token's budget in the store (table github_rate_budget) and wait for the
   reset instead of being refused; throughput flattens at the limit.

    python benchmarks/bench_workers.py [--latency 0.1] [--since 2026-07-15]
        [--week 2026-W31] [--workers 1,2,4] [--rate-limit 150] [--reset-in 10]
        [--limited-workers 2,4]

No real network; PostgreSQL at postgresql:///postgres (or PRDIGEST_BENCH_PG),
skipped with a message when it is not reachable.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _common import EXECUTORCH, need  # noqa: E402

from fakes.github_server import FakeGitHub, github_pulls  # noqa: E402

REPOS = [f"acme/part{i}" for i in range(10)]
TOKEN = "ghp_benchmarkWorkersToken"
ADMIN = os.environ.get("PRDIGEST_BENCH_PG", "postgresql:///postgres")
# Settings that must not leak into the runs from the caller's environment.
SCRUB = (
    "PRDIGEST_DB", "PRDIGEST_CONFIG", "GH_TOKEN", "GITHUB_API_URL", "OPENAI_BASE_URL",
    "OPENAI_API_KEY", "PRDIGEST_LLM_MODEL",
)  # fmt: skip


@dataclass
class Run:
    name: str
    workers: int  # 0: the single SQLite process
    wall: float
    requests: int
    refused: int  # 403 answers: requests the rate limit turned away
    prs: int
    reports: int
    queue_wall: float = 0.0

    @property
    def rate(self) -> float:
        return self.prs / self.wall

    @property
    def request_rate(self) -> float:
        return self.requests / self.wall


def deal(source: Path, since: date) -> dict[str, list[dict[str, Any]]]:
    """The real records dealt round-robin into REPOS, as GitHub pull objects.

    A month before `since` is kept too, so each sync walks past its stop point."""
    keep = (since - timedelta(days=30)).isoformat()
    parts: dict[str, list[dict[str, Any]]] = {repo: [] for repo in REPOS}
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        for i, line in enumerate(handle):
            record = json.loads(line)
            if record["committed_at"] >= keep:
                parts[REPOS[i % len(REPOS)]].append(record)
    return {repo: github_pulls(records, repo) for repo, records in parts.items()}


def write_config(folder: Path, url: str, since: date) -> Path:
    config = folder / "prdigest.toml"
    config.write_text(
        "".join(
            f'[repos."{repo}"]\ngithub_api_url = "{url}"\nsince = "{since}"\napi = "rest"\n\n'
            for repo in REPOS
        )
    )
    return config


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUB}
    env["GITHUB_TOKEN"] = TOKEN
    return env


def postgres_ready() -> str | None:
    """None when PostgreSQL and the postgres extra are usable, else why not."""
    try:
        import procrastinate  # noqa: F401
        import psycopg

        with psycopg.connect(ADMIN, autocommit=True, connect_timeout=3):
            return None
    except Exception as exc:  # any failure means: nothing to measure against
        return f"{type(exc).__name__}: {str(exc).strip()[:160]}"


def fresh_database() -> str:
    import psycopg

    name = f"prdigest_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{ADMIN.rsplit('/', 1)[0]}/{name}"


def drop_database(url: str) -> None:
    import psycopg

    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def counted(fake: FakeGitHub) -> tuple[int, int]:
    return len(fake.log), sum(1 for r in fake.log if r.status == 403)


def run_sqlite(pulls: dict[str, Any], folder: Path, args: argparse.Namespace) -> Run:
    from prdigest import pipeline
    from prdigest.config import load_config
    from prdigest.store import open_store
    from prdigest.timeutil import iso_week_window

    os.environ["GITHUB_TOKEN"] = TOKEN
    with FakeGitHub(pulls, latency=args.latency) as fake:
        config = load_config(write_config(folder, fake.url, args.since))
        store = open_store(str(folder / "single.db"))
        start = time.perf_counter()
        for repo in REPOS:
            pipeline.sync(store, repo, pipeline.spec_for(repo, config))
        window = iso_week_window(args.week)
        for repo in REPOS:
            pipeline.digest(store, repo, window, config)
        wall = time.perf_counter() - start
        prs = store.conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()[0]
        reports = store.conn.execute("SELECT COUNT(*) FROM reports").fetchone()[0]
        store.close()
        requests, refused = counted(fake)
    return Run("SQLite, one process", 0, wall, requests, refused, int(prs), int(reports))


def prdigest(db: str, config: Path, *argv: str) -> list[str]:
    return [sys.executable, "-m", "prdigest", "--db", db, "--config", str(config), *argv]


def run_workers(
    pulls: dict[str, Any], folder: Path, args: argparse.Namespace, n: int, **fake_kw: Any
) -> Run:
    import psycopg

    db = fresh_database()
    env = child_env()
    try:
        with FakeGitHub(pulls, latency=args.latency, **fake_kw) as fake:
            config = write_config(folder, fake.url, args.since)
            start = time.perf_counter()
            for argv in (["sync", "--all"], ["digest", "--all", "--week", args.week]):
                subprocess.run(
                    prdigest(db, config, *argv), env=env, cwd=folder, check=True,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
            queue_wall = time.perf_counter() - start
            fake.clear_log()
            logs = [folder / f"worker{i}.log" for i in range(n)]
            start = time.perf_counter()
            procs = [
                subprocess.Popen(
                    prdigest(
                        db,
                        config,
                        "worker",
                        "--until-empty",
                        "--concurrency",
                        "1",
                        "--heartbeat",
                        str(args.heartbeat),
                    ),
                    env=env,
                    cwd=folder,
                    stdout=subprocess.DEVNULL,
                    stderr=log.open("w"),
                )  # fmt: skip
                for log in logs
            ]
            codes = [proc.wait() for proc in procs]
            wall = time.perf_counter() - start
            requests, refused = counted(fake)
        talk = "".join(log.read_text() for log in logs)
        if any(codes):
            sys.exit(f"a worker failed (exit codes {codes}):\n{talk[-2000:]}")
        with psycopg.connect(db, autocommit=True) as conn:
            jobs: dict[str, int] = dict(
                conn.execute(
                    "SELECT status::text, COUNT(*) FROM procrastinate_jobs GROUP BY status"
                ).fetchall()
            )
            prs = conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()
            reports = conn.execute("SELECT COUNT(*) FROM reports").fetchone()
        if jobs != {"succeeded": 2 * len(REPOS)}:
            sys.exit(f"the queue did not end with every job succeeded: {jobs}\n{talk[-2000:]}")
    finally:
        drop_database(db)
    limited = " (rate-limited)" if fake_kw else ""
    name = f"PostgreSQL, {n} worker{'s' * (n > 1)}{limited}"
    assert prs is not None and reports is not None
    return Run(name, n, wall, requests, refused, int(prs[0]), int(reports[0]), queue_wall)


def table(runs: list[Run], base: Run | None, single: Run) -> None:
    print(
        "| run | wall | queueing (not in wall) | requests | refused (403) | PRs | PRs/s"
        " | requests/s | speed-up vs 1 worker | vs SQLite 1 process |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in runs:
        queue = f"{r.queue_wall:.1f} s" if r.workers else "–"
        speedup = f"{r.rate / base.rate:.2f}x" if base and r.workers else "–"
        print(
            f"| {r.name} | {r.wall:.1f} s | {queue} | {r.requests} | {r.refused} | {r.prs}"
            f" | {r.rate:.1f} | {r.request_rate:.1f} | {speedup} | {r.rate / single.rate:.2f}x |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per request")
    parser.add_argument("--since", type=date.fromisoformat, default=date(2026, 7, 15))
    parser.add_argument("--week", default="2026-W31", help="the digest's ISO week")
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument(
        "--rate-limit", type=int, default=150, help="requests a window (rate-limited runs)"
    )
    parser.add_argument("--reset-in", type=float, default=10.0, help="window length, seconds")
    parser.add_argument("--limited-workers", default="2,4", help="empty: no rate-limited runs")
    parser.add_argument("--heartbeat", type=float, default=0.5, help="workers' poll interval")
    args = parser.parse_args()
    for name in SCRUB:
        os.environ.pop(name, None)

    why = postgres_ready()
    if why:
        print(f"skipped: PostgreSQL is not reachable at {ADMIN} ({why})")
        return
    pulls = deal(need(EXECUTORCH), args.since)
    print(
        f"{len(REPOS)} repositories from {EXECUTORCH.name} dealt round-robin; sync since "
        f"{args.since} over REST (files per PR), digest of {args.week}; fake GitHub latency "
        f"{args.latency * 1000:.0f} ms a request; {os.cpu_count()} CPUs"
    )
    with tempfile.TemporaryDirectory(prefix="bench_workers_") as tmp:
        folder = Path(tmp)
        single = run_sqlite(pulls, folder, args)
        print(f"  {single.name}: {single.wall:.1f} s", flush=True)
        runs = []
        for n in [int(w) for w in args.workers.split(",") if w]:
            runs.append(run_workers(pulls, folder, args, n))
            print(f"  {runs[-1].name}: {runs[-1].wall:.1f} s", flush=True)
        limited = []
        limit = {"rate_limit": args.rate_limit, "reset_in": args.reset_in}
        for n in [int(w) for w in args.limited_workers.split(",") if w]:
            limited.append(run_workers(pulls, folder, args, n, enforce_rate_limit=True, **limit))
            print(f"  {limited[-1].name}: {limited[-1].wall:.1f} s", flush=True)
    base = next((r for r in runs if r.workers == 1), None)
    print()
    table([single, *runs, *limited], base, single)
    for r in [single, *runs, *limited]:
        if (r.prs, r.reports) != (single.prs, single.reports):
            sys.exit(f"{r.name} stored {r.prs} PRs and {r.reports} reports, unlike SQLite")
    print()
    print(f"every run stored the same {single.prs} PRs and {single.reports} digests")
    if limited:
        ceiling = args.rate_limit / args.reset_in
        print(
            f"rate-limited runs: the fake allows {args.rate_limit} requests per {args.reset_in:g} s"
            f" window ({ceiling:.1f} requests/s at most) and refuses more with 403;"
            f" the workers' shared budget let {sum(r.refused for r in limited)} request(s)"
            f" through to be refused"
        )


if __name__ == "__main__":
    main()
