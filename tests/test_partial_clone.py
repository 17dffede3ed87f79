"""A partial clone (`git clone --filter=blob:none`) syncs (issue 23, item 1): every PR is
read, the files whose contents the clone lacks are stored without line counts and counted
in one warning, the others are counted as from a full clone, and nothing is fetched (the
origin is moved away, as an unreachable server would be)."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from helpers import run_cli
from prdigest.reporting import SilentReporter
from replay import git_env, replay
from test_quickstart import _quickstart

REPO = "pytorch/executorch"


@pytest.fixture
def blobless(tmp_path: Path, executorch_jsonl: Path) -> tuple[Path, Path]:
    """(a blobless clone of executorch's first 80 landed commits, the origin moved away)."""
    with gzip.open(executorch_jsonl, "rt", encoding="utf-8") as lines:
        records = [json.loads(next(lines)) for _ in range(80)]
    origin = tmp_path / "origin"
    replay(records, origin, non_utf8=False)
    clone = tmp_path / "blobless"
    _partial_clone(origin, clone, filter="blob:none")
    return clone, origin.with_name(origin.name + "-moved-away")


def _partial_clone(origin: Path, clone: Path, *, filter: str, move: bool = True) -> None:
    """`clone`: a partial clone of `origin` (git clone --filter=…), then `origin` is gone
    (unless `move` is False)."""
    env = git_env()
    subprocess.run(["git", "-C", str(origin), "config", "uploadpack.allowFilter", "true"], check=True, env=env)  # fmt: skip
    subprocess.run(
        ["git", "clone", "-q", f"--filter={filter}", f"file://{origin}", str(clone)],
        check=True,
        env=env,
    )
    if move:
        origin.rename(origin.with_name(origin.name + "-moved-away"))


def _missing(clone: Path) -> int:
    listed = subprocess.run(
        ["git", "-C", str(clone), "rev-list", "--objects", "--missing=print", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
        env=git_env(),
    ).stdout
    return sum(1 for line in listed.splitlines() if line.startswith("?"))


def _files(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT p.sha, p.number, p.title, f.path, f.old_path, f.additions, f.deletions,"
            " f.is_binary FROM pull_requests p LEFT JOIN files f ON f.pr_id = p.id"
            " ORDER BY p.sha, f.position"
        ).fetchall()
    by_sha: dict[str, list[tuple[object, ...]]] = {}
    for sha, *rest in rows:
        by_sha.setdefault(sha, []).append(tuple(rest))
    return by_sha


def test_a_blobless_clone_syncs_with_the_files_it_cannot_count_marked(
    blobless: tuple[Path, Path], tmp_path: Path
) -> None:
    clone, full = blobless
    missing_before = _missing(clone)
    assert missing_before > 5, "history's contents are missing, as in a partial clone"

    partial = run_cli("sync", REPO, "--git", str(clone), db=tmp_path / "partial.db")
    assert partial.exit_code == 0, partial.stderr
    assert _missing(clone) == missing_before, "nothing was fetched"
    complete = run_cli("sync", REPO, "--git", str(full), db=tmp_path / "full.db")
    assert complete.exit_code == 0, complete.stderr

    got, want = _files(tmp_path / "partial.db"), _files(tmp_path / "full.db")
    assert got.keys() == want.keys(), "every commit is read"
    unavailable, commits, counted = 0, 0, 0
    for sha, rows in want.items():
        assert {r[:2] for r in got[sha]} == {r[:2] for r in rows}, sha  # number, title
        touched = {p for r in rows for p in r[2:4] if p}  # path, old_path
        assert {p for r in got[sha] for p in r[2:4] if p} == touched, sha
        theirs = {r[2:4]: r[4:] for r in rows}
        lacking = 0
        for mine in got[sha]:
            if mine[4] is None and not mine[6]:
                lacking += 1  # no counts and not binary: unavailable
            else:  # counted by git: as in the full clone (a rename git paired alike)
                assert theirs.get(mine[2:4], mine[4:]) == mine[4:], (sha, mine)
                counted += 1
        unavailable += lacking
        commits += bool(lacking)
    assert unavailable and counted, (unavailable, counted)
    files = "file" if unavailable == 1 else "files"
    assert re.search(
        rf"^Warning: {unavailable} {files} in {commits} commits? ha(s|ve) no line counts: "
        rf"{re.escape(str(clone))} is a partial clone that lacks their contents, and prdigest "
        r"fetches nothing .* — to count them, sync pytorch/executorch from a full clone",
        partial.stderr,
        re.MULTILINE,
    ), partial.stderr
    n = len(want)
    assert partial.stderr.rstrip().endswith(f"synced {REPO} from git: {n} read, {n} new, 0 updated, 0 unchanged")  # fmt: skip

    # A full clone later fills in the counts: the same rows as its own sync.
    again = run_cli("sync", REPO, "--git", str(full), db=tmp_path / "partial.db")
    assert again.exit_code == 0, again.stderr
    assert _files(tmp_path / "partial.db") == want


class _CtrlCAt(SilentReporter):
    """Ctrl-C as the progress line tells `at` commits read (KeyboardInterrupt is what
    Python makes of the SIGINT a terminal sends)."""

    def __init__(self, at: int) -> None:
        self.at = at

    def progress(self, done: int, total: int | None, what: str, detail: str = "") -> None:
        if done == self.at:
            raise KeyboardInterrupt


def test_an_interrupted_sync_of_a_blobless_clone_resumes_after_the_last_commit_read(
    blobless: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: a Ctrl-C part-way through a partial clone's sync (read by blob id, its slow
    part) kept nothing of the open batch, so the next sync read every commit again. Now what
    was read is kept, and the two syncs read each commit once."""
    from prdigest import pipeline
    from prdigest.errors import SyncInterrupted
    from prdigest.ingest import batches
    from prdigest.store import open_store

    clone, _full = blobless
    total = int(subprocess.run(
        ["git", "-C", str(clone), "rev-list", "--first-parent", "--count", "HEAD"],
        capture_output=True, text=True, check=True, env=git_env(),
    ).stdout)  # fmt: skip
    assert total > 60, "more commits than the interruption point"
    db = tmp_path / "interrupted.db"
    store = open_store(str(db))
    monkeypatch.setattr(batches, "PROGRESS_EVERY", 10)  # progress told at 10, 20, 30, 40…
    with pytest.raises(SyncInterrupted, match="read before it are stored"):
        pipeline.sync(store, REPO, pipeline.SourceSpec(git=clone), _CtrlCAt(40))
    assert store.count_pull_requests(REPO) == 40, "every commit read is kept"
    store.close()

    resumed = run_cli("sync", REPO, "--git", str(clone), db=db)
    assert resumed.exit_code == 0, resumed.stderr
    rest = total - 40
    assert resumed.stderr.rstrip().endswith(
        f"synced {REPO} from git: {rest} read, {rest} new, 0 updated, 0 unchanged"
    ), resumed.stderr
    whole = run_cli("sync", REPO, "--git", str(clone), db=tmp_path / "whole.db")
    assert whole.exit_code == 0, whole.stderr
    assert f": {total} read, {total} new," in whole.stderr
    assert _files(db) == _files(tmp_path / "whole.db"), "the same rows as one uninterrupted sync"


def test_the_quickstart_digests_a_blobless_clone(
    blobless: tuple[Path, Path], tmp_path: Path
) -> None:
    clone, _full = blobless
    result = _quickstart(str(clone), db=tmp_path / "prdigest.db")
    assert result.returncode == 0, result.stderr
    assert "is a partial clone that lacks their contents" in result.stderr
    assert result.stdout.startswith("# Analysis of Pull Requests for quickstart/blobless during ")


def test_a_clone_missing_a_few_large_files_counts_all_the_rest(tmp_path: Path) -> None:
    """As in the issue: a few commits' contents missing mid-history (a clone that left out
    large files, `--filter=blob:limit`): the commits before are read by the one streaming
    log, the few are marked file by file, the rest counted."""
    origin, env = tmp_path / "origin", git_env()
    subprocess.run(["git", "init", "-q", "-b", "main", str(origin)], check=True, env=env)
    big = "".join(f"weight {i}\n" for i in range(400))  # > 1 KiB: left out of the clone
    for i in range(1, 31):
        (origin / "notes.txt").write_text(f"note {i}\n" * i, encoding="utf-8")
        (origin / "api.py").write_text("".join(f"def f{j}(): ...\n" for j in range(i)))
        if 10 <= i <= 12:
            (origin / "weights.txt").write_text(big + f"round {i}\n", encoding="utf-8")
        if i == 30:  # the checkout's own copy is fetched by the clone
            (origin / "weights.txt").write_text(big + "final\n", encoding="utf-8")
        subprocess.run(["git", "-C", str(origin), "add", "-A"], check=True, env=env)
        subprocess.run(
            ["git", "-C", str(origin), "-c", "user.name=Ada", "-c", "user.email=ada@example.com",
             "commit", "-q", "-m", f"Change {i} (#{100 + i})"],
            check=True, env=env,
        )  # fmt: skip
    clone = tmp_path / "clone"
    _partial_clone(origin, clone, filter="blob:limit=1k", move=False)
    missing = _missing(clone)
    assert missing == 3, "weights.txt of #110, #111 and #112"

    # Even with the origin there to fetch from, nothing is fetched (no network, ever).
    reachable = run_cli("sync", "acme/widget", "--git", str(clone), db=tmp_path / "r.db")
    assert reachable.exit_code == 0, reachable.stderr
    assert _missing(clone) == missing, "nothing was fetched"

    origin.rename(tmp_path / "moved-away")
    result = run_cli("sync", "acme/widget", "--git", str(clone), db=tmp_path / "p.db")
    assert result.exit_code == 0, result.stderr
    assert _files(tmp_path / "p.db") == _files(tmp_path / "r.db")
    # weights.txt in #110, #111, #112 (its contents missing) and #130 (the old side is).
    assert "Warning: 4 files in 4 commits have no line counts:" in result.stderr
    with sqlite3.connect(tmp_path / "p.db") as conn:
        rows = conn.execute(
            "SELECT p.number, f.path, f.additions, f.deletions FROM files f"
            " JOIN pull_requests p ON p.id = f.pr_id ORDER BY p.number, f.path"
        ).fetchall()
    assert [r for r in rows if r[1] == "weights.txt"] == [
        (n, "weights.txt", None, None) for n in (110, 111, 112, 130)
    ]
    notes = [r for r in rows if r[1] == "notes.txt"]
    assert notes == [(100 + i, "notes.txt", i, i - 1) for i in range(1, 31)], "all counted"
    with sqlite3.connect(tmp_path / "p.db") as conn:
        diffs = conn.execute(
            "SELECT p.number FROM files f JOIN pull_requests p ON p.id = f.pr_id"
            " WHERE f.path = 'api.py' AND f.patch LIKE '%+def f%' ORDER BY p.number"
        ).fetchall()
    assert diffs == [(100 + i,) for i in range(1, 31)], "a diff for every Python file"


def test_a_shallow_blobless_clone_keeps_its_oldest_commit_without_files(tmp_path: Path) -> None:
    """A CI checkout (`--depth N --filter=blob:none`): as in a shallow full clone, the
    oldest commit present has no parent to diff against, so no files (not its whole tree,
    and not a warning about the contents of that tree)."""
    origin, env = tmp_path / "origin", git_env()
    subprocess.run(["git", "init", "-q", "-b", "main", str(origin)], check=True, env=env)
    subprocess.run(["git", "-C", str(origin), "config", "uploadpack.allowFilter", "true"], check=True, env=env)  # fmt: skip
    for i in range(1, 9):
        (origin / f"part{i}.py").write_text(f"value = {i}\n" * i, encoding="utf-8")
        (origin / "log.txt").write_text(f"entry {i}\n", encoding="utf-8")  # old ones: missing
        subprocess.run(["git", "-C", str(origin), "add", "-A"], check=True, env=env)
        subprocess.run(
            ["git", "-C", str(origin), "-c", "user.name=Ada", "-c", "user.email=ada@example.com",
             "commit", "-q", "-m", f"Part {i} (#{i})"],
            check=True, env=env,
        )  # fmt: skip
    rows = {}
    for name, extra in (("shallow", []), ("shallow-blobless", ["--filter=blob:none"])):
        clone = tmp_path / name
        subprocess.run(
            ["git", "clone", "-q", "--depth", "3", *extra, f"file://{origin}", str(clone)],
            check=True,
            env=env,
        )
        result = run_cli("sync", "acme/widget", "--git", str(clone), db=tmp_path / f"{name}.db")
        assert result.exit_code == 0, result.stderr
        rows[name] = _files(tmp_path / f"{name}.db")
        if extra:  # log.txt's older entries are not in the clone
            assert "Warning: 2 files in 2 commits have no line counts" in result.stderr
    by_number = {
        name: sorted((r[0], r[2], r[4], r[5]) for shas in found.values() for r in shas)
        for name, found in rows.items()
    }
    assert by_number["shallow"] == [
        (6, None, None, None),  # the oldest commit present: no files
        (7, "log.txt", 1, 1), (7, "part7.py", 7, 0),
        (8, "log.txt", 1, 1), (8, "part8.py", 8, 0),
    ]  # fmt: skip
    assert by_number["shallow-blobless"] == [
        (6, None, None, None),
        (7, "log.txt", None, None), (7, "part7.py", 7, 0),
        (8, "log.txt", None, None), (8, "part8.py", 8, 0),
    ]  # fmt: skip
