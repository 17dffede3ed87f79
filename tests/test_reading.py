"""The one reading of titles, wrappers, part markers and reverts (`prdigest.reading`).

Titles and bodies are real ones from executorch and ao (numbers kept), so a rule that
breaks names the PR it was made for.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from digest_weeks import load
from helpers import AMBIGUOUS_REVERT, ambiguous_revert_records, run_cli
from prdigest.models import PullRequest
from prdigest.reading import (
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
    ("title", "revert", "reland"),
    [
        (
            'Revert "Fix KeyError in InsertIOQDQ pass for LLM quantization"',
            '"Fix KeyError in InsertIOQDQ pass for LLM quantization"',
            None,
        ),
        ('Back out "Update fuse_pt2"', '"Update fuse_pt2"', None),
        ("Revert D73804939", "D73804939", None),
        ("Revert 11294 v2", "11294 v2", None),
        (
            "[Yolo12] Revert of the revert of the Yolo12 Sample",
            "of the revert of the Yolo12 Sample",
            None,
        ),
        (
            'Revert "Revert "Split & remove extension_parallel (#8983)""',
            '"Revert "Split & remove extension_parallel (#8983)""',
            None,
        ),
        # the prose form takes back part of a change (#17407): no wrapper
        ("Reverts the addition of `RemoveNoopPass`…", None, None),
        ("Reverting the XNNPACK bump", None, None),
        ("Revert to the old pin", None, None),
        ("Reland 17206", None, "17206"),
        ("[reland2][ROCm] preshuffled weight mm", None, "[ROCm] preshuffled weight mm"),
        ("[CPU] Reland qconv fp8 fusion passes", None, "qconv fp8 fusion passes"),
        ("[Reland][CPU] Add ops for float8 linear", None, "[CPU] Add ops for float8 linear"),
        (
            "Reland v2: Add transpose propagation pass",
            None,
            "Add transpose propagation pass",
        ),
        ('Re-land "Add INT8 SDPA path for CPU"', None, '"Add INT8 SDPA path for CPU"'),
        (
            "[retake] Use extension module for pybind",
            None,
            "Use extension module for pybind",
        ),
        ("Redownload the model files", None, None),
        ("[Arm] Fix the pass [reland]", None, "[Arm] Fix the pass"),
    ],
)
def test_one_wrapper_grammar(title: str, revert: str | None, reland: str | None) -> None:
    assert revert_rest(title) == revert
    assert reland_rest(title) == reland


def test_kind_of_reads_a_title_as_the_pairing_does(executorch_jsonl: Path) -> None:
    assert kind_of('Revert "Revert "Split & remove extension_parallel (#8983)""') == "reland"
    assert undoes_a_revert('Revert "Revert "Split & remove extension_parallel (#8983)""')
    assert kind_of("Reverts the addition of `RemoveNoopPass`…") is None
    assert kind_of("[reland2][ROCm] preshuffled weight mm") == "reland"
    assert kind_of("Revert to the old pin") is None
    prs = load(str(executorch_jsonl), "pytorch/executorch")
    paired = {p.position: "reland" if p.relands or p.nested else "revert" for p in pair_all(prs)}
    assert {i: kind_of(pr.title) for i, pr in enumerate(prs)} == {
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


@pytest.mark.parametrize(
    "title",
    [
        "[1/4] Add BackendOptions class",
        "1/x: introduce new cache protocol",
        "[pat] (2/5) Add QKGrouper",
        "Arm backend: Add FP16 support to operators pt.4-6",
        "Add QLoRA and FP8 to finetuning tutorial (part 2)",
        "Format Arm passes (group 3)",
        "[PR2/N] Move the runner",
        "Use GraphBuilder in test_replace_ops_passes. #2",
        "Enable mypy lintrunner, Part 2 (codegen/*)",
        "msvc support 1/N",
        "[ET-VK] 2/n Split dispatches between multiple command buffers.",
        "[aoti-backend-consolidation 1/3] partitioners",
        "[5.1/ N] set_option/get_option API with {backend_name, backend options} only",
    ],
)
def test_every_reader_takes_every_part_marker(title: str) -> None:
    # one set of forms: the digest's series flag and key, the release notes' stem
    assert has_part_marker(title)
    assert series_stem(title) is not None


@pytest.mark.parametrize(
    "title",
    [
        "Migrate pt2e arm",
        "Arm backend: Fix flaky sigmoid 16/32 bit tests",  # the digest once took these
        "Update emformer tests to avoid 0/1 specialization issue",
        "Arm backend: Decompose exact 1/16 bilinear downscale",
        "Add CUDA 13.2 support and drop unsupported 12.8/12.9",
        "[slimtensor] Add all required dtype support (Int8/16/32/64, Bool, BFloat16)",
        "Bump optimum-executorch pin to include PR #208",
        "Bump the pin to include PR #20",  # a reference, not a part
    ],
)
def test_a_number_in_the_text_is_no_part_marker(title: str) -> None:
    assert not has_part_marker(title)
    assert series_stem(title) is None


def test_a_marker_comes_off_whole() -> None:
    assert strip_part_markers("[PR2/N] Move the runner") == "Move the runner"
    assert series_key("Format Arm passes (group 3)") == series_key("Format Arm passes (group 6)")
    assert series_stem("Format Arm passes (group 3)") == "format arm passes"
    # a range goes with its marker (the release notes once left `-6`)
    assert series_stem("Add FP16 support to operators pt.4-6") == "add fp16 support to operators"
    assert strip_noise("Arm backend: Add BF16 to operators pt 2-3.") == "Add BF16 to operators"
    # and so do the comma of `, Part 2` and the dot before a closing `#2`
    assert strip_part_markers("Enable mypy lintrunner, Part 2 (codegen/*)") == (
        "Enable mypy lintrunner (codegen/*)"
    )
    assert strip_noise("Enable mypy lintrunner, Part 2 (codegen/*)") == (
        "Enable mypy lintrunner (codegen/*)"
    )
    assert strip_part_markers("Use GraphBuilder in test_replace_ops_passes. #2") == (
        "Use GraphBuilder in test_replace_ops_passes"
    )
    assert series_key("Use GraphBuilder in unit tests for ops removal #2.") == series_key(
        "Use GraphBuilder in unit tests for ops removal"
    )


# ---- cleaned text: one peeler, two displays ---------------------------------------------


@pytest.mark.parametrize(
    ("title", "digest", "release"),
    [
        # a capitalised component name: two words after its dash say enough
        ("Qualcomm AI Engine Direct - GA Whisper", "GA Whisper", "GA Whisper"),
        # else the dash is prose and stays (the release notes once showed `> Q`)
        ("Fold redundant DQ - > Q", "Fold redundant DQ - > Q", "Fold redundant DQ - > Q"),
        (
            "[executorch] Remove EXECUTORCH_CLIENTS visibility gating - Other Backends",
            "Remove EXECUTORCH_CLIENTS visibility gating - Other Backends",
            "Remove EXECUTORCH_CLIENTS visibility gating - Other Backends",
        ),
        (
            "Qualcomm AI Engine Direct - Pass migration - part 1",
            "Pass migration - part 1",
            "Pass migration",
        ),
        # `1/x` comes off for both, then the prefixes behind it
        (
            "3/x mx cleanup: speed up local test suite",
            "Speed up local test suite",
            "speed up local test suite",
        ),
        # presentation: a code-like prefix names the component in a release-notes bullet
        (
            "gemma4_31b: add OpenAI serving entrypoint",
            "Add OpenAI serving entrypoint",
            "gemma4_31b: add OpenAI serving entrypoint",
        ),
        # presentation: the digest lists a reland as such
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
        # rust-analyzer's types, and a breaking fix's bang
        (
            "internal: Add a more database lifetimes",
            "Add a more database lifetimes",
            "Add a more database lifetimes",
        ),
        (
            "fix!: use `Result` for the lsp-server payload",
            "Use `Result` for the lsp-server payload",
            "use `Result` for the lsp-server payload",
        ),
        # gitmoji: the kind as a picture, or its code
        (
            "🔐 Use PR Submit for translations",
            "Use PR Submit for translations",
            "Use PR Submit for translations",
        ),
        (
            "⬆️ :arrow_up: Raise pytest-xdist minimum",
            "Raise pytest-xdist minimum",
            "Raise pytest-xdist minimum",
        ),
    ],
)
def test_one_peeler_two_readers(title: str, digest: str, release: str) -> None:
    assert clean_title(title).text == digest
    assert strip_noise(title) == release


# ---- pairing -----------------------------------------------------------------------------


def _pr(number: int | None, title: str, sha: str, body: str = "", phab: str = "") -> PullRequest:
    trailers = (("Differential Revision", (phab,)),) if phab else ()
    return PullRequest("pytorch/executorch", number, title, body, sha * 40, trailers=trailers)


def _pairs(prs: list[PullRequest], start: int = 0) -> dict:
    return {prs[p.position].number: p for p in pair_all(prs, start=start)}


def _found(prs: list[PullRequest], start: int = 0) -> dict:
    return {
        n: (p.how, [prs[t].number for t in p.targets], p.original)
        for n, p in _pairs(prs, start).items()
    }


def test_a_revert_names_its_target_by_sha_link_number_phab_or_title() -> None:
    prs = [
        _pr(7700, "Remove unused functions for quantization handling", "a"),
        _pr(14109, "Arm backend: Enable pytest VKML op unit testing", "b"),
        _pr(11294, "Make op_glu_test input asymmetric", "c"),
        _pr(7756, "Turn on dim order in cadence test", "d", phab="D68246404"),
        _pr(15474, "Update fuse_pt2 to take and return an ExportedProgram", "e"),
        _pr(7724, 'Revert "Remove unused functions"', "f", "This reverts commit " + "a" * 40),
        _pr(15841, 'Revert "Arm backend: …"', "1", "Reverts pytorch/executorch#14109"),
        _pr(11465, "Revert 11294 v2", "2"),
        _pr(8002, "Revert D68246404", "3"),  # the digest once left it unpaired
        _pr(15530, 'Back out "Update fuse_pt2 to take and return an ExportedProgram"', "4"),
        _pr(9999, 'Revert "Something from last release"', "5"),
    ]
    assert _found(prs) == {
        7724: ("sha", [7700], 7700),
        15841: ("number", [14109], 14109),
        11465: ("number", [11294], 11294),
        8002: ("phab", [7756], 7756),
        15530: ("title", [15474], 15474),
        9999: ("unmatched", [], None),
    }


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


def test_numbers_anywhere_after_the_wrapper_unless_a_word_ties_them_elsewhere() -> None:
    prs = [
        _pr(19099, "Android: consistent error types", "a"),
        _pr(19124, "Android: Module implements Closeable", "b"),
        _pr(14234, "Manual merge of #14154", "c"),
        _pr(11506, "[xnn update prep] deprecate sdpa", "d"),
        _pr(11145, "Extract DeviceType to a standalone header file", "e", phab="D76646172"),
        _pr(19133, "Revert Android PRs #19099, #19124", "f"),  # the digest once read none
        _pr(14276, "Revert accidental change to third-party/ao from #14234", "1"),  # a part
        _pr(12176, "Reapply changes reverted by #11506", "2"),  # #11506 took them out
        _pr(11727, "Revert vulkan changes from D76646172 fixup patch", "3"),
    ]
    found = _found(prs)
    assert found[19133] == ("number", [19099, 19124], 19124)
    assert found[14276] == found[11727] == ("unmatched", [], None)
    assert found[12176] == ("unmatched", [], None)


def test_an_id_inside_the_quoted_title_belongs_to_that_title() -> None:
    # #19137 backs out the re-apply #19136 (by its title), not #18669, whose diff the
    # re-apply names; #19136 itself lands #18669 again, named by its Phabricator id.
    prs = [
        _pr(18669, "Android: unified error reporting", "a", phab="D101260086"),
        _pr(19134, "Back out D102011505 and D101260086", "b"),
        _pr(19136, "Re-apply D101260086: Android unified error reporting", "c"),
        _pr(19137, 'Back out "Re-apply D101260086: Android unified error reporting"', "d"),
    ]
    found = _found(prs)
    assert found[19134] == ("phab", [18669], 18669)
    assert found[19136] == ("phab", [18669], 18669)
    assert found[19137] == ("title", [19136], 19136)


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
    assert {n: (how, original) for n, (how, _, original) in _found(prs).items()} == {
        10490: ("number", 9842),
        2207: ("title", 1702),
        21030: ("title", 20625),
        17313: ("unmatched", 17206),  # landed before the sequence: named, no target
    }


def test_a_reland_that_names_a_revert_lands_what_the_revert_took_out() -> None:
    # git titles the revert of a revert `Reapply "X (#revert)"`.
    x = "Add EXECUTORCH_THREADPOOL_SIZE options, default to using only performance cores"
    revert = 'Revert "Add EXECUTORCH_THREADPOOL_SIZE options, default to u…'
    reapply = 'Reapply "Add EXECUTORCH_THREADPOOL_SIZE options, default to u… (#14307)'
    prs = [
        _pr(14090, x, "a"),
        _pr(14307, revert, "b", "This reverts commit " + "a" * 40),
        _pr(14842, reapply, "c"),
    ]
    assert _found(prs)[14842] == ("number", [14090], 14090)
    # without the revert in the sequence, `(#14307)` may be the revert: left unsaid
    assert _found(prs[2:])[14842] == ("unmatched", [], None)
    prs = [
        _pr(2079, "create staticmethod for quantizing weights", "a", phab="D73201409"),
        _pr(2105, "Revert D73201409", "b"),
        _pr(2106, 'Revert "Revert D73201409"', "c"),
    ]
    assert _pairs(prs)[2106].original == 2079


def test_a_revert_of_a_revert_cut_short_by_github() -> None:
    title = "Qualcomm AI Engine Direct - heap profiling at runtime with HTP backend"
    prs = [
        _pr(19224, title, "a"),
        _pr(19705, f'Revert "{title}"', "b", "Reverts pytorch/executorch#19224"),
        _pr(19710, 'Revert "Revert "Qualcomm AI Engine Direct - heap profiling at runtime…', "c"),
    ]
    found = _found(prs)
    assert found[19710] == ("revert", [19705], 19224)  # the digest once lost X here


def test_a_named_pr_missing_from_the_sequence_is_still_named() -> None:
    # #19719 landed as a direct push without its number; the revert names it.
    prs = [
        _pr(None, "Arm backend: Validate TOSA resize parameters", "a"),
        _pr(
            19721,
            'Revert "Arm backend: Validate TOSA resize parameters"',
            "b",
            "Reverts pytorch/executorch#19719",
        ),
        _pr(2098, 'Revert "Install bitsandbytes for ROCm"', "c", 'Revert "Install … (#1915)"'),
    ]
    assert _found(prs) == {
        19721: ("title", [None], 19719),
        2098: ("unmatched", [], 1915),
    }


def test_a_prose_revert_is_a_change() -> None:
    # #17407 takes one pass out of #17300: a partial revert, a change of its own
    prs = [
        _pr(17300, "Add MobileNetV2 pytest for Cortex-M backend", "a"),
        _pr(17407, "Reverts the addition of `RemoveNoopPass` to the Cortex-M pass manager…", "b"),
    ]
    assert _pairs(prs) == {}
    assert parse_title(prs[1].title).revert_of is None  # classification reads it as any title


def test_a_target_lands_before_its_revert() -> None:
    # #15530 backs out #15474 (previous window); #15539 lands the same title after it.
    prs = [
        _pr(15474, "Update fuse_pt2 to take and return an ExportedProgram", "a"),
        _pr(15530, 'Back out "Update fuse_pt2 to take and return an ExportedProgram"', "b"),
        _pr(15539, "Update fuse_pt2 to take and return an ExportedProgram", "c"),
    ]
    assert _found(prs, start=1)[15530] == ("title", [15474], 15474)  # not its reland #15539


def test_a_title_cut_short_matches_by_its_beginning() -> None:
    prs = [
        _pr(11352, "Switch fbcode builds of ExecuTorch and PyTorch to fbsource sleef", "a"),
        _pr(11500, 'Revert "Switch fbcode builds of ExecuTorch and PyTorch to fbsource sl…"', "b"),
    ]
    assert _pairs(prs)[11500].original == 11352


# ---- the naming seam ---------------------------------------------------------------------


def test_a_sha_prefix_two_prs_share_is_no_evidence() -> None:
    """executorch's #8892 and #9396 share 1a9a59b: a revert naming that prefix pairs with
    neither, whether both are in the sequence or the caller says another commit of the
    history shares it (`ambiguous`)."""
    repo = "pytorch/executorch"
    first = PullRequest(repo, 8892, "[ExecuTorch][XNNPACK] Rename linear weight partitioning flag for clarity", "", "1a9a59bd86bf167653edbd03501f5d54272821a2")  # fmt: skip
    second = PullRequest(repo, 9396, "Bump torchao + add unit tests for torchao kernels", "", "1a9a59b94491f03620dce622fee922c1d2bc1fa7")  # fmt: skip
    revert = PullRequest(repo, 99396, "Revert 1a9a59b", "This reverts commit 1a9a59b.", "7e57" * 10)
    assert _found([first, second, revert]) == {99396: ("unmatched", [], None)}
    assert _found([second, revert]) == {99396: ("sha", [9396], 9396)}
    alone = {p.position: p.how for p in pair_all([second, revert], ambiguous={"1a9a59b"})}
    assert alone == {1: "unmatched"}


def test_a_digest_takes_no_target_from_a_sha_prefix_two_commits_share(
    executorch_jsonl: Path, tmp_path: Path
) -> None:
    """`This reverts commit 1a9a59b`, landed in 2025-W12: #9396 (1a9a59b9…) is in the
    week, #8892 (1a9a59bd…) two weeks before, outside both windows the digest reads. The
    prefix names both, so the revert is told without a target and #9396 is not reverted
    (the digest once took the one it could see)."""
    records = ambiguous_revert_records(executorch_jsonl, tmp_path, "2025-03-21T12:00:00Z")
    out = tmp_path / "w12.json"
    result = run_cli(
        "--db", str(tmp_path / "s.db"), "digest", "pytorch/executorch", "--jsonl", str(records),
        "--week", "2025-W12", "--writer", "deterministic", "--format", "json", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    digest = json.loads(out.read_text())
    row = next(r for r in digest["reverts"] if r["revert"] == AMBIGUOUS_REVERT)
    assert row["reverted"] is None
    assert digest["prs"]["9396"]["reverted"] is False
    assert digest["prs"][str(AMBIGUOUS_REVERT)]["is_revert"] is True
