"""The whole pipeline as a user runs it: sync records into a store, digest every week.

Also for a repository with no built-in profile: the generic profile must give it
sensible areas from its own layout, with the same guarantees."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from helpers import run_cli
from prdigest import pipeline
from prdigest.config import Config
from prdigest.store import open_store
from prdigest.timeutil import iso_week_window, parse_datetime

_LINK = re.compile(r"\[PR#(\d+)\]\(https://github\.com/([^/]+/[^/]+)/pull/(\d+)\)")
_HEADING = re.compile(r"^### \d+\. (.+)$", re.M)


def _renamed(source: Path, repo: str, folder: Path) -> Path:
    """The real records as if they were another repository's (a new user's)."""
    target = folder / "records.jsonl"
    with gzip.open(source, "rt", encoding="utf-8") as handle, target.open("w") as out:
        for line in handle:
            record = json.loads(line)
            record["repo"] = repo
            out.write(json.dumps(record) + "\n")
    return target


def _weeks(path: Path) -> Counter[str]:
    """Records with a PR number per ISO week, counted straight from the file."""
    counts: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record["number"] is not None:
            year, week, _ = parse_datetime(record["committed_at"]).isocalendar()
            counts[f"{year}-W{week:02d}"] += 1
    return counts


@pytest.mark.parametrize(
    ("fixture", "repo", "profile"),
    [
        ("ao_jsonl", "acme/widgets", "generic"),
        ("executorch_jsonl", "pytorch/executorch", "executorch"),
    ],
)
def test_every_week_through_the_pipeline(
    fixture: str, repo: str, profile: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    records = _renamed(request.getfixturevalue(fixture), repo, tmp_path)
    db = tmp_path / "s.db"
    assert run_cli("sync", repo, "--jsonl", str(records), db=db).exit_code == 0
    store = open_store(str(db))
    expected = _weeks(records)
    for iso in sorted(expected):
        window = iso_week_window(iso)
        first = pipeline.digest(store, repo, window, Config(), writer="deterministic")
        context, markdown = first.context.as_dict(), first.report.markdown
        assert context["counts"]["prs"] == expected[iso], iso
        noun = "PR" if expected[iso] == 1 else "PRs"
        assert f"{expected[iso]} {noun} landed" in markdown, iso
        in_window = {int(n) for n in context["prs"]}
        for number, link_repo, link_number in _LINK.findall(markdown):
            assert (link_repo, number) == (repo, link_number)
            assert int(number) in in_window, (iso, number)
        # every PR is told in a section or counted in the closing line, once
        plan = context["plan"]
        told = [
            n for s in plan["sections"] for e in s["entries"] for n in e["prs"] + e["cited_with"]
        ]
        untold = [n for _, prs in plan["untold"] for n in prs]
        assert sorted(told + untold) == sorted(in_window), iso
        if untold:
            assert f"{len(untold)} more PR" in markdown or "One more PR" in markdown, iso
        again = pipeline.digest(store, repo, window, Config(), writer="deterministic")
        assert again.report.markdown == markdown, iso
    profiles = {r[0] for r in store.conn.execute("SELECT DISTINCT profile FROM classifications")}
    assert profiles == {profile}
    other = store.conn.execute(
        "SELECT COUNT(*) FROM classifications WHERE area = 'Other'"
    ).fetchone()[0]
    total = store.conn.execute("SELECT COUNT(*) FROM classifications").fetchone()[0]
    assert other <= 0.05 * total, f"{other} of {total} PRs in 'Other'"


def test_a_digest_from_the_cli_as_a_new_user_would(tmp_path: Path, ao_jsonl: Path) -> None:
    records = _renamed(ao_jsonl, "acme/widgets", tmp_path)
    out = tmp_path / "digest.md"
    db = tmp_path / "s.db"
    result = run_cli(
        "digest",
        "acme/widgets",
        "--jsonl",
        str(records),
        "--week",
        "2026-W07",
        "--out",
        str(out),
        db=db,
    )
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert text.startswith(
        "# Analysis of Pull Requests for acme/widgets during 20260209-20260215\n"
    )
    assert "### Key Takeaways" in text
    assert _HEADING.findall(text)  # the week's changes in sections
    assert "digest of acme/widgets" in result.stderr
    as_json = run_cli("digest", "acme/widgets", "--week", "2026-W07", "--format", "json", db=db)
    assert json.loads(as_json.stdout)["counts"]["prs"] == 31


def test_a_digest_reads_its_window_from_the_store_once(
    tmp_path: Path, ao_jsonl: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored history's span once, and each window's PRs once (the week's and the
    week before's), however many stages use them: `Store.window` hands them down."""
    db = tmp_path / "s.db"
    assert run_cli("sync", "pytorch/ao", "--jsonl", str(ao_jsonl), db=db).exit_code == 0
    store = open_store(str(db))
    calls: Counter[str] = Counter()
    store_type = type(store)
    for name in ("merged_range", "merged_between"):
        original = getattr(store_type, name)

        def counted(self, *args, _name=name, _original=original):  # type: ignore[no-untyped-def]
            calls[f"{_name}{args[1:]}"] += 1
            return _original(self, *args)

        monkeypatch.setattr(store_type, name, counted)
    result = pipeline.digest(store, "pytorch/ao", None, Config(), writer="deterministic")
    assert result.context.counts.prs > 0
    assert sum(n for call, n in calls.items() if call.startswith("merged_range")) == 1, calls
    windows = [call for call in calls if call.startswith("merged_between")]
    assert len(windows) == 2 and all(calls[w] == 1 for w in windows), calls
    store.close()
