"""The words of a brief: what a PR does (the body's release note, its statement with a
subject, a clear title, its statement), why (a result, a reason clause, the state it
ends; never a size), names spelled as the code spells them; and its kind, judged from
the evidence in its order (label > diff > body > title)."""

from __future__ import annotations

import pytest

from prdigest import kinds
from prdigest.analyze.brief_text import brief_text, spelled_as_code
from prdigest.analyze.brief_types import AnnouncementKind, Evidence
from prdigest.analyze.kind_judge import KindEvidence, judge_kind
from prdigest.analyze.pr_briefs import sentence_case_words
from prdigest.models import FileChange, PullRequest
from prdigest.reading import clean_title
from prdigest.reading.spelling import Spelling


def _words(
    title: str, body: str = "", claims: tuple[str, ...] = (), files: tuple[FileChange, ...] = ()
):
    pr = PullRequest(repo="o/r", number=7, title=title, body=body, files=files)
    return brief_text(pr, clean_title(title, 7), claims)


@pytest.mark.parametrize(
    ("title", "body", "what", "source"),
    [
        # the body's release note, written for users, comes first
        (
            "feat: accept optional column argument for `grid` command",
            "## Description\nThe command is hardcoded.\n\n## User-facing changes (Release notes)\n"
            "The `grid` command now accepts an optional column name.",
            "The `grid` command now accepts an optional column name",
            "users",
        ),
        # a clear title beats a body statement without a subject of its own
        (
            "Add `--no-commas` flag to `to nuon`",
            "This PR adds a flag to make nuon output shorter by dropping the commas.",
            "Adds `--no-commas` flag to `to nuon`",
            "title",
        ),
        # a title that points elsewhere gives way to the body's statement
        (
            "[LLADA2] Fix llada2 review #13598",
            "Fixes the six in-scope issues raised in the llada2 model/pipeline review:\n\n1. a\n2. b",
            "Fixes the six in-scope issues raised in the llada2 model/pipeline review",
            "summary",
        ),
        # a squashed commit's words stand in only for a title that says nothing itself
        (
            "Remove Ops.VCONST",
            "* start removing vconst\n\n* more\n\n* done",
            "Removes Ops.VCONST",
            "title",
        ),
        # a body statement that only restates the title is no better than it
        (
            "[docs] add docs for JoyAI-Image-Edit",
            "add docs",
            "Adds docs for JoyAI-Image-Edit",
            "title",
        ),
        # a body statement about something else is not this PR's what
        (
            "Install `transformers` from main for doc and staging",
            "* Use Mistral3Model/Ministral3ForCausalLM\n\n* up\n\n* up",
            "Installs `transformers` from main for doc and staging",
            "title",
        ),
        # the title's later verbs follow its first into the third person
        (
            "add `nu-heavy-utils` crate and consolidate endian flag handling",
            "",
            "Adds `nu-heavy-utils` crate and consolidates endian flag handling",
            "title",
        ),
        ("dtype.vec shapes", "", "dtype.vec shapes", "title"),  # code keeps its case
        (
            "mkdir: don't interrupt when error happened",
            "",
            "No longer interrupts when error happened",
            "title",
        ),
        # a sentence names no part of a series and no issue: the bullet and its link do
        ("Add FP16 support to operators (pt 2)", "", "Adds FP16 support to operators", "title"),
        (
            "feat: add `ewm_sum` and `ewm_sum_by` #28151",
            "",
            "Adds `ewm_sum` and `ewm_sum_by`",
            "title",
        ),
    ],
)
def test_what_a_pr_does(title: str, body: str, what: str, source: str) -> None:
    words = _words(title, body)
    assert (words.what, words.what_from) == (what, source)


@pytest.mark.parametrize(
    ("title", "body", "claims", "why", "kind"),
    [
        (
            "Speed up svd",
            "",
            ("about 4X faster for 8x8 input",),
            "about 4X faster for 8x8 input",
            "result",
        ),
        (
            "Add `--no-commas` flag to `to nuon`",
            "This adds the flag so that nuon output is more succinct.",
            (),
            "so that nuon output is more succinct",
            "reason",
        ),
        (
            "Accept a column for `grid`",
            "## Motivation\nThe `grid` command is hardcoded to look for a `name` column.",
            (),
            "Previously, the `grid` command was hardcoded to look for a `name` column",
            "before",
        ),
        # how it was tested, or a sentence that introduces a list, is no reason
        (
            "Fix cp",
            "## Motivation\nBefore this change, `cp` had two issues here:\n- a\n- b",
            (),
            "",
            "",
        ),
        ("Fix x", "This fixes x so that the tests pass again.", (), "", ""),
        # a fix's failure, as users saw it, with its circumstance
        (
            "Fix image transform crash with bfloat16 inputs",
            "On the numpy backend, `perspective_transform` can crash with bfloat16 inputs.",
            (),
            "Previously, on the numpy backend, `perspective_transform` could crash with bfloat16 inputs",
            "before",
        ),
        (
            "Fix ZeRO-3 forward on dict parameters",
            "## Problem\nZeRO-3 forward crashes with `AttributeError` on modules whose `_parameters` is a dict.",
            (),
            "Previously, ZeRO-3 forward crashed with `AttributeError` on modules whose `_parameters` is a dict",
            "before",
        ),
        # … never the mechanism behind it, nor the state after the fix
        (
            "Fix DeepCompile parameter ownership",
            "## Problem\nThe fallback is enabled around `DeepSpeedEngine.forward()`.",
            (),
            "",
            "",
        ),
        (
            "Fix class_weight keys",
            "Invalid keys now raise a `ValueError` with a clear message.",
            (),
            "",
            "",
        ),
        # a reason that restates the what is none
        (
            "Add a `--fast` flag to `run`",
            "Adds a `--fast` flag to `run` so that `run` gets a `--fast` flag.",
            (),
            "",
            "",
        ),
    ],
)
def test_why_it_matters(
    title: str, body: str, claims: tuple[str, ...], why: str, kind: str
) -> None:
    words = _words(title, body, claims)
    assert (words.why, words.why_from) == (why, kind)


def test_names_are_spelled_as_the_code_spells_them() -> None:
    diff = FileChange(
        "pkg/url.py", 2, 0, patch="@@ -1 +1,2 @@\n+def url_preserve_empty_path(x):\n+    pass"
    )
    pr = PullRequest(repo="o/r", number=1, title="t", files=(diff,))
    assert (
        spelled_as_code("Adds `preverse_empty_path` option", pr)
        == "Adds `url_preserve_empty_path` option"
    )
    assert spelled_as_code("Keeps `unrelated_name` as is", pr) == "Keeps `unrelated_name` as is"


def test_title_case_is_made_sentence_case_where_the_titles_write_lower_case() -> None:
    spelling = Spelling.learned(["fix the work for x", "better things", "add pipelines"])
    assert (
        sentence_case_words("Fixes GGUF to Work Better with `keep_in_fp32_modules`", spelling)
        == "Fixes GGUF to work better with `keep_in_fp32_modules`"
    )
    assert sentence_case_words("Adds LTX-2.X IC LoRA and HDR Pipelines", spelling) == (
        "Adds LTX-2.X IC LoRA and HDR Pipelines"  # one capitalised word: a name, maybe
    )


def _evidence(**overrides: object) -> KindEvidence:
    values: dict[str, object] = {
        "classified": kinds.IMPROVEMENTS,
        "classified_by": "generic/kind/improvements/default",
        "announced": AnnouncementKind.NOTHING,
        "announced_from": Evidence.TITLE,
        "announced_why": "",
        "library_lines": 10,
        "only_docs": False,
        "no_library": False,
        "claims": (),
    }
    values.update(overrides)
    return KindEvidence(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("evidence", "kind", "source"),
    [
        # a label stands, whatever the diff says
        (
            _evidence(
                classified=kinds.BUG_FIXES, classified_by="p/kind/bug_fixes/label", only_docs=True
            ),
            kinds.BUG_FIXES,
            Evidence.LABEL,
        ),
        # the diff: a removed public name breaks; docs only are docs; no library code is internal
        (
            _evidence(
                announced=AnnouncementKind.BREAKING,
                announced_from=Evidence.DIFF,
                announced_why="removes `x`",
            ),
            kinds.BC_BREAKING,
            Evidence.DIFF,
        ),
        (_evidence(only_docs=True), kinds.DOCS, Evidence.DIFF),
        (_evidence(no_library=True), kinds.NOT_USER_FACING, Evidence.DIFF),
        # an 800-line op is users' work though its title says CMake
        (
            _evidence(
                classified=kinds.DEVS, classified_by="p/kind/devs/wording", library_lines=800
            ),
            kinds.IMPROVEMENTS,
            Evidence.DIFF,
        ),
        # the body: its release notes announce a deprecation; a measured speed-up is performance
        (
            _evidence(
                announced=AnnouncementKind.DEPRECATION,
                announced_from=Evidence.BODY,
                announced_why="notes",
            ),
            kinds.DEPRECATION,
            Evidence.BODY,
        ),
        (_evidence(claims=("2x faster on A100",)), kinds.PERFORMANCE, Evidence.BODY),
        # the title last
        (
            _evidence(
                announced=AnnouncementKind.BREAKING,
                announced_from=Evidence.TITLE,
                announced_why="drops support",
            ),
            kinds.BC_BREAKING,
            Evidence.TITLE,
        ),
        (_evidence(), kinds.IMPROVEMENTS, Evidence.TITLE),
    ],
)
def test_the_kind_is_judged_from_the_strongest_evidence(
    evidence: KindEvidence, kind: str, source: Evidence
) -> None:
    judged = judge_kind(evidence)
    assert (judged.kind, judged.evidence) == (kind, source)
