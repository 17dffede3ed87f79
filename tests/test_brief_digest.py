"""A week's digest composed from briefs, through the CLI: releases and breaking changes
lead, a change reverted in its window is never news, a reland is told as landed again,
the internal work is one closing line, the verification stays out of the prose, and
no size is ever a reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import pr_record, run_cli

REPO = "acme/widgets"
WEEK = "2026-W10"  # 2026-03-02 .. 2026-03-08


def _day(day: int, hour: int = 10) -> str:
    return f"2026-03-{day:02d}T{hour:02d}:00:00Z"


def _patch(path: str, removed: list[str], added: list[str]) -> dict[str, object]:
    lines = [f"-{line}" for line in removed] + [f"+{line}" for line in added]
    hunk = f"@@ -1,{len(removed)} +1,{len(added)} @@\n" + "\n".join(lines)
    return {"path": path, "additions": len(added), "deletions": len(removed), "patch": hunk}


def _records() -> list[dict[str, object]]:
    rows = [
        pr_record(REPO, 101, "Release 2.1.0", [("CHANGELOG.md", 12, 0)], when=_day(6)),
        pr_record(
            REPO,
            102,
            "Remove the deprecated `load_legacy` API",
            [("widgets/api.py", 0, 40)],
            when=_day(3),
            body="`load_legacy` was deprecated in 1.8; use `load` instead.",
        ),
        pr_record(
            REPO,
            103,
            "Accept a column name in `grid`",
            [("widgets/grid.py", 60, 10)],
            when=_day(3, 12),
            body="## Release notes\nThe `grid` command now accepts a column name.\n"
            "Relying on the implicit `name` column is deprecated.",
        ),
        pr_record(
            REPO,
            104,
            "Add `--fast` flag to `run`",
            [("widgets/run.py", 80, 5)],
            when=_day(4),
            body="This adds the flag so that large runs finish in minutes.",
        ),
        pr_record(
            REPO, 105, "Add experimental cache", [("widgets/cache.py", 200, 0)], when=_day(4, 11)
        ),
        pr_record(
            REPO,
            106,
            'Revert "Add experimental cache"',
            [("widgets/cache.py", 0, 200)],
            when=_day(5),
        ),
        pr_record(
            REPO,
            107,
            "Box large fields in the validator",
            [("widgets/core.py", 30, 30)],
            when=_day(2),
        ),
        pr_record(
            REPO,
            108,
            'Revert "Box large fields in the validator"',
            [("widgets/core.py", 30, 30)],
            when=_day(2, 15),
        ),
        pr_record(
            REPO,
            109,
            "Box large fields in the validator",
            [("widgets/core.py", 31, 30)],
            when=_day(3, 9),
        ),
        pr_record(
            REPO,
            110,
            "Fix a crash in `parse` on empty input",
            [("widgets/parse.py", 5, 1), ("tests/test_parse.py", 20, 0)],
            when=_day(5, 14),
            body="## Motivation\n`parse` raises IndexError on an empty string.",
        ),
    ]
    rows[0]["files"] = [
        _patch("pyproject.toml", ['version = "2.0.0"'], ['version = "2.1.0"']),
        _patch(
            "CHANGELOG.md",
            [],
            ["## 2.1.0", "- Python 3.14 support (#99)", "- `run --fast` for large runs"],
        ),
    ]
    rows[1]["files"] = [
        _patch("widgets/api.py", ["def load_legacy(path):", "    return load(path)"], [])
    ]
    internal = [
        ("Add tests for grid", [("tests/test_grid.py", 50, 0)]),
        ("Fix flaky CI job", [(".github/workflows/ci.yml", 3, 3)]),
        ("Update the contributing guide", [("docs/contributing.md", 20, 4)]),
        ("Bump ruff from 0.5.0 to 0.6.0", [("requirements-dev.txt", 1, 1)]),
        ("Add tests for run", [("tests/test_run.py", 30, 0)]),
        ("Typo in README", [("README.md", 1, 1)]),
    ]
    for i, (title, files) in enumerate(internal):
        rows.append(pr_record(REPO, 120 + i, title, files, when=_day(6, 11 + i)))
    return rows


def _digest(tmp_path: Path) -> tuple[str, dict]:
    records = tmp_path / "prs.jsonl"
    records.write_text("\n".join(json.dumps(r) for r in _records()) + "\n")
    db = tmp_path / "s.db"
    assert run_cli("sync", REPO, "--jsonl", str(records), db=db).exit_code == 0
    md = run_cli("digest", REPO, "--week", WEEK, db=db)
    assert md.exit_code == 0, md.output
    js = run_cli("digest", REPO, "--week", WEEK, "--format", "json", db=db)
    return md.stdout, json.loads(js.stdout)


def _section(markdown: str, heading: str) -> str:
    match = re.search(rf"### \d+\. {heading}\n(.*?)(?=\n### |\n---|\Z)", markdown, re.S)
    return match.group(1) if match else ""


def _prose(markdown: str) -> str:
    return re.sub(r"<!--.*?-->", "", markdown, flags=re.S)


def test_releases_and_breaking_changes_lead(tmp_path: Path) -> None:
    markdown, context = _digest(tmp_path)
    takeaways = markdown.split("### Key Takeaways", 1)[1].split("---", 1)[0]
    assert takeaways.index("PR#101") < takeaways.index("PR#10") + 10  # the release first
    assert "version 2.1.0" in takeaways
    # what a release brings, in its changelog's words
    assert "Highlights: Python 3.14 support; `run --fast` for large runs" in _section(
        markdown, "Releases"
    )
    assert "PR#102" in _section(markdown, "Breaking changes")
    assert "`load_legacy`" in _section(markdown, "Breaking changes")
    assert "PR#103" in _section(markdown, "Deprecations")
    assert context["plan"]["lead"][0] == 101


def test_a_change_reverted_in_its_window_is_never_news(tmp_path: Path) -> None:
    markdown, context = _digest(tmp_path)
    body = markdown.split("---", 1)[1].split("### Reverts", 1)[0]
    assert "PR#105" not in body and "PR#106" not in body  # taken back: no section tells it
    reverts = markdown.split("### Reverts", 1)[1]
    assert "PR#105" in reverts and "PR#106" in reverts
    assert context["briefs"]["105"]["status"] == "reverted"
    # a reland found by its title alone (no "Reland" in it) is the change that stands
    assert context["briefs"]["109"]["status"] == "reland"
    assert "PR#109" in body and "landed again" in markdown


def test_the_prose_tells_no_sizes_counts_no_folders_and_keeps_the_checks_out(
    tmp_path: Path,
) -> None:
    markdown, context = _digest(tmp_path)
    prose = _prose(markdown)
    assert not re.search(r"\b\d[\d,]* (?:lines?|files?)\b", prose)
    assert "mostly under" not in prose
    assert "checked against" not in prose and "checked against" in markdown  # an HTML comment
    told = set(context["plan"]["told"]) if "told" in context["plan"] else None
    untold = sum(len(prs) for _, prs in context["plan"]["untold"])
    assert f"{untold} more PRs also landed" in prose
    words = len(re.findall(r"[A-Za-z0-9][\w'.-]*", re.sub(r"\]\([^)]*\)", "]", prose)))
    assert words <= 250, words
    assert told is None or not told & {105, 106}


def test_a_why_is_the_prs_own(tmp_path: Path) -> None:
    markdown, _ = _digest(tmp_path)
    assert "so that large runs finish in minutes" in markdown
    assert "Previously, `parse` raised `IndexError` on an empty string" in markdown


def test_a_release_per_merged_pr_is_told_in_one_line(tmp_path: Path) -> None:
    """FastAPI releases after most merges: fifteen versions in a week are one news, lowest
    to highest, every release cited once in its section."""
    rows = []
    for i in range(1, 11):
        row = pr_record(
            REPO, 200 + i, f"🔖 Release version 0.140.{i}", [], when=_day(2 + i % 5, 9 + i)
        )
        bump = _patch(
            "widgets/__init__.py",
            [f'__version__ = "0.140.{i - 1}"'],
            [f'__version__ = "0.140.{i}"'],
        )
        rows.append({**row, "files": [bump]})
    rows.append(
        pr_record(
            REPO, 300, "Add `--fast` flag to `run`", [("widgets/run.py", 80, 5)], when=_day(4)
        )
    )
    records = tmp_path / "prs.jsonl"
    records.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    db = tmp_path / "s.db"
    assert run_cli("sync", REPO, "--jsonl", str(records), db=db).exit_code == 0
    markdown = run_cli("digest", REPO, "--week", WEEK, db=db).stdout
    takeaways = markdown.split("### Key Takeaways", 1)[1].split("---", 1)[0]
    assert "10 releases, 0.140.1 to 0.140.10" in takeaways, takeaways
    releases = _section(markdown, "Releases")
    assert releases.count("\n*") <= 1 and releases.startswith(
        "*   Releases 10 versions, 0.140.1 to 0.140.10"
    )
    assert all(f"PR#{200 + i}]" in releases for i in range(1, 11)), releases
