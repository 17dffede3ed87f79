"""The editorial check over every week of a repository: findings by rule, with counts.

    python3 benchmarks/editorial_report.py --jsonl ../shared/data/pytorch__executorch/prs.jsonl.gz \\
        --repo pytorch/executorch [--profile generic] [--weeks 2025-W37,2026-W05] \\
        [--digests DIR] [--db FILE] [--rules quote_shape,...] [--show N] [--new-dirs]

Without --digests the product writes each week's digest (deterministic writer) from a store
synced once (in a temporary folder, or --db to keep and reuse it). --digests DIR reads
`<name>-<week>.md` files instead (e.g. /work/snap/base/digests). --new-dirs also lists the
directories each week creates (the input of unnamed_new_component).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from editorial import RULES  # noqa: E402
from editorial_repo import new_directories  # noqa: E402
from editorial_sweep import (  # noqa: E402
    by_rule,
    product_digests,
    read_records,
    stored_digests,
    sweep,
    sync,
    weekly,
    weeks_of,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jsonl", type=Path, required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--profile", help="classification profile (default: the repository's)")
    parser.add_argument("--weeks", help="comma-separated ISO weeks (default: every week)")
    parser.add_argument("--digests", type=Path, help="read <name>-<week>.md from DIR")
    parser.add_argument("--db", type=Path, help="store to sync into and reuse")
    parser.add_argument("--rules", help="comma-separated rules (default: all)")
    parser.add_argument("--show", type=int, default=1000, help="findings listed per rule")
    parser.add_argument("--new-dirs", action="store_true", help="list each week's new dirs")
    args = parser.parse_args()
    if not args.jsonl.exists():
        sys.exit(f"Error: {args.jsonl} is absent — give the path to a prs.jsonl(.gz) file")
    rules = args.rules.split(",") if args.rules else list(RULES)
    unknown = [r for r in rules if r not in RULES]
    if unknown:
        sys.exit(f"Error: unknown rule {unknown[0]!r} — use one of {', '.join(RULES)}")
    records = read_records(args.jsonl)
    weeks = args.weeks.split(",") if args.weeks else weeks_of(records)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        if args.digests:
            digest_for = stored_digests(args.digests, args.repo)
        else:
            db = args.db or Path(folder) / "store.db"
            if args.db is None or not args.db.exists():
                sync(db, args.repo, args.jsonl)
            digest_for = product_digests(db, args.repo, args.profile)
        found = sweep(records, args.repo, digest_for, weeks, rules)
    elapsed = time.perf_counter() - started
    grouped = by_rule(found)
    source = (
        f"digests from {args.digests}" if args.digests else f"profile {args.profile or 'default'}"
    )
    print(f"# {args.repo}, {len(weeks)} weeks, {source} ({elapsed:.1f} s)")
    print(f"{'rule':<24} findings  weeks")
    for rule in rules:
        hits = grouped.get(rule, [])
        print(f"{rule:<24} {len(hits):>8}  {len({f.week for f in hits}):>5}")
    total = sum(len(v) for v in found.values())
    print(f"{'total':<24} {total:>8}  {sum(1 for v in found.values() if v):>5}")
    print(f"target: at most {len(weeks) // 20} (1 per 20 weeks)")
    for rule in rules:
        hits = grouped.get(rule, [])
        if hits:
            print(f"\n## {rule} ({len(hits)})")
            for finding in hits[: args.show]:
                print(f"- {finding.week}: {finding.excerpt} — {finding.why}")
    if args.new_dirs:
        _new_dirs(records, args.repo, weeks)


def _new_dirs(records: list[dict[str, Any]], repo: str, weeks: list[str]) -> None:
    print("\n## directories first created, by week (8 weeks of history first)")
    total = 0
    for label, start, window, knowledge in weekly(records, repo, weeks):
        if knowledge.history_spans(start):
            created = new_directories(window, knowledge)
            total += len(created)
            if created:
                print(f"- {label}: " + ", ".join(f"{d}/ ({n})" for d, n in created.items()))
    print(f"total: {total}")


if __name__ == "__main__":
    main()
