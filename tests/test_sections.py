"""Families of areas and the digest's sections (analyze/families.py, write/sections.py):
sections follow the work, and Other Areas stays a short tail that says what changed."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from digest_weeks import classified, classified_inputs, week
from prdigest.analyze import DigestContext, build_context
from prdigest.analyze.context_types import Area, Rest
from prdigest.analyze.families import families, family_of, member_name, plan_sections
from prdigest.models import Classification, FileChange, PullRequest
from prdigest.write.deterministic import write_digest

ET = "pytorch/executorch"


def _area(name: str, count: int, family: str | None = None, previous: int = 0) -> Area:
    return Area(
        name=name,
        family=family,
        catch_all=False,
        description="",
        count=count,
        previous_count=previous,
        delta=count - previous,
        prs=(),
        themes=(),
        top_paths=(),
        kinds={},
        rest=Rest(0, (), 0),
    )


def test_family_is_the_prefix_of_the_area_name() -> None:
    names = {"Backends: Arm", "Backends", "Models: Qwen3-VL", "Docs"}
    assert family_of("Backends: Arm", names) == "Backends"
    assert family_of("Backends", names) == "Backends"  # the family's general member
    assert family_of("Models: Qwen3-VL", names) == "Models"
    assert family_of("Docs", names) is None
    assert family_of("Backends", {"Backends"}) is None  # a family needs a member
    assert member_name("Backends: NXP", "Backends") == "NXP"
    assert member_name("Backends", "Backends") == "Other Backends"


def test_a_family_of_small_areas_gets_a_section() -> None:
    """executorch 2025-W37: 20 PRs of Backends besides Arm, Cadence, Qualcomm and Vulkan."""
    areas = [
        _area("Backends: Arm", 38, "Backends"),
        _area("Build/CI", 18),
        _area("Backends: MediaTek", 4, "Backends"),
        _area("Backends: NXP", 4, "Backends"),
        _area("Backends: XNNPACK", 4, "Backends"),
        _area("Backends: Common", 3, "Backends"),
        _area("Devtools", 3),
        _area("Backends: Apple", 2, "Backends"),
        _area("Backends: Samsung", 2, "Backends"),
        _area("Docs", 2),
        _area("Backends: WebGPU / Wasm", 1, "Backends"),
    ]
    total = sum(a.count for a in areas)
    plan = plan_sections(areas, total)
    assert [(s.heading, s.kind, s.count) for s in plan] == [
        ("Backends: Arm", "area", 38),
        ("Backends: MediaTek, NXP and 5 more", "family", 20),
        ("Build/CI", "area", 18),
        ("Other Areas", "other", 5),
    ]
    assert plan[-1].areas == ("Devtools", "Docs")
    assert [f.name for f in families(areas)] == ["Backends"]
    assert families(areas)[0].count == 58


def test_other_areas_holds_at_most_a_quarter_of_the_prs() -> None:
    """ao 2026-W07: 31 PRs, 11 of them in small areas before; the biggest of those get
    sections until Other Areas is a quarter or less."""
    areas = [
        _area("Docs", 8),
        _area("PT2E Quantization", 7),
        _area("Quantization", 5),
        _area("CI/Build", 4),
        _area("CPU Kernels & Intel CPU", 3),
        _area("Core & API", 1),
        _area("MX / NVFP4 Formats", 1),
        _area("MoE Training", 1),
        _area("Optimizers", 1),
    ]
    plan = plan_sections(areas, 31)
    assert [s.heading for s in plan] == [
        "Docs",
        "PT2E Quantization",
        "Quantization",
        "CI/Build",
        "Other Areas",
    ]
    assert plan[-1].count == 7 <= 31 / 4
    # a family with no member of its own section is headed by its name
    small = [_area("Models: Llama", 3, "Models"), _area("Models: Qwen3-VL", 2, "Models")]
    assert plan_sections(small, 5)[0].heading == "Models"
    # ao 2026-W07, generic profile: PT2E has its own section; the rest of Quantization, its
    # general member (`torchao/quantization/` itself) included, shares one
    quantization = [
        _area("Quantization: PT2E", 7, "Quantization"),
        _area("Quantization: Quantize", 3, "Quantization"),
        _area("Quantization", 2, "Quantization"),
    ]
    assert [s.heading for s in plan_sections(quantization, 12)] == [
        "Quantization: PT2E",
        "Quantization: Quantize and other quantization",
    ]


def _pr(number: int, title: str, path: str, when: datetime) -> PullRequest:
    return PullRequest(
        repo="acme/widgets",
        number=number,
        title=title,
        sha=f"{number:040x}",
        author_email=f"a{number}@x",
        author_name=f"A{number}",
        merged_at=when,
        files=(FileChange(path, 10, 2),),
    )


def _context() -> DigestContext:
    start = week("2026-W07").start + timedelta(hours=12)
    plan = [("Backends: Arm", 8), ("Backends: NXP", 3), ("Backends: Samsung", 2)]
    plan += [("Docs", 1), ("Runtime", 2), ("Tests", 1)]
    items, number = [], 100
    for area, count in plan:
        for _ in range(count):
            number += 1
            word = area.split(":")[-1].strip().lower()
            title = f"Add {word} support for op{number} in the {word} partitioner"
            pr = _pr(number, title, f"{word}/op{number}.py", start + timedelta(minutes=number))
            items.append((pr, Classification(area, "improvements", "t", "t")))
    return build_context("acme/widgets", week("2026-W07"), items, [])


def test_the_writer_follows_the_plan_and_every_line_says_what_changed() -> None:
    built = _context()
    context = built.as_dict()
    assert [s["heading"] for s in context["sections"]] == [
        "Backends: Arm",
        "Backends: NXP and Samsung",
        "Other Areas",
    ]
    assert context["families"][0] == {
        "name": "Backends",
        "count": 13,
        "previous_count": 0,
        "areas": ["Backends: Arm", "Backends: NXP", "Backends: Samsung"],
    }
    markdown = write_digest(built)
    assert "### 2. Backends: NXP and Samsung\n*5 PRs across 2 areas" in markdown
    assert re.search(r"^\*   \*\*NXP\*\* \(3 PRs\): Adds nxp support for op\d+", markdown, re.M)
    other = markdown.split("### 3. Other Areas\n", 1)[1].split("\n### ", 1)[0]
    lines = [line for line in other.splitlines() if line.startswith("*   ")]
    assert len(lines) == 1 and all(re.search(r"\(\d PRs?\): \w", line) for line in lines), other
    assert not re.search(r"\(\d+ PRs?\)\.$|:$", other, re.M)  # no bare count, no dangling colon
    # a lone PR is a line in the tail, not a member line of Other Areas
    assert re.search(r"^\*\*Also, one PR each in 2 more areas:\*\* Docs: adds \w", other, re.M)
    assert write_digest(DigestContext.from_dict(json.loads(json.dumps(context)))) == markdown


def test_a_context_without_a_plan_still_gets_sections() -> None:
    """Contexts stored before the plan existed are written with the same plan."""
    context = _context()
    markdown = write_digest(context)
    assert context.sections
    assert write_digest(replace(context, sections=())) == markdown


def test_other_areas_stays_a_quarter_on_real_weeks(executorch_jsonl: Path) -> None:
    pairs = classified(str(executorch_jsonl), ET, True)
    for iso in ("2025-W37", "2026-W05", "2026-W07"):
        context = build_context(ET, **classified_inputs(pairs, week(iso))).as_dict()
        other = [s for s in context["sections"] if s["kind"] == "other"]
        assert not other or other[0]["count"] * 4 <= context["counts"]["prs"], iso
        in_other = {a for s in other for a in s["areas"]}
        for family in context["families"]:  # a family of 5+ PRs is never left in Other
            left = sum(
                a["count"]
                for a in context["areas"]
                if a["name"] in in_other and a["family"] == family["name"]
            )
            assert left < 5, (iso, family["name"])


# --- the same families in release notes and on the site -----------------------------------


def test_release_notes_keep_a_family_s_modules_together() -> None:
    from prdigest.release.notes_plan import module_order

    modules = {
        "Backends: Arm": [1] * 9,
        "LLM": [1] * 6,
        "Backends: NXP": [1] * 2,
        "Docs": [1] * 3,
        "Backends: Vulkan": [1] * 4,
        "Other": [1],
    }
    assert module_order(modules) == [
        "Backends: Arm",
        "Backends: Vulkan",
        "Backends: NXP",
        "LLM",
        "Docs",
        "Other",
    ]


def test_site_charts_group_areas_by_family() -> None:
    from datetime import date

    from prdigest.site.charts import WeekPoint, chart_rows, repo_charts

    weeks = [
        WeekPoint(
            date(2026, 2, 2) + timedelta(days=7 * i),
            date(2026, 2, 8) + timedelta(days=7 * i),
            30,
            {"Backends: Arm": 10 + i, "LLM": 8, "Backends: Vulkan": 6, "Backends: NXP": 1},
        )
        for i in range(3)
    ]
    rows = chart_rows(weeks)
    assert [label for label, _ in rows][:3] == [
        "Backends (all areas)",
        "Backends: Arm",
        "Backends: Vulkan",
    ]
    assert rows[0][1] == ("Backends: Arm", "Backends: NXP", "Backends: Vulkan")
    assert weeks[0].count(rows[0][1]) == 17
    charts = repo_charts("o/r", weeks)
    assert charts[3].title == "Backends (all areas): PRs per week"


def test_the_profile_s_catch_all_is_named_by_its_directories() -> None:
    """executorch 2025-W41: `Other` held one PR, and "**Other** (1 PR)" in Other Areas named
    nothing; the directories it touches do."""
    start = week("2026-W07").start + timedelta(hours=12)
    items = []
    for number in range(1, 9):
        area, rule = (
            ("Runtime", "p/area/Runtime/paths") if number > 2 else ("Other", "p/area/Other/default")
        )
        path = "runtime/core.cpp" if number > 2 else "website/index.html"
        pr = _pr(
            number, f"Change number {number} of the week", path, start + timedelta(hours=number)
        )
        items.append((pr, Classification(area, "improvements", rule, "p/kind/x")))
    context = build_context("acme/widgets", week("2026-W07"), items, [])
    other = next(a for a in context.areas if a.name == "Other")
    assert other.catch_all and not context.areas[0].catch_all
    markdown = write_digest(context)
    assert "*   **`website`** (2 PRs): " in markdown and "*   **Other** (" not in markdown


def _said(markdown_line: str) -> str:
    """A line as a reader sees its words: no escapes, code marks or emphasis."""
    return re.sub(r"[\\`*]", "", markdown_line)


def test_past_the_budget_every_line_cites_what_its_sentence_is_made_from(
    executorch_jsonl: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no citation budget at all, a digest still links every line, and a line whose
    sentence joins two PRs' titles ("Adds support for `a` and `b`") cites both."""
    from prdigest.write import sections as sections_module

    monkeypatch.setattr(sections_module, "citation_budget", lambda prs: 0)
    pairs = classified(str(executorch_jsonl), ET, False)
    joined = 0
    for iso in ("2025-W22", "2025-W37", "2026-W07", "2026-W09"):
        context = build_context(ET, **classified_inputs(pairs, week(iso)))
        lines = write_digest(context).split("\n---\n", 2)[1].splitlines()
        for line in lines:
            if re.match(r"\s*\*   \*\*[^*]+\*\* \(\d+ PRs?\): ", line):
                told_elsewhere = ("above.", "see below", "direct push")
                assert "[PR#" in line or any(t in line for t in told_elsewhere), (iso, line)
        for theme in (t for a in context.areas for t in a.themes if not t.points):
            opening = _said(theme.sentence)[:40]
            bullets = (line for line in lines if line.lstrip().startswith("*   "))
            for line in (line for line in bullets if opening in _said(line)):
                cited = {int(n) for n in re.findall(r"\[PR#(\d+)\]", line)}
                assert set(theme.quotes) <= cited, (iso, line, theme.quotes)
                joined += len(theme.quotes) > 1
    assert joined >= 3  # the joined sentences this checks are there
