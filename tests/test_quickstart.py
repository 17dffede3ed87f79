"""scripts/quickstart.sh as a new user runs it (issue 15, items 1, 2 and 4; issue 30): a
clone whose newest PR is months old, a fresh one with a GitHub origin, one whose window has
direct pushes only (as this repository's own history), this repository itself, a shallow
clone and an empty one. Each ends with true statements, and every command it prints next
is run here as printed and succeeds. The install step is skipped (the tests run the
checkout's own code)."""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from helpers import run_cli
from replay import git_env, replay

ROOT = Path(__file__).resolve().parents[1]


def _env(db: Path, now: str | None = None) -> dict[str, str]:
    """What the quickstart and the commands it prints run with: this checkout's prdigest
    first on PATH and importable, the test's database, and a pinned clock when given."""
    env = {
        **os.environ,
        "PRDIGEST_QUICKSTART_NO_INSTALL": "1",
        "PRDIGEST_DB": str(db),
        "PYTHONPATH": str(ROOT / "src"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    if now:
        env["PRDIGEST_NOW"] = now
    return env


def _quickstart(*args: str, db: Path, now: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "quickstart.sh"), *args],
        capture_output=True,
        text=True,
        env=_env(db, now),
        timeout=300,
    )


def _next_commands(stderr: str) -> list[str]:
    """The commands under `Next:`, as printed (`  COMMAND   # what it does`)."""
    block = stderr.split("\nNext:\n", 1)[1]
    return [line.split(" # ", 1)[0].strip() for line in block.splitlines() if line.startswith("  ")]


def _run_next(stderr: str, db: Path, cwd: Path, now: str | None = None) -> dict[str, str]:
    """Run every command the quickstart printed next, as printed, in `cwd`; each must
    succeed. `site serve` is stopped with Ctrl-C once it served the home page; `reports
    delete` is answered `y` on a terminal, as a user would. Returns each command's stderr."""
    env = _env(db, now)
    said: dict[str, str] = {}
    commands = _next_commands(stderr)
    assert commands, stderr
    for command in commands:
        assert re.match(r"(prdigest|python3 -m prdigest) ", command), command
        if " site serve " in f"{command} ":
            said[command] = _serve(command, env, cwd)
        elif " reports delete " in command:
            said[command] = _answering_yes(command, env, cwd)
        else:
            done = subprocess.run(
                ["bash", "-c", command], capture_output=True, text=True, env=env, cwd=cwd,
                timeout=300,
            )  # fmt: skip
            assert done.returncode == 0, (command, done.stderr)
            said[command] = done.stderr
    return said


def _port_8000_free() -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", 8000))
        except OSError:
            return False
    return True


def _serve(command: str, env: dict[str, str], cwd: Path) -> str:
    if not _port_8000_free():  # another program has the port: the same command on any port
        command += " --port 0"
    process = subprocess.Popen(
        ["bash", "-c", f"exec {command}"], stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        url = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert url, line
        with urllib.request.urlopen(url.group(1), timeout=30) as page:
            assert page.status == 200 and b"DevLog" in page.read()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return line


def _answering_yes(command: str, env: dict[str, str], cwd: Path) -> str:
    master, slave = os.openpty()
    process = subprocess.Popen(
        ["bash", "-c", command], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=env, cwd=cwd,
    )  # fmt: skip
    os.close(slave)
    os.write(master, b"y\n")
    _, stderr = process.communicate(timeout=60)
    os.close(master)
    assert process.returncode == 0, (command, stderr)
    assert b"deleted report" in stderr, stderr
    return stderr.decode()


def _status(db: Path) -> dict[str, object]:
    [repo] = json.loads(run_cli("status", "--format", "json", db=db).stdout)["repositories"]
    return dict(repo)


def _commit(clone: Path, message: str, when: str, *, name: str = "Ada") -> None:
    """Commit what is staged, dated `when` (author and committer)."""
    env = {**git_env(), "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(
        ["git", "-C", str(clone), "-c", f"user.name={name}", "-c", f"user.email={name.lower()}@example.com",
         "commit", "-q", "--allow-empty", "-m", message],
        check=True, env=env,
    )  # fmt: skip


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
    assert str(_status(db)["last_merged"]).startswith(newest)
    assert (
        f"Nothing of quickstart/et-clone landed in the last 7 days: its newest commit is from"
        f" {newest}." in err
    )
    assert (
        "Writing the digest of the last 7 days that have commits instead, 2025-01-10..2025-01-16."
        in err
    )
    assert result.stdout.startswith(
        "# Analysis of Pull Requests for quickstart/et-clone during 20250110-20250116"
    )
    assert re.search(r"for 2025-01-10\.\.2025-01-16: [1-9]\d* PRs", err), "real PRs"
    # Where it went, and what to do next (item 2).
    assert f"Stored as report 1 in {db}\n" in err
    assert _next_commands(err) == [
        "prdigest reports show 1",
        "prdigest digest quickstart/et-clone --week 2025-W02",
        "prdigest reports list",
        "prdigest site build --out public",
        "prdigest site serve --out public",
        "prdigest reports delete 1",
    ]
    assert run_cli("reports", "show", "1", db=db).stdout == result.stdout
    said = _run_next(err, db, tmp_path)
    assert run_cli("reports", "show", "1", db=db).exit_code == 1, "deleted by the last command"
    assert "2025-01-06..2025-01-12: " in said["prdigest digest quickstart/et-clone --week 2025-W02"]
    # A try-out name, recognisable, removable, and not published (item 4).
    assert "quickstart/et-clone is the quickstart's name for a clone with no GitHub origin" in err
    site = tmp_path / "public"
    assert "et-clone" not in (site / "index.html").read_text(encoding="utf-8")
    assert not list(site.glob("digests/*"))


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
    assert f"Stored as report 1 in {db}\n" in result.stderr
    assert _next_commands(result.stderr) == [
        "prdigest reports show 1",  # no earlier week: its one commit is in this digest
        "prdigest reports list",
        "prdigest site build --out public",
        "prdigest site serve --out public",
        "prdigest reports delete 1",
    ]
    _run_next(result.stderr, db, tmp_path)
    assert len(list((tmp_path / "public" / "digests").glob("acme-widget-*.html"))) == 1


def _pushes_clone(path: Path, origin: str) -> Path:
    """Work landed as this repository lands it: direct pushes and a merge of a branch under
    git's own subject (`Merge branch 'sections'`), no PR; one push weeks before the rest."""
    env = git_env()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(path), *args], check=True, env=env, capture_output=True)

    def change(file: str, message: str, when: str) -> None:
        (path / file).parent.mkdir(parents=True, exist_ok=True)
        (path / file).write_text(f"{message}\n", encoding="utf-8")
        git("add", file)
        _commit(path, message, when)

    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, env=env)
    change("store/db.py", "Add the store", "2026-02-10T10:00:00Z")
    change("store/paths.py", "Index the paths", "2026-03-02T10:00:00Z")
    git("checkout", "-q", "-b", "sections")
    change("write/plan.py", "Plan the sections", "2026-03-03T09:00:00Z")
    git("checkout", "-q", "main")
    change("docs/guide.md", "Tidy the guide", "2026-03-03T10:00:00Z")
    merged = {
        **env,
        "GIT_AUTHOR_DATE": "2026-03-04T10:00:00Z",
        "GIT_COMMITTER_DATE": "2026-03-04T10:00:00Z",
    }
    subprocess.run(
        ["git", "-C", str(path), "-c", "user.name=Ada", "-c", "user.email=ada@example.com",
         "merge", "-q", "--no-ff", "--no-edit", "sections"],
        check=True, env=merged, capture_output=True,
    )  # fmt: skip
    change("write/digest.py", "Write the digest", "2026-03-05T10:00:00Z")
    git("remote", "add", "origin", origin)
    return path


def test_a_window_of_direct_pushes_only_is_stored_and_published(tmp_path: Path) -> None:
    """Issue 30: a clone whose window has only direct pushes (this repository's own history)
    got a digest that said it was not stored, then `Stored as report ` with no id and next
    commands that failed. Its digest is stored and published like any other, the merge git
    named itself counted and not listed, and an earlier week with commits is suggested."""
    clone = _pushes_clone(tmp_path / "pushes", "git@github.com:acme/pushes.git")
    assert "Merge branch 'sections'" in subprocess.run(
        ["git", "-C", str(clone), "log", "--first-parent", "--format=%s"],
        capture_output=True, text=True, check=True, env=git_env(),
    ).stdout  # fmt: skip
    db, now = tmp_path / "prdigest.db", "2026-03-06T12:00:00Z"
    result = _quickstart(str(clone), db=db, now=now)
    assert result.returncode == 0, result.stderr
    err = result.stderr
    assert (
        "digest of acme/pushes for 2026-02-28..2026-03-06: 0 PRs and 4 direct pushes, written by"
        " the deterministic writer; stored as report 1\n" in err
    ), err
    assert (
        "No pull requests landed in acme/pushes during 20260228-20260306; 4 direct pushes did"
        " (1 merge of a branch among them, not listed), by area below." in result.stdout
    ), result.stdout
    assert "Merge branch" not in result.stdout and "Plan the sections" not in result.stdout
    for told in ("Index the paths", "Tidy the guide", "Write the digest"):
        assert told in result.stdout, told
    assert f"Stored as report 1 in {db}\n" in err
    assert _next_commands(err) == [
        "prdigest reports show 1",
        "prdigest digest acme/pushes --week 2026-W07",
        "prdigest reports list",
        "prdigest site build --out public",
        "prdigest site serve --out public",
        "prdigest reports delete 1",
    ]
    said = _run_next(err, db, tmp_path, now)
    earlier = said["prdigest digest acme/pushes --week 2026-W07"]
    assert (
        "0 PRs and 1 direct push, written by the deterministic writer; stored as report 2"
        in earlier
    )
    published = sorted(p.name for p in (tmp_path / "public" / "digests").glob("*.html"))
    assert published == [
        "acme-pushes-2026-02-09-2026-02-15.html",
        "acme-pushes-2026-02-28-2026-03-06.html",
    ]


def test_this_repository_gets_a_first_digest_that_holds(tmp_path: Path) -> None:
    """The README's first example: the quickstart on a clone of this repository (direct
    pushes and merges of branches, no PR), on today's date. Whatever its history holds by
    now, what it says is true and what it suggests runs."""
    if not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git clone (an archive?): no history to run it on")
    clone = tmp_path / "prdigest"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, env=git_env())
    db = tmp_path / "prdigest.db"
    result = _quickstart(str(clone), db=db)
    assert result.returncode == 0, result.stderr
    err, status = result.stderr, _status(db)
    newest = str(status["last_merged"])[:10]
    if "Nothing of " in err:
        assert f"landed in the last 7 days: its newest commit is from {newest}." in err
    landed = re.search(
        r"digest of quickstart/prdigest for \S+: (\d+) PRs?(?: and (\d+) direct push)?", err
    )
    assert landed and int(landed.group(1)) + int(landed.group(2) or 0) > 0, err
    assert f"Stored as report 1 in {db}\n" in err
    assert not re.search(r"^\*   Merge branch '[^']+' \(`", result.stdout, re.MULTILINE), (
        "a merge under git's own subject is counted, not listed"
    )
    said = _run_next(err, db, tmp_path)
    assert any("deleted report 1" in text for text in said.values())


def test_a_shallow_clone_gets_its_digest_and_next_commands_that_run(tmp_path: Path) -> None:
    """A CI checkout (`git clone --depth 1`): one commit, no parent to diff against."""
    origin = tmp_path / "origin"
    subprocess.run(["git", "init", "-q", "-b", "main", str(origin)], check=True, env=git_env())
    for i, day in enumerate(("2026-03-02", "2026-03-03", "2026-03-04"), start=1):
        (origin / f"part{i}.py").write_text(f"value = {i}\n", encoding="utf-8")
        subprocess.run(["git", "-C", str(origin), "add", "-A"], check=True, env=git_env())
        _commit(origin, f"Add part {i} (#{i})", f"{day}T10:00:00Z")
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(clone)],
        check=True, env=git_env(),
    )  # fmt: skip
    db, now = tmp_path / "prdigest.db", "2026-03-20T12:00:00Z"
    result = _quickstart(str(clone), db=db, now=now)
    assert result.returncode == 0, result.stderr
    err = result.stderr
    assert (
        "Nothing of quickstart/shallow landed in the last 7 days: its newest commit is from 2026-03-04."
        in err
    )
    assert "digest of quickstart/shallow for 2026-02-26..2026-03-04: 1 PR, " in err
    assert f"Stored as report 1 in {db}\n" in err
    assert "--week" not in err, "its one commit is in this digest: no earlier week to suggest"
    _run_next(err, db, tmp_path, now)


def test_an_empty_clone_is_one_clear_error_and_no_next_commands(tmp_path: Path) -> None:
    clone = tmp_path / "empty"
    subprocess.run(["git", "init", "-q", "-b", "main", str(clone)], check=True, env=git_env())
    result = _quickstart(str(clone), db=tmp_path / "prdigest.db")
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        f"Error: {clone}: main has no commits — commit or fetch something first, or pass --ref"
    ), result.stderr
    assert "Next:" not in result.stderr and "Stored" not in result.stderr
    assert result.stdout == ""


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
