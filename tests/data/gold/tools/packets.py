"""Reading packets for the gold set's readers, made from the real data alone.

A packet is one ISO week of one repository: every PR that landed in it (committed_at in
[Monday 00:00 UTC, next Monday)), with its title, author, body, changed files with their
line counts and diffs. It is made from `../shared/data/*-patches.jsonl.gz` and nothing of
prdigest, so that the readers judge the PRs, never our output.

    python3 tests/data/gold/tools/packets.py --data ../shared/data --out /tmp/packets \
        pytorch/ao:2025-W47 pytorch/executorch:2026-W01
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
from pathlib import Path

PATCH_FILES = {
    "pytorch/executorch": "pytorch__executorch/prs-2026Q1-patches.jsonl.gz",
    "pytorch/ao": "pytorch__ao/prs-2025Q4-2026Q1-patches.jsonl.gz",
}
DIFF_CHARS = 5000  # per PR in the packet; the full diff is in the week's full file


def week_bounds(week: str) -> tuple[dt.datetime, dt.datetime]:
    year, number = week.split("-W")
    start = dt.datetime.fromisocalendar(int(year), int(number), 1).replace(tzinfo=dt.UTC)
    return start, start + dt.timedelta(days=7)


def week_records(
    data: Path, repo: str, week: str, patches: dict[str, Path] | None = None
) -> list[dict]:
    start, end = week_bounds(week)
    by_number: dict[int, dict] = {}
    source = (patches or {}).get(repo) or data / PATCH_FILES[repo]
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            landed = dt.datetime.fromisoformat(record["committed_at"].replace("Z", "+00:00"))
            if record["number"] is None or not start <= landed < end:
                continue
            by_number.setdefault(record["number"], record)  # a reland keeps its first landing
    return sorted(by_number.values(), key=lambda r: r["committed_at"])


def render(record: dict, diff_chars: int | None) -> str:
    files = record["files"]
    added = sum(f.get("additions") or 0 for f in files)
    removed = sum(f.get("deletions") or 0 for f in files)
    out = [
        f"## PR #{record['number']}: {record['title']}",
        f"author: {record['author_name']} <{record['author_email']}> · landed "
        f"{record['committed_at']} · {len(files)} files, +{added} −{removed}",
        "",
        "### Body",
        (record["body"] or "(empty)").strip(),
        "",
        "### Files",
    ]
    for f in files:
        moved = f" (renamed from {f['old_path']})" if f.get("old_path") else ""
        out.append(f"- {f['path']}{moved}: +{f.get('additions')} −{f.get('deletions')}")
    diff = "\n".join(f"--- {f['path']}\n{f['patch']}" for f in files if f.get("patch"))
    if diff_chars is not None and len(diff) > diff_chars:
        diff = diff[:diff_chars] + f"\n… (diff cut here: {len(diff):,} chars in the full file)"
    out += ["", "### Diff", "```diff", diff or "(no diff)", "```", ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--patches",
        action="append",
        default=[],
        metavar="OWNER/NAME=FILE",
        help="a repository's patch file made with ../shared/data/tools (fetched repositories)",
    )
    parser.add_argument("weeks", nargs="+", help="OWNER/NAME:YYYY-Www")
    args = parser.parse_args()
    patches = {k: Path(v) for k, v in (spec.split("=", 1) for spec in args.patches)}
    args.out.mkdir(parents=True, exist_ok=True)
    for spec in args.weeks:
        repo, week = spec.split(":")
        records = week_records(args.data, repo, week, patches)
        stem = f"{repo.split('/')[1]}-{week}"
        head = f"# {repo}, {week}: {len(records)} PRs\n\n"
        for suffix, chars in (("", DIFF_CHARS), (".full", None)):
            text = head + "\n".join(render(r, chars) for r in records)
            (args.out / f"{stem}{suffix}.md").write_text(text, encoding="utf-8")
        print(f"{stem}: {len(records)} PRs")


if __name__ == "__main__":
    main()
