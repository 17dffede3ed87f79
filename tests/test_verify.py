"""Verification of model output against PR text: figures, citations, areas, markup."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from prdigest.write.digest_verifier import figure_in_text
from prdigest.write.llm.verify import (
    Theme,
    Verifier,
    extract_figures,
    extract_pr_refs,
    in_third_person,
    strip_pr_refs,
)


@pytest.fixture(scope="module")
def week(request: pytest.FixtureRequest) -> dict[int, str]:
    """Title and body of every PR that landed in executorch 2026-W07 (real data)."""
    from conftest import ET_RECORDS, real_data

    path = real_data(ET_RECORDS)
    texts = {}
    with gzip.open(Path(path), "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["number"] and "2026-02-09" <= record["committed_at"][:10] <= "2026-02-15":
                texts[record["number"]] = f"{record['title']}\n{record['body']}"
    return texts


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("achieving up to 1.4x speedups", ["1.4x"]),
        ("from $O(N^2)$ to $O(N)$", ["$O(N^2)$", "$O(N)$"]),
        ("cuts it by ~15% and from 264s to 87 seconds", ["15%", "264s", "87 seconds"]),
        ("uses 2.5 GB, 40ms and 1,000 ops, 12X faster", ["2.5 GB", "40ms", "1,000", "12X"]),
        # identifiers, versions and single digits are not claims
        ("`conv1d` on int8 Qwen3 B200 x86 MI300 sm_90 v2 K=1 in 3D", []),
        ("a [1/4] series", []),
    ],
)
def test_figures_are_found_and_identifiers_are_not(text, figures):
    assert extract_figures(text) == figures


def test_figures_match_the_way_prs_write_them():
    assert figure_in_text("1.4x", "up to 1.4 × faster")
    assert figure_in_text("O(N)", "now $O(N)$ instead of quadratic")
    assert figure_in_text("O(N^2)", "was O(N**2)")
    assert figure_in_text("264s", "took 264 seconds")
    assert figure_in_text("15%", "15 percent fewer")
    assert figure_in_text("10,000", "10000 guards")
    assert not figure_in_text("15%", "150% better")
    assert not figure_in_text("4x", "14x")
    assert not figure_in_text("1.4x", "11.4x")


def test_pr_references_in_prose_are_found_and_stripped():
    text = "Adds foo (#123, #456), see PR#7 and [PR#8](https://github.com/a/b/pull/8)."
    assert extract_pr_refs(text) == [123, 456, 7, 8]
    assert strip_pr_refs(text) == "Adds foo, see and."
    assert extract_pr_refs("`a&#39;b` costs 3") == []
    # Qwen2.5-Coder-1.5B opened a summary with its PR as a name (ao 2025-W51)
    opened = "PR_3491: Move six workflows to prototype."
    assert extract_pr_refs(opened) == [3491]
    assert strip_pr_refs(opened) == "Move six workflows to prototype."
    assert strip_pr_refs("PR_3491 moves six workflows.") == "Moves six workflows."


def test_real_figures_verify_against_the_pr_that_states_them(week):
    vad = 17375  # "Enable Silero Voice Activity Detection": states 1049.4s and 59.4%
    assert figure_in_text("1049.4s", week[vad]) and figure_in_text("59.4%", week[vad])
    others = [n for n in week if n != vad]
    assert not any(figure_in_text("1049.4s", week[n]) for n in others)


def test_theme_checks_citations_areas_figures_and_markup(week):
    areas = {n: ("LLM" if n in (17375, 17398, 17431) else "Arm") for n in week}
    verifier = Verifier(week, areas)
    # an invented PR and a real one: the invented citation goes, the theme stays
    kept = verifier.check_theme(
        Theme("LLM", "Speech", "Adds voice activity detection.", [999999, 17375])
    )
    assert kept is not None and kept.prs == [17375]
    # a figure cited to the wrong PR of the same area: the stating PR is cited too
    repaired = verifier.check_theme(
        Theme("LLM", "VAD", "It detects speech in 1049.4s of audio.", [17398])
    )
    assert repaired is not None and repaired.prs[0] == 17375 and 17398 in repaired.prs
    # an invented figure: its sentence is dropped, the rest stays
    partial = verifier.check_theme(
        Theme("LLM", "Realtime", "Adds Voxtral Realtime. It is 37x faster.", [17431])
    )
    assert partial is not None and partial.summary == "Adds Voxtral Realtime."
    # links and HTML never pass; nothing left means no theme
    assert (
        verifier.check_theme(Theme("LLM", "X", "See [here](http://evil.example).", [17431])) is None
    )
    assert verifier.check_theme(Theme("LLM", "<b>X</b>", "Fine.", [17431])) is None
    # all cited PRs in another area: the theme moves there
    moved = verifier.check_theme(Theme("LLM", "Arm things", "Formats Arm passes.", [17331]))
    assert moved is not None and moved.area == "Arm"
    tally = verifier.tally
    assert tally.dropped == {
        "cites a PR not in the window": 1,
        "figure not in the cited PRs": 1,
        "links or markup": 2,
    }
    assert tally.repaired == {
        "citation added for a figure": 1,
        "theme name taken from its sentence": 1,  # "Arm things" names nothing but the area
    }
    assert tally.summary().startswith(
        f"{tally.citations + tally.figures + tally.names} claims checked"
    )


def test_a_name_misspelt_by_one_letter_is_written_as_its_pr_writes_it():
    """qwen-1.5b wrote "MXFPR8" for `mxfp8` in every answer about ao's MX kernels."""
    texts = {
        3471: "Use python version agnostic binding for mxfp8 cuda kernels",
        3498: "Support RCEIL in triton_to_mxfp8_dim0 kernel with inline PTX",
        3500: "Add int8 and int4 paths for emulated_mxfp8_scaled_grouped_mm_2d_2d",
    }
    verifier = Verifier(texts, dict.fromkeys(texts, "MX"))
    fixed = verifier.check_theme(
        Theme("MX", "Bindings", "Uses a Python-agnostic binding for MXFPR8 CUDA kernels.", [3471])
    )
    assert fixed is not None
    assert fixed.summary == "Uses a Python-agnostic binding for mxfp8 CUDA kernels."
    assert verifier.tally.repaired == {"name respelled as its PRs write it": 1}
    # a different number, a dropped separator or an ordinary word is never respelled
    for wrong in ("Adds int5 paths.", "Adds the 2D-2D API.", "Adds the MXFP8 dim1 kernel."):
        assert verifier.check_theme(Theme("MX", "Paths", wrong, [3500])) is None, wrong


def test_a_sentence_opened_by_the_pr_opens_with_its_verb():
    """qwen-1.5b wrote "The PR uses …" under a theme heading: the bullet's subject is
    its theme, so the verb opens it, as in every other bullet."""
    texts = {3471: "Use python version agnostic binding for mxfp8 cuda kernels"}
    verifier = Verifier(texts, {3471: "MX"})
    theme = Theme(
        "MX", "Bindings", "The PR uses a python agnostic binding for mxfp8 kernels.", [3471]
    )
    kept = verifier.check_theme(theme)
    assert kept is not None and kept.summary == "Uses a python agnostic binding for mxfp8 kernels."
    # only a verb of change follows: "The patch is small" keeps its subject
    assert in_third_person("The patch is small.") == "The patch is small."
    assert in_third_person("This PR has tests.") == "This PR has tests."


def test_a_pr_the_theme_does_not_tell_of_loses_its_citation():
    """qwen-1.5b's ao 2026-W08 theme told of while_loop support and Linear+BN folding,
    and cited #3848 too (`AffineFakeQuantize`, a week's lead): its words were grounded in
    the four PRs together, so #3848 was hidden under a theme that is not its."""
    texts = {
        3907: 'Assing meta["val"] to new bias nodes in fold_bn_weights_into_conv_node.',
        3848: "Add AffineFakeQuantize for groupwise quantization support",
        3916: "Add support for `torch._higher_order_ops.while_loop` in pt2e quantization",
        3917: "Add Linear+BN folding to _fuse_conv_bn_()",
    }
    verifier = Verifier(texts, dict.fromkeys(texts, "PT2E Quantization"))
    summary = (
        "Add support for `torch._higher_order_ops.while_loop` in pt2e quantization and "
        "Linear+BN folding to `_fuse_conv_bn_`."
    )
    theme = verifier.check_theme(Theme("PT2E Quantization", "PT2E Quantization", summary, [*texts]))
    assert theme is not None and theme.prs == [3907, 3916, 3917]
    assert verifier.tally.repaired["citation of a PR the theme does not tell"] == 1
    # a theme telling of each PR it cites keeps them all
    loose = Theme("PT2E Quantization", "Groupwise folding", "Adds groupwise folding.", [3848, 3917])
    kept = verifier.check_theme(loose)
    assert kept is not None and kept.prs == [3848, 3917]


@pytest.mark.parametrize(
    ("said", "published"),
    [
        ("Add cc bot to workflows.", "Adds cc bot to workflows."),  # the 1.5B's imperative
        ("PRs enable configurable tile packing.", "Enables configurable tile packing."),
        ("Removed option to enable rope fusion.", "Removes option to enable rope fusion."),
        ("Default `pad`=False.", "Default `pad`=False."),  # no verb opens it: as written
        ("`torch.compile` works now.", "`torch.compile` works now."),
    ],
)
def test_a_models_sentence_opens_with_its_verb_in_the_third_person(said, published):
    assert in_third_person(said) == published


def test_a_takeaway_loses_its_list_of_areas_and_one_that_says_no_change_goes():
    """qwen-1.5b's takeaways for ao 2025-W44 and executorch 2026-W02: the digest names
    the week's areas itself, and "several new features and improvements" names nothing."""
    sources = [
        "Per tensor fp8 quantization support: Adds per tensor fp8 quantization support conv3d",
        "Quantize_ nn.Parameter support: Adds in support for quantizing nn.Parameters",
        "GPU support: Enables example OSS models on the GPU backend",
    ]
    verifier = Verifier({}, {})
    listed = (
        "The project added support for per tensor fp8 quantization and nn.Parameter "
        "quantization in several areas including inference mode, rank 3+, MX formats."
    )
    assert verifier.check_free_text(listed, sources, "key takeaway") == (
        "The project added support for per tensor fp8 quantization and nn.Parameter quantization."
    )
    vague = (
        "The project added several new features and improvements in various areas "
        "including GPU support for example OSS models."
    )
    assert verifier.check_free_text(vague, sources, "key takeaway") == ""
    assert verifier.tally.dropped == {"vacuous": 1}
    assert verifier.tally.repaired == {"padding clause taken out": 2}


def test_a_word_the_model_title_cased_takes_the_capitals_its_area_gives_it():
    """qwen-1.5b named an ao 2026-W11 theme "Fsdp2 Float8 …" for PRs writing FSDP2."""
    texts = {
        3628: "[ROCm] Add FSDP2 float8 tests\nRuns the FSDP2 suite on MI300",
        3995: "[ROCm] Fix capability gates in MoE distributed tests",
    }
    verifier = Verifier(texts, dict.fromkeys(texts, "ROCm"))
    theme = Theme("ROCm", "Fsdp2 float8 tests", "Adds fsdp2 float8 tests on MI300.", [3628])
    kept = verifier.check_theme(theme)
    assert kept is not None and kept.name == "FSDP2 float8 tests"
    assert kept.summary == "Adds FSDP2 float8 tests on MI300."
    assert not verifier.tally.repaired  # spelling, not a repair of what it claims
