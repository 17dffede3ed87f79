"""The evidence rules issue 31 folds into the one judgment (reading, announcements,
kind_judge) and the notes' words from briefs (entry_text, styles), one table row each:
a mutation of a rule fails its row."""

from __future__ import annotations

from dataclasses import replace

import pytest

from prdigest import kinds
from prdigest.analyze.announcements import BREAKING, DEPRECATION, announce
from prdigest.analyze.brief_types import (
    AnnouncementKind,
    Brief,
    Evidence,
    KindJudgment,
    Status,
    Surface,
)
from prdigest.analyze.kind_judge import KindEvidence, judge_kind
from prdigest.models import FileChange, PullRequest
from prdigest.reading import clean_title, parse_title
from prdigest.reading.api_changes import read_body, read_diff
from prdigest.reading.news_fragments import news_fragment
from prdigest.reading.pr_body import says_internal
from prdigest.reading.versions import raised_minimums
from prdigest.release.breaking import breaking_heading
from prdigest.release.entry_text import entry_sentence
from prdigest.release.styles import style_named


def _change(path: str, removed: list[str], added: list[str]) -> FileChange:
    lines = [f"-{line}" for line in removed] + [f"+{line}" for line in added]
    patch = f"@@ -1,{len(removed)} +1,{len(added)} @@\n" + "\n".join(lines)
    return FileChange(path, len(added), len(removed), patch=patch)


def _pr(title: str, files: list[FileChange] = (), body: str = "") -> PullRequest:  # type: ignore[assignment]
    return PullRequest("o/r", 7, title, body=body, sha="a" * 40, files=tuple(files))


# -- raised minimum versions (reading/versions.py) -------------------------------------------

RAISED = [
    # a dependency's lower bound in pyproject.toml
    ([_change("pyproject.toml", ['  "vllm>=0.10.2,<=0.17.1",'], ['  "vllm>=0.11.0,<=0.17.1",'])], ["vllm 0.10.2 0.11.0"]),
    # the interpreter's
    ([_change("pyproject.toml", ['requires-python = ">=3.9"'], ['requires-python = ">=3.10"'])], ["requires-python 3.9 3.10"]),
    # a version check the library spells
    ([_change("src/pkg/q.py", ['    raise ValueError("requires torchao > 0.9.0")'], ['    raise ValueError("requires torchao >= 0.15.0")'])], ["torchao 0.9.0 0.15.0"]),
    # the old bound kept for older Pythons: the old version still installs
    ([_change("pyproject.toml", ['  "te>=4.6.0",'], ["  \"te>=4.6.0; python_version<'3.15'\",", "  \"te>=4.14.0; python_version>='3.15'\","])], []),
    # a CI matrix raises no user's minimum
    ([_change(".github/workflows/ci.yml", ["  torch>=2.7"], ["  torch>=2.8"])], []),
    # a threshold in code is no version
    ([_change("src/pkg/m.py", ["    if n_layers > 2:"], ["    if n_layers > 4:"])], []),
    # lowered, not raised
    ([_change("setup.py", ['    "numpy>=2.0",'], ['    "numpy>=1.26",'])], []),
    # a developers' list, named by git's hunk context: no user installs it
    ([FileChange("pyproject.toml", 1, 1, patch='@@ -40,3 +40,3 @@ docs = [\n   "mkdocs",\n-  "sphinx>=7.0",\n+  "sphinx>=8.0",')], []),
    # a list under [dependency-groups]
    ([FileChange("pyproject.toml", 1, 1, patch='@@ -1,4 +1,4 @@\n [dependency-groups]\n lint = [\n-  "ruff>=0.5",\n+  "ruff>=0.6",')], []),
    # once the developers' list closes, the interpreter's floor counts again
    ([FileChange("pyproject.toml", 1, 1, patch='@@ -1,4 +1,4 @@\n test = [\n-  "pytest>=7",\n+  "pytest>=8",\n ]\n-requires-python = ">=3.9"\n+requires-python = ">=3.10"')], ["requires-python 3.9 3.10"]),
]  # fmt: skip


@pytest.mark.parametrize(("files", "expected"), RAISED)
def test_raised_minimum_versions(files: list[FileChange], expected: list[str]) -> None:
    found = [f"{r.name} {r.before} {r.after}" for r in raised_minimums(files)]
    assert found == expected


# -- news fragments (reading/news_fragments.py) ----------------------------------------------

FRAGMENTS = [
    ("changelog/14533.breaking.rst", "@@ -0,0 +1 @@\n+Dropped ``--foo``. -- by :user:`ada`", ("breaking", "Dropped `--foo`.")),
    ("newsfragments/12.feature.md", "@@ -0,0 +1 @@\n+Added :func:`pytest.approx` support.", ("feature", "Added `pytest.approx` support.")),
    ("changelog/3.bugfix.2.rst", "@@ -0,0 +1 @@\n+Fixed it.", ("bugfix", "Fixed it.")),
    ("changelog/3.bugfix.rst", "@@ -1 +1 @@\n-Fixed it.\n+Fixed that.", None),  # edits another's
    ("changelog/README.rst", "@@ -0,0 +1 @@\n+How to write one.", None),  # not a type
    ("docs/changelog.rst", "@@ -0,0 +1 @@\n+9.1.0", None),  # the changelog itself
]  # fmt: skip


@pytest.mark.parametrize(("path", "patch", "expected"), FRAGMENTS)
def test_news_fragments(path: str, patch: str, expected: tuple[str, str] | None) -> None:
    found = news_fragment([FileChange(path, 1, 0, patch=patch)])
    assert (None if found is None else (found.type, found.text)) == expected


# -- what a PR announces (analyze/announcements.py) ------------------------------------------

_REMOVED_FN = _change("pkg/utils.py", ["def prepare_deepspeed(model):", "    return model"], [])

ANNOUNCED = [
    # removing a duplicate still takes a name away from its users
    (_pr("Remove duplicated prepare_deepspeed", [_REMOVED_FN]), BREAKING),
    # … what nobody uses breaks nobody
    (_pr("Remove unused prepare_deepspeed", [_REMOVED_FN]), None),
    # a raised minimum version is a break, whatever the title
    (_pr("Update vLLM support", [_change("pyproject.toml", ['"vllm>=0.10.2",'], ['"vllm>=0.11.0",'])]), BREAKING),
    # a new Python floor leaves users of the old one behind …
    (_pr("Drop Python 3.9", [_change("pyproject.toml", ['requires-python = ">=3.9"'], ['requires-python = ">=3.10"'])]), BREAKING),
    # … a new MSRV only asks who builds from source for a newer compiler
    (_pr("Update Rust to 1.98 and MSRV to 1.96", [_change("Cargo.toml", ['rust-version = "1.94"'], ['rust-version = "1.96"'])]), None),
    # the body calls it BC-breaking, as a heading
    (_pr("Add quantize_ parameter support", [_change("pkg/q.py", ["x = 1"], ["x = 2"])], "### bc-breaking changes\n\nThe default changed."), BREAKING),
    # … but not when it says it is not
    (_pr("Add quantize_ parameter support", [_change("pkg/q.py", ["x = 1"], ["x = 2"])], "This is not a breaking change."), None),
    # its note to users says they must write something else
    (_pr("Update the names in keybindings", [_change("crates/a/src/b.rs", ["a"], ["b"])], "## Release notes summary - What our users need to know\n`Cut` now takes `keep_line` instead of `value`."), BREAKING),
    # a flipped default
    (_pr("Flip default torch.load to weights_only", [_change("torch/serialization.py", ["a"], ["b"])]), BREAKING),
    # a default turned on is no break
    (_pr("Enable the cache by default", [_change("torch/cache.py", ["a"], ["b"])]), "default"),
    # "Deprecated X" (past tense, as release notes write it)
    (_pr("Deprecated `c10d::onCompletionHook`", [_change("torch/c10d.py", ["a"], ["b"])]), DEPRECATION),
    # an arrow rename the public code carries out everywhere
    (_pr("Ops.IDIV -> Ops.CDIV", [_change("pkg/uop/ops.py", ["  IDIV = auto()", "x = Ops.IDIV"], ["  CDIV = auto()", "x = Ops.CDIV"])]), BREAKING),
    # … the same in a private package renames nothing users import
    (_pr("Ops.IDIV -> Ops.CDIV", [_change("_pkg/uop/ops.py", ["  IDIV = auto()"], ["  CDIV = auto()"])]), None),
    # a function a title removes breaks its users …
    (_pr("Remove apply_graph_ac", [_change("pkg/ac.py", ["def apply_graph_ac(model):", "    return model"], [])]), BREAKING),
    # … not when it is an experiment's internals
    (_pr("Remove apply_graph_ac", [_change("pkg/experiments/x/ac.py", ["def apply_graph_ac(model):", "    return model"], [])]), None),
    # a news fragment of type `breaking` is the author's own label
    (_pr("Fix doctest fixtures", [FileChange("changelog/1.breaking.rst", 1, 0, patch="@@ -0,0 +1 @@\n+Dropped X.")]), BREAKING),
]  # fmt: skip


@pytest.mark.parametrize(("pr", "expected"), ANNOUNCED)
def test_what_a_pr_announces(pr: PullRequest, expected: str | None) -> None:
    said = announce(pr)
    assert (said.kind if said is not None else None) == expected


def test_a_description_removing_a_name_from_something_keeps_the_name() -> None:
    assert read_body("Remove `RemoveNoopPass` from the Cortex-M pass manager.").removed == ()
    assert [n.name for n in read_body("* Remove GemliteUIntXWeightOnlyConfig").removed] == [
        "GemliteUIntXWeightOnlyConfig"
    ]


# -- one kind judgment (analyze/kind_judge.py) -----------------------------------------------


def _evidence(**given: object) -> KindEvidence:
    base: dict[str, object] = dict(
        classified=kinds.IMPROVEMENTS, classified_by="generic/kind/improvements/default",
        announced=AnnouncementKind.NOTHING, announced_from=Evidence.TITLE, announced_why="",
        library_lines=0, only_docs=False, no_library=False, claims=(),
    )  # fmt: skip
    return KindEvidence(**{**base, **given})  # type: ignore[arg-type]


JUDGED = [
    # the build or developer tools only: developers' work
    (dict(no_library=True, developer_only=True), kinds.DEVS),
    # tests and CI only: not user-facing
    (dict(no_library=True), kinds.NOT_USER_FACING),
    # a break or a deprecation the wording named and nothing bears out
    (dict(classified=kinds.DEPRECATION, classified_by="x/wording", title_fixes=True), kinds.BUG_FIXES),
    (dict(classified=kinds.BC_BREAKING, classified_by="x/wording"), kinds.IMPROVEMENTS),
    # … a label stands
    (dict(classified=kinds.BC_BREAKING, classified_by="x/label"), kinds.BC_BREAKING),
    # tokens/s is a speed-up
    (dict(classified=kinds.NEW_FEATURES, claims=("from 13 tokens/s to 19 tokens/s",)), kinds.PERFORMANCE),
    # a public module created: a new feature, unless the title's type said otherwise
    (dict(adds_module=True), kinds.NEW_FEATURES),
    (dict(adds_module=True, classified_by="generic/kind/improvements/prefix"), kinds.IMPROVEMENTS),
    # a news fragment's type is the author's filing
    (dict(declared="bugfix", declared_in="changelog/1.bugfix.rst"), kinds.BUG_FIXES),
    (dict(declared="misc", declared_in="changelog/1.misc.rst", library_lines=500), kinds.NOT_USER_FACING),
    # the body calling it a refactor outweighs its size …
    (dict(says_internal=True, library_lines=400), kinds.NOT_USER_FACING),
    (dict(says_internal=True, classified=kinds.NOT_USER_FACING, library_lines=400), kinds.NOT_USER_FACING),
    # … not a measured result it states
    (dict(says_internal=True, claims=("2x faster",)), kinds.PERFORMANCE),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "internal"),
    [
        ("Small refactoring for https://github.com/o/r/pull/1", True),
        ("## Summary\n\nA small cleanup now that our MSRV includes `fmt::from_fn`.", True),
        ("Moves the cache into its own type. No functional change.", True),
        ("Use match guards, preserving the existing filename extraction behavior.", True),
        # a refactor that is the means to a feature is the feature
        ("Adds `--frozen` to `uv run`. This required a refactor of the resolver.", False),
        ("Fixes a crash when the lock file is empty.", False),
        ("", False),
    ],
)
def test_a_body_that_calls_itself_internal(body: str, internal: bool) -> None:
    assert says_internal(body) is internal


@pytest.mark.parametrize(("given", "expected"), JUDGED)
def test_one_kind_judgment(given: dict[str, object], expected: str) -> None:
    assert judge_kind(_evidence(**given)).kind == expected


TYPED = [
    ("ENH Add support for Conv2d to AdaLoRA", "enh", "Add support for Conv2d to AdaLoRA"),
    ("FIX Cache position is None", "fix", "Cache position is None"),
    ("CI Move slow EVA tests to nightly", "ci", "Move slow EVA tests to nightly"),
    ("CIFAR support in datasets", None, "CIFAR support in datasets"),
    ("internal: Add a more database lifetimes", "internal", "Add a more database lifetimes"),
]


@pytest.mark.parametrize(("title", "kind", "text"), TYPED)
def test_bare_upper_case_types(title: str, kind: str | None, text: str) -> None:
    assert parse_title(title).conventional_type == kind
    assert clean_title(title, 1).text == text


# -- entries from briefs (release/entry_text.py, release/styles.py) --------------------------


def _brief(what: str, kind: str, why: str = "", figures: tuple[str, ...] = ()) -> Brief:
    return Brief(
        number=7, author="a", subject="", what=what, why=why, why_from="", writer="deterministic@3",
        kind=kind, kind_evidence=KindJudgment(kind, Evidence.TITLE, "title"), component="",
        user_facing=True, chore=False, announced=AnnouncementKind.NOTHING, migration="",
        surface=Surface(), status=Status.LANDED,
        status_of=None, release="", series="", figures=figures, score=0.0,
    )  # fmt: skip


ENTRIES = [
    ("Add zero init", "Adds zero init support in Prefix Tuning", kinds.NEW_FEATURES, "", "Added zero init support in Prefix Tuning"),
    ("Precompute log probs", "Precomputes reference log probs at init", kinds.IMPROVEMENTS, "", "Precomputed reference log probs at init"),
    ("FIX Cache position is None with transformers v5.4", "Caches position is None with transformers v5.4", kinds.BUG_FIXES, "", "Fixed cache position is None with transformers v5.4"),
    ("FIX Correct scaling with DARE", "Corrects scaling with DARE", kinds.BUG_FIXES, "", "Corrected scaling with DARE"),
    ("HiRA", "HiRA low-rank adapters", kinds.NEW_FEATURES, "", "Added HiRA low-rank adapters"),
    ("Suite Operator Test Support (Part1)", "Suite Operator Test Support (Part1)", kinds.IMPROVEMENTS, "", "Suite Operator Test Support"),
    ("Fix crash", "Fixes the crash in `load`", kinds.BUG_FIXES, "It raised KeyError on empty files", "Fixed the crash in `load`. It raised KeyError on empty files"),
    ("Fix crash", "Fixes the crash in `load`", kinds.BUG_FIXES, "However, it was rare", "Fixed the crash in `load`"),
    ("Add https://x.y/pull/1 by a", "Adds https://x.y/pull/1 by a", kinds.IMPROVEMENTS, "", "Added https://x.y/pull/1 by a"),
    ("Remove marlin", "Removed `marlin.cu` plus support files Removed layouts Removed tests", kinds.BC_BREAKING, "", "Removed `marlin.cu` plus support files"),
]  # fmt: skip


@pytest.mark.parametrize(("title", "what", "kind", "why", "entry"), ENTRIES)
def test_entries_are_the_briefs_words_in_the_past_tense(
    title: str, what: str, kind: str, why: str, entry: str
) -> None:
    assert entry_sentence(_brief(what, kind, why), _pr(title)) == entry


CHANGELOG = [
    (kinds.BC_BREAKING, "Removed `x`", kinds.BC_BREAKING),
    (kinds.NEW_FEATURES, "Added `x`", "added"),
    (kinds.PERFORMANCE, "Sped up `x`", "changed"),
    (kinds.IMPROVEMENTS, "Removed the old path", "removed"),
    (kinds.BUG_FIXES, "Fixed a CVE-2026-1234 path traversal", "security"),
    (kinds.BUG_FIXES, "Fixed `x`", "fixed"),
    (kinds.DOCS, "Documented `x`", kinds.DOCS),
]


@pytest.mark.parametrize(("kind", "sentence", "section"), CHANGELOG)
def test_keep_a_changelogs_sections(kind: str, sentence: str, section: str) -> None:
    style = style_named("changelog")
    assert style.section_of(kind, sentence) == section
    assert style.sections[0] == (kinds.BC_BREAKING, "Breaking changes")
    assert style_named("pytorch").section_of(kind, sentence) == kind


def test_a_breaking_heading_never_says_the_opposite_of_the_diff() -> None:
    gone = Surface(removed=("--comm.use_torchcomms",))
    brief = replace(_brief("Removes torchcomms experiment", kinds.BC_BREAKING), surface=gone)
    wrong = "Removed torchcomms experiment and integrate via `comm.use_torchcomms` config"
    assert breaking_heading(wrong, [brief]) == "Removed `--comm.use_torchcomms`"
    right = "Removed `comm.use_torchcomms` and its environment variable"
    assert breaking_heading(right, [brief]) == right


def _deleted(path: str, lines: list[str]) -> FileChange:
    patch = f"@@ -1,{len(lines)} +0,0 @@\n" + "\n".join(f"-{line}" for line in lines)
    return FileChange(path, 0, len(lines), patch=patch)


def test_a_package_whose_init_alone_went_is_no_removed_module() -> None:
    init = _deleted("pkg/deepep/__init__.py", ["# empty"])
    alone = read_diff([init, _change("pkg/deepep/kernels.py", ["a = 1"], ["a = 2"])])
    assert not alone.removed
    whole = read_diff([init, _deleted("pkg/deepep/kernels.py", ["def run():", "    pass"])])
    assert "pkg.deepep" in [n.name for n in whole.removed]
