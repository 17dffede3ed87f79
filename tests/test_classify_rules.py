"""Rules engine, built-in profiles, user overrides and the generic profile, on real records."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from prdigest.classify import (
    ModelPrediction,
    Profile,
    builtin_profile_names,
    load_profile,
    parse_title,
    profile_for,
)
from prdigest.classify.globs import compile_globs
from prdigest.config import Config, load_config
from prdigest.errors import ConfigError
from prdigest.kinds import KINDS
from prdigest.models import FileChange, PullRequest
from prdigest.reading import pair_all
from prdigest.sources.jsonl import read_jsonl
from prdigest.sources.records import parse_record

_PARSED: dict[Path, list[PullRequest]] = {}


def _records(path: Path, repo: str) -> list[PullRequest]:
    if path not in _PARSED:  # parse each file once per test session
        _PARSED[path] = [
            parse_record(raw, repo, "jsonl", f"{path}:{line}") for line, raw in read_jsonl(path)
        ]
    return _PARSED[path]


@pytest.fixture
def executorch_prs(executorch_jsonl: Path) -> list[PullRequest]:
    return _records(executorch_jsonl, "pytorch/executorch")


@pytest.fixture
def ao_prs(ao_jsonl: Path) -> list[PullRequest]:
    return _records(ao_jsonl, "pytorch/ao")


def _by_number(prs: list[PullRequest], number: int) -> PullRequest:
    found = [pr for pr in prs if pr.number == number]
    assert len(found) == 1, f"expected one record for #{number}, got {len(found)}"
    return found[0]


def _write_config(tmp_path: Path, text: str) -> Config:
    path = tmp_path / "prdigest.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(str(path))


# ---- built-in profiles on all real records --------------------------------------------------------
@pytest.mark.parametrize(
    ("repo", "fixture"),
    [
        ("pytorch/executorch", "executorch_prs"),
        pytest.param(
            "pytorch/ao", "ao_prs", marks=pytest.mark.whole_history("every record, 15 areas")
        ),
    ],
)
def test_builtin_profile_gives_specific_area_to_95_percent(
    repo: str, fixture: str, request: pytest.FixtureRequest
) -> None:
    prs = request.getfixturevalue(fixture)
    profile = profile_for(repo, Config())
    results = profile.classify_all(prs)
    assert len(results) == len(prs)
    areas = Counter(result.area for result in results)
    specific = 1 - areas["Other"] / len(prs)
    assert specific >= 0.95, f"{repo}: only {specific:.1%} specific; {areas.most_common()}"
    # The profile's areas are really used: no area with zero PRs among the big ones.
    assert len([name for name, count in areas.items() if count >= 10]) >= 15
    rule_id = re.compile(
        rf"^{profile.name}/area/[^/]+(/[^/]+)?/(label|title_tag|title_prefix|paths|paths_over_tag|title_pattern|default)$"
    )
    kind_id = re.compile(
        rf"^{profile.name}/kind/(revert|[a-z_]+/(label|title_tag|prefix|breaking_marker|paths|wording|default))$"
    )
    for pr, result in zip(prs, results, strict=True):
        assert rule_id.match(result.area_rule), (pr.title, result.area_rule)
        assert kind_id.match(result.kind_rule), (pr.title, result.kind_rule)
        assert result.kind in KINDS
        assert result.area in profile.area_names()
        assert result.profile == profile.name


@pytest.mark.whole_history("every kind rule on 300 records")
def test_every_kind_rule_source_is_used_on_executorch(executorch_prs: list[PullRequest]) -> None:
    results = profile_for("pytorch/executorch", Config()).classify_all(executorch_prs)
    evidence = Counter(result.kind_rule.rsplit("/", 1)[-1] for result in results)
    for source in ("revert", "title_tag", "prefix", "paths", "wording", "default"):
        assert evidence[source] > 0, evidence
    kinds = Counter(result.kind for result in results)
    assert kinds["bug_fixes"] > 300 and kinds["new_features"] > 300 and kinds["docs"] > 100


# ---- evidence order on real records -----------------------------------------------------------------
def test_title_tag_and_paths_agree_on_vulkan(executorch_prs: list[PullRequest]) -> None:
    pr = _by_number(executorch_prs, 7482)  # [ET-VK][ez] … ; only backends/vulkan/**
    result = profile_for("pytorch/executorch", Config()).classify(pr)
    assert (result.area, result.area_rule) == (
        "Backends: Vulkan",
        "executorch/area/Backends: Vulkan/title_tag",
    )


def test_tag_yields_when_another_specific_area_owns_every_file(
    executorch_prs: list[PullRequest],
) -> None:
    profile = profile_for("pytorch/executorch", Config())
    # `[ET-VK]` but the only files are in backends/transforms (shared by all backends).
    result = profile.classify(_by_number(executorch_prs, 17430))
    assert (result.area, result.area_rule) == (
        "Backends: Common",
        "executorch/area/Backends: Common/paths_over_tag",
    )
    # `[Windows]` (Build/CI) on a Vulkan source file: the code's owner wins.
    assert profile.classify(_by_number(executorch_prs, 8912)).area == "Backends: Vulkan"


def test_tag_wins_over_ci_and_docs_only_paths(executorch_prs: list[PullRequest]) -> None:
    profile = profile_for("pytorch/executorch", Config())
    nxp_ci = profile.classify(
        _by_number(executorch_prs, 12486)
    )  # NXP Backend: … only .github/workflows
    assert (nxp_ci.area, nxp_ci.area_rule) == (
        "Backends: NXP",
        "executorch/area/Backends: NXP/title_prefix",
    )
    assert nxp_ci.kind == "not_user_facing"  # CI-only paths
    samsung = profile.classify(
        _by_number(executorch_prs, 14404)
    )  # [samsung] … only .ci + workflows
    assert samsung.area == "Backends: Samsung"


def test_several_tags_are_settled_by_the_paths(executorch_prs: list[PullRequest]) -> None:
    profile = profile_for("pytorch/executorch", Config())
    # [Executorch][Recipes][Coreml]: recipes → EXIR, coreml → Apple; the files are Core ML's.
    assert profile.classify(_by_number(executorch_prs, 13121)).area == "Backends: Apple"
    # A leading `Qualcomm AI Engine Direct -` prefix comes before a later `[Multimodal]` tag.
    assert profile.classify(_by_number(executorch_prs, 18740)).area == "Backends: Qualcomm"


def test_revert_and_reland(executorch_prs: list[PullRequest]) -> None:
    profile = profile_for("pytorch/executorch", Config())
    revert = profile.classify(_by_number(executorch_prs, 9376))  # Revert "Arm backend: …"
    assert (revert.area, revert.kind, revert.kind_rule) == (
        "Backends: Arm",
        "not_user_facing",
        "executorch/kind/revert",
    )
    reland = profile.classify(_by_number(executorch_prs, 21030))  # Reland "Arm backend: Add …" v2
    assert reland.area == "Backends: Arm"
    assert (reland.kind, reland.kind_rule) == (
        "new_features",
        "executorch/kind/new_features/wording",
    )


def test_evidence_precedence_label_tag_paths_pattern_default(
    executorch_prs: list[PullRequest],
) -> None:
    profile = profile_for("pytorch/executorch", Config())
    base = _by_number(executorch_prs, 7482)  # [ET-VK] title, Vulkan files
    labelled = replace(base, labels=("module: xnnpack",))
    assert profile.classify(labelled).area_rule == "executorch/area/Backends: XNNPACK/label"
    two_labels = replace(base, labels=("module: xnnpack", "partner: arm", "ciflow/trunk"))
    assert profile.classify(two_labels).area == "Backends: Arm"  # earliest rule, not label order
    ci_trigger_only = replace(base, labels=("ciflow/trunk",))  # a CI trigger says nothing
    assert (
        profile.classify(ci_trigger_only).area_rule == "executorch/area/Backends: Vulkan/title_tag"
    )
    untagged = replace(base, title="Fix undefined behaviour in ParamsBuffer")
    assert profile.classify(untagged).area_rule == "executorch/area/Backends: Vulkan/paths"
    no_files = replace(untagged, files=(), title="Speed up the Ethos-U55 compile")
    assert profile.classify(no_files).area_rule == "executorch/area/Backends: Arm/title_pattern"
    nothing = replace(no_files, title="Tidy things up")
    result = profile.classify(nothing)
    assert (result.area, result.area_rule, result.confidence) == (
        "Other",
        "executorch/area/Other/default",
        0.0,
    )


def test_kind_precedence(executorch_prs: list[PullRequest]) -> None:
    profile = profile_for("pytorch/executorch", Config())
    base = replace(_by_number(executorch_prs, 7482), title="Add a conv kernel for int4")
    assert profile.classify(base).kind_rule == "executorch/kind/new_features/wording"
    assert (
        profile.classify(replace(base, title="perf: add a conv kernel for int4")).kind_rule
        == "executorch/kind/performance/prefix"
    )
    assert (
        profile.classify(replace(base, title="[BE] add a conv kernel for int4")).kind
        == "not_user_facing"
    )
    assert profile.classify(replace(base, title="feat!: drop the old API")).kind == "bc_breaking"
    labelled = replace(base, title="[BE] add a conv kernel for int4", labels=("topic: bug fixes",))
    assert profile.classify(labelled).kind_rule == "executorch/kind/bug_fixes/label"
    docs_only = replace(base, files=(FileChange("docs/source/index.md", 3, 1),))
    assert profile.classify(docs_only).kind_rule == "executorch/kind/docs/paths"
    real_fix = profile.classify(
        _by_number(executorch_prs, 15289)
    )  # "fix: alert users that darwin …"
    assert real_fix.kind_rule == "executorch/kind/bug_fixes/prefix"


def test_ao_platform_tags_are_cross_cutting(ao_prs: list[PullRequest]) -> None:
    profile = profile_for("pytorch/ao", Config())
    results = {pr.number: profile.classify(pr) for pr in ao_prs if pr.number in (3376, 2351, 3128)}
    assert (
        results[3376].area == "XPU"
    )  # [xpu][test] port dtype tests: XPU work in Quantization's files
    assert results[2351].area == "Quantization"  # [float8] tag, only torchao/dtypes/floatx
    assert (
        results[3128].area == "MX / NVFP4 Formats"
    )  # [mxfp8 moe training] kernel under mx_formats


# ---- profiles, user overrides and config errors -----------------------------------------------------
def test_profile_selection(tmp_path: Path) -> None:
    assert {"executorch", "ao", "generic"} <= set(builtin_profile_names())
    assert profile_for("pytorch/executorch", Config()).name == "executorch"
    assert profile_for("pytorch/ao", Config()).name == "ao"
    assert profile_for("someone/unknown", Config()).name == "generic"
    assert profile_for("pytorch/executorch", Config(), "ao").name == "ao"
    config = _write_config(tmp_path, '[repos."me/fork"]\nprofile = "executorch"\n')
    assert profile_for("me/fork", config).name == "executorch"
    assert load_profile("ao").name == "ao"
    names = profile_for("pytorch/executorch", Config()).area_names()
    assert names[:2] == ["Backends: Arm", "Backends: Cortex-M"] and names[-1] == "Other"
    assert "Ethos-U" in profile_for("pytorch/executorch", Config()).area_description(
        "Backends: Arm"
    )


def test_user_rules_go_in_front(tmp_path: Path, executorch_prs: list[PullRequest]) -> None:
    config = _write_config(
        tmp_path,
        """
[repos."pytorch/executorch"]
[[repos."pytorch/executorch".areas]]
name = "Arm: Ethos-U"
description = "Ethos-U NPU work"
title_patterns = ['(?i)\\bethos']
title_tags = ["et vk"]

[[repos."pytorch/executorch".kinds]]
kind = "Developers"
title_patterns = ['(?i)^fix undefined']
""",
    )
    profile = profile_for("pytorch/executorch", config)
    vulkan = profile.classify(
        _by_number(executorch_prs, 7482)
    )  # [ET-VK][ez] Fix undefined behaviour …
    assert (vulkan.area, vulkan.area_rule) == ("Arm: Ethos-U", "config/area/Arm: Ethos-U/title_tag")
    assert (vulkan.kind, vulkan.kind_rule) == ("devs", "config/kind/devs/wording")
    assert profile.area_names()[-2:] == ["Arm: Ethos-U", "Other"]
    assert profile.area_description("Arm: Ethos-U") == "Ethos-U NPU work"
    # Rules the user did not override still apply.
    assert profile.classify(_by_number(executorch_prs, 12486)).area == "Backends: NXP"


def test_config_errors_are_collected_with_lines(tmp_path: Path) -> None:
    config = _write_config(
        tmp_path,
        """
[repos."pytorch/executorch"]
profile = "executorchh"

[[repos."pytorch/executorch".areas]]
name = "Broken"
title_patterns = ['(unclosed']
pathz = ["x/**"]

[[repos."pytorch/executorch".kinds]]
kind = "bugfixes_and_more"
""",
    )
    with pytest.raises(ConfigError) as caught:
        profile_for("pytorch/executorch", config)
    message = str(caught.value)
    assert message.startswith(str(tmp_path / "prdigest.toml"))
    assert "4 classification rule errors" in message
    assert (
        "unknown profile 'executorchh'; known profiles: ao, executorch, generic"
        in message.replace("pytorch, ", "")
    )
    assert "bad regex '(unclosed'" in message and "(line 7)" in message
    assert "unknown key `pathz`" in message and "(line 8)" in message
    assert "unknown kind 'bugfixes_and_more'" in message and "(line 11)" in message


def test_unknown_profile_by_name() -> None:
    with pytest.raises(
        ConfigError,
        match=r"unknown profile 'nope' \(--profile\) — use one of .*executorch.*generic",
    ):
        profile_for("pytorch/executorch", Config(), "nope")


def test_profile_from_a_toml_file(tmp_path: Path, executorch_prs: list[PullRequest]) -> None:
    (tmp_path / "mine.toml").write_text(
        'name = "mine"\nrepos = ["me/x"]\ndefault_area = "Misc"\n'
        '[[areas]]\nname = "Vulkan"\npaths = ["backends/vulkan/**"]\n',
        encoding="utf-8",
    )
    config = _write_config(tmp_path, '[repos."pytorch/executorch"]\nprofile = "mine.toml"\n')
    profile = profile_for("pytorch/executorch", config)
    assert profile.name == "mine"
    assert profile.classify(_by_number(executorch_prs, 7482)).area_rule == "mine/area/Vulkan/paths"
    assert profile.classify(_by_number(executorch_prs, 12486)).area == "Misc"


# ---- the generic profile --------------------------------------------------------------------------
@pytest.mark.whole_history("every record's paths")
def test_generic_profile_on_executorch_layout(executorch_prs: list[PullRequest]) -> None:
    profile = profile_for("someone/unknown", Config())
    results = profile.classify_all(executorch_prs)
    areas = Counter(result.area for result in results)
    no_files = sum(1 for pr in executorch_prs if not pr.files)
    assert areas["Other"] <= no_files  # only PRs that touch no file may stay unplaced
    for expected in (
        "Backends: Arm",
        "Backends: Vulkan",
        "Backends: Qualcomm",
        "Kernels",
        "Runtime",
        "Build/CI",
        "Docs",
    ):
        assert areas[expected] > 50, (expected, areas.most_common())
    assert all(result.area_rule.startswith("generic/area/") for result in results)
    assert profile.area_names()[0] == "Backends: Arm"  # busiest first


@pytest.mark.whole_history("over 100 test files mirrored")
def test_generic_profile_mirrors_tests_onto_components(ao_prs: list[PullRequest]) -> None:
    profile = profile_for("someone/unknown", Config())
    results = profile.classify_all(ao_prs)
    areas = Counter(result.area for result in results)
    assert areas["Other"] / len(ao_prs) < 0.01
    assert areas["Prototype: MX Formats"] > 100 and areas["Prototype: MoE Training"] > 100
    # A PR changing MX code and its tests under test/prototype/mx_formats is the
    # component's, whichever has more lines; one of tests only is filed with CI.
    mx = ("test/prototype/mx_formats/", "torchao/prototype/mx_formats/")
    both = [
        result
        for pr, result in zip(ao_prs, results, strict=True)
        if pr.files
        and all(f.path.startswith(mx) and f.path.endswith(".py") for f in pr.files)
        and {f.path.startswith(mx[0]) for f in pr.files} == {True, False}
        and sum(f.additions + f.deletions for f in pr.files if f.path.startswith(mx[0]))
        > sum(f.additions + f.deletions for f in pr.files if f.path.startswith(mx[1]))
    ]
    assert both and all(result.area == "Prototype: MX Formats" for result in both)
    test_only = [
        result
        for pr, result in zip(ao_prs, results, strict=True)
        if pr.files and all(f.path.startswith(mx[0]) for f in pr.files)
    ]
    by_paths = [r for r in test_only if r.area_rule.endswith("/paths")]
    assert by_paths and all(result.area == "Build/CI" for result in by_paths)


def test_generic_profile_on_a_small_window(executorch_prs: list[PullRequest]) -> None:
    window = executorch_prs[-200:]
    results = profile_for("someone/unknown", Config()).classify_all(window)
    areas = Counter(result.area for result in results)
    assert areas["Other"] <= sum(1 for pr in window if not pr.files)
    assert areas.most_common(1)[0][0] == "Backends: Arm"


# ---- titles, globs and the model seam ------------------------------------------------------------------
def test_parse_title() -> None:
    info = parse_title("[ET-VK][1/n] Add foo (#123)")
    assert (info.tags, info.series, info.clean) == (("et vk",), "1/n", "Add foo")
    info = parse_title('Revert "Reland \\"[Arm] x\\""')
    assert info.revert_of is not None and info.reland
    info = parse_title("Qualcomm AI Engine Direct - GA Static Gemma")
    assert (info.prefix, info.clean) == ("qualcomm ai engine direct", "GA Static Gemma")
    info = parse_title("fix(arm)!: drop it")
    assert (info.conventional_type, info.conventional_scope, info.breaking) == ("fix", "arm", True)
    assert parse_title("Revert to the old pin").revert_of is None
    assert parse_title("Back out D105996100 — breaks build").revert_of is not None
    assert parse_title("Fix UnboundLocalError: local x").body.startswith("Fix UnboundLocalError")


def test_globs() -> None:
    pattern = compile_globs(
        ["backends/arm/**", "**/*.md", "third_party/ideep", "**hip**", "docs/source/onnx*"]
    )
    assert pattern is not None
    for path in (
        "backends/arm/x.py",
        "README.md",
        "a/b/c.md",
        "third_party/ideep/x.c",
        "aten/src/hip/x.h",
        "docs/source/onnx_export.rst",
    ):
        assert pattern.match(path), path
    for path in (
        "backends/armx/x.py",
        "backends/vulkan/x.py",
        "third_party/ideepx",
        "docs/source/sub/onnx.rst",
    ):
        assert not pattern.match(path), path


class _FakeModel:
    name = "fake"

    def __init__(self) -> None:
        self.seen = 0

    def predict(self, prs: Sequence[PullRequest]) -> list[ModelPrediction]:
        self.seen += len(prs)
        return [ModelPrediction("Runtime", 0.9, "performance", 0.8) for _ in prs]


def test_model_decides_only_where_rules_are_weak(executorch_prs: list[PullRequest]) -> None:
    model = _FakeModel()
    profile: Profile = profile_for("pytorch/executorch", Config()).with_model(model)
    strong = _by_number(executorch_prs, 9376)  # revert, `Arm backend:` prefix: nothing to ask
    weak = replace(_by_number(executorch_prs, 7482), title="Tidy things up", files=())
    results = profile.classify_all([strong, weak])
    assert results[0].area_rule == "executorch/area/Backends: Arm/title_prefix"
    assert results[0].kind_rule == "executorch/kind/revert"
    assert (results[1].area, results[1].area_rule, results[1].confidence) == (
        "Runtime",
        "model:fake",
        0.9,
    )
    assert (results[1].kind, results[1].kind_rule) == ("performance", "model:fake")
    assert model.seen == 1


@pytest.mark.whole_history("150 reverts and relands")
def test_reverts_and_relands_are_paired(
    executorch_prs: list[PullRequest], ao_prs: list[PullRequest]
) -> None:
    def links(
        prs: list[PullRequest], relands: bool
    ) -> dict[int | None, tuple[PullRequest, PullRequest | None, str]]:
        # several targets (a revert of a stack): the latest is the one the title names
        return {
            prs[p.position].number: (
                prs[p.position],
                prs[p.targets[-1]] if p.targets else None,
                p.how,
            )
            for p in pair_all(prs)
            if p.relands == relands
        }

    reverts = links(executorch_prs, relands=False)
    assert len(reverts) >= 150
    assert (reverts[7724][2], reverts[7724][1].number) == ("sha", 7700)  # type: ignore[union-attr]
    matched = sum(1 for _, original, _ in reverts.values() if original is not None)
    assert matched / len(reverts) > 0.75
    for pr, original, _ in reverts.values():
        if original is not None:  # a revert comes after what it reverts
            assert executorch_prs.index(original) < executorch_prs.index(pr)
    relands = links(executorch_prs, relands=True)
    assert relands[8004][1].number == 7618  # type: ignore[union-attr]  # not the revert #7889
    assert relands[10490][2] == "number" and relands[10490][1].number == 9842  # type: ignore[union-attr]
    ao_reverts = links(ao_prs, relands=False).values()
    assert sum(1 for _, _, how in ao_reverts if how == "sha") >= 35


def test_a_configured_model_is_loaded_when_the_profile_is_built(tmp_path: Path) -> None:
    config = _write_config(
        tmp_path, '[repos."pytorch/executorch"]\nmodel = "models/missing.model"\n'
    )
    with pytest.raises(ConfigError, match=r"missing\.model"):
        profile_for("pytorch/executorch", config)
