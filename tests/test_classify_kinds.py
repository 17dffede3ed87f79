"""The kind a release-notes title's wording gives (issue 22), measured as a user measures it:
`prdigest classify eval` on a worksheet of titles, for the `pytorch` profile and for the
shared defaults every other profile uses (`generic`)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from prdigest.cli import main

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"

# (what the title says, its kind): written for these tests, in the phrasing of release notes
CASES = {
    "a changed default breaks": [
        ("Flip the default of `load_checkpoint` to `strict=True`", "bc_breaking"),
        ("Change default dtype of `torch.foo.randn` to float32", "bc_breaking"),
        ("Switched the default backend of `compile_model` to the new runtime", "bc_breaking"),
    ],
    "a dropped platform or feature breaks": [
        ("Drop Python 3.9 support", "bc_breaking"),
        ("Removed support for the legacy zipfile serializer", "bc_breaking"),
    ],
    "what no longer works or now fails breaks": [
        ("`DataLoader` no longer accepts a generator as `sampler`", "bc_breaking"),
        ("`quantize_` now raises on unsupported dtypes", "bc_breaking"),
    ],
    "the first verb adds something, in any tense": [
        ("Adds `max_autotune_gemm` to the backend options", "new_features"),
        ("Supported bfloat16 inputs in `grid_sample`", "new_features"),
        ("Registered a Vulkan backend for quantized linear", "new_features"),
        ("Enabled the flight recorder on every rank", "new_features"),
        ("Provides a context manager to pin memory", "new_features"),
        ("Enable forward-mode AD for `affine_grid`", "new_features"),
    ],
    "a title naming an API, an option or the support for something": [
        ("Asynchronous checkpointing API for sharded state dicts", "new_features"),
        ("Fused attention support for jagged tensors", "new_features"),
        ("`fast_eval` compiler option for advanced users", "new_features"),
    ],
    "a feature made public, beta or stable is new": [
        ("Moved the FSDP wrapper from experimental to public", "new_features"),
        ("Promote `torch.export.Dim` to stable", "new_features"),
        ("Make `sdpa_kernel` public", "new_features"),
    ],
    "what a fix restores, respects or preserves is a fix": [
        ("Restore MSRV by removing `OnceLock::wait` from the Windows handler", "bug_fixes"),
        ("Respect package-specific cutoffs when selecting `ty`", "bug_fixes"),
        ("Preserve transitive self-constraints in recursive extras", "bug_fixes"),
    ],
    "CI/CD ships the binaries users install": [
        ("Add binaries for CUDA 12.8 in CI/CD", "new_features"),
    ],
}
# the same words mean what they meant before: a fix, a test, a refactor, an improvement
UNCHANGED = [
    ("Fix crash when `device_id` is given", "bug_fixes"),
    ("Remove unused support code for the old allocator", "not_user_facing"),
    ("Add unit tests", "not_user_facing"),
    ("Enable test_foo in CI", "not_user_facing"),
    ("Improve the precision of `torch.lerp` for half inputs", "improvements"),
    ("Update the documentation of `DataLoader`", "docs"),
    ("Delete the `rowwise_scaled` kernels and APIs", "improvements"),
    ("Remove the fusion option of `compile_model`", "improvements"),
    ("Mark the composable quantizer APIs experimental", "improvements"),
]


def worksheet(path: Path, rows: list[tuple[str, str]]) -> Path:
    lines = ["commit_hash,category,topic,title"]
    lines += [f'c{i},python_frontend,{kind},"{title}"' for i, (title, kind) in enumerate(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def topic_report(labels: Path, profile: str) -> str:
    result = CliRunner().invoke(
        main, ["classify", "eval", "--labels", str(labels), "--profile", profile]
    )
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("profile", ["pytorch", "generic"])
@pytest.mark.parametrize("rule", list(CASES))
def test_release_notes_wording_decides_the_kind(rule: str, profile: str, tmp_path: Path) -> None:
    rows = CASES[rule]
    out = topic_report(worksheet(tmp_path / "labels.csv", rows), profile)
    assert f"topic accuracy: 1.000 ({len(rows)}/{len(rows)})" in out, f"{rule}:\n{out}"


@pytest.mark.parametrize("profile", ["pytorch", "generic"])
def test_the_other_wordings_keep_their_kind(profile: str, tmp_path: Path) -> None:
    out = topic_report(worksheet(tmp_path / "labels.csv", UNCHANGED), profile)
    n = len(UNCHANGED)
    assert f"topic accuracy: 1.000 ({n}/{n})" in out, out


def test_work_avoided_is_performance_on_pytorch(tmp_path: Path) -> None:
    rows = [
        ("Avoid extra dispatch in `Tensor.to` for matching dtypes", "performance"),
        ("Avoid the `index_put_` overhead in the histogram kernel", "performance"),
    ]
    out = topic_report(worksheet(tmp_path / "labels.csv", rows), "pytorch")
    assert "topic accuracy: 1.000 (2/2)" in out, out


def test_eval_lists_the_topic_confusions(tmp_path: Path) -> None:
    rows = [("Fix crash in `torch.cat`", "new_features"), ("Fix hang in `barrier`", "bug_fixes")]
    out = topic_report(worksheet(tmp_path / "labels.csv", rows), "pytorch")
    assert "main topic confusions (true → predicted):\n  new_features → bug_fixes: 1\n" in out


def test_pytorch_2_6_release_notes_entries_reach_the_goal() -> None:
    """Issue 22's measure: PyTorch 2.6's entries (seeds/003), kind from their section."""
    if not list(SEEDS.glob("003_*.excerpt.txt")):
        pytest.skip(f"PyTorch 2.6's release notes are absent from {SEEDS}")
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "pytorch26_kinds.py")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    entries = re.search(r": (\d+) entries \(", result.stdout)
    assert entries and int(entries.group(1)) == 62, result.stdout
    accuracy = re.search(r"topic accuracy: (\d\.\d{3}) \((\d+)/62\)", result.stdout)
    assert accuracy and float(accuracy.group(1)) >= 0.70, result.stdout
