"""Analysis: title cleaning, claims, reverts, themes and the context, on real records."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime
from pathlib import Path

import pytest

from digest_weeks import classified, classified_inputs, iso_weeks, load, week
from prdigest.analyze import DigestContext, build_context
from prdigest.analyze.claims import find_claims, normalize
from prdigest.analyze.people import People
from prdigest.analyze.prior_facts import History
from prdigest.analyze.symbols import find_symbols
from prdigest.models import Classification, FileChange, PullRequest
from prdigest.reading import clean_title, pair_all, series_key
from prdigest.timeutil import Window

ET = "pytorch/executorch"
AO = "pytorch/ao"


# --- title cleaning -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "text", "tags"),
    [
        (
            "[ET-VK][qconv][ez] Make q8ta_im2col shader support stride_w != 1",
            "Make q8ta_im2col shader support stride_w != 1",
            ("ET-VK", "qconv", "ez"),
        ),
        (
            "Arm backend: Add FP16 support to operators pt.4-6",
            "Add FP16 support to operators pt.4-6",
            ("Arm backend",),
        ),
        (
            "Qualcomm AI Engine Direct - Optimize UT execution time re-submit",
            "Optimize UT execution time re-submit",
            ("Qualcomm AI Engine Direct",),
        ),
        (
            "Add aten::_conj_physical.out operator (#17207)",
            "Add aten::_conj_physical.out operator",
            (),
        ),
        (
            "1/x: add LoadBackendOptionsMap for backend options routing",
            "Add LoadBackendOptionsMap for backend options routing",
            ("1/x",),
        ),
        ("[mxfp8 moe training][docs] add tutorial", "Add tutorial", ("mxfp8 moe training", "docs")),
        ("[BE]", "[BE]", ("BE",)),
    ],
)
def test_clean_title_strips_tags_prefixes_and_pr_numbers(
    title: str, text: str, tags: tuple[str, ...]
) -> None:
    cleaned = clean_title(title)
    assert cleaned.text == text
    assert cleaned.tags == tags


def test_series_key_ignores_part_markers() -> None:
    assert series_key("Format Arm passes (group 3)") == series_key("Format Arm passes (group 6)")
    assert series_key("Add FP16 support to operators pt.4-6") == series_key(
        "Add FP16 support to operators pt.7"
    )


def test_symbols_are_code_not_prose() -> None:
    found = find_symbols(
        "Use is_int8_activations in RemoveNoopPass via torch.compile() and backends/arm/_passes, e.g. for ExecuTorch fp16/bf16"
    )
    assert found == [
        "is_int8_activations",
        "RemoveNoopPass",
        "torch.compile()",
        "backends/arm/_passes",
    ]
    assert find_symbols("Add support for `aten.neg.default`.") == ["aten.neg.default"]


# --- claims ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Optimize _get_param_to_fqns from O(N^2) to O(N)", "O(N^2) to O(N)"),
        ("Build time goes from 264s to 87s on CI.", "264s to 87s"),
        ("This gives up to 1.4x speedups for small sizes.", "1.4x"),
        ("Outperforms the unsqueeze strategy by ~15% on conv1d latency.", "~15%"),
        ("The runner saves ~66.16 MB of DDR.", "saves ~66.16 MB"),
    ],
)
def test_claims_are_found_verbatim(text: str, expected: str) -> None:
    claims = find_claims("A title", text)
    assert claims and expected in claims[0]
    assert claims[0] in normalize(text)


@pytest.mark.parametrize(
    "body",
    [
        "Differential Revision: D92208958 (50% of it)",
        "### Test plan\nRan it: 2x faster on my machine\n",
        "```\nspeedup 3.5x\n```",
        "Bump to Python 3.11 and CUDA 12.8",
        "Run on 8x H100 machines for the perf job",
        "Use a 2x2 tile; 0x1F mask",
        "100% of the tests pass",
        "cc @someone 10x faster",
        "Stack from [ghstack]:\n* #17306\n* __->__ #17330",
    ],
)
def test_boilerplate_versions_and_sizes_are_not_claims(body: str) -> None:
    assert find_claims("Update things", body) == []


@pytest.mark.whole_history("over 100 claims, from every record")
def test_every_claim_in_the_real_data_is_verbatim(executorch_jsonl: Path, ao_jsonl: Path) -> None:
    found = 0
    for path, repo in ((executorch_jsonl, ET), (ao_jsonl, AO)):
        for pr in load(str(path), repo):
            for claim in find_claims(pr.title, pr.body):
                found += 1
                assert claim in normalize(pr.title) or claim in normalize(pr.body), (
                    pr.number,
                    claim,
                )
    assert found > 100


# --- reverts and relands on real weeks ------------------------------------------------


def _context(path: Path, repo: str, iso: str) -> dict:
    built = build_context(repo, **classified_inputs(classified(str(path), repo, False), week(iso)))
    return built.as_dict()


def test_reverts_are_paired_and_reverted_prs_are_no_highlight(executorch_jsonl: Path) -> None:
    context = _context(executorch_jsonl, ET, "2026-W07")
    pairs = {row["revert"]: row for row in context["reverts"]}
    assert pairs[17385]["reverted"] == 17194 and pairs[17385]["reverted_in_window"]
    assert pairs[17385]["title"] == "Fix KeyError in InsertIOQDQ pass for LLM quantization"
    assert context["counts"]["reverts"] == len(context["reverts"]) == 2
    relands = {row["reland"]: row for row in context["relands"]}
    assert relands[17313]["relanded"] == 17206
    cited = {n for area in context["areas"] for theme in area["themes"] for n in theme["members"]}
    assert not cited & {17385, 17194, 17313}
    assert not set(context["notable"]) & {17385, 17194}


def test_a_prose_revert_is_partial_and_leaves_its_target_standing(
    executorch_jsonl: Path,
) -> None:
    # #17407 "Reverts the addition of `RemoveNoopPass`… (introduced in #17300)" takes one
    # pass out of #17300: neither the digest nor the release notes call #17300 reverted,
    # and classification reads #17407 as any change (no `kind/revert`).
    context = _context(executorch_jsonl, ET, "2026-W07")
    assert 17407 not in {row["revert"] for row in context["reverts"]}
    assert 17300 not in {row["reverted"] for row in context["reverts"]}
    assert not context["prs"]["17300"]["reverted"] and not context["prs"]["17407"]["is_revert"]
    assert context["prs"]["17407"]["kind"] == "improvements"


@pytest.mark.parametrize(
    ("iso_week", "reverted"),
    [
        ("2026-W07", {17194}),
        # `Revert #13526 and #13640`: both, not the first only (#13526 then landed again)
        ("2025-W35", {13640}),
        ("2026-W17", {19099, 19124, 19092, 19028, 18669}),  # `Revert Android PRs #…, #…`
    ],
)
def test_digest_and_release_notes_agree_on_what_was_reverted(
    executorch_jsonl: Path, iso_week: str, reverted: set[int]
) -> None:
    context = _context(executorch_jsonl, ET, iso_week)
    prs = sorted(
        (pr for pr in load(str(executorch_jsonl), ET) if week(iso_week).contains(pr.merged_at)),
        key=lambda pr: (pr.merged_at, pr.sha or "", pr.number or 0),
    )
    shared_reverted = {
        prs[t].number
        for pairing in pair_all(prs)
        if not pairing.relands and not pairing.nested
        for t in pairing.targets
    }
    digest_reverted = {int(n) for n, row in context["prs"].items() if row["reverted"]}
    assert digest_reverted == shared_reverted and reverted <= digest_reverted


def test_revert_then_reland_in_the_same_week(ao_jsonl: Path) -> None:
    context = _context(ao_jsonl, AO, "2026-W07")
    pairs = {row["revert"]: row for row in context["reverts"]}
    assert pairs[3849]["reverted"] == 3818 and pairs[3849]["relanded_by"] == 3859
    assert pairs[3875]["reverted"] == 3807 and pairs[3875]["relanded_by"] is None


def test_a_reland_before_a_revert_does_not_reland_it(ao_jsonl: Path) -> None:
    # #2079 landed, `Revert D73201409` (#2105), `Revert "Revert D73201409"` (#2106), then
    # the same revert landed again under the same number: that one stays out.
    context = _context(ao_jsonl, AO, "2025-W17")
    rows = [row for row in context["reverts"] if row["revert"] == 2105]
    assert [(row["reverted"], row["relanded_by"]) for row in rows] == [(2079, 2106), (2079, None)]


# --- the context ----------------------------------------------------------------------


def test_context_counts_areas_series_and_figures(executorch_jsonl: Path) -> None:
    context = _context(executorch_jsonl, ET, "2026-W07")
    raw = [pr for pr in load(str(executorch_jsonl), ET) if week("2026-W07").contains(pr.merged_at)]
    assert context["counts"]["prs"] == sum(1 for pr in raw if pr.number is not None) == 84
    assert context["counts"]["direct_pushes"] == 8 == len(context["direct_pushes"])
    assert sum(a["count"] for a in context["areas"]) == context["counts"]["prs"]
    assert set(context["prs"]) == {str(pr.number) for pr in raw if pr.number is not None}
    counts = [a["count"] for a in context["areas"]]
    assert counts == sorted(counts, reverse=True)
    series = [t for a in context["areas"] for t in a["themes"] if t["series"]]
    assert any(set(t["members"]) >= {17331, 17332, 17363, 17364} for t in series), series
    for claim in context["claims"]:
        assert claim["text"] in context["prs"][str(claim["pr"])]["claims"]
    for area in context["areas"]:
        for theme in area["themes"]:
            assert theme["more"] == len(theme["members"]) - len(theme["prs"])
            assert set(theme["prs"]) <= set(theme["members"]) <= set(area["prs"])
            assert theme["sentence"].endswith(".")
            # a single PR's sentence stands alone, without a name
            assert theme["kind"] != "single" or theme["name"] == "", theme


def test_context_is_json_and_deterministic(executorch_jsonl: Path) -> None:
    first = _context(executorch_jsonl, ET, "2025-W37")
    second = _context(executorch_jsonl, ET, "2025-W37")
    assert json.loads(json.dumps(first)) == first
    assert json.dumps(first, sort_keys=False) == json.dumps(second, sort_keys=False)


def test_input_order_does_not_change_the_context(executorch_jsonl: Path) -> None:
    inputs = classified_inputs(classified(str(executorch_jsonl), ET, False), week("2026-W07"))
    forward = build_context(ET, **inputs)
    inputs["items"] = list(reversed(inputs["items"]))
    inputs["previous"] = list(reversed(inputs["previous"]))
    assert build_context(ET, **inputs) == forward


def test_first_time_authors_and_duplicate_numbers() -> None:
    moment = datetime(2026, 2, 10, 12, tzinfo=UTC)
    cls = Classification("Runtime", "improvements", "test", "test")

    def pr(number: int | None, email: str, sha: str, title: str = "Add a thing") -> PullRequest:
        return PullRequest(
            repo="o/r",
            number=number,
            title=title,
            sha=sha,
            author_email=email,
            author_name=email.split("@")[0],
            merged_at=moment,
            files=(FileChange("runtime/core/a.cpp", 3, 1),),
        )

    items = [(pr(5, "old@x", "a"), cls), (pr(5, "new@x", "b"), cls), (pr(None, "push@x", "c"), cls)]
    window = Window(moment.date(), moment.date())
    known = History(people=People.from_emails({"old@x"}))
    context = build_context("o/r", window, items, [], history=known).as_dict()
    assert context["counts"]["prs"] == 2  # the same number landing twice counts twice
    assert context["prs"]["5"]["landings"] == 2
    assert context["counts"]["direct_pushes"] == 1
    assert context["counts"]["authors"] == 3
    assert context["first_time_authors"] == ["new", "push"]
    assert context["window"] == {
        "start": "2026-02-10",
        "end": "2026-02-10",
        "label": "20260210-20260210",
        "iso_week": None,
        "days": 1,
    }


def test_empty_window_gives_an_empty_context() -> None:
    context = build_context("o/r", week("2026-W07"), [], []).as_dict()
    assert context["counts"]["prs"] == 0 and context["areas"] == [] and context["prs"] == {}
    assert context["title"] == "Analysis of Pull Requests for o/r during 20260209-20260215"


def test_every_week_has_themes_for_its_big_areas(executorch_jsonl: Path) -> None:
    pairs = classified(str(executorch_jsonl), ET, False)
    for iso in iso_weeks([pr for pr, _ in pairs])[::6]:
        context = build_context(ET, **classified_inputs(pairs, week(iso))).as_dict()
        for area in context["areas"]:
            if area["count"] >= 5:
                assert area["themes"], (iso, area["name"])


def test_the_context_is_typed_frozen_and_round_trips_through_its_json(
    executorch_jsonl: Path,
) -> None:
    """The writers read a `DigestContext` that no stage can edit after it is built; its
    JSON form (`--format json`, the store) reads back as the same object."""
    built = build_context(
        ET, **classified_inputs(classified(str(executorch_jsonl), ET, False), week("2026-W07"))
    )
    assert isinstance(built, DigestContext) and isinstance(built.areas, tuple)
    with pytest.raises(FrozenInstanceError):
        built.counts.prs = 0  # type: ignore[misc]
    data = built.as_dict()
    assert set(data["prs"]) == {str(n) for n in built.prs}
    assert "llm" not in data and "merged" not in data["counts"]  # only where they were given
    assert DigestContext.from_dict(json.loads(json.dumps(data))) == built
