"""GitHub sync against a fake GitHub (real HTTP on 127.0.0.1) serving pytorch/ao's real records."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conftest import AO_RECORDS, real_data
from fakes.github_server import FakeGitHub
from github_helpers import AO, RecordingReporter, dump, fake_for, github_sync
from prdigest.errors import GitHubError, RateLimitError
from prdigest.pipeline import SourceSpec, sync
from prdigest.reporting import SilentReporter
from prdigest.store import Store, open_store


def _store(tmp_path: Path, name: str) -> Store:
    return open_store(str(tmp_path / f"{name}.db"))


TOKEN = "ghp_fakeTokenForTests000000000000000000"


@pytest.fixture(scope="module")
def clean_dumps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What a clean sync (no faults) stores, per API flavour, with small pages (many requests)."""
    ao_jsonl = real_data(AO_RECORDS)
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GITHUB_TOKEN", TOKEN)
        for api in ("rest", "graphql"):
            store = _store(tmp_path_factory.mktemp("clean"), api)
            with fake_for(ao_jsonl, AO) as fake:
                github_sync(store, fake, api=api, page_size=20)
            out[api] = dump(store.conn)
            store.close()
    return out


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    return TOKEN


def test_clean_sync_stores_every_pr_in_the_window_once(ao_jsonl: Path, tmp_path: Path) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        result = github_sync(store, fake, api="rest")
        expected = {p["number"]: p for p in fake.repos[AO] if p["updated_at"] >= "2026-06-01"}
    rows = store.conn.execute("SELECT number, state, sha, draft FROM pull_requests").fetchall()
    assert sorted(r[0] for r in rows) == sorted(expected)  # one row per PR, none missing
    for number, state, sha, draft in rows:
        pull = expected[number]
        want = "merged" if pull["merged_at"] else pull["state"]
        assert state == want
        assert (sha is not None) == (want == "merged")
        assert bool(draft) == pull["draft"]
    assert {"open", "closed", "merged"} <= {r[1] for r in rows}
    assert result.counts.inserted == len(expected)
    assert "requests" in result.summary()
    # labels and files came along
    some = next(p for p in expected.values() if p["labels"] and p["_files"])
    labels = {r[0] for r in store.conn.execute(
        "SELECT l.name FROM labels l JOIN pull_requests p ON p.id = l.pr_id WHERE p.number = ?",
        (some["number"],))}  # fmt: skip
    assert labels == {label["name"] for label in some["labels"]}
    files = store.conn.execute(
        "SELECT f.path FROM files f JOIN pull_requests p ON p.id = f.pr_id WHERE p.number = ? ORDER BY position",
        (some["number"],),
    ).fetchall()
    assert [f[0] for f in files] == [f["filename"] for f in some["_files"]]


def test_rest_and_graphql_agree(clean_dumps: dict[str, Any]) -> None:
    def essentials(d: dict[str, Any]) -> list[Any]:
        # GraphQL has no previous path for renames; everything else must match.
        return [(r[:12], tuple((f[0], f[1], f[3], f[4]) for f in r[-2]), r[-1]) for r in d["prs"]]

    assert len(clean_dumps["rest"]["prs"]) > 50
    assert essentials(clean_dumps["rest"]) == essentials(clean_dumps["graphql"])


def test_graphql_uses_far_fewer_requests(ao_jsonl: Path, tmp_path: Path) -> None:
    counts = {}
    for api in ("rest", "graphql"):
        with fake_for(ao_jsonl, AO) as fake:
            result = github_sync(_store(tmp_path, api), fake, api=api)
            counts[api] = (result.requests, result.read)
    assert counts["rest"][1] == counts["graphql"][1]
    assert counts["graphql"][0] * 10 < counts["rest"][0]


@pytest.mark.parametrize("api", ["rest", "graphql"])
def test_unchanged_resync_is_nearly_free(ao_jsonl: Path, tmp_path: Path, api: str) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        github_sync(store, fake, api=api)
        before = dump(store.conn)
        fake.clear_log()
        github_sync(store, fake, api=api)  # GraphQL takes its first ETag here
        second = [r.status for r in fake.log]
        fake.clear_log()
        result = github_sync(store, fake, api=api)
        third = [r.status for r in fake.log]
    assert second.count(200) <= 2 and len(second) <= 2
    assert third == [304]
    assert result.requests == 1 and result.not_modified == 1
    assert result.counts.inserted == result.counts.updated == 0
    assert dump(store.conn)["prs"] == before["prs"]


@pytest.mark.parametrize("api", ["rest", "graphql"])
def test_incremental_sync_fetches_only_what_changed(
    ao_jsonl: Path, tmp_path: Path, api: str
) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        github_sync(store, fake, api=api)
        old = next(p for p in fake.repos[AO] if "2026-06-10" <= p["updated_at"] < "2026-06-20")
        fake.touch(
            AO, old["number"], labels=[{"name": "topic: new label"}], title="Renamed on GitHub"
        )
        fake.clear_log()
        result = github_sync(store, fake, api=api)
        data_requests = [r for r in fake.log if r.status == 200]
    assert result.counts.updated == 1 and result.counts.inserted == 0
    assert len(data_requests) <= 2  # REST: page 1 + its files; GraphQL: probe + one page
    row = store.conn.execute(
        "SELECT p.title, l.name FROM pull_requests p JOIN labels l ON l.pr_id = p.id WHERE p.number = ?",
        (old["number"],),
    ).fetchall()
    assert row == [("Renamed on GitHub", "topic: new label")]
    assert (
        store.conn.execute(
            "SELECT COUNT(*) FROM pull_requests WHERE number = ?", (old["number"],)
        ).fetchone()[0]
        == 1
    )


FAULT_PLANS: list[tuple[str, dict[str, Any]]] = [
    ("502", {"path": "/pulls", "times": 3, "after": 2}),
    ("timeout", {"path": "/files", "times": 1, "after": 5}),
    ("reset", {"path": "/pulls", "times": 2, "after": 1}),
    ("truncated", {"path": "/pulls", "times": 2, "after": 3}),
    ("malformed", {"path": "/pulls", "times": 2, "after": 4}),
    ("primary", {"path": "/pulls", "times": 1, "after": 6}),
    ("secondary", {"path": "/pulls", "times": 2, "after": 7}),
    ("429", {"path": "/files", "times": 1, "after": 8}),
]


@pytest.mark.parametrize("kind,where", FAULT_PLANS, ids=[k for k, _ in FAULT_PLANS])
def test_rest_sync_through_a_fault_equals_a_clean_sync(
    ao_jsonl: Path, tmp_path: Path, clean_dumps: dict[str, Any], kind: str, where: dict[str, Any]
) -> None:
    store = _store(tmp_path, "db")
    sleeps: list[float] = []
    with fake_for(ao_jsonl, AO, timeout_delay=3.0) as fake:
        fake.inject(kind, **where)
        result = github_sync(store, fake, api="rest", page_size=20, sleeps=sleeps)
        assert all(f.times == 0 for f in fake.faults), "the fault never fired"
    assert dump(store.conn) == clean_dumps["rest"]
    if kind in ("primary", "secondary", "429"):
        assert sleeps and result.retries == 0  # waited as told, not counted as failures
    else:
        assert result.retries == where["times"]


GRAPHQL_FAULTS = ["502", "timeout", "truncated", "malformed", "graphql_rate_limited", "secondary"]


@pytest.mark.parametrize("kind", GRAPHQL_FAULTS)
def test_graphql_sync_through_a_fault_equals_a_clean_sync(
    ao_jsonl: Path, tmp_path: Path, clean_dumps: dict[str, Any], kind: str
) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO, timeout_delay=3.0) as fake:
        fake.inject(kind, path="/graphql", times=1, after=2)
        github_sync(store, fake, api="graphql", page_size=20)
        assert all(f.times == 0 for f in fake.faults)
    assert dump(store.conn) == clean_dumps["graphql"]


def test_every_fault_in_one_sync(
    ao_jsonl: Path, tmp_path: Path, clean_dumps: dict[str, Any]
) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO, timeout_delay=3.0) as fake:
        for i, (kind, where) in enumerate(FAULT_PLANS):
            fake.inject(kind, path=where["path"], times=1, after=3 * i)
        github_sync(store, fake, api="rest", page_size=20)
    assert dump(store.conn) == clean_dumps["rest"]


def test_primary_rate_limit_waits_with_a_countdown(ao_jsonl: Path, tmp_path: Path) -> None:
    reporter, sleeps = RecordingReporter(), []  # type: ignore[var-annotated]
    with fake_for(ao_jsonl, AO) as fake:
        fake.inject("primary", path="/pulls", after=3, reset_in=5)
        github_sync(_store(tmp_path, "db"), fake, api="rest", reporter=reporter, sleeps=sleeps)
    assert 4 <= sum(sleeps) <= 8  # until the reset (+1 s), in one-second steps
    countdown = [float(line.split()[1]) for line in reporter.lines if line.startswith("waiting")]
    assert all("rate limit is used up" in line for line in reporter.lines if "waiting" in line)
    assert len(countdown) >= 5 and countdown == sorted(countdown, reverse=True)
    assert countdown[0] >= 4 and countdown[-1] == 0  # counted down second by second, then over


def test_no_wait_stops_cleanly_and_the_next_run_finishes(
    ao_jsonl: Path, tmp_path: Path, clean_dumps: dict[str, Any]
) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        fake.inject("primary", path="/files", after=30, reset_in=600)
        with pytest.raises(RateLimitError) as info:
            github_sync(store, fake, api="rest", page_size=20, no_wait=True)
        message = str(info.value)
        assert (
            "rate limit is used up until" in message
            and "run the same command again after" in message
        )
        kept = store.conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()[0]
        assert kept >= 20  # the pages committed before the limit are kept
        assert store.github_state(AO).pending
        fake.clear_log()
        github_sync(store, fake, api="rest", page_size=20)
        files_fetched = len(fake.requests("/files"))
        listings = [r for r in fake.log if r.path == f"/repos/{AO}/pulls"]
    assert int(listings[0].query.get("page", 1)) >= 2  # straight to the page it had reached
    assert dump(store.conn) == clean_dumps["rest"]
    total = len(clean_dumps["rest"]["prs"])
    assert files_fetched <= total - kept + 20  # resumed, not started again


def test_persistent_502_gives_one_clear_error_and_keeps_what_was_fetched(
    ao_jsonl: Path, tmp_path: Path
) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        fake.inject("502", path="/pulls", after=42, times=100)  # pages 1-2 and their files pass
        with pytest.raises(GitHubError) as info:
            github_sync(store, fake, api="rest", page_size=20)
    message = str(info.value)
    assert "failed 6 times: GitHub answered 502" in message and "\n" not in message
    assert "run again later" in message
    assert store.conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()[0] == 40


def test_no_token_falls_back_to_public_rest_with_a_warning(
    ao_jsonl: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_TOKEN")
    monkeypatch.setenv("GH_TOKEN", "")  # empty means none
    reporter = RecordingReporter()
    with fake_for(ao_jsonl, AO) as fake:
        result = github_sync(_store(tmp_path, "db"), fake, api="auto", reporter=reporter)
        assert all("Authorization" not in r.body for r in fake.log)
        assert not fake.requests("/graphql")
    assert result.api == "rest" and result.counts.inserted > 50
    assert any(line.startswith("warn no GITHUB_TOKEN or GH_TOKEN") for line in reporter.lines)


def test_github_and_git_records_merge_into_one_row_per_pr_in_either_order(
    ao_jsonl: Path, tmp_path: Path
) -> None:
    results = []
    for order in (("jsonl", "github"), ("github", "jsonl")):
        store = _store(tmp_path, "-".join(order))
        with fake_for(ao_jsonl, AO) as fake:
            for source in order:
                if source == "jsonl":  # git knows July on; GitHub alone knows May and June
                    since = datetime(2026, 7, 1, tzinfo=UTC)
                    sync(store, AO, SourceSpec(jsonl=ao_jsonl, since=since), SilentReporter())
                else:
                    github_sync(store, fake, since="2026-05-01")
        results.append(dump(store.conn)["prs"])
        duplicates = store.conn.execute(
            "SELECT number, COUNT(*) FROM pull_requests WHERE number IS NOT NULL"
            " GROUP BY number HAVING COUNT(*) > 1"
        ).fetchall()
        relands = store.conn.execute(
            "SELECT number FROM pull_requests WHERE source = 'jsonl' AND number IS NOT NULL"
            " GROUP BY number HAVING COUNT(*) > 1"
        ).fetchall()
        assert duplicates == [(n, c) for n, c in duplicates if (n,) in relands]
        assert len(duplicates) == len(relands)  # only git's own relands land twice
        both = store.conn.execute(
            "SELECT COUNT(*) FROM pull_requests g JOIN pull_requests j ON j.number = g.number"
            " WHERE g.source = 'github' AND j.source = 'jsonl'"
        ).fetchone()[0]
        assert both == 0  # a PR git saw land never also keeps a GitHub-only row
        merged_from_git = store.conn.execute(
            "SELECT COUNT(*) FROM pull_requests p WHERE source = 'jsonl' AND created_at IS NOT NULL"
            " AND EXISTS (SELECT 1 FROM labels l WHERE l.pr_id = p.id)"
        ).fetchone()[0]
        assert merged_from_git > 50  # git rows took GitHub's labels and opening dates
        # GitHub says "closed" for some PRs git saw land: git's proof wins
        assert (
            store.conn.execute(
                "SELECT COUNT(*) FROM pull_requests WHERE source = 'jsonl' AND state <> 'merged'"
            ).fetchone()[0]
            == 0
        )
        assert (
            store.conn.execute(
                "SELECT COUNT(*) FROM pull_requests WHERE source = 'github' AND state = 'open'"
            ).fetchone()[0]
            > 0
        )
    assert results[0] == results[1]


def test_resync_from_jsonl_keeps_githubs_labels(ao_jsonl: Path, tmp_path: Path) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        sync(store, AO, SourceSpec(jsonl=ao_jsonl), SilentReporter())
        github_sync(store, fake)
        before = dump(store.conn)["prs"]
        store.conn.execute(
            "DELETE FROM sync_cursors WHERE source LIKE 'jsonl:%'"
        )  # read it all again
        again = sync(store, AO, SourceSpec(jsonl=ao_jsonl), SilentReporter())
    assert again.counts.updated == 0 and again.counts.inserted == 0
    assert dump(store.conn)["prs"] == before


def test_graphql_no_wait_then_resume_from_the_cursor(
    ao_jsonl: Path, tmp_path: Path, clean_dumps: dict[str, Any]
) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        fake.inject("graphql_rate_limited", path="/graphql", after=2, reset_in=600)
        with pytest.raises(RateLimitError) as info:
            github_sync(store, fake, api="graphql", page_size=20, no_wait=True)
        assert "graphql rate limit is used up" in str(info.value)
        assert store.conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()[0] == 40
        fake.clear_log()
        github_sync(store, fake, api="graphql", page_size=20)
        first = fake.requests("/graphql")[0]
    assert json.loads(first.body)["variables"]["after"]  # resumed after the last committed page
    assert dump(store.conn) == clean_dumps["graphql"]


def test_graphql_asks_for_smaller_pages_when_github_keeps_failing(
    ao_jsonl: Path, tmp_path: Path, clean_dumps: dict[str, Any]
) -> None:
    store, reporter = _store(tmp_path, "db"), RecordingReporter()
    with fake_for(ao_jsonl, AO) as fake:
        fake.inject("502", path="/graphql", after=1, times=6)  # every attempt at page 2
        github_sync(store, fake, api="graphql", page_size=20, reporter=reporter)
        sizes = [json.loads(r.body)["variables"]["first"] for r in fake.requests("/graphql")]
    assert sizes[:2] == [20, 20] and sizes[-1] == 10
    assert any("asking for 10 PRs a page" in line for line in reporter.lines)
    assert dump(store.conn) == clean_dumps["graphql"]


def test_prs_with_more_than_100_files_get_all_of_them(ao_jsonl: Path, tmp_path: Path) -> None:
    """ao's real PRs of 109 to 323 files: GraphQL asks for the rest in batched follow-ups."""
    with fake_for(ao_jsonl, AO) as whole:
        pulls = whole.repos[AO]
    big = [p for p in pulls if len(p["_files"]) > 100]
    assert len(big) >= 4 and max(len(p["_files"]) for p in big) > 300
    subset = big + [p for p in pulls if len(p["_files"]) <= 100][:30]
    dumps, queries = {}, {}
    for api in ("rest", "graphql"):
        store = _store(tmp_path, api)
        with FakeGitHub({AO: subset}) as fake:
            github_sync(store, fake, since=None, api=api)
            queries[api] = len(fake.requests("/graphql"))
        dumps[api] = {
            number: files
            for number, files in store.conn.execute(
                "SELECT p.number, group_concat(f.path || ':' || f.additions || ':' || f.deletions, '|')"
                " FROM pull_requests p JOIN files f ON f.pr_id = p.id GROUP BY p.id"
            )
        }
    for pull in big:
        assert len(dumps["graphql"][pull["number"]].split("|")) == len(pull["_files"])
    assert dumps["graphql"] == dumps["rest"]
    assert (
        queries["graphql"] == 4
    )  # one page, then 3 rounds for the 323-file PR (others in round 1)


def test_an_older_since_fetches_the_missing_range(
    ao_jsonl: Path, tmp_path: Path, clean_dumps: dict[str, Any]
) -> None:
    store = _store(tmp_path, "db")
    with fake_for(ao_jsonl, AO) as fake:
        github_sync(store, fake, api="rest", page_size=20, since="2026-07-15")
        recent = store.conn.execute("SELECT COUNT(*) FROM pull_requests").fetchone()[0]
        github_sync(store, fake, api="rest", page_size=20, since="2026-06-01")
        fake.clear_log()
        github_sync(store, fake, api="rest", page_size=20, since="2026-07-01")  # covered already
        assert [r.status for r in fake.log] == [304]
    assert 0 < recent < len(clean_dumps["rest"]["prs"])
    assert dump(store.conn) == clean_dumps["rest"]
