"""A store that holds part of a history says so (issue 23, item 4): a window reaching
before `sync --since` is an error, "first-time" says since when, `status` tells a sync
that did not finish, and `digest` without a window will not take the newest week of an
interrupted sync's old part of history."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import one_error_line, run_cli
from replay import git_env

REPO = "acme/widget"


def _clone(path: Path, commits: list[tuple[str, str]]) -> Path:
    """One landed PR per (day, author), numbered from 1."""
    env = git_env()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, env=env)
    for number, (day, author) in enumerate(commits, start=1):
        (path / f"part{number}.py").write_text(f"value = {number}\n", encoding="utf-8")
        stamp = f"{day}T12:00:00+00:00"
        subprocess.run(["git", "-C", str(path), "add", "-A"], check=True, env=env)
        subprocess.run(
            ["git", "-C", str(path), "-c", f"user.name={author}",
             "-c", f"user.email={author.lower()}@example.com",
             "commit", "-q", "-m", f"Add part {number} (#{number})"],
            check=True,
            env={**env, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp},
        )  # fmt: skip
    return path


@pytest.fixture
def since_2025(tmp_path: Path) -> Path:
    """Ada landed PRs in 2024 and 2025; the store was synced from 2025-01-01 on."""
    clone = _clone(
        tmp_path / "widget",
        [("2024-11-12", "Ada"), ("2024-12-18", "Ada"), ("2025-01-07", "Bob"),
         ("2025-01-08", "Ada"), ("2025-01-14", "Ada")],
    )  # fmt: skip
    db = tmp_path / "prdigest.db"
    result = run_cli("sync", REPO, "--git", str(clone), "--since", "2025-01-01", db=db)
    assert result.exit_code == 0, result.stderr
    return db


def test_a_window_reaching_before_the_synced_history_is_an_error(since_2025: Path) -> None:
    # From before the floor into the stored PRs: Ada's 2024 PRs are not in the store.
    result = run_cli(
        "digest", REPO, "--since", "2024-12-30", "--until", "2025-01-09", db=since_2025
    )
    assert result.exit_code == 1
    assert one_error_line(result) == (
        f"Error: 2024-12-30..2025-01-09 starts before the synced history of {REPO}, which"
        " begins 2025-01-01 (it was synced with --since 2025-01-01) — pick a window from"
        f" 2025-01-01 on, or sync the older history first (prdigest sync {REPO} --since"
        " 2024-12-30 …)"
    )
    assert run_cli("reports", "list", db=since_2025).stdout == ""
    status = run_cli("status", db=since_2025)
    assert "  synced from 2025-01-01 on (sync --since)\n" in status.stdout


@pytest.fixture
def since_2023(tmp_path: Path) -> Path:
    """Ada landed PRs in 2022 and 2025, Cy in 2023; the store was synced from 2023-01-01
    on: over a year of history before 2025-W02, enough for the digest to tell who is new
    (`analyze.context.NEWCOMER_HISTORY`), but without Ada's 2022 PRs."""
    clone = _clone(
        tmp_path / "widget",
        [("2022-11-12", "Ada"), ("2022-12-18", "Ada"), ("2023-06-01", "Cy"),
         ("2025-01-07", "Bob"), ("2025-01-08", "Ada"), ("2025-01-14", "Ada")],
    )  # fmt: skip
    db = tmp_path / "prdigest.db"
    result = run_cli("sync", REPO, "--git", str(clone), "--since", "2023-01-01", db=db)
    assert result.exit_code == 0, result.stderr
    return db


def test_first_time_says_since_when_the_store_knows(since_2023: Path) -> None:
    """Ada landed before the synced history begins: new since 2023-01-01, not ever."""
    result = run_cli("digest", REPO, "--week", "2025-W02", db=since_2023)
    assert result.exit_code == 0, result.stderr
    assert "\n### Contributors\n" in result.stdout, result.stdout
    people = result.stdout.split("\n### Contributors\n", 1)[1].split("\n---\n", 1)[0]
    assert "2 first-time contributors since 2023-01-01: Bob, Ada." in people or (
        "2 first-time contributors since 2023-01-01: Ada, Bob." in people
    ), result.stdout
    assert "first-time contributors:" not in result.stdout
    assert "Cy" not in people  # landed in the stored history, not in the window


def _records(path: Path) -> Path:
    """300 records: 200 from 2023, then 100 from 2025."""
    lines = []
    for i in range(1, 301):
        day = f"2023-03-{1 + i % 28:02d}" if i <= 200 else f"2025-06-{1 + i % 28:02d}"
        lines.append(json.dumps({
            "repo": REPO, "sha": f"{i:040x}", "number": i, "title": f"Change {i}",
            "committed_at": f"{day}T00:00:00Z", "author_name": "Ada",
            "author_email": "ada@example.com", "files": [],
        }))  # fmt: skip
    path.write_text(
        "\n".join(sorted(lines, key=lambda line: json.loads(line)["committed_at"])) + "\n"
    )
    return path


def test_an_interrupted_sync_is_told_and_not_digested_from_its_old_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prdigest.ingest import batches as ingest_records
    from prdigest.sources.jsonl import JsonlFile

    records, db = _records(tmp_path / "prs.jsonl"), tmp_path / "prdigest.db"
    real = JsonlFile.records

    def interrupted(self: JsonlFile, *args: Any) -> Iterator[Any]:
        for count, record in enumerate(real(self, *args)):
            if count == 200:
                raise KeyboardInterrupt  # Ctrl-C once 2023 is read: what was read is stored
            yield record

    monkeypatch.setattr(ingest_records, "BATCH", 100)
    with monkeypatch.context() as patch:
        patch.setattr(JsonlFile, "records", interrupted)
        assert run_cli("sync", REPO, "--jsonl", str(records), db=db).exit_code == 130

    status = run_cli("status", db=db).stdout
    assert f"{REPO}: 200 PRs" in status
    assert (
        f"  its last sync (--jsonl {records}, started " in status
        and " UTC) did not finish: interrupted, or still running; the store holds part of"
        " the history until it is run again (it resumes)\n"
        in status
    ), status
    digest = run_cli("digest", REPO, db=db)
    assert digest.exit_code == 1, digest.stdout[:200]
    line = one_error_line(digest)
    assert line.startswith(f"Error: the last sync of {REPO} (--jsonl {records}, started ")
    assert line.endswith(
        "UTC) did not finish, so its newest stored PR (2023-03-28) may not be its newest —"
        f" run that sync again to finish it (prdigest sync {REPO} …), or name the window"
        " (--week YYYY-Www or --since DATE)"
    )
    assert run_cli("reports", "list", db=db).stdout == ""

    assert run_cli("sync", REPO, "--jsonl", str(records), db=db).exit_code == 0
    assert "did not finish" not in run_cli("status", db=db).stdout
    finished = run_cli("digest", REPO, db=db)
    assert finished.exit_code == 0, finished.stderr
    assert "for 2025-06-16..2025-06-22" in finished.stderr  # the newest complete week
