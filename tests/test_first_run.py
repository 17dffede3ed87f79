"""What a new user trips over (issue 15), through the real command line."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import one_error_line, run_cli

REPO = "pytorch/executorch"


@pytest.fixture
def six_weeks(tmp_path: Path, executorch_jsonl: Path) -> Path:
    """executorch's first 457 records, its first six weeks (2025-01-02 → 2025-02-09; 7
    direct pushes), in a file."""
    lines = gzip.open(executorch_jsonl, "rt", encoding="utf-8").read().splitlines()
    lines = [line for line in lines if json.loads(line)["committed_at"] < "2025-02-10"]
    assert len(lines) == 457
    path = tmp_path / "first457.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def synced(tmp_path: Path, six_weeks: Path) -> Path:
    db = tmp_path / "store.db"
    assert run_cli("sync", REPO, "--jsonl", str(six_weeks), db=db).exit_code == 0
    return db


# -- item 8: errors and status speak ISO dates ----------------------------------------------


def test_errors_and_status_name_windows_in_iso_dates(synced: Path) -> None:
    result = run_cli("digest", REPO, "--week", "2030-W01", db=synced)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "for 2029-12-31..2030-01-06" in line and "20291231" not in line
    assert "newest landed PR is from 2025-02-09" in line
    status = run_cli("status", db=synced).stdout
    assert "(2025-01-02..2025-02-09)" in status, status
    assert "T05:30:18Z" not in status


# -- item 6: a missing database is an error for commands that read -------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["status"],
        ["digest", REPO, "--week", "2025-W05"],
        ["release-notes", REPO, "--since", "2025-01-01", "--until", "2025-01-31"],
        ["classify", "explain", REPO, "7482"],
        ["site", "build", "--out", "public"],
        ["reports", "list"],
        ["reports", "show", "1"],
        ["reports", "delete", "1", "--yes"],
    ],
)
def test_a_mistyped_db_is_an_error_naming_it_and_creates_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    db = tmp_path / "no-such-dir" / "prdigest.db"
    result = run_cli(*args, db=db)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"no database at {db}" in line and "sync" in line
    assert not db.parent.exists(), "nothing created"


def test_only_a_command_that_syncs_creates_the_database(tmp_path: Path, six_weeks: Path) -> None:
    db = tmp_path / "new-dir" / "prdigest.db"
    result = run_cli("digest", REPO, "--jsonl", str(six_weeks), "--week", "2025-W05", db=db)
    assert result.exit_code == 0, result.stderr
    assert db.exists()
    assert run_cli("status", db=db).exit_code == 0


# -- item 5: status counts PRs and direct pushes apart, plurals right ----------------------


def test_status_counts_prs_and_direct_pushes_apart(synced: Path) -> None:
    assert run_cli("digest", REPO, "--week", "2025-W05", db=synced).exit_code == 0
    status = run_cli("status", db=synced).stdout
    # 457 records: 450 with a PR number, 7 direct pushes
    assert f"{REPO}: 450 PRs and 7 direct pushes (2025-01-02..2025-02-09), 1 report\n" in status
    assert "1 reports" not in status
    data = json.loads(run_cli("status", "--format", "json", db=synced).stdout)
    [repo] = data["repositories"]
    assert (repo["pull_requests"], repo["direct_pushes"], repo["reports"]) == (450, 7, 1)


# -- item 3: impossible windows are errors; stored reports listed, shown, deleted ------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["digest", REPO, "--week", "2020-W07"], "its oldest landed PR is from 2025-01-02"),
        (["digest", REPO, "--since", "2024-12-01", "--until", "2025-01-01"], "oldest landed PR"),
        (["digest", REPO, "--week", "2025-W20"], "its newest landed PR is from 2025-02-09"),
        (
            ["release-notes", REPO, "--since", "2020-01-01", "--until", "2020-03-31"],
            "for 2020-01-01..2020-03-31: its oldest landed PR is from 2025-01-02",
        ),
        (
            ["release-notes", REPO, "--since", "2025-06-01", "--until", "2025-06-30"],
            "its newest landed PR is from 2025-02-09",
        ),
    ],
)
def test_a_window_outside_the_history_is_an_error_and_stores_nothing(
    synced: Path, args: list[str], needle: str
) -> None:
    result = run_cli(*args, db=synced)
    assert result.exit_code == 1
    assert needle in one_error_line(result)
    assert result.stdout == ""
    assert run_cli("reports", "list", db=synced).stdout == "", "nothing was stored"


def test_a_window_overlapping_the_first_pr_is_written(synced: Path) -> None:
    result = run_cli("digest", REPO, "--week", "2025-W01", db=synced)  # 2024-12-30..2025-01-05
    assert result.exit_code == 0, result.stderr


def test_reports_list_show_delete_and_the_site_follows(synced: Path, tmp_path: Path) -> None:
    for week in ("2025-W05", "2025-W06"):
        made = run_cli("digest", REPO, "--week", week, db=synced)
        assert made.exit_code == 0
    notes = run_cli(
        "release-notes", REPO, "--since", "2025-01-01", "--until", "2025-01-31", db=synced
    )
    assert notes.exit_code == 0, notes.stderr
    assert re.search(r"stored as report \d+$", made.stderr.strip())
    listed = run_cli("reports", "list", db=synced).stdout.splitlines()
    assert [line.split()[1:] for line in listed] == [
        [REPO, "digest", "2025-02-03..2025-02-09", "deterministic"],
        [REPO, "digest", "2025-01-27..2025-02-02", "deterministic"],
        [REPO, "release-notes", "2025-01-01..2025-01-31", "deterministic"],
    ]
    newest_id = listed[0].split()[0]
    assert f"stored as report {newest_id}" in made.stderr
    assert run_cli("reports", "list", "pytorch/ao", db=synced).stdout == ""

    shown = run_cli("reports", "show", newest_id, db=synced)
    assert shown.stdout.startswith(
        "# Analysis of Pull Requests for pytorch/executorch during 20250203-20250209"
    )

    site = tmp_path / "public"
    assert run_cli("site", "build", "--out", str(site), db=synced).exit_code == 0
    page = site / "digests" / "pytorch-executorch-2025-02-03-2025-02-09.html"
    assert page.exists()

    refused = run_cli("reports", "delete", newest_id, db=synced)  # not a terminal: no prompt
    assert refused.exit_code == 2 and "add --yes" in one_error_line(refused)
    deleted = run_cli("reports", "delete", newest_id, "--yes", db=synced)
    assert deleted.exit_code == 0
    assert f"deleted report {newest_id} ({REPO}  digest  2025-02-03..2025-02-09" in deleted.stderr
    assert len(run_cli("reports", "list", db=synced).stdout.splitlines()) == 2

    rebuilt = run_cli("site", "build", "--out", str(site), db=synced)
    assert "1 removed" in rebuilt.stderr and not page.exists()

    for args in (["show", newest_id], ["delete", newest_id, "--yes"]):
        missing = run_cli("reports", *args, db=synced)
        assert missing.exit_code == 1
        assert f"no report {newest_id} in the store" in one_error_line(missing)


def test_reports_on_postgresql(postgres_url: str, six_weeks: Path) -> None:
    db = postgres_url
    args = ["--db", db]
    made = run_cli(*args, "digest", REPO, "--jsonl", str(six_weeks), "--week", "2025-W05")
    assert made.exit_code == 0, made.stderr
    [line] = run_cli(*args, "reports", "list").stdout.splitlines()
    report_id = line.split()[0]
    assert run_cli(*args, "reports", "delete", report_id, "--yes").exit_code == 0
    assert run_cli(*args, "reports", "list").stdout == ""
    assert "no database" not in run_cli(*args, "status").stderr


# -- item 9: what --since means to a digest ---------------------------------------------


def test_digest_help_says_since_is_the_first_day_and_alone_means_7_days() -> None:
    text = " ".join(run_cli("digest", "--help").stdout.split())
    assert "Oldest activity to fetch" not in text
    assert "--since DATE First day of the window (YYYY-MM-DD, UTC). Without --until" in text
    assert "the window is the 7 days from it" in text
    assert "--until DATE Last day of the window (YYYY-MM-DD, inclusive); needs --since." in text
    assert "Oldest activity to fetch" in " ".join(run_cli("sync", "--help").stdout.split())


def test_since_alone_is_the_7_days_from_it_and_the_summary_says_so(synced: Path) -> None:
    result = run_cli("digest", REPO, "--since", "2025-01-29", db=synced)
    assert result.exit_code == 0, result.stderr
    assert "digest of pytorch/executorch for 2025-01-29..2025-02-04:" in result.stderr
    assert "7 days from --since (--until sets the last day)" in result.stderr
    assert "during 20250129-20250204" in result.stdout.splitlines()[0]


# -- item 11: the site charts every week of the synced history ----------------------------


def _weekly_prs(jsonl: Path) -> dict[str, tuple[int, int]]:
    """Monday → (PRs, people) straight from the records: one person per set of records
    linked by a shared e-mail address (any case) or name (no .mailmap in these)."""
    from datetime import date, timedelta

    weeks: dict[str, tuple[int, list[tuple[str, str]]]] = {}
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        day = date.fromisoformat(record["committed_at"][:10])
        monday = (day - timedelta(days=day.weekday())).isoformat()
        prs, authors = weeks.get(monday, (0, []))
        authors.append((record["author_email"].lower(), record["author_name"].casefold()))
        weeks[monday] = (prs + (record["number"] is not None), authors)
    return {monday: (prs, _people(authors)) for monday, (prs, authors) in weeks.items()}


def _people(authors: list[tuple[str, str]]) -> int:
    groups: list[set[str]] = []
    for email, name in authors:
        keys = {f"e:{email}", f"n:{name}"} - {"e:", "n:"}
        linked = [g for g in groups if g & keys]
        groups = [g for g in groups if not g & keys] + [keys.union(*linked)]
    return len(groups)


def test_site_charts_every_week_from_the_prs_not_only_digested_weeks(
    synced: Path, six_weeks: Path, tmp_path: Path
) -> None:
    assert run_cli("digest", REPO, "--week", "2025-W05", db=synced).exit_code == 0  # one digest
    site = tmp_path / "public"
    assert run_cli("site", "build", "--out", str(site), db=synced).exit_code == 0
    page = (site / "repos" / "pytorch-executorch.html").read_text(encoding="utf-8")
    expected = _weekly_prs(six_weeks)
    assert len(expected) == 6  # 2024-12-30 … 2025-02-03
    total = sum(prs for prs, _ in expected.values())
    assert (
        "Bar chart of PRs merged per week from the week of 2024-12-30 to the week of 2025-02-03:"
        f" {total} in total over 6 weeks" in page
    )
    assert 'id="chart-reverts"' in page and 'id="chart-contributors"' in page
    assert "Every week of the synced history, 2024-12-30 to 2025-02-09 (6 weeks)" in page
    rows = re.findall(
        r'<tr><th scope="row">([\d-]+)</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>', page
    )
    assert {monday: (int(prs), int(people)) for monday, prs, _, people in rows} == expected
    # The one digested week says the same as its digest.
    context = json.loads(
        run_cli("digest", REPO, "--week", "2025-W05", "--format", "json", db=synced).stdout
    )
    week = next(row for row in rows if row[0] == "2025-01-27")
    assert (int(week[1]), int(week[2]), int(week[3])) == (
        context["counts"]["prs"],
        context["counts"]["reverts"],
        context["counts"]["authors"],
    )


def test_home_page_excerpt_of_release_notes_is_their_first_real_lines(
    synced: Path, tmp_path: Path
) -> None:
    notes = run_cli(
        "release-notes", REPO, "--since", "2025-01-01", "--until", "2025-01-31", db=synced
    )
    # the Highlights open with a drafted paragraph, as PyTorch's do (issue 22)
    assert "## Highlights\n\nThis release features " in notes.stdout
    site = tmp_path / "public"
    assert run_cli("site", "build", "--out", str(site), db=synced).exit_code == 0
    home = (site / "index.html").read_text(encoding="utf-8")
    [excerpt] = re.findall(r'<p class="excerpt">([^<]*)</p>', home)
    assert excerpt.startswith("This release features "), excerpt
    assert "Candidates" not in home


# -- item 2: where is my data? --------------------------------------------------------------


def test_status_says_where_the_database_is(synced: Path) -> None:
    assert run_cli("status", db=synced).stdout.startswith(f"database: {synced}\n")
    data = json.loads(run_cli("status", "--format", "json", db=synced).stdout)
    assert data["database"] == str(synced)


# -- item 4: the quickstart's try-out name is not published ---------------------------------


def test_site_leaves_quickstart_try_outs_out_unless_configured(
    tmp_path: Path, six_weeks: Path
) -> None:
    db = tmp_path / "store.db"
    records = six_weeks.read_text(encoding="utf-8").replace(REPO, "quickstart/executorch")
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text(records, encoding="utf-8")
    args = ["digest", "quickstart/executorch", "--jsonl", str(renamed), "--week", "2025-W05"]
    assert run_cli(*args, db=db).exit_code == 0
    site = tmp_path / "public"
    assert run_cli("site", "build", "--out", str(site), db=db).exit_code == 0
    assert not list(site.glob("digests/*")) and not list(site.glob("repos/*"))
    config = tmp_path / "prdigest.toml"
    config.write_text('[site]\nrepos = ["quickstart/executorch"]\n', encoding="utf-8")
    built = run_cli("--config", str(config), "site", "build", "--out", str(site), db=db)
    assert built.exit_code == 0, built.stderr
    assert len(list(site.glob("digests/*"))) == 1, "named in [site] repos: published"


def _answering(answer: str, *args: str) -> tuple[int, str]:
    """Run the CLI with its stdin on a pseudo-terminal that types `answer`: (exit code, stderr)."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "prdigest", *args],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(slave)
    os.write(master, answer.encode() + b"\n")
    _, stderr = process.communicate(timeout=60)
    os.close(master)
    return process.returncode, stderr.decode()


def test_answering_no_keeps_the_report_and_is_no_error(synced: Path) -> None:
    assert run_cli("digest", REPO, "--week", "2025-W05", db=synced).exit_code == 0
    report_id = run_cli("reports", "list", db=synced).stdout.split()[0]
    code, stderr = _answering("n", "--db", str(synced), "reports", "delete", report_id)
    assert code == 0, stderr
    assert "Delete report" in stderr and f"kept report {report_id}" in stderr
    assert len(run_cli("reports", "list", db=synced).stdout.splitlines()) == 1
    code, stderr = _answering("y", "--db", str(synced), "reports", "delete", report_id)
    assert code == 0 and f"deleted report {report_id}" in stderr, stderr
    assert run_cli("reports", "list", db=synced).stdout.strip() == ""


def test_a_stored_digest_the_site_cannot_read_is_one_clear_line(
    synced: Path, tmp_path: Path
) -> None:
    """The repository page reads the newest digest's stored plan: a context whose plan is
    not what the analysis writes (here, a lead PR number as text) is said once, not a
    traceback."""
    import sqlite3

    assert run_cli("digest", REPO, "--week", "2025-W06", db=synced).exit_code == 0
    conn = sqlite3.connect(synced)
    (context,) = conn.execute("SELECT context FROM reports").fetchone()
    stored = json.loads(context)
    stored["plan"]["lead"] = [str(n) for n in stored["plan"]["lead"]] or ["12"]
    conn.execute("UPDATE reports SET context = ?", (json.dumps(stored),))
    conn.commit()
    conn.close()
    result = run_cli("site", "build", "--out", str(tmp_path / "public"), db=synced)
    assert result.exit_code == 1, result.stderr
    line = one_error_line(result)
    assert f"the stored digest of {REPO} for 2025-02-03..2025-02-09 cannot be read" in line
    assert "Expected `int`, got `str` - at `$.plan.lead[0]`" in line
    assert "Traceback" not in result.stderr
