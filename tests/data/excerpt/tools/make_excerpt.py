"""Write tests/data/excerpt/ from the shared data: the real records the tests read when
`../shared/data` is absent (tests/conftest.py falls back to this folder, file by file).

    python3 tests/data/excerpt/tools/make_excerpt.py [--data ../shared/data] [--out tests/data/excerpt]

Each file keeps the shared file's name, format and order (gzip'd JSONL, oldest first), and
holds the records SELECTION names: the first N of the file (tests that take "the first
700 records" get the same ones), whole days (a week a test digests, and the week before,
which its trends compare with), and single PRs by number (a test that reads one PR's text).
The output is byte-for-byte reproducible (gzip without a timestamp). README.md says which
tests need what, and which read the whole history, so skip without the shared data.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Pick:
    first: int = 0  # the file's first N records
    days: tuple[tuple[str, str], ...] = ()  # (first day, last day), inclusive, UTC
    numbers: frozenset[int] = field(default_factory=frozenset)  # PRs, wherever they landed

    def wants(self, position: int, record: dict[str, object]) -> bool:
        if position < self.first or record.get("number") in self.numbers:
            return True
        day = str(record["committed_at"])[:10]
        return any(first <= day <= last for first, last in self.days)


def _week(iso: str) -> tuple[str, str]:
    """`2026-W07` → its Monday and Sunday."""
    year, week = iso.split("-W")
    monday = date.fromisocalendar(int(year), int(week), 1)
    sunday = date.fromisocalendar(int(year), int(week), 7)
    return monday.isoformat(), sunday.isoformat()


def _weeks(*names: str) -> tuple[tuple[str, str], ...]:
    return tuple(_week(name) for name in names)


def _numbers(*groups: str) -> frozenset[int]:
    """PR numbers, written as groups of space-separated numbers (one group a reason)."""
    return frozenset(int(n) for group in groups for n in group.split())


# What each file keeps, and why (README.md names the tests).
SELECTION: dict[str, Pick] = {
    "pytorch__executorch/prs.jsonl.gz": Pick(
        days=(
            ("2025-01-01", "2025-02-09"),  # its first 457 records, six weeks
            *_weeks("2025-W37", "2026-W01", "2026-W05", "2026-W06", "2026-W07"),
            ("2025-07-17", "2025-07-17"),  # a ghstack stack of four (#12519 …)
            ("2025-08-23", "2025-08-23"),  # a stack in three kinds (#13593 …)
        ),
        numbers=_numbers(
            "19206 18631 20746 7995 16125 18299 14090",  # claims
            "16408 16205 16417",  # grounding
            "8912 17430 12486 14404 13121 18740 9376 21030 7482 15289",  # rules
            "13684 13526 13640 19133 19099 19124 19092 19028",  # reverts
            "18669 19134 19136 19137",  # a back-out, a re-apply, its back-out (2026-W17)
            "8892 9396 7978 10376 10405 10417 10425 10455 10351 10395",  # release notes
            "9206 9570 9788 10098 14618 14848",  # series
            "14075 10982",  # a lone PR's theme; a quoted table
            "8355 12054 12582",  # titles that spell Qwen2.5 before 2025-W37
            "16865 15257",  # two 2026-W07 authors' earlier PRs: not first-timers (golden W07)
            "19811",  # a ghstack `Pull-Request:` trailer names its number
            "15247 15233 15239 15266 15139 15272 14873 15171 15275 15284 15287 15062",  # .png moved
            "22054",  # the last: the history spans what the shared data's does (site charts)
        ),
    ),
    "pytorch__ao/prs.jsonl.gz": Pick(
        first=2,  # a real first record, cut to make bad JSON
        days=(
            *_weeks("2025-W48", "2025-W50", "2025-W51", "2026-W01", "2026-W02"),
            *_weeks("2026-W03", "2026-W06", "2026-W07"),
            ("2026-06-01", "2026-08-31"),  # the GitHub tests sync from 2026-06-01 on
        ),
        numbers=_numbers(
            "1900 2103 2720 2868",  # PRs of 109 to 323 files
            "3727 3839 2351 3128 3376 2986 2950 3538 3571 3720",
            "3807 3818 3849 3859 3875 2079 2105 2106",  # reverts and relands
            "2659 2728 3101 3010 3185",  # titles that spell SmoothQuant before 2025-W51
        ),
    ),
}


# PyTorch's 1.11 worksheet, whole (2,222 rows: the trained model's tests need them all),
# gzip'd; tests/conftest.py writes it out as the CSV `classify` reads.
WORKSHEET = "pytorch_release_notes/commitlist-v1.11-dev.csv"


def excerpt(source: Path, pick: Pick) -> list[str]:
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        return [line for i, line in enumerate(lines) if pick.wants(i, json.loads(line))]


def write_gzip(path: Path, lines: list[str]) -> None:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as out:
        out.write("".join(lines).encode("utf-8"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parents[2].parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    total = 0
    for name, pick in SELECTION.items():
        lines = excerpt(args.data / name, pick)
        target = args.out / name
        write_gzip(target, lines)
        size = target.stat().st_size
        total += size
        print(f"{name}: {len(lines)} records, {size:,} bytes")
    sheet = args.out / (WORKSHEET + ".gz")
    write_gzip(sheet, [(args.data / WORKSHEET).read_bytes().decode("utf-8")])
    total += sheet.stat().st_size
    print(f"{WORKSHEET}.gz: {sheet.stat().st_size:,} bytes")
    print(f"total: {total:,} bytes")


if __name__ == "__main__":
    main()
