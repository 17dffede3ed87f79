"""Release notes a release manager would publish (issue 22), through the CLI on real data:
ao's records with their diffs, over the gold set's weeks (2025-10-13..2026-03-15).

Each entry's section comes from the same reading of body and diff as the digest; breaking
changes are PyTorch's paragraphs naming what went; what came and went inside the range is
out, and the worksheet says so."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from conftest import real_data
from helpers import run_cli
from release_helpers import module_of, read_rows, write_rows

# Months of records with their diffs (the shared data's *-patches files; 4 MB): these skip
# without ../shared/data.
pytestmark = pytest.mark.whole_history("ao's 2025-10..2026-03 and executorch's 2026 Q1 with diffs")

AO_PATCHES = "pytorch__ao/prs-2025Q4-2026Q1-patches.jsonl.gz"
SINCE, UNTIL = "2025-10-13", "2026-03-15"


def _url(number: int) -> str:
    return f"https://github.com/pytorch/ao/pull/{number}"


@pytest.fixture(scope="module")
def ao_notes(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[int, dict[str, str]]]:
    """(the notes, worksheet rows by PR number) of ao over the gold weeks' range."""
    source = real_data(AO_PATCHES)
    folder = tmp_path_factory.mktemp("publish")
    db, sheet, out = folder / "p.db", folder / "ao.csv", folder / "ao.md"
    result = run_cli("--db", str(db), "release-notes", "pytorch/ao", "--jsonl", str(source),
                     "--since", SINCE, "--until", UNTIL, "--worksheet", str(sheet),
                     "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = {int(r["pr_link"].rsplit("/", 1)[1]): r for r in read_rows(sheet) if r["pr_link"]}
    return out.read_text(encoding="utf-8"), rows


def _section(markdown: str, heading: str) -> str:
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", markdown, re.M | re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def _entry(markdown: str, number: int) -> str:
    """A Backwards Incompatible entry: its `###` line and its paragraph."""
    section = _section(markdown, "Backwards Incompatible changes")
    match = re.search(rf"^### [^\n]*\[#{number}\]\([^\n]*\n(.*?)(?=^### |\Z)", section, re.M | re.S)
    assert match, f"#{number} has no Backwards Incompatible entry"
    return match.group(0)


def test_breaking_changes_are_read_from_the_diff_not_the_title(
    ao_notes: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = ao_notes
    # "Remove marlin qqq support" removes a public module and classes: filed as an
    # Improvement by its title's wording before, a breaking change by its diff now.
    assert rows[3612]["topic"] == "bc_breaking"
    # "Fix TORCHAO_SKIP_LOADING_SO_FILES behavior" renames the environment variable.
    assert rows[3189]["topic"] == "bc_breaking"
    # "rename MXTensor … to_dtype to dequantize" was not user-facing by its paths.
    assert rows[3169]["topic"] == "bc_breaking"
    # "Deleted activation24, fp8 gemm with 2:4 sparsity": the diff has no patch for its
    # Python files, but it deletes 1.9k lines of library code and adds none.
    assert rows[3744]["topic"] == "bc_breaking"
    for number in (3612, 3189, 3169, 3744):
        assert f"[#{number}]({_url(number)})" in _section(
            markdown, "Backwards Incompatible changes"
        )


def test_a_breaking_change_is_a_paragraph_naming_what_went(
    ao_notes: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = ao_notes
    entry = _entry(markdown, 3612)
    assert entry.startswith(f"### Removed marlin qqq support ([#3612]({_url(3612)}))\n")
    # What went, as users import it: the classes and functions first, the module they
    # lived in last (where names live, told when it goes too).
    removed = re.search(r"^Removed: (.+)\.$", entry, re.M)
    assert removed, entry
    names = re.findall(r"`([^`]+)`", removed.group(1))
    assert "torchao.dtypes.uintx.MarlinQQQTensor" in names, names
    assert names[-1] == "torchao.dtypes.uintx.marlin_qqq_tensor", names
    renamed = _entry(markdown, 3189)
    assert "Renamed: `TORCHAO_SKIP_LOADING_SO_FILES` → `TORCHAO_FORCE_SKIP_LOADING_SO_FILES`." in (
        renamed
    )
    deleted = _entry(markdown, 3744)
    assert "Deleted from: `torchao/csrc/cuda/activation24/" in deleted
    # No PR of these states a migration: none is invented, the worksheet asks a human.
    assert "instead" not in entry
    assert rows[3612]["note"].startswith("breaking: the PR states no migration")
    assert rows[3612]["reason"] == ""


def test_a_change_added_and_removed_in_the_range_is_out_and_the_worksheet_says_so(
    ao_notes: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = ao_notes
    # #3075 added Float8OpaqueTensor (2025-10); #3365 moved it out of the public API
    # (2025-11): no release in between, so neither is news.
    why = "added #3075, removed #3365, both in range"
    assert rows[3075]["reason"] == why and rows[3365]["reason"] == why
    assert "[#3075](" not in markdown and "[#3365](" not in markdown


def test_a_fix_of_a_deprecation_warning_is_no_deprecation(tmp_path: Path) -> None:
    # ao's #4109 (it silences TreeSpec's deprecation warning), titled as such a fix often
    # is: the classifier's wording rule calls it a deprecation; its diff deprecates nothing.
    with gzip.open(real_data(AO_PATCHES), "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if '"committed_at": "2026-03-1' in line]
    fix = next(r for r in records if r["number"] == 4109)
    fix["title"] = "Fix deprecation warning of TreeSpec constructor"
    source = tmp_path / "ao.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    sheet, out = tmp_path / "ws.csv", tmp_path / "notes.md"
    result = run_cli("--db", str(tmp_path / "d.db"), "release-notes", "pytorch/ao",
                     "--jsonl", str(source), "--since", "2026-03-16", "--until", "2026-03-19",
                     "--worksheet", str(sheet), "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    row = next(r for r in read_rows(sheet) if r["pr_link"].endswith("/4109"))
    assert row["topic"] == "bug_fixes"
    assert module_of(out.read_text(encoding="utf-8"), 4109)[0] == "Bug fixes"


ET_PATCHES = "pytorch__executorch/prs-2026Q1-patches.jsonl.gz"


@pytest.fixture(scope="module")
def executorch_q1(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, dict[int, dict[str, str]]]:
    """(the notes, worksheet rows by PR number) of executorch's 2026 Q1, with diffs."""
    source = real_data(ET_PATCHES)
    folder = tmp_path_factory.mktemp("publish-et")
    db, sheet, out = folder / "p.db", folder / "et.csv", folder / "et.md"
    result = run_cli("--db", str(db), "release-notes", "pytorch/executorch", "--jsonl", str(source),
                     "--since", "2026-01-01", "--until", "2026-03-31", "--worksheet", str(sheet),
                     "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = {int(r["pr_link"].rsplit("/", 1)[1]): r for r in read_rows(sheet) if r["pr_link"]}
    return out.read_text(encoding="utf-8"), rows


def test_ci_build_and_lint_work_is_for_developers(
    executorch_q1: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = executorch_q1
    # Buck visibility of the kernels' targets, and a lint-ignore: filed as an Improvement
    # and a New feature by their wording before; Developers' work, as PyTorch files it.
    for number in (16523, 16544):
        assert rows[number]["topic"] == "devs", rows[number]
        assert module_of(markdown, number)[0] == "Developers"
    assert rows[16544]["title"] == "Added lint-ignore in `install_requirements.py`"


def test_a_measured_speed_up_is_performance_wherever_it_was_filed(
    executorch_q1: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = executorch_q1
    # "Add Metal buffer pool …" states its speed-up in its body: a New feature by its verb
    # before, Performance now.
    assert rows[17712]["topic"] == "performance"
    assert module_of(markdown, 17712)[0] == "Performance"


def _headings(section: str) -> list[str]:
    return [line[4:] for line in section.splitlines() if line.startswith("### ")]


def test_modules_are_grouped_by_top_level_area_with_sub_areas_as_lead_ins(
    executorch_q1: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = executorch_q1
    improvements = _section(markdown, "Improvements")
    headings = _headings(improvements)
    # One `### Backends` (Arm, Vulkan, … as bold lead-ins), not a `###` per backend.
    assert headings.count("Backends") == 1
    assert not [h for h in headings if h.startswith("Backends:")]
    backends = improvements.split("### Backends\n", 1)[1].split("\n### ", 1)[0]
    assert "\n**Arm**\n" in backends and "\n**Vulkan**\n" in backends
    assert rows[17478]["category"] == "Backends: Arm"
    assert module_of(markdown, 17478) == ("Improvements", "Backends: Arm")
    for heading in ("New features", "Improvements", "Bug fixes", "Developers"):
        assert len(_headings(_section(markdown, heading))) <= 15


def test_entries_are_in_the_past_tense_and_never_cut(
    executorch_q1: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = executorch_q1
    # `Fold constants …`, `Uplift Ethos-U SDK …`, `Restrict batch norm …` were left as written
    assert rows[17478]["title"] == "Folded constants in `transform_for_annotation`"
    assert rows[17903]["title"] == "Uplifted Ethos-U SDK to 26.02"
    assert rows[16460]["title"].startswith("Restricted batch norm operator")
    # git cut #17082's title at "… workflow in CoreMLPa…": the entry ends at a whole word
    assert rows[17082]["title"] == (
        "Added deprecation warning for `to_edge` + `to_backend` workflow"
    )
    assert "…" not in markdown


def test_a_section_has_at_most_fifteen_module_headings(
    executorch_q1: tuple[str, dict[int, dict[str, str]]], tmp_path: Path
) -> None:
    """Twenty areas edited into the worksheet: the five smallest fold into Miscellaneous,
    each under its own name."""
    source = real_data(ET_PATCHES)
    db, sheet = tmp_path / "d.db", tmp_path / "ws.csv"
    args = ("--db", str(db), "release-notes", "pytorch/executorch", "--jsonl", str(source),
            "--since", "2026-01-01", "--until", "2026-01-31")  # fmt: skip
    assert run_cli(*args, "--worksheet", str(sheet)).exit_code == 0
    rows = read_rows(sheet)
    improved = [r for r in rows if r["topic"] == "improvements" and not r["reason"]]
    assert len(improved) >= 40
    for i, row in enumerate(improved[:40]):
        row["category"] = f"Area {i % 20:02d}"
        row["merge_into"] = ""
    write_rows(sheet, rows)
    result = run_cli(*args, "--apply", str(sheet))
    assert result.exit_code == 0, result.output
    headings = _headings(_section(result.stdout, "Improvements"))
    assert len(headings) <= 15 and headings[-1] == "Miscellaneous"
    misc = _section(result.stdout, "Improvements").split("### Miscellaneous\n", 1)[1]
    assert re.search(r"^\*\*Area \d\d\*\*$", misc, re.M)


def test_highlights_are_a_drafted_paragraph_and_a_table_by_stage(
    ao_notes: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = ao_notes
    highlights = _section(markdown, "Highlights")
    assert "Candidates to rewrite" not in highlights
    paragraph, table = highlights.strip().split("\n\n")[:2]
    # the paragraph names the three headline changes, each cited, and points to the breaks
    assert paragraph.startswith("This release features ")
    link = r"\[#\d+\]\(https://github\.com/pytorch/ao/pull/\d+\)"
    assert len(re.findall(rf"\({link}(?:, {link})*\)", paragraph)) == 3
    assert re.search(
        r"Read the \d+ backwards incompatible changes and the \d+ deprecations", paragraph
    )
    # a table of the headline features by stage: ao's prototype work in its own column
    lines = table.splitlines()
    assert lines[0] == "| Core | Prototype |" and lines[1] == "| --- | --- |"
    cited = [int(n) for n in re.findall(r"\[#(\d+)\]", table)]
    assert len(cited) >= 5
    assert "[#3429](" in table  # pruning-aware training in `torchao.prototype.pat`
    assert re.search(r"^\| [^|]*\| [^|]*\[#3429\]", table, re.M)  # … in the Prototype column
    # the worksheet marks them as a draft, row by row: each entry's own row (its first
    # link; the rows merged into it follow that row)
    leads = [int(n) for n in re.findall(r"\| [^|(]*\(\[#(\d+)\]", table)]
    assert len(leads) >= 5
    for number in leads:
        assert rows[number]["note"].startswith("highlight (draft)"), rows[number]


def test_a_deprecation_that_removes_is_told_as_a_removal(
    ao_notes: tuple[str, dict[int, dict[str, str]]],
) -> None:
    markdown, rows = ao_notes
    # "deprecate v1 of `IntxWeightOnlyConfig`" deletes the field v1 read: a breaking
    # change, whose entry says what happened rather than "Deprecated …"
    assert rows[3512]["topic"] == "bc_breaking"
    assert rows[3512]["title"] == "Removed v1 of `IntxWeightOnlyConfig`"
    assert "Removed: `IntxWeightOnlyConfig.layout`." in _entry(markdown, 3512)


def test_one_change_made_several_times_is_one_entry_with_its_parts(
    ao_notes: tuple[str, dict[int, dict[str, str]]],
) -> None:
    """Three PRs that each remove the v1 of a config are one change, told as PyTorch tells
    one: a `###` naming the three with all their PRs, then each part with what it removed;
    entries that only share a verb ("Removed …") stay apart."""
    markdown, _rows = ao_notes
    section = _section(markdown, "Backwards Incompatible changes")
    headings = [line for line in section.splitlines() if line.startswith("### ")]
    grouped = [h for h in headings if h.startswith("### Removed v1 of ")]
    assert len(grouped) == 1, headings
    assert all(f"[#{n}]({_url(n)})" in grouped[0] for n in (3511, 3512, 3654)), grouped[0]
    for n in (3511, 3512, 3654):
        assert re.search(rf"^\*\*`[^`]+`\*\* \(\[#{n}\]", section, re.M), n
    assert sum(f"[#{3720}]" in h for h in headings) == 1  # "Removed old GPTQ …", its own
    assert not any(f"[#{3720}]" in h and "[#35" in h for h in headings)


def test_one_change_made_several_times_is_one_bullet(
    ao_notes: tuple[str, dict[int, dict[str, str]]],
) -> None:
    """Four PRs that each add `parameter_name` support to one transform are one bullet
    naming the four, with the four links (PyTorch's way); bullets that only open alike
    ("Added support for …", two meaningful words) stay apart."""
    markdown, _rows = ao_notes
    bullets = [line for line in markdown.splitlines() if line.startswith("* ")]
    merged = [b for b in bullets if b.startswith("* Added `parameter_name` support to `_int4")]
    assert len(merged) == 1, merged
    assert all(f"[#{n}]({_url(n)})" in merged[0] for n in (3901, 3902, 3904, 3905))
    assert "`_intx_weight_only_transform`" in merged[0]
    support = [b for b in bullets if b.startswith("* Added support for ")]
    assert len(support) >= 2 and all(b.count("[#") == 1 for b in support[:2]), support[:3]


def test_a_human_can_undo_a_merge_by_wording_in_the_worksheet(tmp_path: Path) -> None:
    """The merge is the worksheet's (`merge_into`), so the human who curates it decides:
    clearing it for one PR makes that PR an entry of its own again."""
    source = real_data(AO_PATCHES)
    db, sheet = tmp_path / "d.db", tmp_path / "ws.csv"
    args = ("--db", str(db), "release-notes", "pytorch/ao", "--jsonl", str(source),
            "--since", "2026-02-01", "--until", "2026-03-31")  # fmt: skip
    assert run_cli(*args, "--worksheet", str(sheet)).exit_code == 0
    rows = read_rows(sheet)
    by_number = {int(r["pr_link"].rsplit("/", 1)[1]): r for r in rows if r["pr_link"]}
    assert all(by_number[n]["merge_into"] for n in (3902, 3904, 3905))
    by_number[3905]["merge_into"] = ""
    write_rows(sheet, rows)
    result = run_cli(*args, "--apply", str(sheet))
    assert result.exit_code == 0, result.output
    bullets = [b for b in result.stdout.splitlines() if "`parameter_name` support to `_in" in b]
    alone = [b for b in bullets if f"[#3905]({_url(3905)})" in b]
    assert len(alone) == 1 and alone[0].count("[#") == 1, alone
    merged = [b for b in bullets if f"[#3901]({_url(3901)})" in b]
    assert len(merged) == 1 and all(f"[#{n}]" in merged[0] for n in (3902, 3904)), merged


def test_no_highlight_is_something_taken_away(tmp_path: Path) -> None:
    """The highlights table lists features; "Removed rope fusion option, do automatically
    on torch compile" (an improvement its PR announces, ao's first quarter) is none."""
    source = real_data(AO_PATCHES)
    result = run_cli("--db", str(tmp_path / "d.db"), "release-notes", "pytorch/ao",
                     "--jsonl", str(source), "--since", "2026-01-01", "--until", "2026-03-31")  # fmt: skip
    assert result.exit_code == 0, result.output
    table = [
        row for row in _section(result.stdout, "Highlights").splitlines() if row.startswith("| ")
    ]
    assert len(table) >= 4
    assert not [row for row in table if re.match(r"\| (Removed|Deleted|Dropped|Deprecated) ", row)]
