"""A round of blind editing: for each week, the raw PRs an editor reads (the gold set's
reading packets) beside the digest to judge, in one folder an editor who never sees our
code works in (`/work/editor/EDITOR_BRIEF.md` is the brief they follow).

    python3 benchmarks/editor_round.py --out /work/editor/final1 \\
        --records ../data astral-sh/uv:2026-W31 pytest-dev/pytest:2026-W28 ...
    python3 benchmarks/editor_round.py ... -- --writer llm --llm-base-url http://127.0.0.1:8080/v1

Each week gives `<name>-<week>.md` and `.full.md` (the PRs: title, body, files, diff) and
`<name>-<week>.digest.md` (the digest, written by the CLI as a user runs it, into a fresh
store synced from the repository's records). `--records DIR` holds fetched repositories'
records as `OWNER+NAME.patches.jsonl.gz` (made with ../shared/data/tools); pytorch/ao and
pytorch/executorch are read from ../shared/data. Anything after `--` goes to `prdigest
digest` (e.g. the LLM writer's options), and `--suffix` names those digests apart.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKETS = ROOT / "tests" / "data" / "gold" / "tools" / "packets.py"
DATA = ROOT.parent / "shared" / "data"
SHARED = {
    "pytorch/executorch": "pytorch__executorch/prs-2026Q1-patches.jsonl.gz",
    "pytorch/ao": "pytorch__ao/prs-2025Q4-2026Q1-patches.jsonl.gz",
}


def records_of(repo: str, records: Path) -> Path:
    if repo in SHARED:
        return DATA / SHARED[repo]
    return records / f"{repo.replace('/', '+')}.patches.jsonl.gz"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--records", type=Path, default=ROOT.parent / "data")
    parser.add_argument("--suffix", default="", help="digest file suffix (`.llm`)")
    parser.add_argument(
        "--db",
        type=Path,
        help="a store to keep (the model's briefs are made once); default: a fresh one",
    )
    parser.add_argument("weeks", nargs="+", help="OWNER/NAME:YYYY-Www, then -- digest options")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    weeks, extra = args.weeks, argv[cut + 1 :]
    args.out.mkdir(parents=True, exist_ok=True)
    repos = sorted({w.split(":")[0] for w in weeks})
    patches = [f"--patches={r}={records_of(r, args.records)}" for r in repos if r not in SHARED]
    subprocess.run(
        [
            sys.executable,
            str(PACKETS),
            "--data",
            str(DATA),
            "--out",
            str(args.out),
            *patches,
            *weeks,
        ],
        check=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        _digests(args.db or Path(tmp) / "round.db", repos, weeks, args, extra)
    return 0


def _digests(
    db: Path, repos: list[str], weeks: list[str], args: argparse.Namespace, extra: list[str]
) -> None:
    """Sync each repository's records into the store, then write each week's digest."""
    env = {**os.environ, "PRDIGEST_DB": str(db)}
    cli = [sys.executable, "-m", "prdigest", "--db", str(db)]
    for repo in repos:
        subprocess.run(
            [*cli, "sync", repo, "--jsonl", str(records_of(repo, args.records))],
            check=True,
            env=env,
            capture_output=True,
        )
    for spec in weeks:
        repo, week = spec.split(":")
        target = args.out / f"{repo.split('/')[1]}-{week}{args.suffix}.digest.md"
        subprocess.run(
            [*cli, "digest", repo, "--week", week, "--out", str(target), *extra],
            check=True,
            env=env,
        )
        print(target, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
