"""Areas as a reader files them (issue "Judgment"), through the real entry point:
`prdigest sync --jsonl` of records written here, then `prdigest digest --format json`.

- a PR of only tests or benchmarks keeps the area its title names: the files sit where
  the harness is kept, the title says what they exercise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import run_cli

WEEK = "2026-W07"  # Monday 2026-02-09


def _record(repo: str, number: int, title: str, *paths: str, author: str = "Ada") -> dict[str, Any]:
    when = f"2026-02-{10 + number % 4:02d}T{10 + number % 10:02d}:00:00Z"
    email = f"{author.lower()}@example.com"
    return {
        "repo": repo,
        "number": number,
        "number_source": "title",
        "sha": f"{number:040x}",
        "parents": [],
        "title": title,
        "body": "",
        "author_name": author,
        "author_email": email,
        "committer_name": author,
        "committer_email": email,
        "committed_at": when,
        "authored_at": when,
        "files": [{"path": path, "additions": 20, "deletions": 1} for path in paths],
        "trailers": {},
    }


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
