"""GitHub sync: requests and wall time against the fake GitHub (127.0.0.1, with latency).

Syncs one week (~100 PRs) and 20 weeks of pytorch/executorch's real records,
REST and GraphQL (both with every PR's changed files), beside the reference
digests' approach measured in the same run: REST, 50 PRs a page, a sleep
between pages, no files (and, for a like-for-like count, the same plus one
/files request per PR). Then re-syncs the unchanged repository and counts the
requests that returned data.

    python benchmarks/bench_github.py [--latency 0.05] [--ref-sleep 5] [--scale 100]

No real network: everything talks to a fake server on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _common import EXECUTORCH, need  # noqa: E402

from fakes.github_server import FakeGitHub, github_pulls, load_records  # noqa: E402
from prdigest.ingest import GitHubOptions  # noqa: E402
from prdigest.pipeline import SourceSpec, sync  # noqa: E402
from prdigest.reporting import SilentReporter  # noqa: E402
from prdigest.store import open_store  # noqa: E402

REPO = "pytorch/executorch"
TOKEN = "ghp_benchmarkToken"


def newest(pulls: list[dict]) -> datetime:
    return max(datetime.fromisoformat(p["updated_at"].replace("Z", "+00:00")) for p in pulls)


def ours(fake: FakeGitHub, db: Path, since: datetime, api: str) -> dict:
    fake.clear_log()
    store = open_store(str(db))
    spec = SourceSpec(since=since, github=GitHubOptions(api_url=fake.url, api=api))
    start = time.perf_counter()
    result = sync(store, REPO, spec, SilentReporter())
    wall = time.perf_counter() - start
    store.close()
    data = sum(1 for r in fake.log if r.status == 200)
    return {"requests": len(fake.log), "data": data, "prs": result.read, "wall": wall}


def reference(fake: FakeGitHub, since: datetime, sleep: float, with_files: bool) -> dict:
    """The reference digests' loop: REST, 50 a page, a pause between pages, no files."""
    fake.clear_log()
    prs, pages = 0, 0
    start = time.perf_counter()
    with httpx.Client(base_url=fake.url, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        page = 1
        while True:
            if page > 1:
                time.sleep(sleep)
            items = http.get(f"/repos/{REPO}/pulls", params={
                "state": "all", "sort": "updated", "direction": "desc", "per_page": 50, "page": page,
            }).json()  # fmt: skip
            pages += 1
            fresh = [p for p in items if p["updated_at"] >= since.strftime("%Y-%m-%dT%H:%M:%SZ")]
            for p in fresh:
                prs += 1
                if with_files:
                    http.get(f"/repos/{REPO}/pulls/{p['number']}/files", params={"per_page": 100})
            if len(fresh) < len(items) or not items:
                break
            page += 1
    return {
        "requests": len(fake.log),
        "data": len(fake.log),
        "prs": prs,
        "wall": time.perf_counter() - start,
        "pages": pages,
    }


def _times(ratio: float) -> str:
    return f"{ratio:.1f}x" if ratio >= 0.95 else "–"  # fewer requests per PR, or not at all


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--latency", type=float, default=0.05, help="seconds the fake waits per request"
    )
    parser.add_argument(
        "--ref-sleep", type=float, default=5.0, help="the reference's sleep between pages (s)"
    )
    parser.add_argument(
        "--scale", type=float, default=100.0, help="divide the reference's sleep by this"
    )
    parser.add_argument("--weeks", default="1,20")
    args = parser.parse_args()
    os.environ["GITHUB_TOKEN"] = TOKEN
    pulls = github_pulls(load_records(need(EXECUTORCH)), REPO)
    top = newest(pulls)
    scaled = args.ref_sleep / args.scale
    print(f"fake GitHub latency {args.latency * 1000:.0f} ms a request; reference sleep "
          f"{args.ref_sleep:g} s between pages, run at 1/{args.scale:g} ({scaled * 1000:.0f} ms)")  # fmt: skip
    print()
    print(
        "| window | approach | PRs | requests | requests/PR | fewer than reference | fewer than reference + files | wall (measured) | wall (reference sleep unscaled) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    resync = {}
    for weeks in [int(w) for w in args.weeks.split(",")]:
        since = top - timedelta(days=7 * weeks)
        rows = {}
        with FakeGitHub({REPO: pulls}, latency=args.latency) as fake:
            rows["reference (REST, 50/page, no files)"] = reference(fake, since, scaled, False)
            rows["reference + /files per PR"] = reference(fake, since, scaled, True)
            for api in ("rest", "graphql"):
                with tempfile.TemporaryDirectory() as tmp:
                    db = Path(tmp) / "bench.db"
                    rows[f"prdigest {api} (with files)"] = ours(fake, db, since, api)
                    resync[(weeks, api, "1st re-sync")] = ours(fake, db, since, api)
                    resync[(weeks, api, "2nd re-sync")] = ours(fake, db, since, api)
        base = rows["reference (REST, 50/page, no files)"]
        base_rate = base["requests"] / max(base["prs"], 1)
        files = rows["reference + /files per PR"]
        files_rate = files["requests"] / max(files["prs"], 1)
        for name, r in rows.items():
            rate = r["requests"] / max(r["prs"], 1)
            unscaled = r["wall"] + (r.get("pages", 1) - 1) * (args.ref_sleep - scaled)
            print(f"| {weeks} week{'s' * (weeks > 1)} | {name} | {r['prs']} | {r['requests']} | {rate:.3f} | "
                  f"{_times(base_rate / rate)} | {_times(files_rate / rate)} | {r['wall']:.2f} s | {unscaled:.2f} s |")  # fmt: skip
    print()
    print(
        "| re-sync of an unchanged repository | requests | returned data | 304 not modified | wall |"
    )
    print("| --- | --- | --- | --- | --- |")
    for (weeks, api, which), r in resync.items():
        print(f"| {weeks} week{'s' * (weeks > 1)}, {api}, {which} | {r['requests']} | {r['data']} | "
              f"{r['requests'] - r['data']} | {r['wall']:.2f} s |")  # fmt: skip
    worst = max(r["data"] for r in resync.values())
    print()
    print(f"re-sync: at most {worst} request(s) returned data (target: at most 2)")
    if worst > 2:
        sys.exit(1)


if __name__ == "__main__":
    main()
