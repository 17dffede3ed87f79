"""Where a PR belongs (issue 19): filed where most of its changed lines land; a PR of only
tests, docs, CI or build files by what it is about. Through the CLI, as a user runs it:
`sync --jsonl` of a small JSONL, then `digest --format json` (each PR's area)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from helpers import pr_record, run_cli

MONDAY = datetime(2026, 2, 9, 10, tzinfo=UTC)  # 2026-W07

File = tuple[str, int]  # path, changed lines


def _record(
    repo: str, number: int, title: str, files: list[File], weeks_before: int = 0
) -> dict[str, Any]:
    landed = MONDAY - timedelta(weeks=weeks_before) + timedelta(hours=number % 100)
    return pr_record(
        repo,
        number,
        title,
        [(path, lines, 0) for path, lines in files],
        when=landed.isoformat().replace("+00:00", "Z"),
        author=f"Dev {number % 3}",
        email=f"dev{number % 3}@example.com",
        committer=("GitHub", "noreply@github.com"),
    )


def areas_of(
    tmp_path: Path,
    repo: str,
    prs: list[tuple[int, str, list[File]]],
    *options: str,
    earlier: Sequence[tuple[int, str, list[File], int]] = (),
) -> dict[int, str]:
    """Each PR's area in the week's digest (JSON), after syncing the PRs (and `earlier`
    ones, landed that many weeks before) from a JSONL."""
    records = [_record(repo, n, title, files) for n, title, files in prs]
    records += [_record(repo, n, title, files, weeks) for n, title, files, weeks in earlier]
    jsonl = tmp_path / "prs.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    db = tmp_path / "store.db"
    assert run_cli("sync", repo, "--jsonl", str(jsonl), db=db).exit_code == 0
    result = run_cli("digest", repo, "--week", "2026-W07", "--format", "json", *options, db=db)
    assert result.exit_code == 0, result.output
    return {int(n): pr["area"] for n, pr in json.loads(result.stdout)["prs"].items()}


def test_a_pr_is_filed_where_most_of_its_lines_land(tmp_path: Path) -> None:
    """Four one-line touches in the Arm backend, one real change in Cadence: Cadence's PR.
    Counting files (or halving files and lines) filed it under Arm."""
    arm = [(f"backends/arm/_passes/pass_{i}.py", 1) for i in range(4)]
    areas = areas_of(
        tmp_path,
        "pytorch/executorch",
        [
            (101, "Rewrite the quantized conv kernel", [*arm, ("backends/cadence/aot/ops.py", 12)]),
            (102, "Rename a helper", [("backends/arm/a.py", 3), ("backends/cadence/b.py", 2)]),
        ],
    )
    assert areas[101] == "Backends: Cadence"
    assert areas[102] == "Backends: Arm"  # most lines in Arm


def test_build_and_test_only_prs_are_filed_by_what_they_are_about(tmp_path: Path) -> None:
    """Build files only across directories (a visibility cleanup across the tree) are the
    build's, even where one component's directories hold them (one directory's manifest is
    its component's: tests/test_judgment_areas.py), and docs only the docs'; tests only, of one
    component or several, are filed with CI and the build (the readers' "CI and tests":
    one section for the week's plumbing); a title tag still decides."""
    areas = areas_of(
        tmp_path,
        "pytorch/executorch",
        [
            (
                201,
                "Remove visibility gating - Core",
                [("runtime/core/targets.bzl", 6), ("runtime/core/exec_aten/targets.bzl", 3)],
            ),
            (
                202,
                "Remove visibility gating - Kernels",
                [("kernels/portable/targets.bzl", 9), ("kernels/quantized/targets.bzl", 4)],
            ),
            (203, "Add missing BUCK file", [("devtools/bundled_program/test/BUCK", 20)]),
            (
                204,
                "Explicitly construct Span<EValue*> in tests",
                [
                    ("kernels/prim_ops/test/prim_ops_test.cpp", 4),
                    ("runtime/kernel/test/operator_registry_test.cpp", 4),
                    ("extension/kernel_util/test/make_boxed_test.cpp", 3),
                ],
            ),
            (205, "Fix a flaky method test", [("runtime/executor/test/method_test.cpp", 8)]),
            (
                206,
                "Arm backend: Fix CMakeLists relative path",
                [("examples/arm/CMakeLists.txt", 2)],
            ),
            (207, "Fix the deadlock on unload", [("runtime/executor/method.cpp", 5)]),
            (208, "Fix the runner's README", [("examples/models/llama/README.md", 4)]),
            (209, "Arm backend: document the TOSA flow", [("backends/arm/README.md", 9)]),
        ],
    )
    assert areas[201] == areas[202] == areas[203] == "Build/CI"
    explained = run_cli(
        "classify", "explain", "pytorch/executorch", "202", db=tmp_path / "store.db"
    )
    assert (
        "  lost: Kernels (the changed paths): owns only CI or build files of this PR: those"
        " count for the build area, and only when nothing else changed\n" in explained.stdout
    )
    assert areas[204] == areas[205] == "Build/CI"  # tests only: no component's news
    assert areas[207] == "Runtime"
    assert areas[206] == areas[209] == "Backends: Arm"
    assert areas[208] == "Docs"  # docs only, no tag: the docs' (it was the LLM example's)


def test_the_generic_profile_files_examples_with_their_component(tmp_path: Path) -> None:
    """An unknown repository: `examples/arm/` is the Arm backend's work (no "Examples: Arm"
    beside "Backends: Arm"), so `Arm backend:` names one area; a container inside a
    container (`examples/models/`) stays one area rather than one per model."""
    prs = [
        (300 + i, f"Arm backend: add pass {i}", [(f"backends/arm/_passes/p{i}.py", 30)])
        for i in range(4)
    ]
    prs += [
        (310 + i, f"Vulkan: add op {i}", [(f"backends/vulkan/op{i}.cpp", 30)]) for i in range(3)
    ]
    prs += [
        (320 + i, f"Update the Ethos-U demo {i}", [("examples/arm/run.py", 5)]) for i in range(3)
    ]
    prs += [(330, "Arm backend: fix the example's setup", [("examples/arm/setup/setup.sh", 2)])]
    prs += [
        (340 + i, f"Parakeet runner fix {i}", [("examples/models/parakeet/main.cpp", 8)])
        for i in range(3)
    ]
    prs += [
        (350 + i, f"Llama export fix {i}", [("examples/models/llama/export.py", 8)])
        for i in range(3)
    ]
    areas = areas_of(tmp_path, "acme/edgekit", prs, "--profile", "generic")
    assert {areas[n] for n in (300, 301, 320, 321, 322, 330)} == {"Backends: Arm"}
    assert areas[310] == "Backends: Vulkan"
    assert areas[340] == areas[350] and areas[340] != areas[300]
    assert not any(area.startswith("Examples: Arm") for area in areas.values())


def test_a_qualified_tag_names_the_area_of_its_subject(tmp_path: Path) -> None:
    """`[mxfp8 moe training]` names the MoE Training area (its trailing words), as a
    `Qualcomm AI Engine Direct -` prefix names Qualcomm (its leading words): the tag decides
    though most lines land in the MX formats' kernels."""
    pkg = "quantkit/prototype"
    prs = [(400 + i, f"moe: tune {i}", [(f"{pkg}/moe_training/m{i}.py", 10)]) for i in range(3)]
    prs += [(410 + i, f"mx: cast {i}", [(f"{pkg}/mx_formats/c{i}.py", 10)]) for i in range(3)]
    prs += [
        (
            420,
            "[mxfp8 moe training] integrate the dim0 cast kernel",
            [(f"{pkg}/mx_formats/kernels.py", 60), (f"{pkg}/moe_training/kernels.py", 12)],
        )
    ]
    areas = areas_of(tmp_path, "acme/quantkit", prs, "--profile", "generic")
    assert areas[420] == areas[400] == "Prototype: MoE Training"
    assert areas[410] == "Prototype: MX Formats"


def test_generic_areas_hold_from_week_to_week(tmp_path: Path) -> None:
    """A directory busy over the quarter keeps its area in a week that touches it once: the
    generic profile derives areas from the quarter up to the window's end, not the two
    weeks a digest classifies (it folded `mx_formats` into Prototype that week). `classify
    explain` files the PR as the digest did."""
    pkg = "quantkit/prototype"
    earlier = [(500 + i, f"mx: cast {i}", [(f"{pkg}/mx_formats/c{i}.py", 10)], 6) for i in range(4)]
    prs = [(510 + i, f"moe: tune {i}", [(f"{pkg}/moe_training/m{i}.py", 10)]) for i in range(3)]
    prs += [(520, "Fix the mxfp8 cast rounding", [(f"{pkg}/mx_formats/kernels.py", 12)])]
    prs += [(521, "Add a spin rotation", [(f"{pkg}/spinquant/rot.py", 12)])]
    areas = areas_of(tmp_path, "acme/quantkit", prs, "--profile", "generic", earlier=earlier)
    assert areas[520] == "Prototype: MX Formats"
    assert areas[510] == "Prototype: MoE Training"
    assert areas[521] == "Prototype"  # one PR in the quarter: its parent's
    explained = run_cli(
        "classify",
        "explain",
        "acme/quantkit",
        "520",
        "--profile",
        "generic",
        db=tmp_path / "store.db",
    )
    assert explained.exit_code == 0, explained.output
    assert "\narea: Prototype: MX Formats  (decided by generic/area/" in explained.stdout


def test_generic_benchmarks_of_a_component_are_the_component_s(tmp_path: Path) -> None:
    """`benchmarks/float8/` mirrors `quantkit/float8/`: its PRs are Float8's, even in a
    repository busy enough with benchmarks to split `benchmarks/` into areas."""
    prs = [(600 + i, f"float8: fix {i}", [(f"quantkit/float8/f{i}.py", 10)]) for i in range(3)]
    prs += [(610 + i, f"mx: fix {i}", [(f"quantkit/mx/m{i}.py", 10)]) for i in range(3)]
    prs += [(620 + i, f"bench float8 {i}", [(f"benchmarks/float8/b{i}.py", 10)]) for i in range(3)]
    prs += [(630 + i, f"bench mx {i}", [(f"benchmarks/mx/b{i}.py", 10)]) for i in range(3)]
    areas = areas_of(tmp_path, "acme/quantkit", prs, "--profile", "generic")
    assert areas[620] == areas[600] == "Float8"
    assert areas[630] == areas[610] == "MX"


def test_tests_only_are_filed_with_ci_unless_the_title_names_the_component(
    tmp_path: Path,
) -> None:
    """A PR of tests only (a flaky test fixed, a test enabled, Android's instrumented
    tests) is the week's CI and tests work, whichever component's directory holds the
    tests: filed with CI, not as that component's news. A title naming the component
    still decides, and tests beside code stay the code's however many lines they have."""
    areas = areas_of(
        tmp_path,
        "pytorch/executorch",
        [
            (701, "Enable an inspector test", [("devtools/inspector/tests/inspector_test.py", 27)]),
            (702, "Arm backend: fix a flaky test", [("backends/arm/test/ops/test_add.py", 9)]),
            (
                703,
                "Fix Android emulator CI test file permission error",
                [
                    (
                        "extension/android/executorch_android/src/androidTest/java/org/"
                        "pytorch/executorch/ModuleE2ETest.kt",
                        6,
                    )
                ],
            ),
            (704, "Bump the CI image", [(".ci/docker/common/install_base.sh", 4)]),
            (
                705,
                "Fix the method loader",
                [
                    ("runtime/executor/method.cpp", 5),
                    ("runtime/executor/test/method_test.cpp", 40),
                ],
            ),
        ],
    )
    assert areas[701] == areas[703] == areas[704] == "Build/CI"
    assert areas[702] == "Backends: Arm"
    assert areas[705] == "Runtime"


def test_the_generic_profile_files_tests_only_with_ci(tmp_path: Path) -> None:
    """An unknown repository: tests only, under `test/<component>/` mirroring the code,
    go with CI (one plumbing area, not "Tests" beside "Build/CI"); tests beside code are
    the component's."""
    pkg = "quantkit/prototype"
    prs = [(800 + i, f"mx: cast {i}", [(f"{pkg}/mx_formats/c{i}.py", 10)]) for i in range(3)]
    prs += [(810 + i, f"moe: tune {i}", [(f"{pkg}/moe_training/m{i}.py", 10)]) for i in range(3)]
    prs += [
        (820, "Fix a flaky cast test", [("test/prototype/mx_formats/test_cast.py", 12)]),
        (821, "Pin the CI runner", [(".github/workflows/test.yml", 3)]),
        (
            822,
            "Fix the cast's rounding",
            [(f"{pkg}/mx_formats/c0.py", 2), ("test/prototype/mx_formats/test_cast.py", 30)],
        ),
    ]
    areas = areas_of(tmp_path, "acme/quantkit", prs, "--profile", "generic")
    assert areas[820] == areas[821] == "Build/CI"
    assert areas[822] == areas[800] == "Prototype: MX Formats"


def test_a_component_named_beside_docs_keeps_its_own_readme(tmp_path: Path) -> None:
    """`[mxfp8 moe training] readme updates: …` on the MoE training README names two
    areas, MoE Training and Docs: the component whose directory holds the file is the
    subject (it was filed under Docs). The repository's own README stays the docs'."""
    areas = areas_of(
        tmp_path,
        "pytorch/ao",
        [
            (
                901,
                "[mxfp8 moe training] readme updates: add table of contents",
                [("torchao/prototype/moe_training/README.md", 124)],
            ),
            (902, "readme updates: recommended workflows", [("README.md", 44)]),
        ],
    )
    assert areas[901] == "MoE Training"
    assert areas[902] == "Docs"


def test_a_claude_tag_says_who_wrote_it_not_where(tmp_path: Path) -> None:
    """`[claude]` marks a PR written with an assistant, not CI work: the kernels it
    changes decide (it was filed under CI/Build)."""
    areas = areas_of(
        tmp_path,
        "pytorch/ao",
        [
            (
                903,
                "[claude] Make rowwise_scaled_linear_sparse_cutlass ABI stable",
                [
                    ("torchao/csrc/cuda/rowwise_scaled_linear_sparse_cutlass/kernel.cuh", 347),
                    ("setup.py", 82),
                ],
            )
        ],
    )
    assert areas[903] == "Kernels / CUTLASS"


def test_generic_areas_of_one_component_are_one_area(tmp_path: Path) -> None:
    """`<pkg>/prototype/quantization` beside `<pkg>/quantization` is the prototype half of
    one component: one Quantization area (not "Prototype: Quantization" beside it), while
    `quantization/pt2e` keeps its own; `quantization/quantize_` is no area of its own
    ("Quantization: Quantize"); `benchmarks/mx` benchmarks `<pkg>/prototype/mx`."""
    pkg = "quantkit"
    prs = [
        (1000 + i, f"pt2e: fix {i}", [(f"{pkg}/quantization/pt2e/p{i}.py", 10)]) for i in range(3)
    ]
    prs += [
        (1010 + i, f"qat: fix {i}", [(f"{pkg}/quantization/qat/q{i}.py", 10)]) for i in range(3)
    ]
    prs += [
        (1020 + i, f"int4: fix {i}", [(f"{pkg}/quantization/quantize_/w{i}.py", 10)])
        for i in range(3)
    ]
    prs += [
        (1030 + i, f"static quant {i}", [(f"{pkg}/prototype/quantization/s{i}.py", 10)])
        for i in range(3)
    ]
    prs += [(1040 + i, f"mx: cast {i}", [(f"{pkg}/prototype/mx/c{i}.py", 10)]) for i in range(3)]
    prs += [(1050 + i, f"bench mx {i}", [(f"benchmarks/mx/b{i}.py", 10)]) for i in range(3)]
    prs += [(1060 + i, f"dashboard {i}", [(f"benchmarks/dashboard/d{i}.py", 10)]) for i in range(3)]
    prs += [
        (
            1070,
            "Move the static config out of prototype",
            [
                (f"{pkg}/quantization/quantize_/w0.py", 10),
                (f"{pkg}/prototype/quantization/s0.py", 10),
                (f"{pkg}/quantization/pt2e/p0.py", 15),
            ],
        )
    ]
    areas = areas_of(tmp_path, "acme/quantkit", prs, "--profile", "generic")
    assert areas[1070] == "Quantization"  # its two halves hold most of the lines
    assert areas[1000] == "Quantization: PT2E"
    assert areas[1010] == "Quantization: QAT"
    assert areas[1020] == areas[1030] == "Quantization"
    assert areas[1040] == areas[1050] == "Prototype: MX"
