"""Every ISO week of a repository through the editorial check: the real records read
straight from the JSONL (not through the product), the digests made by the real product
(`pipeline.digest`, deterministic writer) from one synced store. Shared by
tests/test_editorial.py and benchmarks/editorial_report.py."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from editorial import Finding, check_digest
from editorial_repo import Knowledge, Record, landed

DigestFor = Callable[[str], str]  # ISO week → the digest's Markdown


def read_records(path: Path) -> list[dict[str, Any]]:
    text = (
        gzip.decompress(path.read_bytes()).decode("utf-8")
        if path.suffix == ".gz"
        else path.read_text(encoding="utf-8")
    )
    records = [
        json.loads(line) for line in text.split("\n") if line.strip()
    ]  # not splitlines: U+2028 sits in bodies
    return sorted(records, key=landed)


def iso_week(moment: datetime) -> str:
    year, week, _ = moment.isocalendar()
    return f"{year}-W{week:02d}"


def week_start(label: str) -> datetime:
    return datetime.strptime(label + "-1", "%G-W%V-%u").replace(tzinfo=UTC)


def weeks_of(records: Iterable[Record]) -> list[str]:
    return sorted({iso_week(landed(r)) for r in records})


def weekly(
    records: Sequence[Record], repo: str, weeks: Iterable[str] | None = None
) -> Iterator[tuple[str, datetime, list[Record], Knowledge]]:
    """(week, its first day, its records, what the history before it says) for each week,
    oldest first; the history is learned once, week after week (records oldest first)."""
    knowledge = Knowledge(repo)
    position = 0
    for label in sorted(weeks) if weeks is not None else weeks_of(records):
        start = week_start(label)
        end = start + timedelta(days=7)
        while position < len(records) and landed(records[position]) < start:
            knowledge.extend([records[position]])
            position += 1
        window = [r for r in records[position:] if landed(r) < end]
        yield label, start, window, knowledge


def sweep(
    records: Sequence[Record],
    repo: str,
    digest_for: DigestFor,
    weeks: Iterable[str] | None = None,
    rules: Iterable[str] | None = None,
) -> dict[str, list[Finding]]:
    """Findings per week."""
    return {
        label: check_digest(
            digest_for(label), repo, window, week=label, knowledge=knowledge, rules=rules
        )
        for label, _, window, knowledge in weekly(records, repo, weeks)
    }


def cli(*argv: str) -> str:
    """The product as a user runs it (in-process, through its CLI contract)."""
    from click.testing import CliRunner

    from prdigest.cli import main

    result = CliRunner().invoke(main, list(argv), catch_exceptions=False)
    if result.exit_code != 0:
        raise RuntimeError(f"prdigest {' '.join(argv)} failed: {result.output.strip()[-300:]}")
    return result.stdout


def sync(db: Path, repo: str, jsonl: Path) -> None:
    """Sync the records into a store (`db`); a `prdigest.toml` beside it keeps the user's
    configuration out."""
    config = db.with_suffix(".toml")
    config.touch()
    cli("--db", str(db), "--config", str(config), "sync", repo, "--jsonl", str(jsonl))


def product_digests(db: Path, repo: str, profile: str | None = None) -> DigestFor:
    """Digests written by the product (deterministic writer) from a store `sync` filled."""
    options = ["--profile", profile] if profile else []
    config = str(db.with_suffix(".toml"))

    def digest_for(label: str) -> str:
        return cli(
            "--db", str(db), "--config", config, "digest", repo, "--week", label,
            "--writer", "deterministic", *options,
        )  # fmt: skip

    return digest_for


def stored_digests(folder: Path, repo: str) -> DigestFor:
    """Digests already written to `folder/<name>-<week>.md` (e.g. /work/snap/base/digests)."""
    name = repo.split("/")[-1]

    def digest_for(label: str) -> str:
        path = folder / f"{name}-{label}.md"
        return path.read_text(encoding="utf-8") if path.exists() else ""

    return digest_for


def by_rule(found: dict[str, list[Finding]]) -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = {}
    for findings in found.values():
        for finding in findings:
            out.setdefault(finding.rule, []).append(finding)
    return out
