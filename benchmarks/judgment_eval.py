"""Score weekly digests against the gold set of `tests/data/gold/` (issue "Judgment").

The scorer reads what a reader reads: the digest's Markdown, and its `--format json` only
for the area each PR was filed under. It imports nothing of prdigest: it runs the CLI as a
user would (or reads digests already written with `--digests DIR`), so the judge and the
judged never share code.

    python3 benchmarks/judgment_eval.py                      # sync the real data, write, score
    python3 benchmarks/judgment_eval.py --writer llm ...     # any extra digest options after --
    python3 benchmarks/judgment_eval.py --digests DIR        # score DIR/<repo>-<week>.md/.json

The fetched repositories' weeks (diffusers, mypy, nushell, tinygrad, trl) need their records
in $PRDIGEST_FETCHED (default ../data): see FETCHED below; weeks without records are skipped.

Metrics (one row per repository, then all):
- lead@3: share of the gold top-3 PRs cited in Key Takeaways.
- top cited: share of the gold top-3 PRs cited anywhere in the digest.
- breaking recall: share of gold breaking PRs the digest flags as breaking.
- breaking precision: share of PRs the digest flags as breaking or deprecation that the gold
  calls breaking or deprecation (or lists as unsure).
- series precision: share of the digest's lines speaking of a series (or part n/m) whose
  cited PRs all lie in one gold series.
- area F1: pairwise F1 of "same area" between the digest's JSON areas and the gold's;
  printed beside it, the same F1 between each week's two readers (how far people agree).
- words: median words per digest (links not counted), over the weeks of 6–48 PRs as the
  issue measures it; "words, all weeks" over every gold week.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "data" / "gold"
DATA = ROOT.parent / "shared" / "data"
PATCH_FILES = {
    "pytorch/executorch": "pytorch__executorch/prs-2026Q1-patches.jsonl.gz",
    "pytorch/ao": "pytorch__ao/prs-2025Q4-2026Q1-patches.jsonl.gz",
}
# Repositories fetched for the gold set (never shipped, never tuned to): their records are
# made from a clone with ../shared/data/tools (extract_git_prs.py, then add_patches.py)
# into `--fetched DIR` as OWNER+NAME.patches.jsonl.gz.
FETCHED = Path(os.environ.get("PRDIGEST_FETCHED", ROOT.parent / "data"))
GOALS = {
    "lead@3": ">= 0.70",
    "top cited": ">= 0.95",
    "breaking recall": ">= 0.60",
    "breaking precision": ">= 0.90",
    "series precision": ">= 0.90",
    "area F1": ">= 0.75",
    "words": "<= 250",
    "words, all weeks": "",
}
SMALL_WEEK = range(0, 21)  # the weeks the words goal is for: up to 20 PRs

_CITE = re.compile(r"(?:PR#|pull/|(?<![\w/&])#)(\d{2,})\b")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SERIES = re.compile(r"\bseries\b|\bpart\s+\d+\s*(?:/|of)\s*\d+|\[\d+/\d+\]", re.I)
_FLAG = re.compile(r"^\s*[*-]\s+\*\*(Breaking|Deprecation|New default)[^*]*:?\*\*", re.I)
_WORD = re.compile(r"[A-Za-z0-9][\w'’.-]*")


@dataclass
class Digest:
    markdown: str
    areas: dict[int, str]  # PR → the area the digest filed it under

    def section(self, heading: str) -> str:
        """The text under `### heading` up to the next heading or rule."""
        lines, inside = [], False
        for line in self.markdown.splitlines():
            if line.startswith("#"):
                inside = line.lstrip("#").strip().lower().startswith(heading.lower())
                continue
            if inside and line.strip() == "---":
                break
            if inside:
                lines.append(line)
        return "\n".join(lines)

    def cited(self, text: str | None = None) -> set[int]:
        return {int(n) for n in _CITE.findall(self.markdown if text is None else text)}

    def flagged(self) -> dict[int, str]:
        """PR → breaking | deprecation: the bullets of a section headed "Breaking …" or
        "Deprecations", or bullets labelled so (a changed default users must act on is a
        breaking claim)."""
        out: dict[int, str] = {}
        under = ""
        for line in self.markdown.splitlines():
            if line.startswith("#"):
                heading = line.lower()
                under = (
                    "breaking"
                    if "breaking" in heading or "backwards incompatible" in heading
                    else "deprecation"
                    if "deprecation" in heading
                    else ""
                )
                continue
            match = _FLAG.match(line)
            kind = under
            if match:
                kind = "deprecation" if match.group(1).lower() == "deprecation" else "breaking"
            if kind and line.lstrip().startswith(("*", "-")):
                for number in self.cited(line):
                    out.setdefault(number, kind)
        return out

    def series_lines(self) -> list[set[int]]:
        return [
            self.cited(line)
            for line in self.markdown.splitlines()
            if _SERIES.search(line) and self.cited(line)
        ]

    def words(self) -> int:
        text = _LINK.sub(lambda m: "" if _CITE.fullmatch(m.group(1)) else m.group(1), self.markdown)
        text = re.sub(r"https?://\S+", "", text)
        return len(_WORD.findall(text))


@dataclass
class Tally:
    hits: dict[str, list[int]] = field(default_factory=dict)  # metric → [numerator, denominator]
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0])  # true pos, digest pos, gold pos
    words: list[int] = field(default_factory=list)  # weeks of 6–48 PRs
    all_words: list[int] = field(default_factory=list)

    def add(self, metric: str, got: int, of: int) -> None:
        row = self.hits.setdefault(metric, [0, 0])
        row[0] += got
        row[1] += of

    def merge(self, other: Tally) -> None:
        for metric, (got, of) in other.hits.items():
            self.add(metric, got, of)
        self.pairs = [a + b for a, b in zip(self.pairs, other.pairs, strict=True)]
        self.words += other.words
        self.all_words += other.all_words

    def row(self) -> dict[str, str]:
        out = {}
        for metric in (
            "lead@3",
            "top cited",
            "breaking recall",
            "breaking precision",
            "series precision",
        ):
            got, of = self.hits.get(metric, [0, 0])
            out[metric] = f"{got / of:.2f} ({got}/{of})" if of else "—"
        tp, digest_pos, gold_pos = self.pairs
        precision = tp / digest_pos if digest_pos else 0.0
        recall = tp / gold_pos if gold_pos else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out["area F1"] = f"{f1:.2f}"
        out["words"] = f"{statistics.median(self.words):.0f}" if self.words else "—"
        out["words, all weeks"] = f"{statistics.median(self.all_words):.0f}"
        return out


def score_week(gold: dict, digest: Digest) -> Tally:
    tally = Tally()
    final = gold["reconciled"]
    top = [row["pr"] for row in final["top3"]]
    lead = digest.cited(digest.section("Key Takeaways"))
    everywhere = digest.cited()
    tally.add("lead@3", sum(n in lead for n in top), len(top))
    tally.add("top cited", sum(n in everywhere for n in top), len(top))

    breaking = {row["pr"] for row in final["breaking"]}
    acceptable = (
        breaking
        | {row["pr"] for row in final["deprecations"]}
        | {row["pr"] for row in final.get("unsure_breaking", [])}
    )
    flagged = digest.flagged()
    tally.add("breaking recall", sum(flagged.get(n) == "breaking" for n in breaking), len(breaking))
    tally.add("breaking precision", sum(n in acceptable for n in flagged), len(flagged))

    series = [set(row["prs"]) for row in final["series"]]
    lines = digest.series_lines()
    tally.add("series precision", sum(any(c <= s for s in series) for c in lines), len(lines))

    gold_areas = {int(n): a for n, a in final["areas"].items()}
    shared = sorted(set(gold_areas) & set(digest.areas))
    for a, b in itertools.combinations(shared, 2):
        same_gold = gold_areas[a] == gold_areas[b]
        same_digest = digest.areas[a] == digest.areas[b]
        tally.pairs[0] += same_gold and same_digest
        tally.pairs[1] += same_digest
        tally.pairs[2] += same_gold
    words = digest.words()
    tally.all_words.append(words)
    if gold["prs"] in SMALL_WEEK:
        tally.words.append(words)
    return tally


def readers_agreement(golds: list[dict]) -> dict[str, float]:
    """Area F1 between each week's two readers (pooled pairs), per repository and all: how
    far two people who read every PR agree, the ceiling a digest's area F1 can be read
    against."""
    pairs: dict[str, list[int]] = {}
    for gold in golds:
        first, second = (
            {int(n): a for n, a in reader["areas"].items()}
            for reader in list(gold["readers"].values())[:2]
        )
        shared = sorted(set(first) & set(second))
        for name in (gold["repo"], "all"):
            row = pairs.setdefault(name, [0, 0, 0])
            for a, b in itertools.combinations(shared, 2):
                one, two = first[a] == first[b], second[a] == second[b]
                row[0] += one and two
                row[1] += one
                row[2] += two
    return {
        name: 2 * tp / (one + two) if one + two else 0.0 for name, (tp, one, two) in pairs.items()
    }


def gold_weeks(folder: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def stem(gold: dict) -> str:
    return f"{gold['repo'].split('/')[1]}-{gold['week']}"


def source_of(repo: str) -> Path:
    """The records of a repository: the shared data, or a fetched repository's."""
    if repo in PATCH_FILES:
        return DATA / PATCH_FILES[repo]
    return FETCHED / f"{repo.replace('/', '+')}.patches.jsonl.gz"


def write_digests(golds: list[dict], out: Path, extra: list[str]) -> None:
    """Sync each repository's real data into a fresh database and write every gold week."""
    db = out / "eval.db"
    env = {**os.environ, "PRDIGEST_DB": str(db)}
    prdigest = [sys.executable, "-m", "prdigest", "--db", str(db)]
    for repo in sorted({g["repo"] for g in golds}):
        source = source_of(repo)
        subprocess.run(
            [*prdigest, "sync", repo, "--jsonl", str(source)],
            check=True,
            env=env,
            capture_output=True,
        )
    for gold in golds:
        base = [*prdigest, "digest", gold["repo"], "--week", gold["week"], *extra]
        for fmt in ("md", "json"):
            target = out / f"{stem(gold)}.{fmt}"
            subprocess.run(
                [*base, "--format", fmt, "--out", str(target)],
                check=True,
                env=env,
                capture_output=True,
            )


def read_digest(folder: Path, gold: dict) -> Digest:
    markdown = (folder / f"{stem(gold)}.md").read_text(encoding="utf-8")
    context = json.loads((folder / f"{stem(gold)}.json").read_text(encoding="utf-8"))
    areas = {int(n): pr["area"] for n, pr in context.get("prs", {}).items()}
    return Digest(markdown, areas)


def table(rows: dict[str, dict[str, str]]) -> str:
    metrics = list(GOALS)
    lines = [
        "| metric | " + " | ".join(rows) + " | goal |",
        "| --- | " + " | ".join("---" for _ in rows) + " | --- |",
    ]
    for metric in metrics:
        cells = " | ".join(rows[name][metric] for name in rows)
        lines.append(f"| {metric} | {cells} | {GOALS[metric]} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--digests", type=Path, help="score digests already written here")
    parser.add_argument(
        "--keep", type=Path, help="write the digests here (kept) instead of a temp dir"
    )
    parser.add_argument("--weeks", action="store_true", help="also print one row per week")
    parser.add_argument("--repos", help="only these repositories (OWNER/NAME,…)")
    parser.add_argument("extra", nargs="*", help="options for `prdigest digest` (after --)")
    args = parser.parse_args()
    golds = gold_weeks(args.gold)
    if args.repos:
        golds = [g for g in golds if g["repo"] in args.repos.split(",")]
    if not golds:
        print(f"no gold weeks in {args.gold}", file=sys.stderr)
        return 1
    missing = sorted({g["repo"] for g in golds if not source_of(g["repo"]).exists()})
    if args.digests is None and missing:
        print(f"skipped, no records: {', '.join(missing)} (see FETCHED)", file=sys.stderr)
        golds = [g for g in golds if g["repo"] not in missing]
    if not golds:
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.digests or args.keep or Path(tmp)
        if args.digests is None:
            folder.mkdir(parents=True, exist_ok=True)
            write_digests(golds, folder, args.extra)
        totals: dict[str, Tally] = {}
        per_week: dict[str, dict[str, str]] = {}
        for gold in golds:
            tally = score_week(gold, read_digest(folder, gold))
            per_week[stem(gold)] = tally.row()
            for name in (gold["repo"], "all"):
                totals.setdefault(name, Tally()).merge(tally)
    if args.weeks:
        print(table(per_week) + "\n")
    order = sorted(name for name in totals if name != "all") + ["all"]
    print(table({name: totals[name].row() for name in order}))
    agreement = readers_agreement(golds)
    print(
        "\nThe readers' own agreement on areas (area F1 between each week's two readers): "
        + ", ".join(f"{name} {agreement[name]:.2f}" for name in order)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
