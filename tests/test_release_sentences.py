"""Titles → release-notes sentences, and revert pairing, on real titles."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prdigest.config import Config
from prdigest.models import FileChange, PullRequest
from prdigest.pipeline import release_notes
from prdigest.reading import series_stem
from prdigest.release.reverted_in_range import find_reverts
from prdigest.release.sentences import to_sentence
from prdigest.store import open_store
from prdigest.timeutil import window_between


@pytest.mark.parametrize(
    ("title", "sentence"),
    [
        (
            "Arm backend: Add GLU decomposition pass and test",
            "Added GLU decomposition pass and test",
        ),
        # a tag in parentheses is a tag (ao's "(prototype) add support for …" kept both)
        (
            "(prototype) add support for MXFP8 and MXFP4 QAT",
            "Added support for MXFP8 and MXFP4 QAT",
        ),
        ("[ET-VK][ez] Introduce `TextureMetadata` struct", "Introduced `TextureMetadata` struct"),
        (
            "Qualcomm AI Engine Direct - Adding QNN backend support for log2 (#1234)",
            "Added QNN backend support for log2",
        ),
        (
            "Fixes heap-buffer-overflow in constant_pad_nd",
            "Fixed heap-buffer-overflow in `constant_pad_nd`",
        ),
        ("support channels last inputs in xnnpack.", "Supported channels last inputs in xnnpack"),
        (
            "Don't partition fp16 GeLU on XNNPACK for now",
            "Stopped partitioning fp16 GeLU on XNNPACK for now",
        ),
        (
            "Use torch.export.export() in foo/bar.py (fixes #11684) D68246404",
            "Used `torch.export.export()` in `foo/bar.py`",
        ),
        (
            "Enable mypy lintrunner, Part 2 (codegen/*, docs/*)",
            "Enabled mypy lintrunner (codegen/*, docs/*)",
        ),
        (
            "Add overflow checks to getLeadingDims for iOS and macOS",
            "Added overflow checks to `getLeadingDims` for iOS and macOS",
        ),
        ("Static IO manager bug fix", "Static IO manager bug fix"),
    ],
)
def test_titles_become_one_consistent_sentence(title: str, sentence: str) -> None:
    assert to_sentence(title) == sentence


def test_series_members_share_a_stem_and_other_titles_have_none() -> None:
    assert series_stem("Convert defaults to default_factory [2/12]") == series_stem(
        "Convert defaults to default_factory [4/12]"
    )
    assert series_stem("Enable mypy lintrunner, Part 3 (profiler/*)") == series_stem(
        "Enable mypy lintrunner, Part 4 (util/*)"
    )
    assert series_stem("Migrate pt2e arm") is None
    assert series_stem("Execute on exec_aten namespace deprecation from #5296") is None


def _pr(number: int, title: str, sha: str, body: str = "") -> PullRequest:
    return PullRequest(repo="a/b", number=number, title=title, sha=sha * 40, body=body)


def test_landed_reverted_relanded_is_one_change_and_landed_reverted_is_out() -> None:
    prs = [
        _pr(1, "Minibench refactor", "a"),
        _pr(2, 'Revert "Minibench refactor (#1)"', "b", "This reverts commit " + "a" * 40 + "."),
        _pr(3, "Reland minibench refactor", "c"),
        _pr(4, "Bump HF version", "d"),
        _pr(5, 'Revert "Bump HF version"', "e"),
        _pr(6, "Split & remove extension_parallel", "f"),
        _pr(7, 'Revert "Split & remove extension_parallel (#6)"', "1"),
        _pr(8, 'Revert "Revert "Split & remove extension_parallel (#6)""', "2"),
        _pr(9, 'Revert "Something from last release"', "3"),
    ]
    outcome = find_reverts(prs)
    assert outcome.merge_into == {"c" * 40: "a" * 40}
    assert outcome.out == {
        "b" * 40: "revert of #1",
        "d" * 40: "reverted by #5, not relanded in this range",
        "e" * 40: "revert of #4",
        "1" * 40: "revert of #6",
        "2" * 40: "revert of a revert: relands #6",
        "3" * 40: "revert of a change not in this range",
    }


def test_worksheet_cells_a_spreadsheet_would_run_stay_text_and_round_trip() -> None:
    from prdigest.release.worksheet import WorksheetRow, parse_worksheet, to_csv

    row = WorksheetRow(
        commit_hash="a" * 40,
        category="Runtime",
        topic="bug_fixes",
        title='=HYPERLINK("http://x","y")',
        author="@someone",
        line=2,
    )
    text = to_csv([row])
    assert "\n" + "a" * 40 + ',Runtime,bug_fixes," =HYPERLINK(' in text
    assert parse_worksheet(text, "w.csv") == [row]


@pytest.mark.parametrize(
    ("title", "sentence"),
    [
        ("Reapply #9841: Migrate elementwise_util callers", "Migrated `elementwise_util` callers"),
        ('Reapply "Bump PyTorch pin to 20250706 (#12253)"', "Bumped PyTorch pin to 20250706"),
        ("[Reland] Qualcomm AI Engine Direct - Unify Llama2&Llama3", "Unified Llama2&Llama3"),
        ("Reapply #11294 and #11295 (improve GLU test)", "Improved GLU test"),
    ],
)
def test_a_relands_sentence_describes_the_change_itself(title: str, sentence: str) -> None:
    assert to_sentence(title) == sentence


def test_second_verbs_follow_the_first_ones_tense() -> None:
    assert to_sentence("Allow per-group quantizers in QuantOptimizer, fix state_dict") == (
        "Allowed per-group quantizers in QuantOptimizer, fixed `state_dict`"
    )
    assert (
        to_sentence("Enable llama generate.py + add unit test")
        == "Enabled llama `generate.py` + added unit test"
    )
    assert to_sentence("Add X and support for Y") == "Added X and support for Y"


@pytest.mark.parametrize(("title", "sentence"), [("(#5)", "PR #101"), ("[BE] (#5)", "[BE]")])
def test_a_title_that_cleans_to_nothing_falls_back(title: str, sentence: str) -> None:
    assert to_sentence(title, 101) == sentence


def test_notes_never_have_an_empty_bullet_or_highlight(tmp_path: Path) -> None:
    moment = datetime(2026, 2, 10, 12, tzinfo=UTC)
    titles = ["(#5)", "[BE] (#6)", "Add a streaming exporter for large graphs"]
    prs = [
        PullRequest(
            repo="a/b",
            number=101 + i,
            title=title,
            sha=f"{i + 1:x}" * 40,
            author_email=f"a{i}@x",
            author_name=f"A{i}",
            merged_at=moment,
            labels=("release notes: exporter", "topic: new features"),
            files=(FileChange(f"src/m/f{i}.py", 300, 1),),
        )
        for i, title in enumerate(titles)
    ]
    store = open_store(str(tmp_path / "db.sqlite"))
    store.upsert_pull_requests("a/b", prs)
    result = release_notes(
        store,
        "a/b",
        Config(),
        window=window_between("2026-02-09", "2026-02-15"),
        worksheet=tmp_path / "sheet.csv",
    )
    markdown = result.report.markdown
    assert "pull/101" in markdown, markdown
    for line in markdown.splitlines():
        if line.lstrip().startswith(("*", "-")):
            assert not re.match(r"^\s*[*-]\s*(\(\[|$)", line), line
    texts = [h["text"] for h in result.context.as_dict()["highlights"]] + [
        row.title for row in result.rows
    ]
    assert result.context.as_dict()["highlights"] and all(t.strip() for t in texts), texts
    assert "PR #101" in texts and "PR #101" in markdown


@pytest.mark.parametrize(
    ("title", "sentence"),
    [
        # The two the issue quotes (issue 15, item 10): an abbreviation after a parenthesis.
        (
            "Support remote checkpoint paths (e.g. gs://) in the loader",
            "Supported remote checkpoint paths (e.g. gs://) in the loader",
        ),
        (
            "Skip non-finite values (i.e. infinite or nan) in the observer",
            "Skipped non-finite values (i.e. infinite or nan) in the observer",
        ),
        # Real executorch titles (#9254, #11662, #18494) and variants of the same shapes.
        (
            "Move MacOS jobs (phi-4-mini, qwen2_5) etc to Arm64",
            "Moved MacOS jobs (phi-4-mini, `qwen2_5`) etc to Arm64",
        ),
        (
            "Support for cmdline flag to toggle Debug vs Release build types in cmake",
            "Supported for cmdline flag to toggle Debug vs Release build types in cmake",
        ),
        (
            "Arm backend: Up tolerance for conv2d, upsample_bilinear2d, etc.",
            "Up tolerance for conv2d, `upsample_bilinear2d`, etc",
        ),
        ("Add foo (i.e foo_bar) here", "Added foo (i.e `foo_bar`) here"),
        ("Add a backend (e.g., xnnpack.py) first", "Added a backend (e.g., `xnnpack.py`) first"),
        ("Fix A vs. B", "Fixed A vs. B"),
    ],
)
def test_abbreviations_stay_prose_and_code_still_gets_marks(title: str, sentence: str) -> None:
    assert to_sentence(title) == sentence
    assert not re.search(r"`(?:e\.g|i\.e|etc|vs)\b", to_sentence(title))
