"""The one reading of titles, wrappers, part markers and reverts (`prdigest.reading`).

Titles and bodies are real ones from executorch and ao (numbers kept), so a rule that
breaks names the PR it was made for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from digest_weeks import load
from prdigest.analyze.groups import Candidate
from prdigest.analyze.items import build_item
from prdigest.analyze.naming import theme_name
from prdigest.analyze.spelling import Spelling
from prdigest.models import Classification, PullRequest
from prdigest.reading import (
    DIGEST,
    FULL,
    RELEASE,
    Evidence,
    clean_title,
    kind_of,
    pair_all,
    parse_title,
    quoted_title,
    reland_rest,
    revert_rest,
    series_key,
    series_stem,
    strip_noise,
    strip_part_markers,
    undoes_a_revert,
)
from prdigest.reading.parts import has_part_marker

# ---- wrappers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "revert", "wrapper_revert", "reland"),
    [
        (
            'Revert "Fix KeyError in InsertIOQDQ pass for LLM quantization"',
            '"Fix KeyError in InsertIOQDQ pass for LLM quantization"',
            True,
            None,
        ),
        ('Back out "Update fuse_pt2"', '"Update fuse_pt2"', True, None),
        ("Revert D73804939", "D73804939", True, None),
        ("Revert 11294 v2", "11294 v2", True, None),
        (
            "[Yolo12] Revert of the revert of the Yolo12 Sample",
            "of the revert of the Yolo12 Sample",
            True,
            None,
        ),
        (
            'Revert "Revert "Split & remove extension_parallel (#8983)""',
            '"Revert "Split & remove extension_parallel (#8983)""',
            True,
            None,
        ),
        # the prose form: a revert only for readers that take it (often partial)
        (
            "Reverts the addition of `RemoveNoopPass`…",
            "the addition of `RemoveNoopPass`…",
            False,
            None,
        ),
        ("Revert to the old pin", None, False, None),
        ("Reland 17206", None, False, "17206"),
        ("[reland2][ROCm] preshuffled weight mm", None, False, "[ROCm] preshuffled weight mm"),
        ("[CPU] Reland qconv fp8 fusion passes", None, False, "qconv fp8 fusion passes"),
        ("[Reland][CPU] Add ops for float8 linear", None, False, "[CPU] Add ops for float8 linear"),
        (
            "Reland v2: Add transpose propagation pass",
            None,
            False,
            "Add transpose propagation pass",
        ),
        ('Re-land "Add INT8 SDPA path for CPU"', None, False, '"Add INT8 SDPA path for CPU"'),
        (
            "[retake] Use extension module for pybind",
            None,
            False,
            "Use extension module for pybind",
        ),
        ("Redownload the model files", None, False, None),
        ("[Arm] Fix the pass [reland]", None, False, "[Arm] Fix the pass"),
    ],
)
def test_one_wrapper_grammar(
    title: str, revert: str | None, wrapper_revert: bool, reland: str | None
) -> None:
    assert revert_rest(title) == revert
    assert (revert_rest(title, prose=False) is not None) == wrapper_revert
    assert reland_rest(title) == reland


def test_kind_of_reads_a_title_as_the_pairing_does(executorch_jsonl: Path) -> None:
    assert kind_of('Revert "Revert "Split & remove extension_parallel (#8983)""') == "reland"
    assert undoes_a_revert('Revert "Revert "Split & remove extension_parallel (#8983)""')
    assert kind_of("Reverts the addition of `RemoveNoopPass`…") == "revert"
    assert kind_of("Reverts the addition of `RemoveNoopPass`…", RELEASE) is None
    assert kind_of("[reland2][ROCm] preshuffled weight mm") == "reland"
    assert kind_of("Revert to the old pin") is None
    prs = load(str(executorch_jsonl), "pytorch/executorch")
    for evidence in (FULL, DIGEST):
        paired = {
            p.position: "reland" if p.relands or p.nested else "revert"
            for p in pair_all(prs, evidence)
        }
        assert {i: kind_of(pr.title, evidence) for i, pr in enumerate(prs)} == {
            i: paired.get(i) for i in range(len(prs))
        }


def test_classification_unwraps_plain_wrappers_only() -> None:
    info = parse_title('Revert "Revert "[Reland][CPU] Add ops for float8 linear" (#3179)"')
    assert info.revert_of is not None and info.reland  # `[Reland]` is a tag there
    assert parse_title("Reland v2: Add transpose pass").inner == "Add transpose pass"
    assert parse_title('Reapply "Bump PyTorch pin" v2').inner == "Bump PyTorch pin"
    # after a tag, a wrapper reads as text (classification's rules were tuned on that)
    assert not parse_title("[CPU] Reland qconv fp8 fusion passes").reland
    assert parse_title("[Yolo12] Revert of the revert of the Yolo12 Sample").revert_of is None


def test_quoted_title_goes_through_two_levels_and_a_cut() -> None:
    assert quoted_title('Revert "Revert "Split & remove extension_parallel (#8983)""') == (
        "Split & remove extension_parallel"
    )
    assert quoted_title(
        'Reapply "Add EXECUTORCH_THREADPOOL_SIZE options, default to u… (#14307)'
    ) == ("Add EXECUTORCH_THREADPOOL_SIZE options, default to u")
    assert quoted_title("Revert D73804939") == ""


# ---- part markers ----------------------------------------------------------------------


def test_part_markers_every_form() -> None:
    for title in (
        "[1/4] Add BackendOptions class",
        "1/x: introduce new cache protocol",
        "[pat] (2/5) Add QKGrouper",
        "Arm backend: Add FP16 support to operators pt.4-6",
        "Add QLoRA and FP8 to finetuning tutorial (part 2)",
        "Format Arm passes (group 3)",
        "[PR2/N] Move the runner",
    ):
        assert has_part_marker(title), title
    assert not has_part_marker("Migrate pt2e arm")
    assert strip_part_markers("[PR2/N] Move the runner") == "Move the runner"


def test_the_digest_and_the_release_notes_take_different_forms() -> None:
    # `(group 3)` and ranges are the digest's; the release notes never learnt them
    assert series_key("Format Arm passes (group 3)") == series_key("Format Arm passes (group 6)")
    assert series_stem("Format Arm passes (group 3)") is None
    assert series_key("Add FP16 support to operators pt.4-6") == series_key(
        "Add FP16 support to operators pt.7"
    )
    assert series_stem("Add FP16 support to operators pt.4-6") == "add fp16 support to operators 6"
    # a closing `#2` and the comma of `, Part 2` are the release notes'
    assert series_stem("Use GraphBuilder in test_replace_ops_passes. #2") == (
        "use graphbuilder in test replace ops passes"
    )
    assert not has_part_marker("Use GraphBuilder in test_replace_ops_passes. #2")
    assert strip_part_markers("Enable mypy lintrunner, Part 2 (codegen/*)") == (
        "Enable mypy lintrunner, (codegen/*)"
    )
    assert strip_noise("Enable mypy lintrunner, Part 2 (codegen/*)") == (
        "Enable mypy lintrunner (codegen/*)"
    )


# ---- cleaned text: the digest's and the release notes' --------------------------------


@pytest.mark.parametrize(
    ("title", "digest", "release"),
    [
        (
            "Qualcomm AI Engine Direct - GA Whisper",
            "Qualcomm AI Engine Direct - GA Whisper",
            "GA Whisper",
        ),
        (
            "gemma4_31b: add OpenAI serving entrypoint",
            "Add OpenAI serving entrypoint",
            "gemma4_31b: add OpenAI serving entrypoint",
        ),
        (
            "Reapply #9841: Migrate elementwise_util callers",
            "Reapply #9841: Migrate elementwise_util callers",
            "Migrate elementwise_util callers",
        ),
        (
            "[ET-VK][ez] Cortex-M: Fix the quantizer (#123)",
            "Fix the quantizer",
            "Fix the quantizer",
        ),
        ("Revert D73804939", "Revert D73804939", "Revert"),
        ("[BE]", "[BE]", "[BE]"),
    ],
)
def test_one_peeler_two_readers(title: str, digest: str, release: str) -> None:
    assert clean_title(title).text == digest
    assert strip_noise(title) == release


# ---- pairing -----------------------------------------------------------------------------


def _pr(number: int | None, title: str, sha: str, body: str = "", phab: str = "") -> PullRequest:
    trailers = (("Differential Revision", (phab,)),) if phab else ()
    return PullRequest("pytorch/executorch", number, title, body, sha * 40, trailers=trailers)


def _pairs(prs: list[PullRequest], evidence: Evidence = FULL, start: int = 0) -> dict:
    return {prs[p.position].number: p for p in pair_all(prs, evidence, start=start)}


def test_a_revert_names_its_target_by_sha_link_number_phab_or_title() -> None:
    prs = [
        _pr(7700, "Remove unused functions for quantization handling", "a"),
        _pr(14109, "Arm backend: Enable pytest VKML op unit testing", "b"),
        _pr(11294, "Make op_glu_test input asymmetric", "c"),
        _pr(7756, "Some Phabricator-exported change", "d", phab="D68246404"),
        _pr(15474, "Update fuse_pt2 to take and return an ExportedProgram", "e"),
        _pr(7724, 'Revert "Remove unused functions"', "f", "This reverts commit " + "a" * 40),
        _pr(15841, 'Revert "Arm backend: …"', "1", "Reverts pytorch/executorch#14109"),
        _pr(11465, "Revert 11294 v2", "2"),
        _pr(8002, "Revert D68246404", "3"),
        _pr(15530, 'Back out "Update fuse_pt2 to take and return an ExportedProgram"', "4"),
        _pr(9999, 'Revert "Something from last release"', "5"),
    ]
    pairs = _pairs(prs)
    found = {n: (p.how, [prs[t].number for t in p.targets]) for n, p in pairs.items()}
    assert found == {
        7724: ("sha", [7700]),
        15841: ("number", [14109]),
        11465: ("number", [11294]),
        8002: ("phab", [7756]),
        15530: ("title", [15474]),
        9999: ("unmatched", []),
    }
    assert _pairs(prs, DIGEST)[8002].original is None  # the digest reads no `D123`


def test_a_revert_of_several_prs_and_of_a_revert() -> None:
    prs = [
        _pr(13264, "Add TorchAO wrapper config", "a"),
        _pr(13265, "Add coreml quant recipes", "b"),
        _pr(
            13374,
            'Revert "Add TorchAO wrapper config (#13264)" and "Add coreml quant recipes (#13265)"',
            "c",
            "This reverts commit " + "a" * 40,
        ),
        _pr(8983, "Split & remove extension_parallel", "d"),
        _pr(9189, 'Revert "Split & remove extension_parallel (#8983)"', "e"),
        _pr(9190, 'Revert "Revert "Split & remove extension_parallel (#8983)""', "f"),
    ]
    pairs = _pairs(prs)
    assert [prs[t].number for t in pairs[13374].targets] == [13264, 13265]
    assert pairs[13374].original == 13265  # the latest: the one the digest names
    nested = pairs[9190]
    assert (nested.how, nested.nested, prs[nested.targets[0]].number) == ("revert", True, 9189)
    assert nested.original == 8983  # what it lands again


def test_relands_by_number_title_or_quote() -> None:
    prs = [
        _pr(9842, "Save some size in dtype_util", "a"),
        _pr(1702, "[ROCm] preshuffled weight mm", "b"),
        _pr(20625, "Arm backend: Add transpose propagation pass", "c"),
        _pr(10490, "Reapply #9842: Save some size in dtype_util", "d"),
        _pr(2207, "[reland2][ROCm] preshuffled weight mm", "e"),
        _pr(21030, 'Reland "Arm backend: Add transpose propagation pass" v2', "f"),
        _pr(17313, "Reland 17206", "1", "Reland https://github.com/pytorch/executorch/pull/17206"),
    ]
    pairs = _pairs(prs)
    assert {n: (p.how, p.original) for n, p in pairs.items()} == {
        10490: ("number", 9842),
        2207: ("title", 1702),
        21030: ("title", 20625),
        17313: ("unmatched", None),
    }
    # the digest still names a PR outside its windows
    assert _pairs(prs, DIGEST)[17313].original == 17206


def test_a_prose_revert_is_a_revert_only_where_asked() -> None:
    prs = [
        _pr(17300, "Add RemoveNoopPass to the Cortex-M pass manager", "a"),
        _pr(17407, "Reverts the addition of `RemoveNoopPass` (introduced in #17300)", "b"),
    ]
    assert [prs[t].number for t in _pairs(prs)[17407].targets] == [17300]
    assert _pairs(prs, RELEASE) == {} == _pairs(prs, DIGEST)


def test_the_digest_reads_a_title_narrowly() -> None:
    prs = [
        _pr(19099, "Android: consistent error types", "a"),
        _pr(19124, "Android: Module implements Closeable", "b"),
        _pr(19133, "Revert Android PRs #19099, #19124", "c"),
    ]
    assert [prs[t].number for t in _pairs(prs)[19133].targets] == [19099, 19124]
    assert _pairs(prs, DIGEST)[19133].targets == ()


def test_the_digest_matches_the_windows_first_title() -> None:
    # #15530 backs out #15474 (previous window); #15539 relands it after the back-out.
    prs = [
        _pr(15474, "Update fuse_pt2 to take and return an ExportedProgram", "a"),
        _pr(15530, 'Back out "Update fuse_pt2 to take and return an ExportedProgram"', "b"),
        _pr(15539, "Update fuse_pt2 to take and return an ExportedProgram", "c"),
    ]
    assert _pairs(prs, RELEASE)[15530].original == 15474
    assert _pairs(prs, DIGEST, start=1)[15530].original == 15539  # kept as it was


def test_a_title_cut_short_matches_by_its_beginning() -> None:
    prs = [
        _pr(11352, "Switch fbcode builds of ExecuTorch and PyTorch to fbsource sleef", "a"),
        _pr(11500, 'Revert "Switch fbcode builds of ExecuTorch and PyTorch to fbsource sl…"', "b"),
    ]
    assert _pairs(prs)[11500].original == 11352


# ---- the naming seam ---------------------------------------------------------------------


def test_theme_names_follow_the_spelling_they_are_given() -> None:
    rep = build_item(_pr(1, "Fix the HTP backend", "a"), Classification("x", "y", "r", "r"))
    path = Candidate("path", "path:backends/qualcomm/htp", "backends/qualcomm/htp", frozenset(), 1)
    assert theme_name(path, "", rep).startswith("HTP")  # the hand-kept fallback
    assert theme_name(path, "", rep, Spelling({"htp": "Htp"})).startswith("Htp")
    assert Spelling({}).spell("tosa") == "tosa" and Spelling().spell("Tosa") == "TOSA"
