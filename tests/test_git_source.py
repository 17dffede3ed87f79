"""The `--git` source on a real history: executorch records replayed into a git repository."""

from __future__ import annotations

import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from prdigest.errors import GitError
from prdigest.sources import git as git_source
from prdigest.sources.commit_message import parse_message, parse_trailers
from prdigest.sources.git import resolve_ref
from prdigest.sources.records import parse_record
from replay import MERGE_NUMBER, NON_UTF8_NUMBER, REPOSITORY_OVERRIDES, Replay, message_of, replay

REPO = "pytorch/executorch"
# executorch's 2025-W37, 2026-W06 and 2026-W07 (390 records, in the excerpt too): renames,
# binaries, empty commits, direct pushes; quick to replay.
REPLAYED_WEEKS = (("2025-09-08", "2025-09-14"), ("2026-02-02", "2026-02-15"))
REPLAYED = 390
# #14873 moves .png files: it and the 11 records around it (landed 2025-10-20)
BINARY_RENAME = (15247, 15233, 15239, 15266, 15139, 15272, 14873, 15171, 15275, 15284, 15287, 15062)


@pytest.fixture(autouse=True)
def _no_outer_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run inside a git hook, GIT_DIR & co. would point every git call here at the
    project's own repository; these tests write only to their temporary ones."""
    for name in REPOSITORY_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def iter_git_records(path: Path, repo: str, **options: Any) -> Iterator[dict[str, Any]]:
    """The records in the published format, without the Python files' diffs, which the
    published records (the replay's source) do not have; `test_python_files_carry_their_diff`
    checks those."""
    for commit in git_source.iter_git_records(path, repo, **options):
        record = commit.as_record()
        for change in record["files"]:
            change.pop("patch", None)
            change.pop("patch_truncated", None)
        yield record


def _records(path: Path, count: int | None = None) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in islice(handle, count)]


@pytest.fixture(scope="session")
def _replays(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Replay]:
    return {}


@pytest.fixture
def replayed(
    executorch_jsonl: Path, _replays: dict[int, Replay], tmp_path_factory: pytest.TempPathFactory
) -> Replay:
    """A shared, read-only replay of the records of REPLAYED_WEEKS (built once)."""
    if REPLAYED not in _replays:
        dest = tmp_path_factory.mktemp("replay") / "executorch"
        records = [
            r
            for r in _records(executorch_jsonl)
            if any(first <= str(r["committed_at"])[:10] <= last for first, last in REPLAYED_WEEKS)
        ]
        assert len(records) == REPLAYED, len(records)
        _replays[REPLAYED] = replay(records, dest, merge_at=REPLAYED // 2)
    return _replays[REPLAYED]


@pytest.fixture
def small(executorch_jsonl: Path, tmp_path: Path) -> Replay:
    """A private replay of 40 records, free to rewrite."""
    return replay(_records(executorch_jsonl, 40), tmp_path / "small", non_utf8=False)


def _expected(rp: Replay, start: int = 0) -> list[dict[str, Any]]:
    return [{**record, "repo": REPO} for record in rp.expected[start:]]


def _git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


# -- commit messages ---------------------------------------------------------------


def test_messages_of_every_real_record_parse_back_to_the_record(executorch_jsonl: Path) -> None:
    records = _records(executorch_jsonl)
    for record in records:
        parsed = parse_message(message_of(record).decode(), REPO)
        assert (parsed.title, parsed.body) == (record["title"], record["body"]), record["sha"]
        assert (parsed.number, parsed.number_source) == (
            record["number"],
            record["number_source"],
        ), record["sha"]
        assert parsed.trailers == record["trailers"], record["sha"]
        assert list(parsed.trailers) == list(record["trailers"]), record["sha"]
    sources = {record["number_source"] for record in records}
    assert {"title", "pull_request_resolved", "pull_request_trailer", None} <= sources


def test_pull_request_resolved_names_the_pr_when_the_title_has_none(executorch_jsonl: Path) -> None:
    record = next(
        r for r in _records(executorch_jsonl) if r["number_source"] == "pull_request_resolved"
    )
    parsed = parse_message(message_of(record).decode(), REPO)
    assert parsed.number == record["number"]
    assert (
        f"https://github.com/{REPO}/pull/{record['number']}"
        in parsed.trailers["Pull Request resolved"][0]
    )
    # Another repository's URL is not this repository's PR.
    assert parse_message(message_of(record).decode(), "pytorch/other").number is None


def test_ghstack_pull_request_trailer(executorch_jsonl: Path) -> None:
    record = next(
        r for r in _records(executorch_jsonl) if r["number_source"] == "pull_request_trailer"
    )
    parsed = parse_message(message_of(record).decode(), REPO)
    assert (parsed.number, parsed.number_source) == (record["number"], "pull_request_trailer")


def test_merge_subject_takes_the_title_from_the_body() -> None:
    parsed = parse_message(
        "Merge pull request #812 from jane/fix-arm\n\nFix Arm quantizer\n\nDetails.\n", REPO
    )
    assert (parsed.number, parsed.number_source) == (812, "merge_subject")
    assert (parsed.title, parsed.body) == ("Fix Arm quantizer", "Details.")


def test_co_authors_and_git_trailer_block(executorch_jsonl: Path) -> None:
    with_co_author = next(
        r for r in _records(executorch_jsonl) if "Co-authored-by" in r["trailers"]
    )
    assert (
        parse_trailers(with_co_author["body"])["Co-authored-by"]
        == with_co_author["trailers"]["Co-authored-by"]
    )
    trailers = parse_trailers(
        "Body text.\n\nBug-Id: 42\nCo-authored-by: A <a@x.org>\n  continued\n"
    )
    assert trailers == {"Bug-Id": ["42"], "Co-authored-by": ["A <a@x.org>"]}
    # Inside a code fence, a "Key: value" line is not a trailer.
    assert parse_trailers("```\nSigned-off-by: nobody\n```\nprose") == {}


# -- the replayed history ------------------------------------------------------------


def test_replayed_history_comes_back_record_for_record(replayed: Replay) -> None:
    got = list(iter_git_records(replayed.path, REPO))
    assert got == _expected(replayed)
    # Same JSON, key order included, as the published records (the raw payload is stored).
    for record, expected, original in zip(
        got, _expected(replayed), replayed.originals, strict=True
    ):
        if original is not None:
            assert json.dumps(record) == json.dumps(expected), original["sha"]


def test_python_files_carry_their_diff(replayed: Replay) -> None:
    """Each Python file's (`.py`, `.pyi`) `patch` is git's own diff of it from the first
    `@@` (cut at 8,000 bytes at a line's end, then `patch_truncated`); no other file has one."""
    checked = cut = 0
    for record in git_source.iter_git_records(replayed.path, REPO):
        parents = record.parents
        for change in record.files:
            if not change.path.endswith((".py", ".pyi")):  # sources/git.py's _PATCHED
                assert change.patch is None and not change.patch_truncated, change.path
                continue
            if change.patch is None or len(parents) != 1 or checked >= 60:
                continue
            shown = _git(
                replayed.path, "diff", "-M", parents[0], record.sha, "--", change.path,
                *([change.old_path] if change.old_path else []),
            )  # fmt: skip
            whole = shown[shown.index("\n@@") + 1 :]
            if change.patch_truncated:
                assert whole.startswith(change.patch) and len(change.patch) <= 8000
                cut += 1
            else:
                assert change.patch.removesuffix("\n") == whole, (record.sha, change.path)
            checked += 1
    assert checked == 60


def test_replayed_records_match_the_published_records(replayed: Replay) -> None:
    """Numbers, titles, people, dates and (nearly always) files are the original records'."""
    got = list(iter_git_records(replayed.path, REPO))
    same_files = 0
    compared = 0
    for record, original in zip(got, replayed.originals, strict=True):
        if original is None:
            continue
        compared += 1
        for key in ("number", "number_source", "title", "body", "trailers", "author_name", "author_email",
                    "committer_name", "committer_email", "committed_at", "authored_at"):  # fmt: skip
            assert record[key] == original[key], (key, original["sha"])
        same_files += record["files"] == original["files"]
    assert compared >= REPLAYED - 5
    # Only a deletion from a file the replay could not pre-size may differ.
    assert same_files >= compared * 0.97


def test_renames_binaries_root_and_empty_commits(replayed: Replay) -> None:
    got = list(iter_git_records(replayed.path, REPO))
    root = got[0]
    assert root["parents"] == [] and root["files"], (
        "the root commit is diffed against the empty tree"
    )
    files = [f for record in got for f in record["files"]]
    assert any(f.get("old_path") and f["additions"] is not None for f in files)
    assert any(f.get("binary") and f["additions"] is None and f["deletions"] is None for f in files)
    empty = [
        r for r, o in zip(got, replayed.originals, strict=True) if o is not None and not o["files"]
    ]
    assert empty and all(r["files"] == [] for r in empty)
    assert all(len(r["parents"]) == 1 for r in got[1:] if r["number"] != MERGE_NUMBER)


def test_binary_renames_keep_their_old_path(executorch_jsonl: Path, tmp_path: Path) -> None:
    records = [r for r in _records(executorch_jsonl) if r["number"] in BINARY_RENAME]
    assert len(records) == len(BINARY_RENAME)
    renamed = [f for r in records for f in r["files"] if f.get("binary") and f.get("old_path")]
    assert renamed
    rp = replay(records, tmp_path / "binary", non_utf8=False)
    got = [f for r in iter_git_records(rp.path, REPO) for f in r["files"]]
    for entry in renamed:
        assert entry in got
        assert json.dumps(entry) in {json.dumps(f) for f in got}


def test_first_parent_history_skips_the_merged_side_branch(replayed: Replay) -> None:
    got = list(iter_git_records(replayed.path, REPO))
    assert replayed.merge_index is not None
    merge = got[replayed.merge_index]
    assert (merge["number"], merge["number_source"], merge["title"]) == (
        MERGE_NUMBER,
        "merge_subject",
        "Add the side feature",
    )
    assert (
        len(merge["parents"]) == 2 and merge["parents"][0] == got[replayed.merge_index - 1]["sha"]
    )
    assert merge["files"] == [{"path": "side/feature.txt", "additions": 7, "deletions": 0}]
    assert merge["parents"][1] not in {r["sha"] for r in got}


def test_non_utf8_message_and_path_are_decoded_with_replacement(replayed: Replay) -> None:
    record = list(iter_git_records(replayed.path, REPO))[-1]
    assert record["number"] == NON_UTF8_NUMBER
    assert record["title"] == "Handle caf\ufffd in names"
    assert "\ufffd" in record["body"]
    assert record["files"][0]["path"] == "docs/caf\ufffd.txt"


def test_every_record_goes_through_the_record_parser(replayed: Replay) -> None:
    prs = [
        parse_record(raw, REPO, "git", f"test@{raw['sha'][:8]}")
        for raw in iter_git_records(replayed.path, REPO)
    ]
    assert len(prs) == len(replayed.expected)
    assert sum(pr.is_direct_push for pr in prs) >= 1


# -- incremental reads, refs and since --------------------------------------------------


def test_after_sha_yields_only_newer_commits(replayed: Replay) -> None:
    cursor = replayed.expected[250]["sha"]
    assert list(iter_git_records(replayed.path, REPO, after_sha=cursor)) == _expected(replayed, 251)
    head = replayed.expected[-1]["sha"]
    assert list(iter_git_records(replayed.path, REPO, after_sha=head)) == []


def test_force_push_falls_back_to_the_whole_history(small: Replay) -> None:
    old_tip = small.expected[-1]["sha"]
    base = small.expected[20]["sha"]
    tree = _git(small.path, "rev-parse", f"{base}^{{tree}}")
    env = {**os.environ, "GIT_AUTHOR_DATE": "1767225600 +0000", "GIT_COMMITTER_DATE": "1767225600 +0000",
           "GIT_AUTHOR_NAME": "R", "GIT_AUTHOR_EMAIL": "r@x", "GIT_COMMITTER_NAME": "R", "GIT_COMMITTER_EMAIL": "r@x"}  # fmt: skip
    rewritten = subprocess.run(["git", "-C", str(small.path), "commit-tree", tree, "-p", base, "-m", "Rewrite (#77)"],
                               capture_output=True, text=True, check=True, env=env).stdout.strip()  # fmt: skip
    _git(small.path, "update-ref", "refs/heads/main", rewritten)
    got = list(iter_git_records(small.path, REPO, after_sha=old_tip))
    assert [r["sha"] for r in got] == [r["sha"] for r in small.expected[:21]] + [rewritten]
    assert got[-1]["number"] == 77 and got[-1]["files"] == []
    # A cursor git has never heard of (gone after gc) also reads everything.
    assert len(list(iter_git_records(small.path, REPO, after_sha="0" * 40))) == 22


def test_since_skips_older_commits(replayed: Replay) -> None:
    since = datetime.fromisoformat(replayed.expected[300]["committed_at"].replace("Z", "+00:00"))
    got = list(iter_git_records(replayed.path, REPO, since=since))
    assert got == [
        r
        for r in _expected(replayed)
        if r["committed_at"] >= replayed.expected[300]["committed_at"]
    ]
    assert got[0]["sha"] == replayed.expected[300]["sha"]


def test_ref_selects_another_branch(small: Replay) -> None:
    old = small.expected[10]["sha"]
    _git(small.path, "update-ref", "refs/heads/release", old)
    assert resolve_ref(small.path, "release") == ("refs/heads/release", old)
    assert resolve_ref(small.path, old) == (old, old)
    got = list(iter_git_records(small.path, REPO, ref="release"))
    assert got == _expected(small)[:11]


def test_default_branch_is_the_remote_head_when_known(small: Replay) -> None:
    assert resolve_ref(small.path, None) == ("refs/heads/main", small.expected[-1]["sha"])
    _git(small.path, "update-ref", "refs/remotes/origin/trunk", small.expected[5]["sha"])
    _git(small.path, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    assert resolve_ref(small.path, None) == ("refs/remotes/origin/trunk", small.expected[5]["sha"])
    assert len(list(iter_git_records(small.path, REPO))) == 6


def test_a_users_clone_and_a_bare_mirror(small: Replay, tmp_path: Path) -> None:
    """A real `git clone`: the default branch is origin's HEAD; a bare clone reads the same."""
    subprocess.run(["git", "clone", "-q", str(small.path), str(tmp_path / "clone")], check=True)
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(small.path), str(tmp_path / "bare.git")], check=True
    )
    head = small.expected[-1]["sha"]
    assert resolve_ref(tmp_path / "clone", None) == ("refs/remotes/origin/main", head)
    assert resolve_ref(tmp_path / "bare.git", None) == ("refs/heads/main", head)
    assert list(iter_git_records(tmp_path / "clone", REPO)) == _expected(small)
    assert list(iter_git_records(tmp_path / "bare.git", REPO)) == _expected(small)


def test_shallow_clone_does_not_count_the_whole_tree_as_one_pr(
    small: Replay, tmp_path: Path
) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "3", f"file://{small.path}", str(shallow)], check=True
    )
    got = list(iter_git_records(shallow, REPO))
    assert [r["sha"] for r in got] == [r["sha"] for r in small.expected[-3:]]
    assert got[0]["files"] == [] and got[0]["title"] == small.expected[-3]["title"]
    assert got[1:] == _expected(small)[-2:]


def test_git_dir_of_a_calling_hook_is_ignored(
    small: Replay, replayed: Replay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_DIR", str(small.path / ".git"))
    assert resolve_ref(replayed.path, None)[1] == replayed.expected[-1]["sha"]
    assert len(list(iter_git_records(replayed.path, REPO))) == len(replayed.expected)


def test_stopping_early_ends_the_git_process(replayed: Replay) -> None:
    records = iter_git_records(replayed.path, REPO)
    assert next(records)["parents"] == []
    records.close()  # must not hang or raise


# -- bad input ---------------------------------------------------------------------


def test_missing_path_and_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="no such directory"):
        resolve_ref(tmp_path / "absent", None)
    with pytest.raises(GitError, match="is not a git repository"):
        list(iter_git_records(tmp_path, REPO))


def test_unknown_ref(small: Replay) -> None:
    with pytest.raises(GitError, match="unknown ref 'no-such-branch'"):
        list(iter_git_records(small.path, REPO, ref="no-such-branch"))


def test_git_not_installed(small: Replay, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(GitError, match="git is not installed"):
        resolve_ref(small.path, None)


def test_repository_without_commits(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path / "fresh")], check=True)
    with pytest.raises(GitError, match="has no commits"):
        resolve_ref(tmp_path / "fresh", None)


# -- end to end through the CLI --------------------------------------------------------


def _rows(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        prs = conn.execute(
            "SELECT sha, number, number_source, title, body, author_name, author_email, merged_at, authored_at,"
            " source, parents, trailers FROM pull_requests ORDER BY sha"
        ).fetchall()
        files = conn.execute(
            "SELECT p.sha, f.position, f.path, f.old_path, f.additions, f.deletions, f.is_binary"
            " FROM files f JOIN pull_requests p ON p.id = f.pr_id ORDER BY p.sha, f.position"
        ).fetchall()
    return prs + files


def _cli(*args: str) -> Any:
    from prdigest.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_sync_twice_gives_the_same_rows(replayed: Replay, tmp_path: Path) -> None:
    db = tmp_path / "twice.db"
    first = _cli("--db", str(db), "sync", REPO, "--git", str(replayed.path))
    assert first.exit_code == 0, first.output
    rows = _rows(db)
    assert len([r for r in rows if len(r) == 12]) == len(replayed.expected)
    second = _cli("--db", str(db), "sync", REPO, "--git", str(replayed.path))
    assert second.exit_code == 0, second.output
    assert _rows(db) == rows


def test_cli_sync_of_a_bad_path_is_one_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(__import__("prdigest.cli", fromlist=["main"]).main,
                                ["--db", str(tmp_path / "x.db"), "sync", REPO, "--git", str(tmp_path)])  # fmt: skip
    assert result.exit_code == 1
    assert "is not a git repository" in result.output


def test_killed_sync_resumes_with_nothing_lost_or_doubled(
    executorch_jsonl: Path, tmp_path: Path
) -> None:
    """SIGKILL a sync part-way (after its first committed batch), sync again: the rows
    equal those of one uninterrupted sync."""
    from prdigest.pipeline import BATCH

    rp = replay(_records(executorch_jsonl, 3 * BATCH), tmp_path / "big", non_utf8=False)
    clean, killed = tmp_path / "clean.db", tmp_path / "killed.db"
    command = [sys.executable, "-c", "from prdigest.cli import main; main()"]
    subprocess.run([*command, "--db", str(clean), "sync", REPO, "--git", str(rp.path)], check=True,
                   capture_output=True)  # fmt: skip
    process = subprocess.Popen([*command, "--db", str(killed), "sync", REPO, "--git", str(rp.path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    _wait_for_first_batch(killed, process)
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = _count(killed)
    if kept >= len(rp.expected):
        pytest.skip("the sync finished before it could be killed (machine too fast)")
    assert kept % BATCH == 0, "a batch and its cursor commit together, or not at all"
    resumed = subprocess.run([*command, "--db", str(killed), "sync", REPO, "--git", str(rp.path)],
                             capture_output=True, text=True)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert _rows(killed) == _rows(clean)


def _count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM pull_requests").fetchone()[0])


def _wait_for_first_batch(db: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.05) as conn:
                if conn.execute("SELECT count(*) FROM pull_requests").fetchone()[0]:
                    return
        except sqlite3.Error:
            pass  # not created yet, or locked by the writer
        time.sleep(0.005)


def test_pipeline_batches_survive_a_crash_mid_sync(
    replayed: Replay, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deterministic twin of the SIGKILL test: the source dies after 260 records,
    with batches of 100."""
    import prdigest.sources.git as git_source
    from prdigest import pipeline
    from prdigest.ingest import batches as ingest_records
    from prdigest.store import open_store

    real = git_source.iter_git_records

    def dying(*args: Any, **kwargs: Any) -> Any:
        for count, record in enumerate(real(*args, **kwargs)):
            if count == 260:
                raise RuntimeError("simulated crash")
            yield record

    spec = pipeline.SourceSpec(git=replayed.path)
    store = open_store(str(tmp_path / "crash.db"))
    monkeypatch.setattr(ingest_records, "BATCH", 100)
    monkeypatch.setattr(git_source, "iter_git_records", dying)
    with pytest.raises(RuntimeError, match="simulated crash"):
        pipeline.sync(store, REPO, spec)
    monkeypatch.setattr(git_source, "iter_git_records", real)
    kept = store.count_pull_requests(REPO)
    assert kept == 200, "the two committed batches are kept, the third is rolled back"
    result = pipeline.sync(store, REPO, spec)
    assert result.counts.inserted == len(replayed.expected) - kept
    store.close()
    clean = tmp_path / "clean.db"
    assert _cli("--db", str(clean), "sync", REPO, "--git", str(replayed.path)).exit_code == 0
    assert _rows(tmp_path / "crash.db") == _rows(clean)


def test_since_is_honoured_through_the_pipeline(replayed: Replay, tmp_path: Path) -> None:
    day = replayed.expected[300]["committed_at"][:10]
    result = _cli(
        "--db", str(tmp_path / "s.db"), "sync", REPO, "--git", str(replayed.path), "--since", day
    )
    assert result.exit_code == 0, result.output
    rows = [r for r in _rows(tmp_path / "s.db") if len(r) == 12]
    assert rows and all(r[7] >= f"{day}T00:00:00Z" for r in rows)
    assert datetime.fromisoformat(min(r[7] for r in rows).replace("Z", "+00:00")).tzinfo == UTC
