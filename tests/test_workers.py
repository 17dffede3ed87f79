"""Teams: a PostgreSQL store shared by worker processes, one of them killed mid-job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fakes.github_server import FakeGitHub, github_pulls, load_records
from helpers import run_cli, table_rows

pytest.importorskip("procrastinate", reason="the postgres extra is not installed")
import psycopg  # noqa: E402

REPOS = [f"acme/part{i}" for i in range(10)]
WEEKS = ["2026-W06", "2026-W07"]
CONTENT = ("pull_requests", "files", "labels", "github_pull_requests")
SINCE = "2026-01-15"


def _fake_github(source: Path) -> FakeGitHub:
    """The real executorch records since SINCE, dealt round-robin into ten repositories,
    served by a fake GitHub (GraphQL with a token) that answers a little slowly."""
    records = [r for r in load_records(source) if r["committed_at"] >= SINCE]
    repos = {repo: github_pulls(records[i :: len(REPOS)], repo) for i, repo in enumerate(REPOS)}
    return FakeGitHub(repos, latency=0.02)


def _config(folder: Path, api_url: str) -> Path:
    config = folder / "prdigest.toml"
    config.write_text(
        "".join(
            f'[repos."{repo}"]\ngithub_api_url = "{api_url}"\nsince = "{SINCE}"\n' for repo in REPOS
        )
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
        # a worker that crashes in C (seen once: SIGSEGV under the whole suite's load)
        # leaves its threads' stacks on stderr, which the failing assertion prints
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
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
    tmp_path: Path,
    postgres_url: str,
    executorch_jsonl: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_fake_team_token")
    fake = _fake_github(executorch_jsonl).start()
    request.addfinalizer(fake.stop)
    config = _config(tmp_path, fake.url)

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
