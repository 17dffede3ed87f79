"""The GitHub source through the command line: SIGKILL and resume, secrets, bad input."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from github_helpers import AO, all_text, dump, fake_for, github_sync
from prdigest.cli import main
from prdigest.store import open_store

TOKEN = "ghp_SecretTokenThatMustNeverLeak1234567890"


def _cli(db: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", str(db), *args], env=env, catch_exceptions=False)


def _count(db: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def test_sigkill_part_way_then_resume_equals_a_clean_sync(ao_jsonl: Path, tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    since = "2026-05-01"
    with fake_for(ao_jsonl, AO, latency=0.01) as fake:
        argv = [sys.executable, "-m", "prdigest", "--db", str(db), "sync", AO, "--since", since,
                "--api", "rest", "--github-api-url", fake.url]  # fmt: skip
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while _count(db) < 100 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the sync finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        killed_at = _count(db)
        total = len([p for p in fake.repos[AO] if p["updated_at"] >= since])
        assert 100 <= killed_at < total

        fake.clear_log()
        again = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
        assert "resuming" not in again.stdout  # talk goes to stderr, data to stdout
        listings = [r for r in fake.log if r.path == f"/repos/{AO}/pulls"]
        files_fetched = len(fake.requests("/files"))

    # the second run did not start from scratch: it went straight to the page it had reached
    assert int(listings[0].query.get("page", 1)) >= 2
    assert files_fetched <= total - killed_at + 100
    assert "synced pytorch/ao from github" in again.stderr.splitlines()[-1]

    clean = open_store(str(tmp_path / "clean.db"))
    with fake_for(ao_jsonl, AO) as fake:
        github_sync(clean, fake, since=since, api="rest")
    resumed = open_store(str(db))
    assert dump(resumed.conn) == dump(clean.conn)


@pytest.fixture
def synced_db(ao_jsonl: Path, tmp_path: Path) -> Path:
    """A store holding a GitHub sync of pytorch/ao (from the fake)."""
    db = tmp_path / "store.db"
    with fake_for(ao_jsonl, AO) as fake:
        result = _cli(db, "sync", AO, "--since", "2026-07-01", "--github-api-url", fake.url,
                      env={"GITHUB_TOKEN": TOKEN})  # fmt: skip
    assert result.exit_code == 0, result.output
    return db


@pytest.mark.parametrize(
    "case,args,token,expected",
    [
        (
            "unknown repository",
            ["pytorch/does-not-exist"],
            TOKEN,
            "— check the repository name (owner/name)",
        ),
        ("revoked token", [AO], "ghp_revoked", "GitHub refused the token: 401 (Bad credentials)"),
        ("no access", [AO], "ghp_cannot_see_ao", "— check the repository name (owner/name)"),
        ("no access, public", ["pytorch/private"], "", "answered 404"),
        ("no access, rest", [AO, "--api", "rest"], "ghp_cannot_see_ao", "answered 404 — check"),
        ("malformed --since", [AO, "--since", "2026-13-45"], TOKEN, "invalid --since '2026-13-45'"),
        ("bad repository name", ["pytorch"], TOKEN, "invalid repository 'pytorch'"),
        ("graphql without a token", [AO, "--api", "graphql"], "", "--api graphql needs a token"),
    ],
)
def test_bad_input_one_clear_line_exit_1_store_untouched(
    ao_jsonl: Path, synced_db: Path, case: str, args: list[str], token: str, expected: str
) -> None:
    # The shared rate-limit budget is not user data: a refused request still spends it.
    before = all_text(synced_db, skip=("github_rate_budget",))
    with fake_for(
        ao_jsonl, AO, revoked={"ghp_revoked"}, hidden={"ghp_cannot_see_ao": {AO}}
    ) as fake:
        result = _cli(
            synced_db, "sync", *args, "--github-api-url", fake.url, env={"GITHUB_TOKEN": token}
        )
        if case.startswith(("unknown repository", "revoked token", "no access")):
            assert fake.log, "no request was made"
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and expected in errors[0], result.stderr
    assert " — " in errors[0]  # what is wrong — what to do
    assert result.stdout == ""
    assert all_text(synced_db, skip=("github_rate_budget",)) == before


def test_the_token_never_leaks(ao_jsonl: Path, synced_db: Path, tmp_path: Path) -> None:
    outputs = []
    env = {"GITHUB_TOKEN": TOKEN}
    with fake_for(ao_jsonl, AO, revoked={"ghp_" + TOKEN[4:][::-1]}) as fake:
        url = ["--github-api-url", fake.url]
        outputs.append(_cli(synced_db, "sync", AO, *url, env=env))  # incremental, 304
        fake.touch(AO, max(p["number"] for p in fake.repos[AO]), title="touched")
        outputs.append(_cli(synced_db, "sync", AO, "--api", "rest", *url, env=env))
        fake.touch(AO, sorted(p["number"] for p in fake.repos[AO])[-2], title="touched again")
        fake.inject("502", times=1)  # retried (after a real one-second backoff)
        fake.inject("404", path="/files")
        outputs.append(
            _cli(synced_db, "sync", AO, "--api", "rest", *url, env=env)
        )  # fails mid-sync
        fake.inject("primary", path="/pulls", reset_in=900)
        fake.touch(AO, min(p["number"] for p in fake.repos[AO]), title="touched too")
        outputs.append(_cli(synced_db, "sync", AO, "--no-wait", *url, env=env))
        outputs.append(_cli(synced_db, "sync", "pytorch/nope", *url, env=env))
        outputs.append(
            _cli(synced_db, "sync", AO, *url, env={"GITHUB_TOKEN": "ghp_" + TOKEN[4:][::-1]})
        )
        out = tmp_path / "digest.json"
        digest = _cli(synced_db, "digest", AO, "--week", "2026-W30", "--writer", "deterministic",
                      "--format", "json", "--count", "all", "--out", str(out), env=env)  # fmt: skip
        outputs.append(digest)
        assert all(TOKEN not in r.body for r in fake.log)  # not in a URL or body either
    assert [r.exit_code for r in outputs] == [0, 0, 1, 1, 1, 1, 0]
    assert "rate limit is used up until" in outputs[3].stderr
    text = "\n".join(r.output + r.stderr for r in outputs)
    if out.exists():
        text += out.read_text()
    text += all_text(synced_db)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            text += path.read_bytes().decode("utf-8", "replace")
    assert TOKEN not in text
    assert TOKEN[4:20] not in text


def test_digest_counts_opened_prs_and_says_so(
    ao_jsonl: Path, synced_db: Path, tmp_path: Path
) -> None:
    from prdigest.timeutil import iso_week_window

    store = open_store(str(synced_db))
    week = iso_week_window("2026-W30")
    opened = store.created_between(AO, week.start, week.end)
    merged = store.merged_between(AO, week.start, week.end)
    assert opened and {pr.state for pr in opened} >= {"merged"}
    assert {pr.number for pr in opened} != {pr.number for pr in merged}
    assert all(week.start <= pr.created_at < week.end for pr in opened if pr.created_at)
    out = tmp_path / "opened.json"
    result = _cli(synced_db, "digest", AO, "--week", "2026-W30", "--writer", "deterministic",
                  "--format", "json", "--count", "opened", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    import json

    context = json.loads(out.read_text())
    assert context["count_mode"] == "opened"
    assert context["counts"]["opened"] == len(opened)
    assert context["counts"]["merged"] == sum(pr.number is not None for pr in merged)
    assert context["counts"]["prs"] == len(opened)


def test_ctrl_c_during_a_github_sync_says_how_many_prs_it_kept(
    ao_jsonl: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23, item 5: the Ctrl-C line counts what the committed pages stored."""
    from prdigest.store import Store

    real, pages = Store.upsert_github_prs, []

    def interrupted(store: object, repo: str, prs: list[object]) -> object:
        pages.append(len(prs))
        if len(pages) == 2:
            raise KeyboardInterrupt  # Ctrl-C while the second page is written
        return real(store, repo, prs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "upsert_github_prs", interrupted)
    db = tmp_path / "store.db"
    with fake_for(ao_jsonl, AO) as fake:
        result = _cli(db, "sync", AO, "--since", "2026-03-01", "--api", "rest",
                      "--github-api-url", fake.url)  # fmt: skip
    assert result.exit_code == 130, (pages, result.output)
    kept = pages[0]
    assert _count(db) == kept > 0
    assert result.stderr.endswith(
        f"Error: interrupted — {kept:,} PRs of {AO} read before it are stored;"
        " run the command again to resume\n"
    )


@pytest.mark.parametrize(
    "api,field,value,expected",
    [
        ("rest", "user", "octocat", "Expected `object | null`, got `str` - at `$[0].user`"),
        ("rest", "number", "12", "Expected `int`, got `str` - at `$[0].number`"),
        ("graphql", "title", 42, "got `int` - at `$.repository.pullRequests.nodes[0].title`"),
    ],
)
def test_a_malformed_github_answer_is_one_clear_line(
    ao_jsonl: Path, tmp_path: Path, api: str, field: str, value: object, expected: str
) -> None:
    """A field GitHub sends with the wrong type is said once, with where it is, not a
    traceback; nothing of that page is stored."""
    db = tmp_path / "store.db"
    with fake_for(ao_jsonl, AO) as fake:
        newest = max(fake.repos[AO], key=lambda p: p["updated_at"])
        newest[field] = value  # the first item of the listing's first page
        result = _cli(db, "sync", AO, "--api", api, "--since", "2026-07-01",
                      "--github-api-url", fake.url, env={"GITHUB_TOKEN": TOKEN})  # fmt: skip
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    assert "GitHub sent" in errors[0] and "we cannot read" in errors[0], errors[0]
    assert expected in errors[0] and " — " in errors[0], errors[0]
    assert "Traceback" not in result.output
    assert _count(db) == 0
