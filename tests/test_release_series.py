"""Series in the release notes, on real executorch stacks: a ghstack stack (or one author's
numbered titles) becomes one bullet that says it is a series, within one module and kind,
without rows that are out of the notes, and the worksheet can keep or undo the merge."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from prdigest import pipeline
from prdigest.classify import profile_for
from prdigest.config import Config
from prdigest.models import Classification, PullRequest
from prdigest.pipeline import SourceSpec, release_notes
from prdigest.reading import series_stem, stack_groups, stack_numbers
from prdigest.release.release_series import series_phrase
from prdigest.release.sentences import to_sentence
from prdigest.store import Store, open_store
from prdigest.timeutil import window_between
from release_helpers import bullet_of, module_of, read_rows, write_rows

REPO = "pytorch/executorch"
# ghstack stack #12519-#12525 (landed 2025-07-17): `[ET-VK] 1/n Split dispatches …` to
# `4/n`; the `1/n` after a tag is no part marker the sentences recognise: only the stack
# lists in the bodies tie them.
SPLIT_STACK = (12519, 12522, 12523, 12525)
# ghstack stack #13593-#13600 (landed 2025-08-23): eight changes in three kinds, one of them
# (#13593, test scripts) not user-facing.
VULKAN_STACK = (13593, 13594, 13595, 13596, 13597, 13598, 13599, 13600)
_DB: dict[str, Path] = {}


@pytest.fixture
def store(executorch_jsonl: Path, tmp_path_factory: pytest.TempPathFactory) -> Store:
    if "db" not in _DB:
        db = tmp_path_factory.mktemp("series") / "prdigest.db"
        synced = open_store(str(db))
        pipeline.sync(synced, REPO, SourceSpec(jsonl=executorch_jsonl))
        synced.close()
        _DB["db"] = db
    return open_store(str(_DB["db"]))


def _rows(path: Path) -> dict[int, dict[str, str]]:
    return {int(r["pr_link"].rsplit("/", 1)[1]): r for r in read_rows(path) if r["pr_link"]}


def _linked(bullet: str) -> list[int]:
    return [int(n) for n in re.findall(r"\[#(\d+)\]\(", bullet)]


def _counts_add_up(context: dict[str, object]) -> None:
    counts = context["counts"]
    assert isinstance(counts, dict)
    assert counts["in_notes"] + counts["out"] + counts["deleted_rows"] == counts["prs"]
    assert sum(counts["out_reasons"].values()) == counts["out"]


def _classifier(
    changes: dict[int, dict[str, str]],
) -> Callable[[Sequence[PullRequest]], list[Classification]]:
    """The executorch profile, with some PRs moved to another area or kind."""
    profile = profile_for(REPO, Config(), None)

    def classify(prs: Sequence[PullRequest]) -> list[Classification]:
        decided = profile.classify_all(prs)
        return [
            replace(c, **changes[pr.number]) if pr.number in changes else c
            for pr, c in zip(prs, decided, strict=True)
        ]

    return classify


def test_a_ghstack_stack_is_one_bullet_that_says_it_is_a_series(
    store: Store, tmp_path: Path
) -> None:
    window = window_between("2025-07-17", "2025-07-17")
    prs = {pr.number: pr for pr in store.merged_between(REPO, window.start, window.end)}
    # What links them is the stack: every body lists all four; titles and sentences differ
    # (each `[ET-VK] 1/n …` is a part, but the text around the marker differs).
    for number in SPLIT_STACK:
        assert set(SPLIT_STACK) <= set(stack_numbers(prs[number].body))
    assert len({series_stem(prs[n].title) for n in SPLIT_STACK}) == 4
    assert len({to_sentence(prs[n].title) for n in SPLIT_STACK}) == 4

    sheet = tmp_path / "notes.csv"
    result = release_notes(store, REPO, Config(), window=window, worksheet=sheet)
    rows = _rows(sheet)
    first = rows[12519]
    assert not first["merge_into"] and not first["reason"]
    assert all(rows[n]["merge_into"] == first["commit_hash"] for n in SPLIT_STACK[1:])

    bullet = bullet_of(result.report.markdown, 12519)
    assert _linked(bullet) == list(SPLIT_STACK)  # the first PR first, then landing order
    assert bullet.startswith("* Split dispatches between multiple command buffers.")
    assert "(a four-part series: [#12519](" in bullet
    assert {module_of(result.report.markdown, n) for n in SPLIT_STACK} == {
        ("Improvements", "Backends: Vulkan")
    }
    _counts_add_up(result.context.as_dict())
    assert (
        result.context.as_dict()["counts"]["bullets"]
        == result.context.as_dict()["counts"]["in_notes"] - 3
    )


def test_a_stack_spanning_two_areas_is_not_merged_across_them(store: Store, tmp_path: Path) -> None:
    window = window_between("2025-07-17", "2025-07-17")
    moved = _classifier({12523: {"area": "Backends: XNNPACK"}})
    sheet = tmp_path / "notes.csv"
    result = release_notes(store, REPO, Config(), window=window, worksheet=sheet, classifier=moved)
    rows, markdown = _rows(sheet), result.report.markdown
    assert rows[12523]["category"] == "Backends: XNNPACK" and not rows[12523]["merge_into"]
    assert _linked(bullet_of(markdown, 12523)) == [12523]
    assert "series" not in bullet_of(markdown, 12523)
    assert module_of(markdown, 12523) == ("Improvements", "Backends: XNNPACK")
    assert _linked(bullet_of(markdown, 12519)) == [12519, 12522, 12525]
    assert "(a three-part series: " in bullet_of(markdown, 12519)
    _counts_add_up(result.context.as_dict())


def test_a_stack_in_three_kinds_is_one_bullet_per_kind_without_its_rows_out(
    store: Store, tmp_path: Path
) -> None:
    window = window_between("2025-08-23", "2025-08-23")
    sheet = tmp_path / "notes.csv"
    result = release_notes(store, REPO, Config(), window=window, worksheet=sheet)
    rows, markdown = _rows(sheet), result.report.markdown
    kinds = {n: rows[n]["topic"] for n in VULKAN_STACK}
    # #13593 (test scripts) is out: never merged, never linked.
    assert rows[13593]["reason"].startswith("not user-facing")
    assert not rows[13593]["merge_into"] and "[#13593](" not in markdown
    bullets = {}
    for number in VULKAN_STACK[1:]:
        bullet = bullet_of(markdown, number)
        bullets[bullet] = sorted(_linked(bullet))
        assert {kinds[n] for n in _linked(bullet)} == {kinds[number]}  # one kind per bullet
    # Each kind's PRs of the stack are one bullet, led by the one that landed first.
    by_kind: dict[str, list[int]] = {}
    for number in VULKAN_STACK[1:]:
        by_kind.setdefault(kinds[number], []).append(number)
    assert sorted(bullets.values()) == sorted(sorted(ns) for ns in by_kind.values())
    assert len(by_kind) >= 2 and any(len(ns) >= 2 for ns in by_kind.values())
    _counts_add_up(result.context.as_dict())


def test_the_stack_joins_its_first_row_in_the_notes(store: Store, tmp_path: Path) -> None:
    """With the first PR of the stack out, the series is led by the next one."""
    window = window_between("2025-07-17", "2025-07-17")
    out = _classifier({12519: {"kind": "not_user_facing"}})
    sheet = tmp_path / "notes.csv"
    result = release_notes(store, REPO, Config(), window=window, worksheet=sheet, classifier=out)
    rows, markdown = _rows(sheet), result.report.markdown
    assert rows[12519]["reason"] and not rows[12519]["merge_into"]
    assert "[#12519](" not in markdown
    assert rows[12523]["merge_into"] == rows[12525]["merge_into"] == rows[12522]["commit_hash"]
    assert _linked(bullet_of(markdown, 12522)) == [12522, 12523, 12525]
    _counts_add_up(result.context.as_dict())


def test_the_worksheet_keeps_a_series_and_a_human_can_undo_it(store: Store, tmp_path: Path) -> None:
    window = window_between("2025-07-17", "2025-07-17")
    sheet = tmp_path / "notes.csv"
    drafted = release_notes(store, REPO, Config(), window=window, worksheet=sheet)
    applied = release_notes(store, REPO, Config(), window=window, apply=sheet)
    assert applied.report.markdown == drafted.report.markdown

    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    for row in rows:
        if row["pr_link"].endswith("/12525"):
            row["merge_into"] = ""  # a human says #12525 is a change of its own
    write_rows(sheet, rows)
    undone = release_notes(store, REPO, Config(), window=window, apply=sheet)
    markdown = undone.report.markdown
    assert _linked(bullet_of(markdown, 12525)) == [12525]
    assert "series" not in bullet_of(markdown, 12525)
    assert _linked(bullet_of(markdown, 12519)) == [12519, 12522, 12523]
    assert "(a three-part series: " in bullet_of(markdown, 12519)
    assert (
        undone.context.as_dict()["counts"]["bullets"]
        == drafted.context.as_dict()["counts"]["bullets"] + 1
    )
    _counts_add_up(undone.context.as_dict())

    # Re-running --worksheet keeps the human's undo.
    rerun = release_notes(store, REPO, Config(), window=window, worksheet=sheet)
    assert rerun.rows_added == 0 and not _rows(sheet)[12525]["merge_into"]
    assert rerun.report.markdown == markdown


def test_one_authors_numbered_titles_are_a_series_and_duplicates_are_not(
    store: Store, tmp_path: Path
) -> None:
    window = window_between("2025-03-01", "2025-04-30")
    result = release_notes(store, REPO, Config(), window=window, worksheet=tmp_path / "n.csv")
    markdown = result.report.markdown
    # `Mimi Enablement Stage 1` / `Stage 2`: one author's parts, each marked by its stage
    # (#9570's body: "This is the stage 1 of Mimi Enablement. Stage 2 will consist of …").
    stages = bullet_of(markdown, 9570)
    assert _linked(stages) == [9570, 10098]
    assert "(a two-part series: " in stages
    # `Update android docs` twice: one bullet (identical sentences), but no series.
    docs = bullet_of(markdown, 9206)
    assert _linked(docs) == [9206, 9788] and "series" not in docs
    _counts_add_up(result.context.as_dict())


def test_a_marker_series_says_so_too(store: Store, tmp_path: Path) -> None:
    """`Suite Operator Test Support (Part1)` and `… Part 2`, as before, now named: one
    bullet told by its lead's sentence, once (the second part's sentence opens with the
    same words and goes on with its result: no join of the two)."""
    window = window_between("2025-09-26", "2025-10-07")
    result = release_notes(store, REPO, Config(), window=window)
    bullet = bullet_of(result.report.markdown, 14618)
    assert _linked(bullet) == [14618, 14848]
    # the part marker off, the title's noun of action gets its verb ("X support")
    assert bullet.startswith("* Added support for suite operator test (a two-part series: "), bullet


def test_stack_groups_link_through_listed_prs_only() -> None:
    numbers = [10, 11, 12, 13, None, 15]
    stacks = [(10, 11), (), (11, 12, 99), (), (), (13,)]
    assert stack_groups(numbers, stacks) == [0, 0, 0, 3, 4, 3]
    body = "Stack from [ghstack]:\n* #12\n* __->__ #11\n* #10\n\nghstack-source-id: 1"
    assert stack_numbers(body) == (10, 11, 12)
    assert stack_numbers("* #12\n* #11") == ()  # a list, but no ghstack


@pytest.mark.parametrize(
    ("parts", "phrase"),
    [
        (1, ""),
        (2, "a two-part series"),
        (8, "an eight-part series"),
        (11, "an eleven-part series"),
        (13, "a 13-part series"),
        (18, "an 18-part series"),
    ],
)
def test_series_phrase(parts: int, phrase: str) -> None:
    assert series_phrase(parts) == phrase
