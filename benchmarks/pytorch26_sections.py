"""Section accuracy on PyTorch 2.6's release-notes bullets, through the release notes
themselves (issue 31: "PyTorch 2.6 bullets: section accuracy >= 0.70 with the pytorch
profile"): each entry of the notes (`pytorch26_kinds.read_entries`: its `##` section is
its kind) becomes a landed PR record with its title and number (the notes give no body or
diff), the records are synced, and `prdigest release-notes pytorch/pytorch --profile
pytorch --worksheet` files them; an entry's section is its worksheet row's topic (the
brief's kind: the one judgment the digest uses too). Printed: accuracy, per-section
precision and recall, and the confusion table (rows: PyTorch's section; columns: ours).

    python3 benchmarks/pytorch26_sections.py                 # the seeds' excerpt
    python3 benchmarks/pytorch26_sections.py --seed FILE     # another copy of the notes
    python3 benchmarks/pytorch26_sections.py --keep DIR      # keep records and worksheet

It imports nothing of prdigest: it runs the CLI as a user would.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pytorch26_kinds import SECTIONS, Entry, find_seed, read_entries

ROOT = Path(__file__).resolve().parent.parent
REPO = "pytorch/pytorch"
KINDS = list(dict.fromkeys(SECTIONS.values())) + ["not_user_facing"]
GOAL = 0.70
_START = datetime(2024, 10, 1, tzinfo=UTC)


def records(entries: list[Entry]) -> list[dict[str, object]]:
    """One landed PR per entry: its first PR number (or a number of its own), its title."""
    out = []
    for i, entry in enumerate(entries):
        number = int(entry.prs[0]) if entry.prs else 900000 + i
        when = (_START + timedelta(minutes=10 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        out.append(
            {
                "repo": REPO,
                "number": number,
                "number_source": "title",
                "sha": f"{i:08x}".ljust(40, "0"),
                "parents": [],
                "title": entry.title,
                "body": "",
                "author_name": "PyTorch",
                "author_email": "",
                "committer_name": "",
                "committer_email": "",
                "committed_at": when,
                "authored_at": when,
                "files": [],
                "trailers": {},
            }
        )
    return out


_TOPICS = {kind: kind for kind in KINDS} | {"module: deprecation": "deprecation"}


def worksheet_entries(path: Path) -> list[Entry]:
    """The rows of a PyTorch worksheet that carry a topic, as entries (title without its
    `(#N)`, which becomes the record's number)."""
    out = []
    with path.open(encoding="utf-8", newline="") as handle:
        for i, row in enumerate(csv.reader(handle)):
            if len(row) < 4 or row[2] not in _TOPICS:
                continue
            title = re.sub(r"\s*\(#(\d+)\)\s*$", "", row[3])
            number = re.search(r"\(#(\d+)\)\s*$", row[3])
            link = f" ([#{number.group(1)}](u))" if number else ""
            out.append(Entry(i + 1, _TOPICS[row[2]], row[1], title + link))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=Path, help="the release notes (default: the seeds' excerpt)")
    parser.add_argument("--keep", type=Path, help="keep the records and the worksheet here")
    parser.add_argument(
        "--labels",
        type=Path,
        help="a PyTorch worksheet CSV (commit_hash, category, topic, title) instead: its rows "
        "with a topic (e.g. ../shared/data/pytorch_release_notes/commitlist-v1.11-dev.csv)",
    )
    args = parser.parse_args()
    if args.labels is not None:
        seed, entries = args.labels, worksheet_entries(args.labels)
    else:
        found = find_seed(args.seed)
        if found is None:
            print("skipped: PyTorch 2.6's notes are absent (PRDIGEST_SEEDS)", file=sys.stderr)
            return 0
        seed, entries = found, read_entries(found.read_text(encoding="utf-8"))
    made = records(entries)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        source, sheet = folder / "pytorch26.jsonl", folder / "pytorch26.csv"
        source.write_text("".join(json.dumps(r) + "\n" for r in made), encoding="utf-8")
        sheet.unlink(missing_ok=True)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        days = [str(r["committed_at"])[:10] for r in made]
        command = [
            sys.executable, "-m", "prdigest", "--db", str(Path(tmp) / "p.db"), "release-notes",
            REPO, "--jsonl", str(source), "--since", min(days), "--until", max(days),
            "--profile", "pytorch", "--style", "pytorch", "--worksheet", str(sheet),
            "--out", str(folder / "pytorch26.md"),
        ]  # fmt: skip
        print("$ prdigest " + " ".join(command[5:]), flush=True)
        subprocess.run(command, check=True, env=env, capture_output=True)
        with sheet.open(encoding="utf-8", newline="") as handle:
            topic = {row["commit_hash"]: row["topic"] for row in csv.DictReader(handle)}
    pairs = [(e.kind, topic[str(r["sha"])]) for e, r in zip(entries, made, strict=True)]
    right = sum(gold == ours for gold, ours in pairs)
    print(f"{seed.name}: {len(pairs)} entries")
    print(f"section accuracy: {right / len(pairs):.3f} ({right}/{len(pairs)}), goal >= {GOAL:.2f}")
    confusion = Counter(pairs)
    used = [k for k in KINDS if any(k in pair for pair in confusion)]
    print("\nPyTorch's section (rows) by ours (columns):\n")
    print("| | " + " | ".join(used) + " | recall |")
    print("| --- |" + " --- |" * (len(used) + 1))
    for gold in used:
        total = sum(n for (g, _), n in confusion.items() if g == gold)
        if not total:
            continue
        cells = " | ".join(str(confusion.get((gold, ours), "")) for ours in used)
        print(f"| {gold} | {cells} | {confusion.get((gold, gold), 0) / total:.2f} |")
    return 0 if right / len(pairs) >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
