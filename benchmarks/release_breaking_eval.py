"""Score the release notes' breaking changes against a gold set (issue 31: "breaking
recall >= 0.70 at precision >= 0.90", drafting week by week).

For every gold week (`tests/data/gold/*.json`, or `--gold DIR`), the week's release notes
are written through the CLI as a user would (`release-notes REPO --since MON --until SUN`,
each repository synced from its records once), and the PRs linked under the breaking
section (`## Backwards Incompatible changes`, or `## Breaking changes` in the changelog
style) are compared with the gold's. It imports nothing of prdigest: it reads only the
notes' Markdown and the gold files, so the judge and the judged share no code.

    python3 benchmarks/release_breaking_eval.py                # every gold week with records
    python3 benchmarks/release_breaking_eval.py --weeks        # also one line per week
    python3 benchmarks/release_breaking_eval.py --gold DIR     # another gold set (fresh weeks)
    python3 benchmarks/release_breaking_eval.py --keep DIR     # keep the notes written
    python3 benchmarks/release_breaking_eval.py -- --style changelog   # options for release-notes

Records: ao and executorch from ../shared/data (the `*-patches.jsonl.gz` files); any other
repository from `$PRDIGEST_FETCHED` (default ../data) as OWNER+NAME.patches.jsonl.gz
(made from a clone with ../shared/data/tools: extract_git_prs.py, then add_patches.py).
Weeks without records are skipped, saying so.

- recall: share of the gold's breaking PRs linked in the breaking section;
- precision: share of the PRs linked there that the gold calls breaking, a deprecation,
  or lists as unsure.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "data" / "gold"
DATA = ROOT.parent / "shared" / "data"
FETCHED = Path(os.environ.get("PRDIGEST_FETCHED", ROOT.parent / "data"))
SHARED_RECORDS = {
    "pytorch/ao": DATA / "pytorch__ao" / "prs-2025Q4-2026Q1-patches.jsonl.gz",
    "pytorch/executorch": DATA / "pytorch__executorch" / "prs-2026Q1-patches.jsonl.gz",
}
GOALS = {"recall": 0.70, "precision": 0.90}
_HEADINGS = ("backwards incompatible changes", "breaking changes")
_CITE = re.compile(r"(?:pull/|(?<![\w/&])#)(\d{2,})\b")


def records_of(repo: str) -> Path:
    return SHARED_RECORDS.get(repo) or FETCHED / f"{repo.replace('/', '+')}.patches.jsonl.gz"


def week_days(week: str) -> tuple[str, str]:
    """`2026-W13` → (its Monday, its Sunday), ISO dates."""
    year, number = week.split("-W")
    monday = dt.date.fromisocalendar(int(year), int(number), 1)
    return monday.isoformat(), (monday + dt.timedelta(days=6)).isoformat()


def flagged(markdown: str) -> set[int]:
    """The PR numbers cited under the breaking section."""
    out: set[int] = set()
    inside = False
    for line in markdown.splitlines():
        if line.startswith("## "):
            inside = line[3:].replace("*", "").strip().lower() in _HEADINGS
            continue
        if inside:
            out |= {int(n) for n in _CITE.findall(line)}
    return out


@dataclass
class Score:
    name: str
    gold: int = 0  # gold breaking PRs
    found: int = 0  # of them, flagged
    cited: int = 0  # PRs flagged (of the gold weeks)
    right: int = 0  # of them, gold breaking, deprecation or unsure
    missed: list[int] = field(default_factory=list)
    wrong: list[int] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.gold += other.gold
        self.found += other.found
        self.cited += other.cited
        self.right += other.right
        self.missed += other.missed
        self.wrong += other.wrong


def score_week(gold: dict, markdown: str) -> Score:
    final = gold["reconciled"]
    prs = {int(n) for n in final["areas"]}
    breaking = {int(b["pr"]) for b in final["breaking"]}
    accepted = set(breaking)
    for key in ("deprecations", "unsure_breaking"):
        accepted |= {int(b["pr"]) for b in final.get(key, [])}
    cited = flagged(markdown) & prs
    return Score(
        f"{gold['repo']} {gold['week']}",
        len(breaking),
        len(cited & breaking),
        len(cited),
        len(cited & accepted),
        sorted(breaking - cited),
        sorted(cited - accepted),
    )


def _ratio(num: int, den: int) -> str:
    return f"{num / den:.2f} ({num}/{den})" if den else "– (0/0)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--gold", type=Path, default=GOLD, help="a folder of gold weeks")
    parser.add_argument("--keep", type=Path, help="keep the notes written in DIR")
    parser.add_argument("--weeks", action="store_true", help="print one line per week")
    parser.add_argument("extra", nargs="*", help="options for `prdigest release-notes` (after --)")
    args = parser.parse_args(argv)
    golds = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(args.gold.glob("*.json"))]
    missing = sorted({g["repo"] for g in golds if not records_of(g["repo"]).exists()})
    if missing:
        print(f"skipped, no records: {', '.join(missing)}", file=sys.stderr)
    golds = [g for g in golds if g["repo"] not in missing]
    if not golds:
        print(f"no gold weeks with records in {args.gold}", file=sys.stderr)
        return 1
    by_repo: dict[str, Score] = {}
    total = Score("all")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = Path(tmp) / "eval.db"
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        base = [sys.executable, "-m", "prdigest", "--db", str(db)]
        for repo in sorted({g["repo"] for g in golds}):
            subprocess.run([*base, "sync", repo, "--jsonl", str(records_of(repo))],
                           check=True, env=env, capture_output=True)  # fmt: skip
        for gold in golds:
            first, last = week_days(gold["week"])
            out = folder / f"{gold['repo'].split('/')[1]}-{gold['week']}.md"
            subprocess.run(
                [*base, "release-notes", gold["repo"], "--since", first, "--until", last,
                 "--out", str(out), *args.extra],
                check=True, env=env, capture_output=True,
            )  # fmt: skip
            week = score_week(gold, out.read_text(encoding="utf-8"))
            by_repo.setdefault(gold["repo"], Score(gold["repo"])).add(week)
            total.add(week)
            if args.weeks:
                print(f"{week.name}: recall {_ratio(week.found, week.gold)}, precision "
                      f"{_ratio(week.right, week.cited)}; missed {week.missed}, wrong {week.wrong}")  # fmt: skip
    for s in [*by_repo.values(), total]:
        print(f"{s.name}: recall {_ratio(s.found, s.gold)}, precision {_ratio(s.right, s.cited)}")
        if s is not total:
            print(f"  missed: {s.missed}\n  wrong: {s.wrong}")
    print(f"goals: recall >= {GOALS['recall']:.2f}, precision >= {GOALS['precision']:.2f}")
    met = total.gold and total.cited and total.found / total.gold >= GOALS["recall"]
    return 0 if met and total.right / total.cited >= GOALS["precision"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
