"""What is stored is what was delivered (issue 23, item 5): a digest that could not be
written is not stored; a read-only database still gets the digest printed; `--format
json` says what it stored; a window without PRs is not stored; a deleted report's id is
never given again; a sync stopped by a bad line or by Ctrl-C says how much it kept."""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import one_error_line, run_cli
from prdigest.cli import main
from replay import git_env

REPO = "acme/widget"


def dated_clone(path: Path, days: list[str]) -> Path:
    """A clone with one landed PR (#1, #2, …) on each day (YYYY-MM-DD, noon UTC)."""
    env = git_env()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, env=env)
    for number, day in enumerate(days, start=1):
        (path / f"part{number}.py").write_text(f"value = {number}\n", encoding="utf-8")
        stamp = f"{day}T12:00:00+00:00"
        subprocess.run(["git", "-C", str(path), "add", "-A"], check=True, env=env)
        subprocess.run(
            ["git", "-C", str(path), "-c", "user.name=Ada", "-c", "user.email=ada@example.com",
             "commit", "-q", "-m", f"Add part {number} (#{number})"],
            check=True,
            env={**env, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp},
        )  # fmt: skip
    return path


# 2025-W02 (Jan 6-12) has three PRs, W03 none, W04 two.
DAYS = ["2025-01-06", "2025-01-08", "2025-01-10", "2025-01-21", "2025-01-23"]


@pytest.fixture
def synced(tmp_path: Path) -> Path:
    clone = dated_clone(tmp_path / "widget", DAYS)
    db = tmp_path / "prdigest.db"
    assert run_cli("sync", REPO, "--git", str(clone), db=db).exit_code == 0
    return db


def _report_ids(db: Path) -> list[int]:
    listed = run_cli("reports", "list", db=db)
    assert listed.exit_code == 0, listed.stderr
    return [int(line.split()[0]) for line in listed.stdout.splitlines() if line.strip()]


def test_a_digest_whose_out_cannot_be_written_is_not_stored(synced: Path, tmp_path: Path) -> None:
    out = tmp_path / "no-such-folder" / "w02.md"
    result = run_cli("digest", REPO, "--week", "2025-W02", "--out", str(out), db=synced)
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"Error: cannot write {out}")
    assert _report_ids(synced) == [], "not delivered, so not stored (nor published)"


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """The file made immutable (root too cannot write it; chmod would not stop root)."""
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot make {path} read-only here (chattr +i: {made.stderr!r})")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_database_still_prints_the_digest(synced: Path) -> None:
    with _read_only(synced):
        result = run_cli("digest", REPO, "--week", "2025-W02", db=synced)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(
        f"# Analysis of Pull Requests for {REPO} during 20250106-20250112"
    )
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        "Warning: the digest was not stored: the database is read-only — make it writable (or"
        " give another --db) and run the command again to store and publish it"
    ]
    assert result.stderr.rstrip().endswith("not stored (read-only database)")
    assert _report_ids(synced) == []


def test_format_json_stores_the_markdown_digest_and_says_so(synced: Path) -> None:
    result = run_cli("digest", REPO, "--week", "2025-W02", "--format", "json", db=synced)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["counts"]["prs"] == 3
    assert result.stderr.rstrip().endswith(
        "its Markdown digest stored as report 1 (prdigest reports show 1); the JSON is not stored"
    )
    shown = run_cli("reports", "show", "1", db=synced)
    assert shown.stdout.startswith(f"# Analysis of Pull Requests for {REPO} during 20250106")


def test_a_week_without_prs_is_printed_but_not_stored(synced: Path) -> None:
    result = run_cli("digest", REPO, "--week", "2025-W03", db=synced)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# Analysis of Pull Requests")
    assert result.stderr.rstrip().endswith(
        "not stored: nothing landed in the window (no PR, no direct push), so nothing to publish"
    )
    assert _report_ids(synced) == []


def test_a_deleted_report_id_is_never_given_again(db_url: str, tmp_path: Path) -> None:
    """On both stores: SQLite's ids would be reused without AUTOINCREMENT (migration 0008)."""

    def cli(*args: str) -> Any:
        return CliRunner().invoke(main, ["--db", db_url, *args], catch_exceptions=False)

    clone = dated_clone(tmp_path / "widget", DAYS)
    assert cli("sync", REPO, "--git", str(clone)).exit_code == 0
    for week in ("2025-W02", "2025-W04"):
        assert cli("digest", REPO, "--week", week).exit_code == 0
    assert sorted(int(line.split()[0]) for line in cli("reports", "list").stdout.splitlines()) == [
        1,
        2,
    ]
    assert cli("reports", "delete", "2", "--yes").exit_code == 0
    again = cli("digest", REPO, "--week", "2025-W04")
    assert again.exit_code == 0, again.stderr
    assert again.stderr.rstrip().endswith("stored as report 3")
    assert cli("reports", "show", "2").exit_code == 1


def _jsonl(path: Path, count: int, bad_line: int) -> Path:
    lines = []
    for i in range(1, count + 1):
        record: dict[str, Any] = {
            "repo": REPO, "sha": f"{i:040x}", "number": i, "title": f"Change {i}",
            "committed_at": f"2025-01-{1 + i % 28:02d}T00:00:00Z", "files": [],
        }  # fmt: skip
        if i == bad_line:
            record["number"] = str(i)
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_an_import_stopped_by_a_bad_line_says_how_many_prs_it_kept(tmp_path: Path) -> None:
    records = _jsonl(tmp_path / "prs.jsonl", 700, bad_line=606)
    db = tmp_path / "prdigest.db"
    result = run_cli("sync", REPO, "--jsonl", str(records), db=db)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert line.startswith(f"Error: {records}:606: bad record: ")
    assert f"(500 PRs of {REPO} read before it are stored)" in line  # one batch of 500
    assert run_cli("status", db=db).stdout.count(f"{REPO}: 500 PRs") == 1


def test_ctrl_c_during_a_sync_says_how_many_prs_it_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prdigest.ingest import batches as ingest_records
    from prdigest.sources.jsonl import JsonlFile

    records = _jsonl(tmp_path / "prs.jsonl", 300, bad_line=0)
    real = JsonlFile.records

    def interrupted(self: JsonlFile, *args: Any) -> Iterator[Any]:
        for count, record in enumerate(real(self, *args)):
            if count == 250:
                raise KeyboardInterrupt  # Ctrl-C
            yield record

    monkeypatch.setattr(ingest_records, "BATCH", 100)
    monkeypatch.setattr(JsonlFile, "records", interrupted)
    db = tmp_path / "prdigest.db"
    result = run_cli("sync", REPO, "--jsonl", str(records), db=db)
    assert result.exit_code == 130
    # the 250 read before Ctrl-C, not only the two whole batches of 100 (issue 30)
    assert result.stderr == (
        f"Error: interrupted — 250 PRs of {REPO} read before it are stored;"
        " run the command again to resume\n"
    )
    monkeypatch.undo()
    resumed = run_cli("sync", REPO, "--jsonl", str(records), db=db)
    assert resumed.stderr.endswith(": 50 read, 50 new, 0 updated, 0 unchanged\n"), resumed.stderr


def test_a_database_from_before_migration_8_keeps_its_ids_and_reuses_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store made before report ids were AUTOINCREMENT: the migration keeps every id,
    and from then on a deleted one is never given again."""
    from prdigest.store import migrations

    everything = migrations.available_migrations
    clone, db = dated_clone(tmp_path / "widget", DAYS), tmp_path / "old.db"
    with monkeypatch.context() as old:  # every migration but 0008 (this code needs the later ones)
        old.setattr(migrations, "available_migrations", lambda: [m for m in everything() if m.number != 8])  # fmt: skip
        assert run_cli("sync", REPO, "--git", str(clone), db=db).exit_code == 0
        for week in ("2025-W02", "2025-W04"):
            assert run_cli("digest", REPO, "--week", week, db=db).exit_code == 0
    before = run_cli("reports", "list", db=db).stdout  # migrates
    assert [line.split()[0] for line in before.splitlines()] == ["2", "1"]
    assert run_cli("reports", "delete", "2", "--yes", db=db).exit_code == 0
    again = run_cli("digest", REPO, "--week", "2025-W04", db=db)
    assert again.stderr.rstrip().endswith("stored as report 3")
