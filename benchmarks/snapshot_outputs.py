"""Write every output of the real data into a folder, to compare two trees byte for byte.

    python benchmarks/snapshot_outputs.py OUTDIR [--weeks N] [--repo executorch|ao]

Syncs the real records (each repository's full history, then its patched quarter(s), so
the diffs are there) into a fresh SQLite store through the CLI, then writes, through the
CLI: every ISO week's digest as Markdown and as JSON (`--format json`), the release notes
of each quarter, a `site build`, and the stored reports' contexts (the store's edge).
Run it on two trees and compare with `diff -r`: a refactoring must leave it unchanged.
`--weeks N` keeps the last N weeks of each repository (a quick check while working).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import SHARED_DATA, need  # noqa: E402

from prdigest.cli import main  # noqa: E402

REPOS = {
    "executorch": (
        "pytorch/executorch",
        ["prs.jsonl.gz", "prs-2026Q1-patches.jsonl.gz"],
    ),
    "ao": ("pytorch/ao", ["prs.jsonl.gz", "prs-2025Q4-2026Q1-patches.jsonl.gz"]),
}
QUARTERS = {
    1: ("01-01", "03-31"),
    2: ("04-01", "06-30"),
    3: ("07-01", "09-30"),
    4: ("10-01", "12-31"),
}


def run(args: list[str]) -> None:
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    if result.exit_code != 0:
        sys.exit(f"prdigest {' '.join(args)} failed ({result.exit_code}): {result.output}")


def weeks_of(folder: Path) -> list[str]:
    return sorted(json.loads((folder / "summary.json").read_text())["per_iso_week"])


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--weeks", type=int, default=0, help="only the last N weeks of each repo")
    parser.add_argument("--repo", choices=sorted(REPOS), action="append")
    args = parser.parse_args()
    for key in ("OPENAI_BASE_URL", "PRDIGEST_LLM_MODEL", "OPENAI_API_KEY", "PRDIGEST_CONFIG"):
        os.environ.pop(key, None)  # the deterministic writer only: no server is asked
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "snapshot.db")
        os.chdir(tmp)  # no prdigest.toml of the working directory is read
        for key in args.repo or sorted(REPOS):
            repo, files = REPOS[key]
            folder = need(SHARED_DATA / repo.replace("/", "__"))
            for name in files:
                run(["--db", db, "sync", repo, "--jsonl", str(need(folder / name))])
            weeks = weeks_of(folder)
            # the first week has no week before it in the data; the last may be partial
            weeks = weeks[1:-1][-args.weeks :] if args.weeks else weeks[1:-1]
            for week in weeks:
                for fmt in ("md", "json"):
                    target = out / "digest" / key / f"{week}.{fmt}"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    base = ["--db", db, "digest", repo, "--week", week, "--writer", "deterministic"]
                    run([*base, "--format", fmt, "--out", str(target)])
            years = sorted({w[:4] for w in weeks})
            for year in years:
                for q, (first, last) in QUARTERS.items():
                    if not any(_quarter(w) == (year, q) for w in weeks):
                        continue
                    target = out / "release-notes" / key / f"{year}Q{q}.md"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    since, until = f"{year}-{first}", f"{year}-{last}"
                    run(
                        ["--db", db, "release-notes", repo, "--since", since, "--until", until]
                        + ["--out", str(target)]
                    )
        run(["--db", db, "site", "build", "--out", str(out / "site")])
        _stored_contexts(db, out / "stored")


def _quarter(iso_week: str) -> tuple[str, int]:
    from prdigest.timeutil import iso_week_window

    day = iso_week_window(iso_week).first_day
    return str(day.year), (day.month - 1) // 3 + 1


def _stored_contexts(db: str, folder: Path) -> None:
    """The contexts as the store keeps them (the other edge besides `--format json`)."""
    folder.mkdir()
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT r.name, kind, window_start, window_end, writer, title, context"
            " FROM reports JOIN repositories r ON r.id = reports.repo_id"
            " ORDER BY r.name, kind, window_start, writer"
        ).fetchall()
    for repo, kind, start, end, writer, title, context in rows:
        name = f"{repo.replace('/', '__')}-{kind}-{start}-{end}-{writer}.json"
        (folder / name).write_text(f"{title}\n{context}\n", encoding="utf-8")


if __name__ == "__main__":
    main_()
