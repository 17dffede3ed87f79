"""Where a PR belongs (issue 19): filed where most of its changed lines land; a PR of only
tests, docs, CI or build files by what it is about. Through the CLI, as a user runs it:
`sync --jsonl` of a small JSONL, then `digest --format json` (each PR's area)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from helpers import run_cli

MONDAY = datetime(2026, 2, 9, 10, tzinfo=UTC)  # 2026-W07

File = tuple[str, int]  # path, changed lines


def _record(
    repo: str, number: int, title: str, files: list[File], weeks_before: int = 0
) -> dict[str, Any]:
    landed = MONDAY - timedelta(weeks=weeks_before) + timedelta(hours=number % 100)
    when = landed.isoformat().replace("+00:00", "Z")
    return {
        "repo": repo,
        "number": number,
        "number_source": "title",
        "sha": f"{number:040x}",
        "parents": [],
        "title": title,
        "body": "",
        "author_name": f"Dev {number % 3}",
        "author_email": f"dev{number % 3}@example.com",
        "committer_name": "GitHub",
        "committer_email": "noreply@github.com",
        "committed_at": when,
        "authored_at": when,
        "files": [{"path": path, "additions": lines, "deletions": 0} for path, lines in files],
        "trailers": {},
    }


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
    """Build files only (a visibility cleanup across the tree) are the build's, even where
    one component's directory holds them, and docs only the docs'; tests of one component
    are that component's, tests of several the shared test area's; a title tag still
    decides."""
    areas = areas_of(
        tmp_path,
        "pytorch/executorch",
        [
            (201, "Remove visibility gating - Core", [("runtime/core/targets.bzl", 6)]),
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
    assert areas[204] == "Testing"
    assert areas[205] == areas[207] == "Runtime"
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
