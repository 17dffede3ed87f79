"""New components (analyze/components.py) and the history they are judged against: the
store's indexed "was anything under this directory landed before?" (store/paths.py) on
both backends, and `History` itself."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from prdigest.analyze.components import history_order, new_components
from prdigest.analyze.items import build_item
from prdigest.analyze.prior_facts import History, ancestor_dirs
from prdigest.models import Classification, FileChange, PullRequest
from prdigest.store import open_store
from prdigest.timeutil import parse_datetime

START = parse_datetime("2026-02-09T00:00:00Z")
CLS = Classification("Backends: Qualcomm", "new_features", "r", "k")
LONG_AGO = History(first_landed=START - timedelta(weeks=30))


def _pr(number: int | None, files: list[FileChange], *, at: str = "2026-02-10T10:00:00Z",
        sha: str = "", parents: tuple[str, ...] = (), title: str = "Add QNN recipes") -> PullRequest:  # fmt: skip
    return PullRequest(
        repo="o/r",
        number=number,
        title=title,
        sha=sha or f"{number or 0:040d}",
        parents=parents,
        merged_at=parse_datetime(at),
        files=tuple(files),
        source="jsonl",
    )


def _added(*paths: str) -> list[FileChange]:
    return [FileChange(p, 10, 0) for p in paths]


def _known(*dirs: str) -> History:
    return History(known_dirs=frozenset(dirs), first_landed=LONG_AGO.first_landed)


def _items(*prs: PullRequest) -> list:
    return [build_item(pr, CLS) for pr in prs]


RECIPES = _added(
    "backends/qualcomm/recipes/__init__.py",
    "backends/qualcomm/recipes/qnn_recipe_provider.py",
    "backends/qualcomm/recipes/qnn_recipe_types.py",
    "backends/qualcomm/recipes/TARGETS",
)


def test_a_directory_first_seen_with_three_files_is_a_component() -> None:
    history = _known("backends", "backends/qualcomm")
    found = new_components(_items(_pr(7, RECIPES)), history, date(2026, 2, 9))
    assert [(c.path, c.files, c.prs) for c in found] == [("backends/qualcomm/recipes", 4, [7])]


def test_what_is_no_new_component() -> None:
    day = date(2026, 2, 9)
    known = _known("backends", "backends/qualcomm")
    # known before the window
    assert (
        new_components(
            _items(_pr(7, RECIPES)), _known(*ancestor_dirs(f.path for f in RECIPES)), day
        )
        == []
    )
    # too small
    assert new_components(_items(_pr(7, RECIPES[:2])), known, day) == []
    # tests, docs and CI aside
    tests = _added(
        "backends/qualcomm/tests/a.py",
        "backends/qualcomm/tests/b.py",
        "backends/qualcomm/tests/c.py",
    )
    assert new_components(_items(_pr(7, tests)), known, day) == []
    # dormant: a first touch that deletes lines edits a file older than the history we hold
    edited = [*RECIPES[:3], FileChange("backends/qualcomm/recipes/TARGETS", 3, 12)]
    assert new_components(_items(_pr(7, edited)), known, day) == []
    # too little history to tell new from dormant
    young = History(known_dirs=known.known_dirs, first_landed=START - timedelta(weeks=3))
    assert new_components(_items(_pr(7, RECIPES)), young, day) == []
    assert new_components(_items(_pr(7, RECIPES)), History(), day) == []


def test_only_the_top_most_new_directory_counts_and_many_siblings_are_one() -> None:
    nested = _added(
        "backends/samsung/a.py", "backends/samsung/builders/b.py", "backends/samsung/c/d.py"
    )
    found = new_components(_items(_pr(7, nested)), _known("backends"), date(2026, 2, 9))
    assert [c.path for c in found] == ["backends/samsung"]
    ops = [
        f"backends/webgpu/runtime/ops/op{i}/{name}"
        for i in range(8)
        for name in ("a.cpp", "b.h", "c.wgsl")
    ]
    found = new_components(_items(_pr(7, _added(*ops))), _known("backends", "backends/webgpu",
                           "backends/webgpu/runtime", "backends/webgpu/runtime/ops"), date(2026, 2, 9))  # fmt: skip
    assert [(c.path, c.files, len(c.members)) for c in found] == [
        ("backends/webgpu/runtime/ops", 24, 8)
    ]


def test_a_direct_push_can_make_a_component_and_history_order_finds_it() -> None:
    """Nine commits pushed in the same second: the first (by its parents, not its sha) adds
    the files, the later ones edit them; a sha order would take an edit for the first touch."""
    first = _pr(None, RECIPES, sha="f" * 40, parents=("0" * 40,))
    edit = _pr(None, [FileChange(f.path, 2, 5) for f in RECIPES], sha="1" * 40, parents=("f" * 40,))
    ordered = history_order(_items(edit, first))
    assert [it.pr.sha[0] for it in ordered] == ["f", "1"]
    found = new_components(ordered, _known("backends", "backends/qualcomm"), date(2026, 2, 9))
    assert [(c.path, c.prs, c.lead.pr.sha) for c in found] == [
        ("backends/qualcomm/recipes", [], "f" * 40)
    ]


def test_ancestor_dirs_and_a_callable_history() -> None:
    assert ancestor_dirs(["a/b/c.py", "a/d.py", "e.py"]) == {"a", "a/b"}
    history = History(known_dirs=lambda d: d.startswith("a"))
    assert history.knows_dir("a/b") and not history.knows_dir("b")


def test_dirs_seen_before_reads_the_store_by_ranges(db_url: str) -> None:
    store = open_store(db_url)
    old = parse_datetime("2025-06-01T00:00:00Z")
    store.upsert_pull_requests("o/r", [
        _pr(1, _added("a/b/x.py", "a-b/y.py", "a.b/z.py", "ab/w.py"), at="2025-06-01T00:00:00Z"),
        _pr(2, [FileChange("kept/new.py", 1, 0, old_path="gone/old.py")], at="2025-06-02T00:00:00Z"),
        _pr(3, _added("late/x.py"), at="2026-02-10T00:00:00Z"),
    ])  # fmt: skip
    store.upsert_pull_requests("other/repo", [_pr(4, _added("c/x.py"), at="2025-06-01T00:00:00Z")])
    asked = ["a", "a/b", "a/b/c", "a-b", "a.b", "ab", "a/bx", "gone", "kept", "late", "c", "z"]
    seen = store.dirs_seen_before("o/r", asked, START)
    assert seen == {"a", "a/b", "a-b", "a.b", "ab", "gone", "kept"}
    assert store.dirs_seen_before("o/r", ["a"], old) == set()  # strictly before
    assert store.dirs_seen_before("nobody/here", ["a"], START) == set()
    store.close()


def test_dirs_seen_before_holds_under_a_locale_collation(postgres_url: str) -> None:
    """A PostgreSQL column in a locale's order (where `q~x/` sorts between `q/` and `q0`)
    still gets byte-order ranges: the index and the query say COLLATE "C"."""
    store = open_store(postgres_url)
    store.conn.execute('ALTER TABLE files ALTER COLUMN path TYPE text COLLATE "en-US-x-icu"')
    store.upsert_pull_requests(
        "o/r", [_pr(1, _added("q~x/y.py", "a-b/y.py", "a/b.py"), at="2025-06-01T00:00:00Z")]
    )
    found = store.dirs_seen_before("o/r", ["q", "q~x", "a", "a-b", "a/b"], START)
    assert found == {"q~x", "a", "a-b"}
    store.close()


def test_the_range_queries_use_their_index(tmp_path: Path) -> None:
    """The product's own queries (store/paths.py), as `dirs_seen_before` sends them."""
    from prdigest.store.paths import _BY_OLD_PATH, _BY_PATH

    store = open_store(str(tmp_path / "s.db"))
    for sql, index in ((_BY_PATH, "files_path"), (_BY_OLD_PATH, "files_old_path")):
        plan = store.conn.execute(
            f"EXPLAIN QUERY PLAN {sql}", ("a/", "a0", 1, "2026-01-01T00:00:00Z")
        ).fetchall()
        assert any(f"USING INDEX {index} " in str(row) for row in plan), plan
    store.close()
