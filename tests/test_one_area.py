"""One PR, one area (issue 23, item 6): the digest, `classify explain`, the release notes'
worksheet and the site's charts file every PR under the area its week's digest gives it.

The generic profile derives areas from the PRs it classifies together; classified over a
quarter, pytorch/ao's PRs of 2026-01-05..11 landed in areas no week has ("Quantization:
PT2E" where their digest says "Quantization")."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from helpers import run_cli

WEEK, MONDAY = "2026-W02", "2026-01-05"
NEXT_MONDAY = "2026-01-12"  # a week no digest is stored for when the site is built


@pytest.fixture
def ao_generic(ao_jsonl: Path, tmp_path: Path) -> tuple[Path, Path]:
    config = tmp_path / "prdigest.toml"
    config.write_text('[repos."pytorch/ao"]\nprofile = "generic"\n', encoding="utf-8")
    db = tmp_path / "ao.db"
    synced = run_cli("--config", str(config), "sync", "pytorch/ao", "--jsonl", str(ao_jsonl), db=db)
    assert synced.exit_code == 0, synced.stderr
    return db, config


def _digest_areas(db: Path, config: Path, week: str) -> dict[int, str]:
    result = run_cli(
        "--config", str(config), "digest", "pytorch/ao", "--week", week, "--format", "json", db=db
    )
    assert result.exit_code == 0, result.stderr
    context = json.loads(result.stdout)
    return {number: area["name"] for area in context["areas"] for number in area["prs"]}


def test_release_notes_worksheet_and_explain_file_a_pr_as_its_digest(
    ao_generic: tuple[Path, Path], tmp_path: Path
) -> None:
    db, config = ao_generic
    digest = _digest_areas(db, config, WEEK)
    assert len(digest) >= 20
    worksheet = tmp_path / "notes.csv"
    notes = run_cli(
        "--config", str(config), "release-notes", "pytorch/ao", "--since", "2026-01-01",
        "--until", "2026-03-31", "--worksheet", str(worksheet), db=db,
    )  # fmt: skip
    assert notes.exit_code == 0, notes.stderr
    with worksheet.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    filed = {
        int(row["pr_link"].rsplit("/", 1)[1]): row["category"] for row in rows if row["pr_link"]
    }
    differ = {n: (area, filed[n]) for n, area in digest.items() if filed[n] != area}
    assert not differ, f"digest area vs worksheet category: {differ}"
    for number in (3538, 3571):  # the quarter made an area "Quantization: PT2E" of them
        explained = run_cli(
            "--config", str(config), "classify", "explain", "pytorch/ao", str(number), db=db
        )
        assert explained.exit_code == 0, explained.stderr
        assert f"area: {digest[number]}  (" in explained.stdout


def test_the_site_charts_a_week_as_its_digest_counts_it(
    ao_generic: tuple[Path, Path], tmp_path: Path
) -> None:
    db, config = ao_generic
    _digest_areas(db, config, WEEK)  # something stored, so the repository is published
    site = tmp_path / "site"
    built = run_cli("--config", str(config), "site", "build", "--out", str(site), db=db)
    assert built.exit_code == 0, built.stderr
    page = (site / "repos" / "pytorch-ao.html").read_text(encoding="utf-8")
    charted = {
        area: int(n)
        for n, area in re.findall(rf"<title>week of {NEXT_MONDAY}: (\d+) (.+?) PRs?</title>", page)
        if "(all areas)" not in area
    }
    assert charted
    digest = _digest_areas(db, config, "2026-W03")
    counts: dict[str, int] = {}
    for area in digest.values():
        counts[area] = counts.get(area, 0) + 1
    differ = {a: (n, counts.get(a, 0)) for a, n in charted.items() if counts.get(a, 0) != n}
    assert not differ, f"site chart vs digest, week of {NEXT_MONDAY}: {differ}"
