"""`sync --jsonl` on the real executorch records: complete, idempotent, resumable."""

from __future__ import annotations

import gzip
import json
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from helpers import cli_subprocess, run_cli, table_rows

REPO = "pytorch/executorch"
TABLES = ("pull_requests", "files", "labels")


def _count(db: Path) -> int:
    try:
        conn = sqlite3.connect(db, timeout=0.1)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _records(path: Path) -> list[dict[str, object]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_sync_stores_every_record_once(tmp_path: Path, executorch_jsonl: Path) -> None:
    db = tmp_path / "s.db"
    first = run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), db=db)
    assert first.exit_code == 0, first.output
    records = _records(executorch_jsonl)
    assert _count(db) == len(records)  # 8,151 of the shared data, 1,130 of its excerpt
    rows = table_rows(db, *TABLES)
    second = run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), db=db)
    assert "0 read" in second.stderr
    assert table_rows(db, *TABLES) == rows
    conn = sqlite3.connect(db)
    direct = conn.execute("SELECT COUNT(*) FROM pull_requests WHERE number IS NULL").fetchone()[0]
    assert direct == sum(1 for r in records if r["number"] is None) > 0
    files = conn.execute("SELECT COUNT(*) FROM files").fetchone()[0]
    assert files == sum(len(r["files"]) for r in records)  # type: ignore[arg-type]


def test_a_changed_file_is_read_again_without_doubling(
    tmp_path: Path, executorch_jsonl: Path
) -> None:
    db, part = tmp_path / "s.db", tmp_path / "part.jsonl"
    lines = gzip.open(executorch_jsonl, "rt", encoding="utf-8").read().splitlines()
    part.write_text("\n".join(lines[:300]) + "\n")
    run_cli("sync", REPO, "--jsonl", str(part), db=db)
    part.write_text(
        "\n".join(lines[:300] + lines[300:400]) + "\n"
    )  # appended: only new lines are read
    result = run_cli("sync", REPO, "--jsonl", str(part), db=db)
    assert "100 read, 100 new" in result.stderr
    part.write_text("\n".join(lines[50:450]) + "\n")  # rewritten: read again, upserts dedupe
    run_cli("sync", REPO, "--jsonl", str(part), db=db)
    assert _count(db) == 450


def test_killed_sync_resumes_and_equals_a_clean_sync(
    tmp_path: Path, executorch_jsonl: Path
) -> None:
    clean, total = tmp_path / "clean.db", len(_records(executorch_jsonl))
    assert run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), db=clean).exit_code == 0
    for _attempt in range(5):
        db = tmp_path / "killed.db"
        for leftover in tmp_path.glob("killed.db*"):
            leftover.unlink()
        proc = cli_subprocess("--db", str(db), "sync", REPO, "--jsonl", str(executorch_jsonl))
        while proc.poll() is None and _count(db) < 500:
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.returncode == -signal.SIGKILL and 0 < _count(db) < total:
            break
    else:
        pytest.fail("could not interrupt the sync part-way in 5 attempts")
    kept = _count(db)
    assert kept % 500 == 0, "only whole batches are committed"
    resumed = run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), db=db)
    assert resumed.exit_code == 0
    assert f"{total - kept} read" in resumed.stderr, "the second run starts where the first stopped"
    assert table_rows(db, *TABLES) == table_rows(clean, *TABLES)


def test_a_later_sync_can_reach_back_before_an_earlier_since(
    tmp_path: Path, executorch_jsonl: Path
) -> None:
    db, total = tmp_path / "s.db", len(_records(executorch_jsonl))
    recent = run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), "--since", "2026-06-01", db=db)
    assert recent.exit_code == 0
    kept = _count(db)
    assert 0 < kept < total
    again = run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), "--since", "2026-07-01", db=db)
    assert "0 read" in again.stderr, "a later --since is covered by what was read"
    everything = run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), db=db)
    assert f": {total} read" in everything.stderr, "older history was skipped, so it is read now"
    assert _count(db) == total
