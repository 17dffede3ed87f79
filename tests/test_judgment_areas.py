"""Areas as a reader files them (issue "Judgment"), through the real entry point:
`prdigest sync --jsonl` of records written here, then `prdigest digest --format json`.

- a PR of only tests or benchmarks keeps the area its title names: the files sit where
  the harness is kept, the title says what they exercise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import pr_record, run_cli

WEEK = "2026-W07"  # Monday 2026-02-09


def _record(repo: str, number: int, title: str, *paths: str, author: str = "Ada") -> dict[str, Any]:
    when = f"2026-02-{10 + number % 4:02d}T{10 + number % 10:02d}:00:00Z"
    return pr_record(repo, number, title, [(p, 20, 1) for p in paths], when=when, author=author)


def _areas(tmp_path: Path, repo: str, records: list[dict[str, Any]], *extra: str) -> dict[str, str]:
    jsonl = tmp_path / "records.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    db = tmp_path / "store.db"
    synced = run_cli("sync", repo, "--jsonl", str(jsonl), db=db)
    assert synced.exit_code == 0, synced.output
    result = run_cli("digest", repo, "--week", WEEK, "--format", "json", *extra, db=db)
    assert result.exit_code == 0, result.output
    return {n: pr["area"] for n, pr in json.loads(result.stdout)["prs"].items()}


def test_a_benchmark_script_keeps_the_area_its_title_names_ao_profile(tmp_path: Path) -> None:
    """`[moe training] bench script …` under `benchmarks/float8/` (Float8 Training's tree in
    the ao profile) measures MoE training: it is filed there, as the readers file it."""
    repo = "pytorch/ao"
    records = [
        _record(repo, 301, "[moe training] generic bench script for torchtitan models", "benchmarks/float8/training/bench.sh"),
        _record(repo, 302, "[moe training] add fused kernel for grouped gemm", "torchao/prototype/moe_training/kernels.py"),
        _record(repo, 303, "extend float8 roofline with real benchmarks", "benchmarks/float8/float8_roofline.py", author="Bo"),
        _record(repo, 304, "[float8] fix a typo in the linear", "torchao/float8/float8_linear.py", author="Bo"),
    ]  # fmt: skip
    areas = _areas(tmp_path, repo, records)
    assert areas["301"] == areas["302"] == "MoE Training", areas
    assert areas["303"] == "Float8 Training", areas  # untagged: where its files are


def test_a_benchmark_script_keeps_the_area_its_title_names_generic_profile(
    tmp_path: Path,
) -> None:
    """The same in the generic profile: `benchmarks/float8/` mirrors `widgets/float8`, yet
    the `[moe]` tag names the component the script measures."""
    repo = "acme/widgets"
    records = [
        _record(repo, 401, "[moe] generic bench script for torchtitan models", "benchmarks/float8/training/bench.sh"),
        *[_record(repo, 410 + i, f"[moe] grouped gemm step {i}", f"widgets/moe/k{i}.py") for i in range(4)],
        *[_record(repo, 420 + i, f"float8 linear fix {i}", f"widgets/float8/f{i}.py", author="Bo") for i in range(4)],
        _record(repo, 430, "tune float8 benchmark shapes", "benchmarks/float8/shapes.py", author="Bo"),
    ]  # fmt: skip
    areas = _areas(tmp_path, repo, records, "--profile", "generic")
    assert areas["401"] == areas["410"], areas
    assert areas["430"] == areas["420"] != areas["410"], areas  # untagged: where its files are


def test_prototype_quantization_is_quantization_ao_profile(tmp_path: Path) -> None:
    """`torchao/prototype/quantization/` is quantization's prototype half and GPTQ lives in
    `torchao/quantization/GPTQ/`: both are filed with Quantization, where readers look for
    quantization APIs; other prototypes stay Prototype."""
    repo = "pytorch/ao"
    records = [
        _record(repo, 501, "Float8StaticActivationFloat8WeightConfig using keepdim=True", "torchao/prototype/quantization/quant_api.py", "test/prototype/quantization/test_static.py"),
        _record(repo, 502, "remove old GPTQ implementation", "torchao/quantization/GPTQ/GPTQ.py", "test/quantization/test_gptq.py"),
        _record(repo, 503, "add keepdim support for the observer", "torchao/quantization/observer.py"),
        _record(repo, 504, "low precision attention: fuse RoPE", "torchao/prototype/attention/rope.py", author="Bo"),
    ]  # fmt: skip
    areas = _areas(tmp_path, repo, records)
    assert areas["501"] == areas["502"] == areas["503"] == "Quantization", areas
    assert areas["504"] == "Prototype", areas


def test_a_platform_tag_beats_a_component_tag_beside_it_ao_profile(tmp_path: Path) -> None:
    """`[ROCm][INT4] …` on Quantization's files is the ROCm stream's work, as `[ROCm]` alone
    would be; a CI tag beside a platform (`[ci][aarch64] wheels`) still says it is CI."""
    repo = "pytorch/ao"
    records = [
        _record(repo, 601, "[ROCm][INT4] Configurable ntile size for TilePacked format", "torchao/quantization/quant_api.py"),
        _record(repo, 602, "[ROCm] enable fp8 kernel tests on MI300", "test/prototype/moe_training/test_kernels.py"),
        _record(repo, 603, "[ci][aarch64] add Linux aarch64 wheels", ".github/workflows/build_wheels_aarch64_linux.yml"),
        _record(repo, 604, "[INT4] tile packed layout cleanup", "torchao/quantization/quant_api.py", author="Bo"),
    ]  # fmt: skip
    areas = _areas(tmp_path, repo, records)
    assert areas["601"] == areas["602"] == "ROCm", areas
    assert areas["603"] == "CI/Build", areas
    assert areas["604"] == "Quantization", areas


def test_a_prototypes_benchmarks_may_skip_the_prototype_level_generic_profile(
    tmp_path: Path,
) -> None:
    """`benchmarks/mx_formats/` benchmarks `widgets/prototype/mx_formats/` (the layout
    pytorch/ao uses): filed with it, not under a catch-all Benchmarks area."""
    repo = "acme/widgets"
    records = [
        *[_record(repo, 700 + i, f"mx cast fix {i}", f"widgets/prototype/mx_formats/m{i}.py") for i in range(4)],
        *[_record(repo, 710 + i, f"float8 fix {i}", f"widgets/float8/f{i}.py", author="Bo") for i in range(4)],
        *[_record(repo, 720 + i, f"attention step {i}", f"widgets/prototype/attention/a{i}.py", author="Cy") for i in range(4)],
        _record(repo, 730, "add nvfp4 cast benchmarks", "benchmarks/mx_formats/cast_bench.py", author="Di"),
        _record(repo, 731, "faster dashboard upload", "benchmarks/dashboard/upload.py", author="Di"),
    ]  # fmt: skip
    areas = _areas(tmp_path, repo, records, "--profile", "generic")
    assert areas["730"] == areas["700"], areas
    assert areas["731"] != areas["700"], areas


def test_one_components_build_manifest_is_that_components_generic_profile(
    tmp_path: Path,
) -> None:
    """A fix to one component's own `CMakeLists.txt` or `TARGETS` is that component's work,
    as readers file it; a sweep over many directories' manifests and a test directory's
    manifest stay with the build (they are build and test plumbing)."""
    repo = "acme/engine"
    records = [
        *[_record(repo, 500 + i, f"llama runner step {i}", f"examples/models/llama/r{i}.py") for i in range(4)],
        _record(repo, 510, "Fix Cmakelists for llama main", "examples/models/llama/CMakeLists.txt"),
        *[_record(repo, 520 + i, f"kernel op {i}", f"kernels/portable/op{i}.cpp", author="Bo") for i in range(4)],
        _record(repo, 530, "Remove visibility gating", "kernels/portable/targets.bzl", "examples/models/llama/TARGETS", author="Cy"),
        _record(repo, 531, "Add missing BUCK file", "kernels/test/BUCK", author="Cy"),
        _record(repo, 532, "Bump the CI image", ".ci/docker/build.sh", author="Cy"),
    ]  # fmt: skip
    areas = _areas(tmp_path, repo, records, "--profile", "generic")
    assert areas["510"] == areas["500"] != "Build/CI", areas
    assert areas["530"] == areas["531"] == areas["532"] == "Build/CI", areas


def test_one_components_build_manifest_is_that_components_executorch_profile(
    tmp_path: Path,
) -> None:
    """The same in a repository's own profile: `extension/llm/custom_ops/TARGETS` builds the
    LLM extension; `backends/xnnpack/test/TARGETS` builds its tests (CI and tests)."""
    repo = "pytorch/executorch"
    records = [
        _record(repo, 601, "Add missing custom_ops_aot_lib preload dep", "extension/llm/custom_ops/TARGETS"),
        _record(repo, 602, "Speed up the sdpa custom op", "extension/llm/custom_ops/op_sdpa.cpp"),
        _record(repo, 603, "Add torchvision dependency to test_xnnpack_quantizer", "backends/xnnpack/test/TARGETS", author="Bo"),
    ]  # fmt: skip
    areas = _areas(tmp_path, repo, records)
    assert areas["601"] == areas["602"] != "Build/CI", areas
    assert areas["603"] == "Build/CI", areas
