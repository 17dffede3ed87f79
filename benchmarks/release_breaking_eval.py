"""Score the release notes' Backwards Incompatible changes against the gold set of
`tests/data/gold/` (issue "Release notes a release manager would publish").

For each repository of the gold set, the release notes of the gold weeks' whole range
are written (or read, with `--notes DIR`), and the PRs linked under `## Backwards
Incompatible changes` are compared with the gold's. Like `judgment_eval.py`, it imports
nothing of prdigest: it runs the CLI as a user would, and reads only the notes' Markdown
and the gold files, so the judge and the judged share no code.

    python3 benchmarks/release_breaking_eval.py               # sync the real data, write, score
    python3 benchmarks/release_breaking_eval.py --notes DIR   # score DIR/<name>.md already written
    python3 benchmarks/release_breaking_eval.py --keep DIR    # also keep the notes written

Only PRs of the gold weeks are scored (the range holds weeks nobody labelled):
- recall: share of gold breaking PRs linked in Backwards Incompatible changes.
- precision: share of the PRs linked there (and in a gold week) that the gold calls
  breaking, a deprecation, or lists as unsure.
Goals: recall >= 0.60, precision >= 0.90.
"""

from __future__ import annotations

import argparse
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
# repository → (patch file, first day, last day of the gold weeks' range)
RANGES = {
    "pytorch/ao": ("pytorch__ao/prs-2025Q4-2026Q1-patches.jsonl.gz", "2025-10-13", "2026-03-15"),
    "pytorch/executorch": (
        "pytorch__executorch/prs-2026Q1-patches.jsonl.gz",
        "2026-01-05",
        "2026-01-18",
    ),
}
GOALS = {"recall": 0.60, "precision": 0.90}
_BC_HEADING = "## backwards incompatible changes"
_CITE = re.compile(r"(?:pull/|(?<![\w/&])#)(\d{2,})\b")


@dataclass
class Gold:
    prs: set[int] = field(default_factory=set)  # every PR of the gold weeks
    breaking: set[int] = field(default_factory=set)
    accepted: set[int] = field(default_factory=set)  # breaking, deprecation or unsure


def load_gold(repo: str) -> Gold:
    gold = Gold()
    for path in sorted(GOLD.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["repo"] != repo:
            continue
        rec = data["reconciled"]
        gold.prs |= {int(n) for n in rec["areas"]}
        gold.breaking |= {int(b["pr"]) for b in rec["breaking"]}
        for key in ("breaking", "deprecations", "unsure_breaking"):
            gold.accepted |= {int(b["pr"]) for b in rec.get(key, [])}
    return gold


def flagged(markdown: str) -> set[int]:
    """The PR numbers cited under `## Backwards Incompatible changes`."""
    out: set[int] = set()
    inside = False
    for line in markdown.splitlines():
        if line.startswith("## "):
            inside = line.strip().strip("*").lower().replace("*", "") == _BC_HEADING
            continue
        if inside:
            out |= {int(n) for n in _CITE.findall(line)}
    return out


def write_notes(repo: str, out: Path, db: Path) -> None:
    patches, first, last = RANGES[repo]
    source = DATA / patches
    if not source.exists():
        sys.exit(f"{source} is missing: this benchmark needs ../shared/data")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    base = [sys.executable, "-m", "prdigest", "--db", str(db)]
    subprocess.run([*base, "sync", repo, "--jsonl", str(source)], check=True, env=env,
                   capture_output=True)  # fmt: skip
    subprocess.run(
        [*base, "release-notes", repo, "--since", first, "--until", last, "--out", str(out)],
        check=True,
        env=env,
        capture_output=True,
    )


@dataclass
class Score:
    repo: str
    gold_breaking: int
    flagged: int  # PRs of the gold weeks linked under Backwards Incompatible changes
    found: int  # of them, gold breaking
    right: int  # of them, gold breaking, deprecation or unsure
    missed: list[int]
    wrong: list[int]


def score(repo: str, markdown: str) -> Score:
    gold = load_gold(repo)
    cited = flagged(markdown) & gold.prs
    return Score(
        repo,
        len(gold.breaking),
        len(cited),
        len(cited & gold.breaking),
        len(cited & gold.accepted),
        sorted(gold.breaking - cited),
        sorted(cited - gold.accepted),
    )


def _ratio(num: int, den: int) -> str:
    return f"{num / den:.2f} ({num}/{den})" if den else "– (0/0)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--notes", type=Path, help="read DIR/<owner>__<name>.md instead of writing")
    parser.add_argument("--keep", type=Path, help="keep the notes written in DIR")
    args = parser.parse_args(argv)
    scores = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.notes or args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for repo in RANGES:
            path = folder / (repo.replace("/", "__") + ".md")
            if args.notes is None:
                write_notes(repo, path, Path(tmp) / "eval.db")
            scores.append(score(repo, path.read_text(encoding="utf-8")))
    for s in scores:
        print(
            f"{s.repo}: recall {_ratio(s.found, s.gold_breaking)}, "
            f"precision {_ratio(s.right, s.flagged)}"
        )
        print(f"  missed: {s.missed}\n  wrong: {s.wrong}")
    found, gold = sum(s.found for s in scores), sum(s.gold_breaking for s in scores)
    right, cited = sum(s.right for s in scores), sum(s.flagged for s in scores)
    print(
        f"all: recall {_ratio(found, gold)} (goal >= {GOALS['recall']:.2f}), "
        f"precision {_ratio(right, cited)} (goal >= {GOALS['precision']:.2f})"
    )
    ok = gold and cited and found / gold >= GOALS["recall"] and right / cited >= GOALS["precision"]
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
