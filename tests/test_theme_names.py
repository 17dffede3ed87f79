"""Themes worth reading (issue 13): a theme's name is a noun phrase that says what its PRs
share, never restated by its own sentence, never a lone generic word, a cut phrase or a
series marker; a single PR has no name. On real titles of executorch and ao."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from digest_weeks import classified, classified_inputs, iso_weeks, load, week
from prdigest.analyze import build_context
from prdigest.analyze.english import as_clause
from prdigest.analyze.items import build_item, inverse_document_frequency
from prdigest.analyze.name_choice import restates, tidy_name
from prdigest.analyze.themes import area_themes
from prdigest.models import Classification, PullRequest

ET = "pytorch/executorch"
AO = "pytorch/ao"
_SERIES_MARKER = re.compile(r"(?i)\b(?:pr)?\d+\s*/\s*(?:\d+|n|x)\b|\b(?:part|pt)\.?\s*\d+\b")
_CUT_ENDINGS = set("a an the of to for in on at with and or by from into as".split())


@pytest.mark.parametrize(
    ("name", "tidy"),
    [
        ("PR2/N — Static attention", "Static attention"),
        ("[3/5] Quantized linear", "Quantized linear"),
        ("Fix stale docgen generation pt.2", "Fix stale docgen generation"),
        ("Experimental folder deprecation part 2/x", "Experimental folder deprecation"),
        ("Check if portable/optimized in", "Check if portable/optimized"),
        ("Tensor wrap an", "Tensor wrap"),
        ("Arm passes (`backends/arm/_passes`)", "Arm passes (`backends/arm/_passes`)"),
        ("TOSA", "TOSA"),
        # a lone generic word names nothing
        ("None", ""),
        ("Other", ""),
        ("Configurable", ""),
        ("Fixes", ""),
        ("Updates", ""),
        ("Support", ""),
        ("Cleanup", ""),
        ("Tests", ""),
        ("Refactoring", ""),
    ],
)
def test_a_name_is_tidied_or_dropped(name: str, tidy: str) -> None:
    assert tidy_name(name) == tidy


def test_restated_is_word_for_word_at_the_start() -> None:
    assert restates("GA Static", "GA Static Gemma3-1B.")
    assert restates("Objective-C wrapper", "Objective-C wrapper for multimodal LLM runner.")
    assert restates("`setup.sh` refactor", "setup.sh refactor of the paths.")  # ticks aside
    assert not restates("GA", "GAN support.")  # a word, not a prefix of one
    assert not restates("VGF", "Moves vgf files to own folder.")


@pytest.mark.parametrize(
    ("title", "clause"),
    [
        ("Adding QNN backend support for isInf core ATen op", "adds QNN backend support for"),
        ("Updated the comparison logic", "updates the comparison logic"),
        ("Support for all quantized linear ops", "adds support for all quantized linear ops"),
        ("Padding support for conv", "Padding support for conv"),  # a noun, not a verb
        ("Fused quant add Tensor kernel", "Fused quant add Tensor kernel"),
    ],
)
def test_titles_read_as_clauses(title: str, clause: str) -> None:
    assert as_clause(title).startswith(clause)


@cache
def _prs(path: str, repo: str) -> dict[int, PullRequest]:
    return {pr.number: pr for pr in load(path, repo) if pr.number is not None}


def _themes(path: Path, repo: str, area: str, numbers: list[int]):  # type: ignore[no-untyped-def]
    prs = _prs(str(path), repo)
    items = [build_item(prs[n], Classification(area, "improvements", "t", "t")) for n in numbers]
    idf = inverse_document_frequency([it.terms for it in items])
    return area_themes(items, idf, 4, area)


def _theme_of(
    path: Path, repo: str, iso: str, number: int, *, history: bool = True
) -> dict[str, Any]:
    """The theme holding PR `number` in the week's digest context (product classifier)."""
    inputs = classified_inputs(classified(str(path), repo, True), week(iso))
    if not history:
        inputs.pop("history")
    context = build_context(repo, **inputs).as_dict()
    return next(t for a in context["areas"] for t in a["themes"] if number in t["members"])


def test_titles_that_open_with_the_name_list_what_follows_it(executorch_jsonl: Path) -> None:
    # 2025-W37: `Qualcomm AI Engine Direct - GA Static Gemma3-1B`, `… - GA Static Smollm3 3B`,
    # `… - Improve GA Qwen 2.5` (was "**GA Static:** GA Static Gemma3-1B")
    # (read without the store's history: with it, #14149 leads the new
    # `examples/models/smollm3/` and no theme tells it again)
    theme = _theme_of(executorch_jsonl, ET, "2025-W37", 14108, history=False)
    assert theme["name"] == "GA Static"
    # what follows the name, in the order the PRs rank (not the name again)
    assert sorted(theme["sentence"].rstrip(".").split(" and ")) == ["Gemma3-1B", "Smollm3 3B"]


def test_a_term_is_named_as_the_titles_write_it(executorch_jsonl: Path) -> None:
    # `Move vgf files to own folder`, `Remove _vgf_ op pytest xfails`, `Forward fix for VGF
    # refactoring` (was "**Vgf files move:**")
    assert _theme_of(executorch_jsonl, ET, "2025-W37", 14116)["name"] == "VGF"


def test_a_single_pr_has_no_name(executorch_jsonl: Path) -> None:
    # was "**Objective-C wrapper:** Objective-C wrapper for multimodal LLM runner"
    (theme,) = _themes(executorch_jsonl, ET, "LLM", [14075])
    assert theme.name == ""
    assert theme.sentence == "Objective-C wrapper for multimodal LLM runner."
    assert theme.topic  # the Summary Table still has a phrase for it


def test_template_names_keep_the_titles_words(executorch_jsonl: Path) -> None:
    (theme,) = _themes(executorch_jsonl, ET, "Kernels", [7766, 7899])[:1]
    assert theme.name == "Half/BFloat16 support"  # not `Half bfloat# support`


@pytest.mark.whole_history("every week, over 100 themes")
@pytest.mark.parametrize(("fixture", "repo"), [("executorch_jsonl", ET), ("ao_jsonl", AO)])
def test_every_theme_of_every_week_reads_as_a_name(
    fixture: str, repo: str, request: pytest.FixtureRequest
) -> None:
    path = request.getfixturevalue(fixture)
    pairs = classified(str(path), repo, False)
    named = 0
    for iso in iso_weeks([pr for pr, _ in pairs]):
        context = build_context(repo, **classified_inputs(pairs, week(iso))).as_dict()
        for area in context["areas"]:
            for theme in area["themes"]:
                name, where = theme["name"], (iso, area["name"], theme)
                if theme["kind"] == "single":
                    assert name == "", where  # its sentence stands alone
                if not name:
                    continue  # several PRs whose every name would be restated
                named += 1
                # read here without the product's own rules (lone generic words and
                # restated names are the editorial sweep's, tests/test_editorial.py)
                assert not _SERIES_MARKER.search(name), where
                assert name.split()[-1].lower().strip("`") not in _CUT_ENDINGS, where
    assert named > 100
