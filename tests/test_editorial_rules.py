"""The editorial check's rules (tests/editorial.py) on hand-written digests: the examples
issue 13 quotes, and what each rule must leave alone."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from editorial import Finding, check_digest
from editorial_repo import Knowledge, announces_break, new_directories
from editorial_sweep import sweep, week_start

EXECUTORCH, AO = "pytorch/executorch", "pytorch/ao"

# --- helpers ----------------------------------------------------------------------------


def rec(number: int | None, title: str, day: str = "2026-02-10", **extra: Any) -> dict[str, Any]:
    """A record as in ../shared/data/README.md (only what the check reads)."""
    files = [{"path": p, "additions": 10, "deletions": 0} for p in extra.pop("paths", ())]
    return {
        "number": number,
        "title": title,
        "body": extra.pop("body", ""),
        "committed_at": f"{day}T12:00:00Z",
        "files": extra.pop("files", files),
        **extra,
    }


def page(body: str, total: int = 40, repo: str = "acme/widgets") -> str:
    """A digest in the writer's shape around `body` (sections and bullets)."""
    return (
        f"# Analysis of Pull Requests for {repo} during 20260209-20260215\n\n"
        f"### Key Takeaways\nThis week's activity centred on X, totaling {total} PRs across (1) A.\n\n"
        f"---\n\n{body}\n"
    )


def run(
    rule: str, markdown: str, window: list[dict[str, Any]] | None = None, **kw: Any
) -> list[Finding]:
    return check_digest(
        markdown, kw.pop("repo", "acme/widgets"), window or [], kw.pop("history", []), rules=[rule]
    )


def excerpts(found: list[Finding]) -> str:
    return "\n".join(str(f) for f in found)


# --- restated_name ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "bullet",
    [
        "*   **Mass migrate:** Mass migrate to `runtime.python_library` ([PR#14153](u)).",
        "*   **GA Static:** GA Static Gemma3-1B ([PR#14108](u)), plus 2 more PRs on this theme.",
        "*   **Objective-C wrapper:** Objective-C wrapper for multimodal LLM runner ([PR#14075](u)).",
        "*   **`_vgf_` ops:** \\_vgf\\_ ops move to their own folder ([PR#1](u)).",
        "*   **Flux** (2 PRs): Flux gains a scheduler ([PR#1](u)).",
    ],
)
def test_restated_name_catches_a_sentence_that_repeats_its_name(bullet: str) -> None:
    found = run("restated_name", page(f"### 1. Area\n*5 PRs*\n\n{bullet}"))
    assert len(found) == 1 and found[0].rule == "restated_name", excerpts(found)


@pytest.mark.parametrize(
    "bullet",
    [
        "*   **Trunk jobs:** Enables trunk jobs on PRs ([PR#14087](u)).",
        "*   **Mass migration:** Migrates every Python target ([PR#1](u)).",
        "*   **Voxtral:** Voxtralized runner lands ([PR#1](u)).",  # a longer word, not the name
        "*   **Also:** 22 more PRs, mostly under `backends/arm` (11).",
    ],
)
def test_restated_name_leaves_a_sentence_that_says_more(bullet: str) -> None:
    assert run("restated_name", page(f"### 1. Area\n*5 PRs*\n\n{bullet}")) == []


# --- non_name ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "markdown",
    [
        "### 1. Area\n*3 PRs*\n\n*   **None:** Updates verifier to handle None outputs ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **Configurable:** Makes the pass configurable ([PR#1](u)).",
        "### 1. Other Areas\n*3 PRs across 1 smaller area*\n\n*   **Other** (3 PRs): Moves a file ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **Updates:** Updates things ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **PR2/N — Quantizer rework:** Reworks it ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **[3/5] Quantizer:** Reworks it ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **Quantizer rework (2/4):** Reworks it ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **Quantizer pt.2:** Reworks it ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **Quantizer Part 3:** Reworks it ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **Check if portable/optimized in:** Checks deps ([PR#1](u)).",
        "### 1. Area\n*3 PRs*\n\n*   **Removal of the:** Removes it ([PR#1](u)).",
        "### 1. Misc\n*3 PRs*\n\n*   **Quantizer:** Reworks it ([PR#1](u)).",
    ],
)
def test_non_name_catches_names_that_name_nothing(markdown: str) -> None:
    found = run("non_name", page(markdown))
    assert len(found) == 1, excerpts(found)


def test_non_name_leaves_real_names_and_area_names_alone() -> None:
    markdown = page(
        "### 1. Backends: Arm\n*9 PRs*\n\n"
        "*   **FP16 support:** A three-part series adds FP16 ([PR#1](u)).\n"
        "*   **Arm passes formatting:** Formats passes ([PR#2](u)).\n"
        "*   **Also:** 7 more PRs.\n\n"
        "### 2. Other Areas\n*4 PRs across 2 smaller areas*\n\n"
        "*   **Tests** (2 PRs): Adds a flaky-test retry ([PR#3](u)).\n"
        "*   **Docs** (2 PRs): Documents the runner ([PR#4](u))."
    )
    assert run("non_name", markdown) == []


# --- dangling_bullet --------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "*   **Flux** (2 PRs).",
        "*   **LLM** (4 PRs).",
        "*   **Prototype** (2 PRs across Prototype, MX Formats):",
        "*   **Backends** (9 PRs across A, B):\n    *   **MediaTek** (4 PRs).\n    *   **NXP** (5 PRs): Adds a pass ([PR#1](u)).",
        "*   **TOSA:**\n*   **Docs** (1 PR): Fixes a link ([PR#2](u)).",
    ],
)
def test_dangling_bullet_catches_bare_counts_and_empty_colons(body: str) -> None:
    found = run(
        "dangling_bullet", page(f"### 1. Other Areas\n*9 PRs across 3 smaller areas*\n\n{body}")
    )
    assert len(found) == 1, excerpts(found)


def test_dangling_bullet_leaves_lines_that_say_what_changed() -> None:
    body = (
        "### 1. Backends: Arm\n*9 PRs*\n\n*   **TOSA:**\n"
        "    *   Makes ops supported check TOSA profile-aware ([PR#1](u)).\n"
        "*   **Vgf files move:** 3 PRs, among them:\n    *   Moves vgf files ([PR#2](u)).\n\n"
        "### 2. Other Areas\n*5 PRs across 2 smaller areas*\n\n"
        "*   **CI/Build** (4 PRs): Parse device at model release script ([PR#3486](u)).\n"
        "*   **Also:** Optimizers (1)."
    )
    assert run("dangling_bullet", page(body)) == []


# --- other_share and unsectioned_group --------------------------------------------------


@pytest.mark.parametrize(
    ("total", "held", "expected"),
    [(66, 37, 1), (31, 11, 1), (178, 30, 0), (40, 10, 0), (40, 11, 1)],
)
def test_other_share_reads_the_totals_the_digest_prints(
    total: int, held: int, expected: int
) -> None:
    body = f"### 4. Other Areas\n*{held} PRs across 6 smaller areas*\n\n*   **Flux** ({held} PRs): Adds a scheduler ([PR#1](u))."
    found = run("other_share", page(body, total=total))
    assert len(found) == expected, excerpts(found)


def test_other_share_counts_an_other_family_section_too() -> None:
    body = "### 3. Other Backends\n*12 PRs across 4 smaller areas*\n\n*   **NXP** (3 PRs): Adds a pass ([PR#1](u))."
    assert len(run("other_share", page(body, total=30))) == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "*   **Backends** (20 PRs across MediaTek, NXP, XNNPACK, Common, Apple, Samsung, WebGPU / Wasm):",
            1,
        ),
        ("*   **Models** (10 PRs across 7 model families): Adds Qwen3 ([PR#1](u)).", 1),
        ("*   **XNNPACK** (5 PRs): Adds a pass ([PR#1](u)).", 1),
        ("*   **Flux** (4 PRs): Adds a scheduler ([PR#1](u)).", 0),
    ],
)
def test_unsectioned_group_catches_a_family_of_five_in_other_areas(
    line: str, expected: int
) -> None:
    body = f"### 5. Other Areas\n*30 PRs across 11 smaller areas*\n\n{line}"
    assert len(run("unsectioned_group", page(body, total=178))) == expected


# --- house_spelling ---------------------------------------------------------------------

_TITLES = [
    "Arm backend: Move VGF files to their own folder",
    "Arm backend: Add VGF test for conv",
    "Arm backend: Fix VGF runtime on Linux",
    "Add ETDump support to the inspector",
    "Use ETDump in the runner",
    "Document ETDump flags",
    "Experiments: add RL recipe",
    "Speed up RL rollout",
    "Fix RL loss scaling",
    "Add gpt-oss model",
    "Fix gpt-oss attention sinks",
    "Support Qwen3.5 in the exporter",
    "Add Qwen3.5 tokenizer",
    "Add Kimi-K2.7 checkpoint loader",
    "Support Kimi-K2.7 chat template",
    "Add LoRA adapters to the runner",
    "Fix LoRA merge",
    "Load LoRA from safetensors",
    "Build the export flow",  # lower-case word, plus a stray macro spelled EXPORT below
    "Guard EXPORT macro",
    "Guard EXPORT_API macro again",
    "Speed up Arm passes",
    "Fix ARM build",
]


@pytest.mark.parametrize(
    ("name", "house"),
    [
        ("Vgf files move", "VGF"),
        ("Etdump generation support", "ETDump"),
        ("Experiments: Rl", "RL"),
        ("Lora adapters", "LoRA"),
        ("Gpt Oss", "gpt-oss"),
        ("Qwen3 5", "Qwen3.5"),
        ("Kimi K2 7", "Kimi-K2.7"),
    ],
)
def test_house_spelling_takes_the_spelling_of_the_titles(name: str, house: str) -> None:
    window = [rec(n, t) for n, t in enumerate(_TITLES, start=1)]
    body = f"### 1. {name}\n*6 PRs*\n\n*   **{name}:** Adds it ([PR#1](u))."
    found = run("house_spelling", page(body), window)
    assert found and all(house in f.why for f in found), excerpts(found)


def test_house_spelling_leaves_names_the_titles_also_write_so() -> None:
    window = [rec(n, t) for n, t in enumerate(_TITLES, start=1)]
    body = (
        "### 1. Backends: Arm\n*6 PRs*\n\n*   **Export flow:** Builds the export flow ([PR#1](u)).\n"
        "*   **VGF files move:** 3 PRs, among them:\n    *   Moves vgf files to their own folder ([PR#1](u)).\n"
        "*   **`gpt_oss` loader:** Adds it ([PR#1](u)).\n"
        "*   **LoRA adapters:** Adds Lora adapters ([PR#1](u))."  # a sentence quotes as it likes
    )
    assert run("house_spelling", page(body), window) == []


def test_house_spelling_reads_the_summary_table() -> None:
    window = [rec(n, t) for n, t in enumerate(_TITLES, start=1)]
    table = (
        "### Summary Table\n\n| Category | Component | Primary Focus | Key PR |\n| :--- | :--- | :--- | :--- |\n"
        "| **Backends** | Arm | Vgf files move, Export flow | #1 |"
    )
    found = run("house_spelling", page(table), window)
    assert len(found) == 1 and "VGF" in found[0].why


# --- repository_named_area --------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "heading", "paths"),
    [
        ("huggingface/accelerate", "Accelerate", ["src/accelerate/tracking.py"]),
        ("pytorch/torchtitan", "Torchtitan", ["torchtitan/train.py"]),
        ("pytorch/ao", "Torchao", ["torchao/quantization/quant_api.py"]),
        ("pytorch/ao", "torchao", ["torchao/quantization/quant_api.py"]),
        ("pytorch/executorch", "ExecuTorch", ["exir/passes/x.py"]),
    ],
)
def test_repository_named_area_catches_the_package_root(
    repo: str, heading: str, paths: list[str]
) -> None:
    history = [rec(1, "Start", "2025-01-10", paths=paths)]
    markdown = page(
        f"### 1. {heading}\n*6 PRs*\n\n*   **Tracking:** Adds a tracker ([PR#2](u)).", repo=repo
    )
    found = run("repository_named_area", markdown, repo=repo, history=history)
    assert len(found) == 1, excerpts(found)


@pytest.mark.parametrize(
    "body",
    [
        "### 2. Other Areas\n*3 PRs across 2 smaller areas*\n\n*   **torchao** (2 PRs): Refactors the loader ([PR#2](u)).",
        "### Summary Table\n\n| Category | Component | Primary Focus | Key PR |\n| :--- | :--- | :--- | :--- |\n"
        "| **Other** | Torchao, Docs | Loader | #2 |",
        "### 1. Quantization\n*3 PRs*\n\n*   **Loader:** Refactors it ([PR#2](u)).\n\n"
        "### Summary Table\n\n| Category | Component | Primary Focus | Key PR |\n| :--- | :--- | :--- | :--- |\n"
        "| **Quantization** | torchao | Loader | #2 |",
    ],
)
def test_repository_named_area_finds_it_in_other_areas_and_the_table(body: str) -> None:
    history = [rec(1, "Start", "2025-01-10", paths=["torchao/quant_api.py"])]
    found = run("repository_named_area", page(body, repo=AO), repo=AO, history=history)
    assert len(found) == 1, excerpts(found)


def test_repository_named_area_is_not_the_directory_with_most_python() -> None:
    """In executorch `backends/` holds most of the Python: it is an area, not the package."""
    history = [
        rec(
            1,
            "Start",
            "2025-01-10",
            paths=[f"backends/arm/p{i}.py" for i in range(9)] + ["exir/a.py"],
        )
    ]
    markdown = page(
        "### 1. Backends: Arm\n*9 PRs*\n\n*   **Torchao checkpoint tests:** Adds them ([PR#2](u)).",
        repo=EXECUTORCH,
    )
    assert run("repository_named_area", markdown, repo=EXECUTORCH, history=history) == []


# --- quote_shape ------------------------------------------------------------------------

_BODY = (
    "Fuses the kernel. We observe ~1.85x speedup end to end on Llama.\n\n"
    "With this change, decode latency increases from ~15 tok/s to ~21.5 tok/s.\n"
    "The perf threshold stays at 1.10x for the CI job.\n\n"
    "| model | 17.31% | memory |\n"
)


@pytest.mark.parametrize(
    ("quote", "why"),
    [
        ("observe \\~1.85x speedup end to", "cut mid-phrase"),
        ("17.31% | memory", "table fragment"),
        ("threshold stays at 1.10x", "threshold"),
        ("1.85x speedup", "cut mid-phrase"),
        ("a 3x speedup", "not found"),
    ],
)
def test_quote_shape_catches_quotes_out_of_context(quote: str, why: str) -> None:
    window = [rec(7, "Fuse the kernel", body=_BODY)]
    body = f"### 1. Kernels\n*6 PRs*\n\n*   **Fused kernel:** Fuses it, reporting “{quote}” ([PR#7](u))."
    found = run("quote_shape", page(body), window)
    assert len(found) == 1 and why in found[0].why, excerpts(found)


@pytest.mark.parametrize(
    "quote",
    [
        "decode latency increases from \\~15 tok/s to \\~21.5 tok/s",
        "We observe \\~1.85x speedup end to end on Llama",
    ],
)
def test_quote_shape_accepts_a_whole_phrase_stated_as_a_result(quote: str) -> None:
    window = [rec(7, "Fuse the kernel", body=_BODY)]
    body = (
        f"### 1. Kernels\n*6 PRs*\n\n*   **Fused kernel:** Fuses it, reporting “{quote}” ([PR#7](u)).\n\n"
        "### Reverts and Relands\n*   [PR#8](u) reverted “Add 2x faster path” ([PR#7](u), landed this week)."
    )
    assert run("quote_shape", page(body), window) == []


# --- uncited_breaking -------------------------------------------------------------------

ANNOUNCING = [
    "Java Remove generateFromPos API",
    "Drop Python 3.10 support, require Python 3.11+",
    "[bc-breaking] remove old GPTQ implementation",
    "Deprecate MPS backend",
    "deprecate v1 of `Int4WeightOnlyConfig`",
    "Add deprecation warning for to_edge + to_backend workflow in XnnpackPartitioner",
    "Mark call as deprecated",
    "Remove support for quant_llm_linear",
    "drop PyTorch <2.10 support",
    "Delete deprecated QDQLayout and related code",
    "Move int8 matmul kernels into the int8 workflow and drop them from public API",
    "Experimental folder deprecation part 2/x",
]
NOT_ANNOUNCING = [
    "Fix deprecated unittest asserts in executorch",
    "Replace usage of deprecated `distutils.(file|dir)_util`",
    "Remove ET_EXPERIMENTAL from program-data separation APIs",
    "Update CI to test on torch 2.6, 2.7 and drop older version",
    "[ROCm] fix build for newer hipblaslt BC-breaking change",
    "Remove unused quantization API helpers",
    "Remove deprecated jcenter() repository from Android build config",
    "Delete deprecated test files that only tested exir.capture behavior",
    'Revert "Deprecate MPS backend"',
    "Remove deprecation annotations from ObjC/Swift bindings.",
    "Qualcomm AI Engine Direct - MSVC support without breaking ET_UNWRAP",
    "Update deprecated pkg_resources api in edge._ops",
    "[Benchmark]Deprecate v2",
    "Stop using deprecated executorch PassManager",
]


@pytest.mark.parametrize("title", ANNOUNCING)
def test_these_titles_announce_a_break_or_deprecation(title: str) -> None:
    assert announces_break(title)


@pytest.mark.parametrize("title", NOT_ANNOUNCING)
def test_these_titles_do_not(title: str) -> None:
    assert not announces_break(title)


@pytest.mark.parametrize("label", ["bc-breaking", "topic: bc_breaking", "module: deprecation"])
def test_labels_announce_too(label: str) -> None:
    assert announces_break("Tidy the quantizer", [label])


def test_uncited_breaking_wants_the_pr_cited_somewhere() -> None:
    window = [
        rec(14102, "Java Remove generateFromPos API"),
        rec(14101, "No longer need generateFromPos API"),
    ]
    cited = page(
        "### 1. Android\n*5 PRs*\n\n*   **Java API:** Removes `generateFromPos` ([PR#14102](u))."
    )
    uncited = page(
        "### 1. Android\n*5 PRs*\n\n*   **Java API:** Drops an old call ([PR#14101](u))."
    )
    assert run("uncited_breaking", cited, window) == []
    found = run("uncited_breaking", uncited, window)
    assert [f.excerpt.split()[0] for f in found] == ["#14102"]


# --- unnamed_new_component --------------------------------------------------------------

_HISTORY = [
    rec(1, "Qualcomm: add builders", "2025-11-03", paths=["backends/qualcomm/builders/op_add.py"]),
    rec(2, "Arm: add a pass", "2025-12-01", paths=["backends/arm/_passes/p.py"]),
]
_RECIPES = [
    rec(
        3,
        "Introduce QNN recipes",
        paths=[f"backends/qualcomm/recipes/{n}.py" for n in ("a", "b", "c", "d")],
    ),
]


@pytest.mark.parametrize(
    ("mention", "expected"),
    [
        ("", 1),
        ("QNN gains `backends/qualcomm/recipes`", 0),
        ("Qualcomm recipes land", 0),
        ("New export recipes for QNN", 0),
        ("Introduces QNN recipe support", 1),  # `recipe` is not the directory's name
    ],
)
def test_unnamed_new_component_wants_the_new_directory_named(mention: str, expected: int) -> None:
    body = f"### 1. Backends: Qualcomm\n*6 PRs*\n\n*   **QNN:** {mention or 'Adds things'} ([PR#3](u))."
    found = run("unnamed_new_component", page(body), _RECIPES, history=_HISTORY)
    assert len(found) == expected, excerpts(found)
    assert all(f.excerpt == "backends/qualcomm/recipes/" for f in found)


def test_new_directories_leave_tests_docs_ci_small_and_dormant_ones_aside() -> None:
    window = [
        rec(4, "Tests", paths=[f"backends/qualcomm/tests/t{i}.py" for i in range(5)]),
        rec(5, "Docs", paths=[f"docs/source/new/p{i}.md" for i in range(5)]),
        rec(6, "CI", paths=[f".github/new/w{i}.yml" for i in range(5)]),
        rec(7, "Two files", paths=["backends/arm/vgf/a.py", "backends/arm/vgf/b.py"]),
        rec(
            8,
            "Dormant",
            files=[
                {"path": f"extension/old/f{i}.py", "additions": 1, "deletions": 3} for i in range(4)
            ],
        ),
        rec(9, "Nested", paths=[f"backends/nxp/backend/ir/f{i}.py" for i in range(4)]),
    ]
    knowledge = Knowledge.from_records("acme/widgets", _HISTORY)
    assert new_directories(window, knowledge) == {"backends/nxp": 4}


def test_unnamed_new_component_needs_enough_history_to_know() -> None:
    short = [rec(1, "Start", "2026-01-20", paths=["backends/qualcomm/builders/op_add.py"])]
    body = "### 1. Backends: Qualcomm\n*6 PRs*\n\n*   **Builders:** Adds things ([PR#3](u))."
    assert run("unnamed_new_component", page(body), _RECIPES, history=short) == []


def test_many_new_siblings_are_one_omission_and_their_parent_names_them() -> None:
    window = [
        rec(10 + i, f"Add op {op}", paths=[f"backends/arm/_passes/{op}/{f}.glsl" for f in "abc"])
        for i, op in enumerate(("add", "mul", "sub", "div"))
    ]
    body = "### 1. Backends: Arm\n*6 PRs*\n\n*   **Shaders:** Adds things ([PR#10](u))."
    found = run("unnamed_new_component", page(body), window, history=_HISTORY)
    assert len(found) == 1 and "4 new directories" in found[0].why, excerpts(found)
    named = body.replace("Adds things", "Adds four ops under `backends/arm/_passes`")
    assert run("unnamed_new_component", page(named), window, history=_HISTORY) == []


def test_findings_name_the_week_and_read_as_one_line() -> None:
    found = run("non_name", page("### 1. Area\n*3 PRs*\n\n*   **None:** Updates it ([PR#1](u))."))
    assert found[0].week == "20260209-20260215"
    assert str(found[0]).startswith("[non_name] 20260209-20260215: ")


def test_a_sweep_names_each_week_by_its_iso_label() -> None:
    assert week_start("2026-W07") == datetime(2026, 2, 9, tzinfo=UTC)
    records = [
        rec(1, "Add VGF", "2026-02-03"),
        rec(2, "Use VGF", "2026-02-10"),
        rec(3, "Fix VGF", "2026-02-11"),
    ]
    markdown = page("### 1. Vgf\n*2 PRs*\n\n*   **Vgf:** Adds it ([PR#2](u)).")
    found = sweep(records, "acme/widgets", lambda week: markdown, rules=["house_spelling"])
    assert list(found) == ["2026-W06", "2026-W07"]
    assert [f.week for f in found["2026-W07"]] == ["2026-W07"]
