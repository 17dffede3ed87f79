"""The GitHub rate limit as one budget shared by every process with the same token."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from github_helpers import AO, fake_for
from helpers import run_cli
from prdigest.store import open_store
from prdigest.store.rate_budget import SharedRateBudget, token_key

API = "https://api.github.com"


def test_a_budget_is_taken_one_request_at_a_time(db_url: str) -> None:
    store = open_store(db_url)
    now = 1_000_000.0
    mine = SharedRateBudget(store, API, "ghp_team")
    theirs = SharedRateBudget(open_store(db_url), API, "ghp_team")  # another process, same token
    assert mine.reserve("core", now) == 0, "nothing known yet: ask GitHub"
    mine.observe("core", 5000, 2, int(now) + 600)
    assert mine.reserve("core", now) == 0
    assert theirs.reserve("core", now) == 0
    assert theirs.reserve("core", now) == pytest.approx(601)  # used up until the reset
    assert mine.reserve("graphql", now) == 0, "GraphQL has a budget of its own"
    other = SharedRateBudget(store, API, "ghp_someone_else")
    assert other.reserve("core", now) == 0, "another token has its own budget"
    assert theirs.reserve("core", now + 700) == 0, "after the reset, ask again"


def test_late_answers_do_not_raise_the_budget(db_url: str) -> None:
    store = open_store(db_url)
    budget = SharedRateBudget(store, API, "ghp_team")
    budget.observe("core", 5000, 10, 2_000)
    budget.observe("core", 5000, 40, 2_000)  # an older answer arriving late
    assert store.conn.execute("SELECT remaining FROM github_rate_budget").fetchone()[0] == 10
    budget.observe("core", 5000, 4999, 5_600)  # a new window
    assert store.conn.execute("SELECT remaining, reset_at FROM github_rate_budget").fetchone() == (
        4999,
        5_600,
    )


def test_the_token_is_never_stored() -> None:
    assert "ghp_team" not in token_key("ghp_team")
    assert token_key("") == token_key(None) == "anonymous"


def test_a_used_up_budget_stops_before_asking_github(
    tmp_path: Path, ao_jsonl: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "s.db"
    token = "ghp_shared_by_the_team"
    monkeypatch.setenv("GITHUB_TOKEN", token)
    with fake_for(ao_jsonl, AO) as fake:
        # Another worker has spent the budget of this token until an hour from now.
        budget = SharedRateBudget(open_store(str(db)), fake.url, token)
        budget.observe("graphql", 5000, 0, int(time.time()) + 3600)
        result = run_cli("sync", AO, "--github-api-url", fake.url, "--no-wait", db=db)
        assert result.exit_code == 1
        assert "rate limit shared by this token is used up" in result.stderr
        assert not fake.log, "no request was sent"
    assert token not in db.read_bytes().decode("latin-1")


def test_a_new_window_is_counted_from_its_first_request(db_url: str) -> None:
    store = open_store(db_url)
    budget = SharedRateBudget(store, API, "ghp_team")
    budget.observe("core", 2, 0, 1_000)  # used up until t=1000, two requests a window
    assert budget.reserve("core", 999.0) == pytest.approx(2)
    assert budget.reserve("core", 1_000.0) == 0, "the window passed: it refills"
    assert budget.reserve("core", 1_001.0) == 0
    assert budget.reserve("core", 1_002.0) > 0, "the refilled window is counted too"
