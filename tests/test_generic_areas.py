"""The generic profile names areas after the repository's structure below its package root,
in the repository's own spelling, and never after the package itself (issue 13, items 3–4)."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from digest_weeks import load
from helpers import run_cli
from prdigest.classify import derive_areas, profile_for
from prdigest.config import Config
from prdigest.models import FileChange, PullRequest
from prdigest.reading.spelling import TitleWords

REPO = "acme/widgetkit"
PKG = "src/widgetkit"
MONDAY = datetime(2026, 2, 9, 10, tzinfo=UTC)  # 2026-W07

# (title, files): a `src/<pkg>/` layout with models, a busy module, and package-level files
CHANGES: list[tuple[str, list[str]]] = [
    ("Add Qwen3-VL model", [f"{PKG}/models/qwen3_vl/modeling_qwen3_vl.py", "docs/models.md"]),
    ("Fix Qwen3-VL rope scaling", [f"{PKG}/models/qwen3_vl/modeling_qwen3_vl.py"]),
    ("Qwen3-VL: support video inputs", [f"{PKG}/models/qwen3_vl/processing_qwen3_vl.py"]),
    ("Speed up Llama attention", [f"{PKG}/models/llama/modeling_llama.py"]),
    ("Fix Llama tokenizer padding", [f"{PKG}/models/llama/tokenization_llama.py"]),
    ("Llama: add RoPE scaling", [f"{PKG}/models/llama/modeling_llama.py"]),
    ("Add a W&B tracker", [f"{PKG}/tracking.py", "tests/test_tracking.py"]),
    ("Log MLflow metrics per step", [f"{PKG}/tracking.py"]),
    ("Fix the TensorBoard tracker on Windows", [f"{PKG}/tracking.py", "tests/test_tracking.py"]),
    ("Track gradient norms", [f"{PKG}/tracking.py"]),
    ("Export the public API from the package", [f"{PKG}/__init__.py"]),
    ("Add a --version flag", [f"{PKG}/cli.py"]),
    ("Fix the docs build", ["docs/conf.py"]),
]


def _prs() -> list[PullRequest]:
    return [
        PullRequest(
            repo=REPO,
            number=100 + i,
            title=title,
            sha=f"{100 + i:040x}",
            author_email=f"dev{i % 4}@acme.example",
            author_name=f"Dev {i % 4}",
            merged_at=MONDAY + timedelta(hours=5 * i),
            files=tuple(FileChange(path, 5, 1) for path in paths),
        )
        for i, (title, paths) in enumerate(CHANGES)
    ]


def _areas_of(prs: list[PullRequest]) -> dict[str, str]:
    profile = profile_for(REPO, Config())
    return {pr.title: c.area for pr, c in zip(prs, profile.classify_all(prs), strict=True)}


def test_areas_come_from_below_the_package_root() -> None:
    areas = _areas_of(_prs())
    assert areas["Add Qwen3-VL model"] == "Models: Qwen3-VL"  # the titles' spelling
    assert areas["Speed up Llama attention"] == "Models: Llama"
    assert areas["Add a W&B tracker"] == "Tracking"  # a busy top-level module: its stem
    assert areas["Export the public API from the package"] == "Core"  # the package's own files
    assert areas["Add a --version flag"] == "Core"
    assert areas["Fix the docs build"] == "Docs"
    assert not any("widgetkit" in area.lower() for area in areas.values())


def test_a_top_level_package_named_like_the_repository_is_no_area(ao_jsonl: Path) -> None:
    """pytorch/ao keeps its code in `torchao/`: no area is torchao, whatever the window."""
    prs = list(load(str(ao_jsonl), "pytorch/ao"))
    words = TitleWords((str(pr.merged_at), pr.title) for pr in prs)
    profile = profile_for("pytorch/ao", Config(), "generic")
    seen: Counter[str] = Counter()
    for start in range(0, len(prs) - 60, 120):  # every few weeks of the history, 60 PRs each
        batch = prs[start : start + 60]
        profile.use_spelling(words.spelling(before=str(batch[-1].merged_at)))
        seen.update(c.area for c in profile.classify_all(batch))
    assert not [area for area in seen if "torchao" in area.lower()], seen
    assert seen["Prototype: MX Formats"] and seen["Prototype: MoE Training"] and seen["Core"]


def test_rules_name_the_package_s_modules_and_mirror_their_tests() -> None:
    rules = {rule.name: rule for rule in derive_areas(_prs())}
    assert "Tracking" in rules and "Models: Qwen3-VL" in rules and "Core" in rules
    assert f"{PKG}/tracking.py" in rules["Tracking"].path_globs
    assert "tests/test_tracking*" in rules["Tracking"].path_globs
    assert rules["Core"].path_globs == (f"{PKG}/*",)


def _record(pr: PullRequest) -> dict[str, Any]:
    when = pr.merged_at.isoformat().replace("+00:00", "Z") if pr.merged_at else None
    return {
        "repo": REPO,
        "number": pr.number,
        "number_source": "title",
        "sha": pr.sha,
        "parents": [],
        "title": pr.title,
        "body": "",
        "author_name": pr.author_name,
        "author_email": pr.author_email,
        "committer_name": pr.author_name,
        "committer_email": pr.author_email,
        "committed_at": when,
        "authored_at": when,
        "files": [{"path": f.path, "additions": 5, "deletions": 1} for f in pr.files],
        "trailers": {},
    }


def test_a_digest_of_an_unknown_repository_reads_its_structure(tmp_path: Path) -> None:
    """End to end, as a new user runs it: sync, then a digest with the generic profile."""
    jsonl = tmp_path / "widgetkit.jsonl"
    jsonl.write_text("".join(json.dumps(_record(pr)) + "\n" for pr in _prs()), encoding="utf-8")
    db = tmp_path / "store.db"
    assert run_cli("sync", REPO, "--jsonl", str(jsonl), db=db).exit_code == 0
    result = run_cli("digest", REPO, "--week", "2026-W07", "--format", "json", db=db)
    assert result.exit_code == 0, result.output
    context = json.loads(result.stdout)
    names = {area["name"]: area for area in context["areas"]}
    assert {"Models: Qwen3-VL", "Models: Llama", "Tracking", "Core"} <= set(names)
    assert names["Models: Qwen3-VL"]["family"] == "Models"
    assert context["families"][0]["name"] == "Models" and context["families"][0]["count"] == 6
    assert not any("widgetkit" in name.lower() for name in names)
    markdown = run_cli("digest", REPO, "--week", "2026-W07", db=db).stdout
    assert "Qwen3-VL" in markdown and "Qwen3 Vl" not in markdown


def test_the_site_s_history_names_areas_as_the_digests_do(tmp_path: Path) -> None:
    """The site's charts classify weeks no digest stored; their area names take the whole
    history's spelling, as a digest's do, not only the spelling of the unclassified titles."""
    from prdigest.pipeline.site_job import weekly_history
    from prdigest.store import open_store

    later = [  # a later week: the model's files again, titles that never spell its name
        PullRequest(
            repo=REPO,
            number=200 + i,
            title=f"Tidy up modelling code, part {i}",
            sha=f"{200 + i:040x}",
            author_email="dev0@acme.example",
            merged_at=MONDAY + timedelta(days=14, hours=i),
            files=(FileChange(f"{PKG}/models/qwen3_vl/modeling_qwen3_vl.py", 5, 1),),
        )
        for i in range(3)
    ]
    jsonl = tmp_path / "widgetkit.jsonl"
    records = [_record(pr) for pr in [*_prs(), *later]]
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    db = tmp_path / "store.db"
    assert run_cli("sync", REPO, "--jsonl", str(jsonl), db=db).exit_code == 0
    assert run_cli("digest", REPO, "--week", "2026-W07", db=db).exit_code == 0  # stores W07's
    store = open_store(str(db))
    try:
        points = weekly_history(store, Config(), REPO)
    finally:
        store.close()
    assert [p.areas for p in points if p.start.isoformat() == "2026-02-23"] == [
        {"Models: Qwen3-VL": 3}
    ]
