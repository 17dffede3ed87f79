"""What a new user trips over (issue 15), through the real command line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from helpers import run_cli

REPO = "pytorch/executorch"


def _one_error_line(result: object) -> str:
    stderr = result.stderr  # type: ignore[attr-defined]
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("Error: ") and " — " in lines[0]
    return lines[0]


@pytest.fixture
def eight_weeks(tmp_path: Path, executorch_jsonl: Path) -> Path:
    """executorch's first 700 records (2025-01-02 → 2025-02-27; 13 direct pushes), in a file."""
    lines = gzip.open(executorch_jsonl, "rt", encoding="utf-8").read().splitlines()[:700]
    path = tmp_path / "first700.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def synced(tmp_path: Path, eight_weeks: Path) -> Path:
    db = tmp_path / "store.db"
    assert run_cli("sync", REPO, "--jsonl", str(eight_weeks), db=db).exit_code == 0
    return db


# -- item 8: errors and status speak ISO dates ----------------------------------------------


def test_errors_and_status_name_windows_in_iso_dates(synced: Path) -> None:
    result = run_cli("digest", REPO, "--week", "2030-W01", db=synced)
    assert result.exit_code == 1
    line = _one_error_line(result)
    assert "for 2029-12-31..2030-01-06" in line and "20291231" not in line
    assert "newest landed PR is from 2025-02-27" in line
    status = run_cli("status", db=synced).stdout
    assert "(2025-01-02..2025-02-27)" in status, status
    assert "T05:30:18Z" not in status


# -- item 6: a missing database is an error for commands that read -------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["status"],
        ["digest", REPO, "--week", "2025-W05"],
        ["release-notes", REPO, "--since", "2025-01-01", "--until", "2025-01-31"],
        ["classify", "explain", REPO, "7482"],
        ["site", "build", "--out", "public"],
    ],
)
def test_a_mistyped_db_is_an_error_naming_it_and_creates_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    db = tmp_path / "no-such-dir" / "prdigest.db"
    result = run_cli(*args, db=db)
    assert result.exit_code == 1
    line = _one_error_line(result)
    assert f"no database at {db}" in line and "sync" in line
    assert not db.parent.exists(), "nothing created"


def test_only_a_command_that_syncs_creates_the_database(tmp_path: Path, eight_weeks: Path) -> None:
    db = tmp_path / "new-dir" / "prdigest.db"
    result = run_cli("digest", REPO, "--jsonl", str(eight_weeks), "--week", "2025-W05", db=db)
    assert result.exit_code == 0, result.stderr
    assert db.exists()
    assert run_cli("status", db=db).exit_code == 0


# -- item 5: status counts PRs and direct pushes apart, plurals right ----------------------


def test_status_counts_prs_and_direct_pushes_apart(synced: Path) -> None:
    assert run_cli("digest", REPO, "--week", "2025-W05", db=synced).exit_code == 0
    status = run_cli("status", db=synced).stdout
    # 700 records: 687 with a PR number, 13 direct pushes (shared/data's README counts them)
    assert f"{REPO}: 687 PRs and 13 direct pushes (2025-01-02..2025-02-27), 1 report\n" in status
    assert "1 reports" not in status
    data = json.loads(run_cli("status", "--format", "json", db=synced).stdout)
    [repo] = data["repositories"]
    assert (repo["pull_requests"], repo["direct_pushes"], repo["reports"]) == (687, 13, 1)
