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
    strip_pr_refs,
)


@pytest.fixture(scope="module")
def week(request: pytest.FixtureRequest) -> dict[int, str]:
    """Title and body of every PR that landed in executorch 2026-W07 (real data)."""
    from conftest import SHARED_DATA

    path = SHARED_DATA / "pytorch__executorch" / "prs.jsonl.gz"
    if not path.exists():
        pytest.skip(f"real data not available: {path} is absent (set PRDIGEST_SHARED_DATA)")
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
