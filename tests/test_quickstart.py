"""scripts/quickstart.sh as a new user runs it (issue 15, items 1, 2 and 4): a clone whose
newest PR is months old, a fresh one with a GitHub origin; where the digest went, what to
try next, and a try-out name that the site leaves out. The install step is skipped (the
tests run the checkout's own code)."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli
from replay import git_env, replay

ROOT = Path(__file__).resolve().parents[1]


def _quickstart(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PRDIGEST_QUICKSTART_NO_INSTALL": "1",
        "PRDIGEST_DB": str(db),
        "PYTHONPATH": str(ROOT / "src"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "quickstart.sh"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.fixture
def stale_clone(tmp_path: Path, executorch_jsonl: Path) -> Path:
    """executorch's first 120 landed commits (2025-01-02 → 2025-01-16) as a clone with no
    remote: its newest PR is well over a year old."""
    with gzip.open(executorch_jsonl, "rt", encoding="utf-8") as lines:
        records = [json.loads(next(lines)) for _ in range(120)]
    clone = tmp_path / "et-clone"
    replay(records, clone, non_utf8=False)
    return clone


def test_a_stale_clone_gets_the_digest_of_its_last_week_with_prs(
    stale_clone: Path, tmp_path: Path
) -> None:
    db = tmp_path / "data" / "prdigest.db"
    result = _quickstart(str(stale_clone), db=db)
    assert result.returncode == 0, result.stderr
    err = result.stderr
    newest = "2025-01-16"
    assert (
        f"Nothing of quickstart/et-clone landed in the last 7 days: its newest PR is from {newest}."
        in err
    )
    assert (
        "Writing the digest of the last 7 days that have PRs instead, 2025-01-10..2025-01-16."
        in err
    )
    assert result.stdout.startswith(
        "# Analysis of Pull Requests for quickstart/et-clone during 20250110-20250116"
    )
    assert re.search(r"for 2025-01-10\.\.2025-01-16: [1-9]\d* PRs", err), "real PRs"
    # Where it went, and what to do next (item 2).
    assert f"Stored as report 1 in {db}\n" in err
    for command in (
        "prdigest reports show 1",
        "prdigest digest quickstart/et-clone --week 2025-W02",
        "prdigest reports list",
        "prdigest site build --out public",
        "prdigest reports delete 1",
    ):
        assert f"\n  {command} " in err, command
    shown = run_cli("reports", "show", "1", db=db)
    assert shown.stdout == result.stdout
    # A try-out name, recognisable, removable, and not published (item 4).
    assert "quickstart/et-clone is the quickstart's name for a clone with no GitHub origin" in err
    site = tmp_path / "public"
    assert run_cli("site", "build", "--out", str(site), db=db).exit_code == 0
    assert "et-clone" not in (site / "index.html").read_text(encoding="utf-8")
    assert not list(site.glob("digests/*"))
    assert run_cli("reports", "delete", "1", "--yes", db=db).exit_code == 0


def test_a_fresh_clone_with_a_github_origin_gets_its_last_7_days(tmp_path: Path) -> None:
    clone = tmp_path / "widget"
    env = git_env()
    git = ["git", "-C", str(clone)]
    subprocess.run(["git", "init", "-q", "-b", "main", str(clone)], check=True, env=env)
    (clone / "widget.py").write_text("print('hello')\n", encoding="utf-8")
    subprocess.run([*git, "add", "widget.py"], check=True, env=env)
    commit_env = {
        k: v for k, v in env.items() if not k.startswith(("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"))
    }
    subprocess.run(
        [*git, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-q", "-m", "Add the widget (#12)"],
        check=True,
        env=commit_env,
    )  # fmt: skip
    subprocess.run(
        [*git, "remote", "add", "origin", "git@github.com:acme/widget.git"], check=True, env=env
    )
    db = tmp_path / "prdigest.db"
    result = _quickstart(str(clone), db=db)
    assert result.returncode == 0, result.stderr
    assert "Nothing of" not in result.stderr
    assert re.search(r"digest of acme/widget for \S+: 1 PR,", result.stderr)
    assert "quickstart's name" not in result.stderr
    assert "prdigest reports delete 1" in result.stderr


def test_a_clone_without_a_github_origin_gets_no_links_that_lead_nowhere(
    stale_clone: Path, tmp_path: Path
) -> None:
    """Issue 23, item 3: `quickstart/<folder>` is no GitHub repository; its digest cites
    PRs as `PR#N`, with no link, and says how to name the repository to get links."""
    result = _quickstart(str(stale_clone), db=tmp_path / "prdigest.db")
    assert result.returncode == 0, result.stderr
    digest = result.stdout
    assert "github.com" not in digest
    cited = re.findall(r"\bPR#(\d+)\b", digest)
    assert len(cited) >= 3, digest
    assert "[PR#" not in digest
    assert (
        "PRs are cited by number, without links: `quickstart/et-clone` names no GitHub"
        " repository. To link them, sync the clone under its GitHub name:"
        " `prdigest sync OWNER/NAME --git PATH` (or `./scripts/quickstart.sh PATH OWNER/NAME`)."
    ) in digest
    named = _quickstart(str(stale_clone), "pytorch/executorch", db=tmp_path / "named.db")
    assert named.returncode == 0, named.stderr
    links = re.findall(
        r"\[PR#(\d+)\]\(https://github\.com/pytorch/executorch/pull/(\d+)\)", named.stdout
    )
    assert links and all(a == b for a, b in links)
    assert "cited by number" not in named.stdout


def test_an_llm_digest_of_a_try_out_clone_has_no_dead_links_either(
    stale_clone: Path, tmp_path: Path
) -> None:
    """The LLM writer cites like the deterministic one: `PR#N`, no link, for a clone with
    no GitHub repository; its audit still checks every bare citation."""
    from click.testing import CliRunner

    from fakes.llm_server import FakeLLMServer
    from prdigest.cli import main

    db = str(tmp_path / "llm.db")
    repo = "quickstart/et-clone"
    runner = CliRunner()
    synced = runner.invoke(main, ["--db", db, "sync", repo, "--git", str(stale_clone)])
    assert synced.exit_code == 0, synced.output
    with FakeLLMServer() as server:
        result = runner.invoke(
            main,
            ["--db", db, "digest", repo, "--since", "2025-01-10", "--until", "2025-01-16",
             "--writer", "llm", "--llm-model", "fake", "--llm-base-url", server.url],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "written by the llm writer" in result.stderr
    assert result.stdout.startswith("# AI Analysis of Pull Requests for quickstart/et-clone")
    assert "github.com" not in result.stdout
    assert "](" not in result.stdout.replace("](#", "")  # no link at all
    assert len(re.findall(r"\bPR#\d+\b", result.stdout)) >= 3
