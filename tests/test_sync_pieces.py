"""A batch written in pieces (as a sync writes it) equals the batch written at once;
the git source's default-ref lookup (two git calls) agrees with `git rev-parse`."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prdigest.errors import SourceError
from prdigest.ingest import SourceSpec, sync
from prdigest.ingest import batches as ingest_records
from prdigest.models import FileChange, PullRequest
from prdigest.sources.git import resolve_ref
from prdigest.store import Store, UpsertCounts, open_store
from prdigest.store.upsert import PullRequestWriter

REPO = "octo/demo"
TABLES = ("pull_requests", "files", "labels")


def _pr(n: int, title: str = "Add a thing", files: int = 2) -> PullRequest:
    return PullRequest(
        repo=REPO,
        number=n,
        title=title,
        sha=f"{n:040x}",
        merged_at=datetime(2026, 2, 1 + n % 27, 12, tzinfo=UTC),
        files=tuple(FileChange(f"src/f{n}_{i}.py", i, 1) for i in range(files)),
        labels=("topic: bug fixes",) if n % 2 else (),
        trailers=(("Co-authored-by", (f"A{n} <a@x.org>",)),) if n % 3 else (),
        source="git",
    )


def _rows(store: Store) -> list[tuple[object, ...]]:
    return [row for t in TABLES for row in store.conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")]


def _content(store: Store) -> list[tuple[object, ...]]:
    """The rows by commit, not by id (PostgreSQL spends an id on each upsert attempt)."""
    prs = [row[1:] for row in store.conn.execute("SELECT * FROM pull_requests ORDER BY sha")]
    children = [
        row
        for select in (
            "SELECT p.sha, f.position, f.path, f.old_path, f.additions, f.deletions, f.is_binary"
            " FROM files f JOIN pull_requests p ON p.id = f.pr_id ORDER BY 1, 2",
            "SELECT p.sha, l.name FROM labels l JOIN pull_requests p ON p.id = l.pr_id"
            " ORDER BY 1, 2",
        )
        for row in store.conn.execute(select)
    ]
    return prs + children


def _counts(counts: UpsertCounts) -> tuple[int, int, int]:
    return (counts.inserted, counts.updated, counts.unchanged)


def _empty(store: Store) -> None:
    """No PR rows, and the next one gets id 1 again (as in a new store)."""
    for table in ("labels", "files", "pull_requests"):
        store.conn.execute(f"DELETE FROM {table}")
    if store.dialect == "postgresql":
        store.conn.execute("ALTER TABLE pull_requests ALTER COLUMN id RESTART WITH 1")


def test_pieces_write_what_one_upsert_writes(db_url: str) -> None:
    """Same rows (ids included) and counts: a commit met twice in the batch counts once,
    against what was stored before the batch, whether it ends changed, new or restored."""
    before = [_pr(n) for n in range(1, 7)]
    batch = [
        _pr(2, "Changed"),  # stored: updated
        _pr(7),  # new
        _pr(3),  # stored, the same: unchanged
        _pr(8),  # new, and changed again in a later piece: inserted once
        _pr(4, "Changed"),  # stored, changed, restored in a later piece: unchanged
        _pr(9, files=5),  # new
        _pr(8, "Changed twice", files=1),
        _pr(4),
        _pr(2, "Changed"),  # the same change again
    ]
    store = open_store(db_url)
    store.upsert_pull_requests(REPO, before)
    whole = _counts(store.upsert_pull_requests(REPO, batch))
    whole_rows, whole_content = _rows(store), _content(store)
    _empty(store)
    store.upsert_pull_requests(REPO, before)
    writer = PullRequestWriter(store, REPO)
    with store.transaction():
        for i in range(0, len(batch), 2):
            writer.write(batch[i : i + 2])
    assert _counts(writer.counts) == whole == (3, 1, 2)
    assert _content(store) == whole_content
    if store.dialect == "sqlite":  # the ids too
        assert _rows(store) == whole_rows
    store.close()


def test_an_error_mid_batch_keeps_no_piece_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pieces already written roll back with their batch; committed batches stay."""
    records = [_record(n) for n in range(1, 131)]
    records[125]["committed_at"] = "not a date"
    source = tmp_path / "prs.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    monkeypatch.setattr(ingest_records, "BATCH", 50)
    monkeypatch.setattr(ingest_records, "PIECE", 20)
    store = open_store(str(tmp_path / "s.db"))
    with pytest.raises(SourceError, match=":126: bad record"):
        sync(store, REPO, SourceSpec(jsonl=source))
    assert store.count_pull_requests(REPO) == 100
    assert store.get_cursor(REPO, f"jsonl:{source.resolve()}") == f"100:{100:040x}"
    store.close()


def _record(n: int) -> dict[str, object]:
    return {
        "repo": REPO,
        "number": n,
        "sha": f"{n:040x}",
        "title": f"Change {n}",
        "committed_at": "2026-02-02T10:00:00Z",
        "files": [{"path": f"f{n}.py", "additions": 1, "deletions": 0}],
    }


def _git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    path = tmp_path / "clone"
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    for n in range(3):
        _git(path, "-c", "user.name=A", "-c", "user.email=a@x.org", "commit", "-q",
             "--allow-empty", "-m", f"Change {n} (#{n + 1})")  # fmt: skip
    return path


def test_default_ref_detached_head_and_a_tag_behind_the_remote_head(clone: Path) -> None:
    head = _git(clone, "rev-parse", "HEAD")
    first = _git(clone, "rev-parse", "HEAD~2")
    _git(clone, "checkout", "-q", "--detach", "HEAD~1")
    assert resolve_ref(clone, None) == ("HEAD", _git(clone, "rev-parse", "HEAD"))
    # origin's HEAD names a branch that holds an annotated tag: peeled to its commit
    _git(clone, "-c", "user.name=A", "-c", "user.email=a@x.org", "tag", "-a", "v1", "-m", "v1", first)  # fmt: skip
    _git(clone, "update-ref", "refs/remotes/origin/odd", _git(clone, "rev-parse", "v1"))
    _git(clone, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/odd")
    assert resolve_ref(clone, None) == ("refs/remotes/origin/odd", first)
    # a remote HEAD pointing at nothing is passed over, for upstream's
    _git(clone, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/gone")
    _git(clone, "update-ref", "refs/remotes/upstream/main", head)
    _git(clone, "symbolic-ref", "refs/remotes/upstream/HEAD", "refs/remotes/upstream/main")
    assert resolve_ref(clone, None) == ("refs/remotes/upstream/main", head)


def test_git_sync_writes_and_resumes_on_each_backend(clone: Path, db_url: str) -> None:
    """The pieces (SQLite) and the whole-batch writes (PostgreSQL) store the same rows."""
    store = open_store(db_url)
    result = sync(store, REPO, SourceSpec(git=clone))
    assert (result.read, result.counts.inserted) == (3, 3)
    titles = [r[0] for r in store.conn.execute("SELECT title FROM pull_requests ORDER BY id")]
    assert titles == ["Change 0", "Change 1", "Change 2"]
    again = sync(store, REPO, SourceSpec(git=clone))
    assert (again.read, again.counts.inserted) == (0, 0)
    store.close()
