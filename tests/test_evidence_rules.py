"""Rules of evidence whose mutation once survived every test: a name a PR removes and adds
back is not removed; a chore weighs less than the same work that is none; and the digest's
plan — a release leads, housekeeping never does, a change reverted in its window is never
told, a stated series is one bullet, one author's effort on one thing is one bullet, and
the words spent stay within the window's budget."""

from __future__ import annotations

from dataclasses import replace

import pytest

from prdigest import kinds
from prdigest.analyze.brief_types import (
    AnnouncementKind,
    Brief,
    Evidence,
    KindJudgment,
    Status,
    Surface,
)
from prdigest.analyze.digest_plan import PROJECT_WORK, Untold, plan_digest, word_budget
from prdigest.analyze.items import Item
from prdigest.analyze.notability import pr_score
from prdigest.analyze.pr_briefs import subject_of
from prdigest.analyze.substance import is_chore, read_substance
from prdigest.models import Classification, FileChange, PullRequest
from prdigest.reading import clean_title
from prdigest.reading.api_changes import read_diff
from prdigest.reading.spelling import Spelling
from prdigest.write.brief_lines import shared_sentence


def _patch(path: str, lines: list[str]) -> FileChange:
    added = sum(line.startswith("+") for line in lines)
    removed = sum(line.startswith("-") for line in lines)
    hunk = f"@@ -1,{removed} +1,{added} @@\n" + "\n".join(lines)
    return FileChange(path, added, removed, patch=hunk)


@pytest.mark.parametrize(
    ("files", "removed"),
    [
        ([_patch("pkg/api.py", ["-def load(path):", "-    pass"])], {"load"}),
        # moved within the file, or to another public file: still there
        ([_patch("pkg/api.py", ["-def load(path):", "+def load(path, strict=False):"])], set()),
        (
            [_patch("pkg/api.py", ["-def load(path):"]), _patch("pkg/io.py", ["+def load(path):"])],
            set(),
        ),
        # a private helper, or a test's, is no public name
        ([_patch("pkg/api.py", ["-def _load(path):"])], set()),
        # a field's annotation gone while the class still sets the attribute
        (
            [
                _patch(
                    "pkg/api.py",
                    [
                        " class Quantizer:",
                        "-    group: Optional[int]",
                        "     def __init__(self):",
                        "         self.group = None",
                    ],
                )
            ],
            set(),
        ),
        ([_patch("pkg/api.py", [" class Quantizer:", "-    group: Optional[int]"])], {"group"}),
        ([_patch("tests/test_api.py", ["-def load(path):"])], set()),
    ],
)
def test_a_name_removed_and_added_back_is_not_removed(
    files: list[FileChange], removed: set[str]
) -> None:
    changes = read_diff(files)
    assert {n.name.rsplit(".", 1)[-1] for n in changes.removed} == removed


def test_a_chore_weighs_less_than_the_same_work() -> None:
    files = (FileChange("pkg/core.py", 400, 300),)
    work = PullRequest(repo="o/r", number=1, title="Rework the scheduler", files=files)
    chore = replace(work, title="Reformat the scheduler with ruff")
    assert (
        pr_score(chore, kinds.IMPROVEMENTS, (), None)
        < pr_score(work, kinds.IMPROVEMENTS, (), None) - 3
    )


def _brief(number: int, what: str, score: float = 5.0, **fields: object) -> Brief:
    values: dict[str, object] = {
        "number": number,
        "author": "ada",
        "subject": "",
        "what": what,
        "why": "",
        "why_from": "",
        "writer": "deterministic@test",
        "kind": kinds.IMPROVEMENTS,
        "kind_evidence": KindJudgment(kinds.IMPROVEMENTS, Evidence.TITLE, "title"),
        "component": "Core",
        "user_facing": True,
        "chore": False,
        "announced": AnnouncementKind.NOTHING,
        "migration": "",
        "surface": Surface(),
        "status": Status.LANDED,
        "status_of": None,
        "release": "",
        "series": "",
        "figures": (),
        "score": score,
    }
    values.update(fields)
    return Brief(**values)  # type: ignore[arg-type]


def _plan(*briefs: Brief, series: dict[int, str] | None = None):  # noqa: ANN202
    by_number = {b.number: b for b in briefs}
    return plan_digest(by_number, dict.fromkeys(by_number, Untold.OTHER), series or {})


def test_a_release_leads_and_housekeeping_never_does() -> None:
    plan = _plan(
        _brief(1, "Adds a new scheduler for batched jobs", 9.0),
        _brief(2, "Fixes flaky tests in CI for the scheduler", 12.0),
        _brief(3, "Prepares release 2.1.0", 1.0, release="2.1.0"),
        _brief(4, "Adds `nu-helper-utils` crate for shared code", 11.0),
    )
    assert plan.lead[0] == 3
    assert 2 not in plan.lead and 2 not in plan.told  # tests and CI: counted, not told
    assert 4 not in plan.lead  # a package of helpers is the project's, not users' news


def test_the_projects_versions_take_one_lead_slot_a_packages_its_own() -> None:
    plan = _plan(
        _brief(1, "Adds index selection by name", 9.0),
        _brief(2, "Adds a `--fast` flag to `run`", 8.0),
        _brief(3, "Bumps version to 0.12.4", 1.0, release="0.12.4"),
        _brief(4, "Bumps version to 0.12.5", 1.0, release="0.12.5"),
    )
    assert plan.lead == (3, 4, 1, 2)  # two versions of the project: one news
    plan = _plan(
        _brief(1, "Adds index selection by name", 9.0),
        _brief(2, "Adds a `--fast` flag to `run`", 8.0),
        _brief(3, "Prepares tokio-util v0.7.19", 1.0, release="tokio-util 0.7.19"),
        _brief(4, "Prepares Tokio v1.53.1", 1.0, release="Tokio 1.53.1"),
    )
    assert plan.lead == (3, 4, 1)  # two packages released: two news


def test_a_week_with_nothing_users_see_tells_the_projects_own_work() -> None:
    internal = dict(user_facing=False, kind=kinds.NOT_USER_FACING)
    plan = _plan(
        _brief(1, "Replaces the pre-commit token with a short-lived one", 3.0, **internal),
        _brief(2, "Raises the pytest-xdist minimum", 1.0, chore=True, **internal),
    )
    assert plan.lead == ()
    assert [(s.heading, [e.prs for e in s.entries]) for s in plan.sections] == [
        (PROJECT_WORK, [(1,)])  # a chore is counted, never told
    ]


def test_a_change_reverted_in_its_window_is_not_told() -> None:
    plan = _plan(
        _brief(1, "Adds an experimental cache", 9.0, status=Status.REVERTED),
        _brief(2, "Reverts the experimental cache", 1.0, status=Status.REVERT, status_of=1),
        _brief(3, "Adds a `--fast` flag to `run`", 4.0),
    )
    assert plan.told == (3,)
    assert dict(plan.untold)[Untold.REVERTS] == (1, 2)


def test_a_stated_series_is_one_bullet_and_a_break_is_told_alone() -> None:
    plan = _plan(
        _brief(1, "Adds part one of the new planner", 6.0),
        _brief(2, "Adds part two of the new planner", 5.0),
        _brief(
            3,
            "Removes `old_plan`",
            5.5,
            announced=AnnouncementKind.BREAKING,
            kind=kinds.BC_BREAKING,
        ),
        series={1: "#1", 2: "#1", 3: "#1"},
    )
    entries = {e.prs: e for s in plan.sections for e in s.entries}
    assert (1, 2) in entries and entries[(1, 2)].series
    assert (3,) in entries  # what breaks is not hidden in the series' bullet


def test_one_authors_effort_on_one_thing_is_one_bullet() -> None:
    plan = _plan(
        _brief(1, "Adds a glob backend for dc-glob", 8.0, author="devyn"),
        _brief(2, "Fixes dc-glob with relative paths", 4.0, author="devyn"),
        _brief(3, "Fixes dc-glob tilde expansion", 3.0, author="fdncred"),  # another author
        _brief(4, "Adds a KDL format", 2.0, author="devyn"),  # another thing
    )
    prs = [e.prs for s in plan.sections for e in s.entries]
    assert (1, 2) in prs and (3,) in prs and (4,) in prs


def test_the_words_stay_within_the_budget() -> None:
    briefs = [
        _brief(
            n, f"Adds feature number {n} with a long explanation of what it does", 10.0 - n / 100
        )
        for n in range(1, 60)
    ]
    plan = _plan(*briefs)
    told_words = sum(len(b.what.split()) + 2 for b in briefs if b.number in plan.told)
    assert told_words <= word_budget(len(briefs))
    assert len(plan.told) < len(briefs)
    assert (
        word_budget(10) < word_budget(20) <= 250
        and word_budget(171) <= 450
        and word_budget(545) <= 700
    )


@pytest.mark.parametrize(
    ("title", "chore"),
    [
        ("Pin ruff to 0.6.9", True),
        ("Bump aiohttp from 3.13.3 to 3.13.4", True),
        # a commit pin is a user's, not the project's dependency pin
        ("Ensure full Git commit pins resolve to the requested commit", False),
        ("fix(zero3): async grad offload + pinned offload buffers by default", False),
        ("Unpin numpy<2 in the requirements", True),
    ],
)
def test_what_a_chore_is(title: str, chore: bool) -> None:
    assert is_chore(title) is chore


@pytest.mark.parametrize(
    ("title", "user_facing"),
    [
        # CI files that make what users install: wheels, binaries, release builds
        ("Add Linux aarch64 wheels", True),
        ("Enable PGO for Linux x86-64 uv releases", True),
        ("Enable the nightly benchmark job", False),
    ],
)
def test_ci_files_that_build_what_users_install(title: str, user_facing: bool) -> None:
    pr = PullRequest("o/r", 1, title, files=(FileChange(".github/workflows/release.yml", 40, 2),))
    assert read_substance(pr, kinds.NOT_USER_FACING).user_facing is user_facing


@pytest.mark.parametrize(
    ("whats", "told"),
    [
        # one template, one varying span: one sentence with the first one's why
        (
            ["Enables PGO for Linux x86-64 uv releases", "Enables PGO for macOS ARM64 uv releases"],
            "Enables PGO for Linux x86-64 and macOS ARM64 uv releases. Wall time fell 8.9%",
        ),
        # different changes are no template
        (["Fixes the resolver cache", "Adds `uv run --frozen`"], ""),
        # the same change twice (a bot's weekly update) is told once
        (
            ["Updates the topic list", "Updates the topic list"],
            "Updates the topic list. Wall time fell 8.9%",
        ),
        # … but a repeat among others is no list of variants
        (["Updates the list", "Updates the list", "Updates the map"], ""),
    ],
)
def test_variants_of_one_change_read_as_one_sentence(whats: list[str], told: str) -> None:
    briefs = [_brief(i, what) for i, what in enumerate(whats, start=1)]
    briefs[0] = replace(briefs[0], why="wall time fell 8.9%", why_from="result")
    assert shared_sentence(briefs) == told


@pytest.mark.parametrize(
    ("title", "subject"),
    [
        ("fix(cp): keep symlinks", "cp"),
        # a breaking fix's bang, or a type alone, names nothing
        ("fix!: use `Result` for the lsp-server payload", ""),
        ("internal: Add a more database lifetimes", ""),
    ],
)
def test_the_subject_a_title_names(title: str, subject: str) -> None:
    pr = PullRequest("o/r", 1, title, files=(FileChange("crates/a/src/lib.rs", 5, 1),))
    it = Item(
        pr, Classification("Area", kinds.BUG_FIXES, "t", "t"), clean_title(title, 1), "", [], "", []
    )
    assert subject_of(it, Spelling()) == subject
