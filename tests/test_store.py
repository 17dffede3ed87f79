"""The store: migrations, idempotent upserts, transactions, reports."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from helpers import run_cli
from prdigest.errors import StoreError
from prdigest.models import Classification, FileChange, PullRequest, Report
from prdigest.store import Store, open_store
from prdigest.store.migrations import available_migrations

REPO = "octo/demo"


def _pr(
    number: int | None, sha: str, day: int, title: str = "Add a thing", **kw: object
) -> PullRequest:
    return PullRequest(
        repo=REPO,
        number=number,
        title=title,
        sha=sha,
        author_email=f"dev{day}@x.org",
        merged_at=datetime(2026, 2, day, 12, tzinfo=UTC),
        files=(
            FileChange("src/a.py", 3, 1),
            FileChange("img.png", None, None, binary=True),
            FileChange("src/new.py", 0, 0, old_path="src/old.py"),
        ),
        labels=("topic: bug fixes",),
        trailers=(("Co-authored-by", ("A <a@x.org>",)),),
        **kw,  # type: ignore[arg-type]
    )


def _rows(store: Store) -> list[tuple[object, ...]]:
    tables = ["pull_requests", "files", "labels"]
    return [row for t in tables for row in store.conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")]


def test_migrations_are_recorded_once(db_url: str) -> None:
    open_store(db_url).close()
    store = open_store(db_url)
    numbers = [
        r[0] for r in store.conn.execute("SELECT number FROM schema_migrations ORDER BY number")
    ]
    assert numbers == [m.number for m in available_migrations()]


def test_upsert_is_idempotent_and_round_trips(db_url: str) -> None:
    store = open_store(db_url)
    prs = [_pr(1, "a" * 40, 9), _pr(None, "b" * 40, 10, title="Direct push")]
    first = store.upsert_pull_requests(REPO, prs)
    rows = _rows(store)
    second = store.upsert_pull_requests(REPO, prs)
    assert (first.inserted, second.unchanged, second.inserted) == (2, 2, 0)
    assert _rows(store) == rows
    got = store.merged_between(
        REPO, datetime(2026, 2, 9, tzinfo=UTC), datetime(2026, 2, 16, tzinfo=UTC)
    )
    assert got == prs
    assert got[1].is_direct_push


def test_changed_record_updates_in_place(db_url: str) -> None:
    store = open_store(db_url)
    store.upsert_pull_requests(REPO, [_pr(1, "a" * 40, 9)])
    counts = store.upsert_pull_requests(REPO, [_pr(1, "a" * 40, 9, title="Add a better thing")])
    assert (counts.updated, store.count_pull_requests(REPO)) == (1, 1)
    assert store.pull_requests_by_number(REPO, 1)[0].title == "Add a better thing"
    assert store.conn.execute("SELECT COUNT(*) FROM files").fetchone()[0] == 3


def test_failed_transaction_keeps_nothing(db_url: str) -> None:
    store = open_store(db_url)
    with pytest.raises(StoreError):
        store.upsert_pull_requests(REPO, [_pr(1, "a" * 40, 9), PullRequest(REPO, 2, "no sha")])
    assert store.count_pull_requests(REPO) == 0


def test_identities_before_finds_an_author_by_address_login_or_name(db_url: str) -> None:
    store = open_store(db_url)

    def by(number: int, day: int, name: str, email: str, login: str | None = None) -> PullRequest:
        pr = _pr(number, f"{number:040d}", day)
        return replace(pr, author_name=name, author_email=email, author_login=login)

    store.upsert_pull_requests(
        REPO,
        [
            by(1, 2, "Ann One", "Ann@Old.org"),  # the address in another case
            by(2, 3, "B", "b@x.org", "bee"),
            by(3, 4, "Cee Three", "c@old.org"),
            by(4, 5, "Dee", "d@x.org"),  # nobody asked about
            by(5, 10, "Ann One", "ann@new.org"),  # in the window, not before it
        ],
    )
    seen = store.identities_before(
        REPO, datetime(2026, 2, 9, tzinfo=UTC), ["ann@old.org"], ["bee"], ["Cee Three"]
    )
    assert seen == {
        ("Ann One", "Ann@Old.org", ""),
        ("B", "b@x.org", "bee"),
        ("Cee Three", "c@old.org", ""),
    }
    assert (
        store.identities_before("other/repo", datetime(2026, 3, 1, tzinfo=UTC), ["b@x.org"], [], [])
        == set()
    )


def test_the_mailmap_is_replaced_whole_and_read_for_the_whole_person(db_url: str) -> None:
    store = open_store(db_url)
    store.replace_mailmap(REPO, {("A", "a@old.org"): ("Ann One", "ann@new.org")})
    store.replace_mailmap(
        REPO,
        {
            ("A", "a@old.org"): ("Ann One", "ann@new.org"),
            ("Ann", "ann@laptop.local"): ("Ann One", "ann@new.org"),
            ("B", "b@old.org"): ("Bee", "b@new.org"),
        },
    )
    # asked by one address, every address .mailmap gives the same person comes back
    assert store.mailmap_of(REPO, ["A@OLD.org"]) == {
        ("A", "a@old.org"): ("Ann One", "ann@new.org"),
        ("Ann", "ann@laptop.local"): ("Ann One", "ann@new.org"),
    }
    assert store.mailmap_of(REPO, ["ann@new.org"]) == store.mailmap_of(REPO, ["a@old.org"])
    store.replace_mailmap(REPO, {})
    assert store.mailmap_of(REPO, ["a@old.org"]) == {}


def test_classifications_and_reports_are_kept_latest(db_url: str) -> None:
    store = open_store(db_url)
    pr = _pr(1, "a" * 40, 9)
    store.upsert_pull_requests(REPO, [pr])
    store.save_classifications(
        REPO, [(pr, Classification("Core", "bug_fixes", "r/a", "r/k", 1.0, "generic"))]
    )
    store.save_classifications(
        REPO, [(pr, Classification("Docs", "docs", "r/a2", "r/k2", 0.5, "generic"))]
    )
    assert store.classification_of(REPO, pr.sha or "", "generic") == Classification(
        "Docs", "docs", "r/a2", "r/k2", 0.5, "generic"
    )
    when = datetime(2026, 2, 16, tzinfo=UTC)
    for body in ("one", "two"):
        store.save_report(
            Report(
                REPO,
                "digest",
                "2026-02-09",
                "2026-02-15",
                "deterministic",
                "T",
                body,
                {"n": 1},
                when,
            )
        )
    reports = store.reports(REPO)
    assert [r.markdown for r in reports] == ["two"]


def test_a_file_that_is_not_a_database_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable database|cannot open"):
        open_store(str(path))


def _ao_weeks(source: Path, target: Path, weeks: set[str], moved: dict[int, str]) -> set[int]:
    """The real ao records of `weeks`, with the PRs of `moved` landing at the instants given;
    the numbers written."""
    numbers, lines = set(), []
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            year, week, _ = datetime.fromisoformat(record["committed_at"]).isocalendar()
            if f"{year}-W{week:02d}" in weeks and record["number"] is not None:
                record["committed_at"] = moved.get(record["number"], record["committed_at"])
                numbers.add(record["number"])
                lines.append(json.dumps(record))
    target.write_text("\n".join(lines) + "\n")
    return numbers


def test_a_pr_landed_on_the_stroke_of_monday_counts_in_that_week_alone(
    tmp_path: Path, ao_jsonl: Path
) -> None:
    """A week is [Monday 00:00:00, next Monday 00:00:00): a PR landed at 00:00:00 UTC on a
    Monday opens its week and is not the last of the week before (an end read as `<=`
    would count it twice)."""
    records, db = tmp_path / "ao.jsonl", tmp_path / "s.db"
    # #3727 landed in W05, #3839 in W06 (Fridays); each is moved to the first instant of
    # the next week, W06 and W07 (Mondays 2026-02-02 and 2026-02-09).
    moved = {3727: "2026-02-02T00:00:00Z", 3839: "2026-02-09T00:00:00Z"}
    numbers = _ao_weeks(ao_jsonl, records, {"2026-W05", "2026-W06", "2026-W07"}, moved)
    assert set(moved) <= numbers
    assert run_cli("sync", "pytorch/ao", "--jsonl", str(records), db=db).exit_code == 0

    digests = {}
    for week in ("2026-W05", "2026-W06", "2026-W07"):
        out = tmp_path / f"{week}.json"
        result = run_cli(
            "digest", "pytorch/ao", "--week", week, "--writer", "deterministic",
            "--format", "json", "--out", str(out), db=db,
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        digests[week] = json.loads(out.read_text())
    weeks_of = {n: [w for w, d in digests.items() if str(n) in d["prs"]] for n in numbers}
    assert weeks_of[3727] == ["2026-W06"]
    assert weeks_of[3839] == ["2026-W07"]
    assert all(len(found) == 1 for found in weeks_of.values()), weeks_of
    assert sum(d["counts"]["prs"] for d in digests.values()) == len(numbers)
    # the week before is counted with the same edges
    assert digests["2026-W06"]["counts"]["previous_prs"] == digests["2026-W05"]["counts"]["prs"]
    assert digests["2026-W07"]["counts"]["previous_prs"] == digests["2026-W06"]["counts"]["prs"]


def test_an_abbreviated_sha_is_ambiguous_when_two_commits_landed_before_start_it(
    db_url: str,
) -> None:
    store = open_store(db_url)
    store.upsert_pull_requests(
        REPO,
        [
            _pr(1, "1a9a59bd86bf167653edbd03501f5d54272821a2", 4),  # executorch's #8892
            _pr(2, "1a9a59b94491f03620dce622fee922c1d2bc1fa7", 20),  # and #9396
            _pr(3, "25395b9f597796289f59d7be847ac1d2613abbc8", 5),
        ],
    )
    late, between = datetime(2026, 2, 25, tzinfo=UTC), datetime(2026, 2, 10, tzinfo=UTC)
    named = [("1a9a59b", late), ("1a9a59bd", late), ("25395b9", late), ("1a9a59", between)]
    assert store.ambiguous_shas(REPO, named) == {"1a9a59b"}
    assert store.ambiguous_shas("octo/unknown", named) == frozenset()
