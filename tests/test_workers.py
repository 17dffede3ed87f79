"""Teams: a PostgreSQL store shared by worker processes, one of them killed mid-job."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import run_cli, table_rows

pytest.importorskip("procrastinate", reason="the postgres extra is not installed")
import psycopg  # noqa: E402

REPOS = [f"acme/part{i}" for i in range(10)]
WEEKS = ["2026-W06", "2026-W07"]
CONTENT = ("pull_requests", "files", "labels")


def _split(source: Path, folder: Path) -> dict[str, Path]:
    """The real executorch records dealt round-robin into ten repositories."""
    parts: dict[str, list[str]] = {repo: [] for repo in REPOS}
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        for i, line in enumerate(handle):
            record = json.loads(line)
            if record["committed_at"] < "2026-01-01":
                continue
            repo = REPOS[i % len(REPOS)]
            record["repo"] = repo
            parts[repo].append(json.dumps(record))
    paths = {}
    for repo, lines in parts.items():
        paths[repo] = folder / f"{repo.replace('/', '_')}.jsonl"
        paths[repo].write_text("\n".join(lines) + "\n")
    return paths


def _config(folder: Path, paths: dict[str, Path]) -> Path:
    config = folder / "prdigest.toml"
    config.write_text(
        "".join(f'[repos."{repo}"]\njsonl = "{path}"\n' for repo, path in paths.items())
    )
    return config


def _worker(db: str, config: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "prdigest",
            "--db",
            db,
            "--config",
            str(config),
            "worker",
            "--concurrency",
            "2",
            "--heartbeat",
            "0.3",
            "--stalled-after",
            "1.5",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _jobs(db: str, status: str) -> int:
    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM procrastinate_jobs WHERE status = %s", (status,)
        ).fetchone()
        return int(row[0]) if row else 0


def _reports(db_rows: dict[str, list[tuple[object, ...]]]) -> list[tuple[object, ...]]:
    # created_at differs between runs by nature; everything else must match
    return [row[:-1] for row in db_rows["reports"]]


def test_killed_worker_loses_nothing_and_doubles_nothing(
    tmp_path: Path, postgres_url: str, executorch_jsonl: Path
) -> None:
    paths = _split(executorch_jsonl, tmp_path)
    config = _config(tmp_path, paths)

    # The single-process run, on SQLite.
    single = tmp_path / "single.db"
    for repo in REPOS:
        assert run_cli("--config", str(config), "sync", repo, db=single).exit_code == 0
        for week in WEEKS:
            assert (
                run_cli(
                    "--config", str(config), "digest", repo, "--week", week, db=single
                ).exit_code
                == 0
            )

    # The team run: queue everything, start one worker, kill it in the middle of a sync.
    for args in (["sync", "--all"], *[["digest", "--all", "--week", w] for w in WEEKS]):
        result = run_cli("--db", postgres_url, "--config", str(config), *args)
        assert result.exit_code == 0, result.output
    first = _worker(postgres_url, config)
    deadline = time.monotonic() + 60
    while _jobs(postgres_url, "doing") == 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert first.returncode == -signal.SIGKILL
    assert _jobs(postgres_url, "todo") > 0, "the worker was killed before the queue drained"

    # Two more workers finish the work, including the killed worker's job.
    others = [_worker(postgres_url, config, "--until-empty") for _ in range(2)]
    talk = ""
    for proc in others:
        _, stderr = proc.communicate(timeout=240)
        assert proc.returncode == 0, stderr.decode()
        talk += stderr.decode()
    assert "lost its worker; retrying it" in talk, "the killed worker's job was taken up again"
    assert _jobs(postgres_url, "failed") == 0
    assert _jobs(postgres_url, "succeeded") == len(REPOS) * (1 + len(WEEKS))

    team = table_rows(postgres_url, *CONTENT, "reports")
    solo = table_rows(single, *CONTENT, "reports")
    for table in CONTENT:
        assert team[table] == solo[table], table
    assert _reports(team) == _reports(solo)
