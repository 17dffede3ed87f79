"""Analysis: title cleaning, claims, reverts, the briefs, the digest's plan and the context, on
real records."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from digest_weeks import classified, classified_inputs, iso_weeks, load, week
from prdigest.analyze import DigestContext, build_context
from prdigest.analyze.brief_types import AnnouncementKind
from prdigest.analyze.claims import find_claims, normalize
from prdigest.analyze.digest_plan import _may_lead, component_name
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
    briefs = context["briefs"]
    assert (briefs["17385"]["status"], briefs["17385"]["status_of"]) == ("revert", 17194)
    assert briefs["17194"]["status"] == "reverted"
    assert (briefs["17313"]["status"], briefs["17313"]["status_of"]) == ("reland", 17206)
    # neither the reverted change nor its revert is news: not told, not a highlight, but
    # counted among the reverts
    plan = context["plan"]
    told = {
        n for s in plan["sections"] for e in s["entries"] for n in (*e["prs"], *e["cited_with"])
    }
    assert not told & {17385, 17194}
    assert not set(plan["lead"]) & {17385, 17194}
    assert {17385, 17194} <= set(dict(plan["untold"])["reverts"])


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
    # the four parts of `Format Arm passes (group N)` are one series
    briefs = context["briefs"]
    parts = {17331, 17332, 17363, 17364}
    assert {briefs[str(n)]["series"] for n in parts} == {"format arm passes"}
    assert {int(n) for n, b in briefs.items() if b["series"] == "format arm passes"} == parts
    for claim in context["claims"]:
        assert claim["text"] in context["prs"][str(claim["pr"])]["claims"]
    # a figure a brief quotes is one its PR states
    figures = [(n, f) for n, b in briefs.items() for f in b["figures"]]
    assert figures and all(f in context["prs"][n]["claims"] for n, f in figures)
    # every PR of the window is told or counted, once; only news is told
    plan = context["plan"]
    told = [
        n for s in plan["sections"] for e in s["entries"] for n in (*e["prs"], *e["cited_with"])
    ]
    untold = [n for _, numbers in plan["untold"] for n in numbers]
    assert sorted(told + untold) == sorted(int(n) for n in context["prs"])
    assert all(briefs[str(n)]["status"] in ("landed", "reland") for n in told)
    for section in plan["sections"]:
        assert section["heading"] and section["entries"], section
        for entry in section["entries"]:
            assert all(briefs[str(n)]["what"] for n in entry["prs"])


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
    # who is new is known only against a year of history: the regulars have landed by then
    known = History(people=People.from_emails({"old@x"}), first_landed=moment - timedelta(days=400))
    context = build_context("o/r", window, items, [], history=known).as_dict()
    assert context["counts"]["prs"] == 2  # the same number landing twice counts twice
    assert context["prs"]["5"]["landings"] == 2
    assert context["counts"]["direct_pushes"] == 1
    assert context["counts"]["authors"] == 3
    assert context["first_time_authors"] == ["new", "push"]
    assert context["counts"]["first_time_authors"] == 2
    recent = History(people=People.from_emails({"old@x"}), first_landed=moment - timedelta(days=30))
    short = build_context("o/r", window, items, [], history=recent)
    assert short.first_time_authors == () and short.counts.first_time_authors == 0
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


def _sampled_weeks(path: Path) -> list[DigestContext]:
    pairs = classified(str(path), ET, False)
    return [
        build_context(ET, **classified_inputs(pairs, week(iso)))
        for iso in iso_weeks([pr for pr, _ in pairs])[::6]
    ]


def test_every_week_counts_each_pr_once_and_tells_a_series_as_one(
    executorch_jsonl: Path,
) -> None:
    """Over real weeks: each PR is told or counted, once; only news is told or leads; a
    series is one bullet (a break or a deprecation of one is told alone)."""
    for context in _sampled_weeks(executorch_jsonl):
        plan, briefs, week_of = context.plan, context.briefs, context.window.iso_week
        assert plan is not None
        told = Counter(plan.told)
        untold = Counter(n for _, numbers in plan.untold for n in numbers)
        assert sorted((told + untold).elements()) == sorted(briefs), week_of
        assert all(briefs[n].news for n in (*told, *plan.lead)), week_of
        where: dict[str, set[tuple[int, int]]] = defaultdict(set)
        for i, section in enumerate(plan.sections):
            for j, entry in enumerate(section.entries):
                for n in entry.prs:
                    brief = briefs[n]
                    if brief.series and brief.announced not in (
                        AnnouncementKind.BREAKING,
                        AnnouncementKind.DEPRECATION,
                    ):
                        where[brief.series].add((i, j))
        assert all(len(at) == 1 for at in where.values()), (week_of, where)


def _untold_components(context: DigestContext, components: list[str]) -> list[str]:
    """Of `components` (as a reader names them), those the digest tells nothing of."""
    assert context.plan is not None
    told = set(context.plan.told)
    return [
        c
        for c in components
        if not any(
            component_name(b.component) == c and b.number in told for b in context.briefs.values()
        )
    ]


def test_every_week_tells_the_components_key_takeaways_names(executorch_jsonl: Path) -> None:
    """A component Key Takeaways sends the reader to ("most of the work in (1) Arm, (2) …")
    has its news in the digest."""
    missing = {}
    for context in _sampled_weeks(executorch_jsonl):
        assert context.plan is not None
        if context.plan.grouping.value == "components":
            untold = _untold_components(context, list(context.plan.top_components))
            if untold:
                missing[context.window.iso_week] = untold
    assert not missing, missing


def test_every_week_tells_its_big_components_user_facing_news(executorch_jsonl: Path) -> None:
    """A component with five PRs or more and user-facing news of the week (a change the
    plan may tell: users see it, it is no housekeeping, it was not reverted) has at least
    one of them told (what the themes of its big areas once did)."""
    missing = {}
    for context in _sampled_weeks(executorch_jsonl):
        by_component: dict[str, list[int]] = defaultdict(list)
        for b in context.briefs.values():
            if b.component not in ("", "Other"):
                by_component[component_name(b.component)].append(b.number)
        big = [
            c
            for c, numbers in by_component.items()
            if len(numbers) >= 5
            # news the plan may tell (user-facing, not housekeeping), by its own rule
            and any(context.briefs[n].news and _may_lead(context.briefs[n]) for n in numbers)
        ]
        untold = _untold_components(context, big)
        if untold:
            missing[context.window.iso_week] = untold
    assert not missing, missing


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
