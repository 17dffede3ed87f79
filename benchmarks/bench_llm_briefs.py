"""The model's briefs of one week against a running OpenAI-compatible server: cold (every
brief asked, one request per PR) and again (every brief read back: no request), with
what verification replaced and the machine's load.

    scripts/llama_server.sh serve --model qwen-1.5b --ctx 8192 --parallel 2 \\
        --daemon --pid-file /tmp/q.pid
    python benchmarks/bench_llm_briefs.py --base-url http://127.0.0.1:PORT/v1 \\
        --model qwen-1.5b --jsonl ../shared/data/pytorch__executorch/prs.jsonl.gz \\
        --jsonl ../shared/data/pytorch__executorch/prs-2026Q1-patches.jsonl.gz \\
        --repo pytorch/executorch --week 2026-W07 [--concurrency 2] [--shown-only]

Prints one line per run: PRs, requests, tokens, wall time, briefs by the model, sentences
replaced by reason, the load average before and after; then samples of the model's words
beside prdigest's. Goal (issue 32): a ~100-PR week cold in ≤ 12 minutes on 2 idle
cores with qwen-1.5b; again, 0 requests in < 2 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from prdigest import pipeline
from prdigest.config import Config
from prdigest.store import open_store
from prdigest.timeutil import iso_week_window


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--jsonl", required=True, type=Path, action="append", help="repeatable")
    parser.add_argument("--repo", required=True)
    parser.add_argument("--week", required=True)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--shown-only", action="store_true")
    parser.add_argument("--db", type=Path, help="keep the store here (default: a temporary one)")
    parser.add_argument("--samples", type=int, default=12)
    args = parser.parse_args()

    db = args.db or Path(tempfile.mkdtemp()) / "bench.db"
    store = open_store(str(db))
    for jsonl in args.jsonl:  # the records, then a file of their diffs
        pipeline.sync(store, args.repo, pipeline.SourceSpec(jsonl=jsonl))
    window = iso_week_window(args.week)
    options: dict[str, object] = {
        "llm_base_url": args.base_url,
        "llm_model": args.model,
        "llm_concurrency": args.concurrency,
    }
    if args.timeout:
        options["llm_timeout"] = args.timeout
    for label in ("cold", "again"):
        load = os.getloadavg()[0]
        started = time.monotonic()
        result = pipeline.make_briefs(
            store, args.repo, window, Config(), llm_options=options, shown_only=args.shown_only
        )
        seconds = time.monotonic() - started
        print(
            f"{label}: {args.repo} {args.week}: {result.prs} PRs; {result.notes[-1]}; wall"
            f" {seconds:.1f} s; {result.by_model} briefs by the model, {result.replaced}"
            f" sentences replaced; {len(result.failed)} failed; load {load:.1f} →"
            f" {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    reasons: Counter[str] = Counter()
    rows = store.conn.execute(
        "SELECT m.what, m.why, m.what_from, m.why_from, m.replaced, d.what, d.why"
        " FROM briefs m JOIN briefs d ON d.content_key = m.content_key"
        " AND d.writer LIKE 'deterministic@%' WHERE m.writer = ?",
        (result.writer,),
    ).fetchall()
    for *_, replaced, _, _ in rows:
        for part in replaced.split("; ") if replaced else ():
            reasons[part.split(" '")[0].split(" (")[0]] += 1
    print("replaced, by reason:", dict(reasons.most_common()))
    for what, why, what_from, why_from, _, det_what, det_why in rows[: args.samples]:
        print(f"- model ({what_from}/{why_from or '-'}): {what}. {why}")
        print(f"  prdigest:            {det_what}. {det_why}")
    store.close()


if __name__ == "__main__":
    sys.exit(main())
