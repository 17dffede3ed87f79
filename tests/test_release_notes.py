"""Release notes on real data: counts add up, links are the range's PRs, PyTorch's order,
and the worksheet round trip keeps every kind of edit."""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from click.testing import Result

from helpers import AMBIGUOUS_REVERT, ambiguous_revert_records, run_cli
from prdigest import pipeline
from prdigest.config import Config
from prdigest.pipeline import SourceSpec, release_notes
from prdigest.release import SECTIONS
from prdigest.release.notes_markdown import render_markdown
from prdigest.release.notes_plan import PYTORCH_MODULES, normalize_name
from prdigest.release.release_context import ReleaseContext
from prdigest.store import Store, open_store
from prdigest.timeutil import window_between
from release_helpers import bullet_of, module_of, read_rows, write_rows

_DBS: dict[str, Path] = {}  # one synced database per dataset for the whole module
_LINK = re.compile(r"\[#(\d+)\]\((https://github\.com/[^)]+)\)")


def _synced(repo: str, jsonl: Path, tmp_path_factory: pytest.TempPathFactory) -> Store:
    if repo not in _DBS:
        db = tmp_path_factory.mktemp("rn") / "prdigest.db"
        store = open_store(str(db))
        pipeline.sync(store, repo, SourceSpec(jsonl=jsonl))
        store.close()
        _DBS[repo] = db
    return open_store(str(_DBS[repo]))


@pytest.fixture
def executorch(executorch_jsonl: Path, tmp_path_factory: pytest.TempPathFactory) -> Store:
    return _synced("pytorch/executorch", executorch_jsonl, tmp_path_factory)


@pytest.fixture
def ao(ao_jsonl: Path, tmp_path_factory: pytest.TempPathFactory) -> Store:
    return _synced("pytorch/ao", ao_jsonl, tmp_path_factory)


def _sections(markdown: str) -> list[str]:
    return [line[3:] for line in markdown.splitlines() if line.startswith("## ")]


QUARTER = pytest.mark.whole_history("a quarter's notes")
CASES = [
    ("executorch", "pytorch/executorch", "2025-01-01", "2025-02-09"),
    pytest.param("executorch", "pytorch/executorch", "2025-04-01", "2025-06-30", marks=QUARTER),
    ("ao", "pytorch/ao", "2026-06-01", "2026-08-21"),
    pytest.param("ao", "pytorch/ao", "2025-07-01", "2025-09-30", marks=QUARTER),
]


@pytest.mark.parametrize(("dataset", "repo", "since", "until"), CASES)
def test_every_pr_is_in_the_notes_or_out_with_a_reason(
    request: pytest.FixtureRequest, tmp_path: Path, dataset: str, repo: str, since: str, until: str
) -> None:
    store: Store = request.getfixturevalue(dataset)
    window = window_between(since, until)
    in_range = store.merged_between(repo, window.start, window.end)
    sheet = tmp_path / "notes.csv"
    result = release_notes(store, repo, Config(), window=window, worksheet=sheet)
    markdown, counts = result.report.markdown, result.context.as_dict()["counts"]

    # Counts add up, and the worksheet has exactly one row per commit of the range.
    assert counts["prs"] == len(in_range) > 50
    assert counts["in_notes"] + counts["out"] + counts["deleted_rows"] == counts["prs"]
    assert counts["deleted_rows"] == 0
    assert sum(counts["out_reasons"].values()) == counts["out"]
    rows = read_rows(sheet)
    assert sorted(r["commit_hash"] for r in rows) == sorted(pr.sha for pr in in_range)
    # a typed context, frozen once built; the template and the store read the same one
    assert isinstance(result.context, ReleaseContext)
    with pytest.raises(FrozenInstanceError):
        result.context.counts.prs = 0  # type: ignore[misc]
    assert render_markdown(result.context) == markdown
    assert result.report.context == result.context.as_dict()

    # Every link is a PR of the range, with its own URL.
    by_number = {pr.number: pr for pr in in_range if pr.number is not None}
    links = _LINK.findall(markdown)
    assert links
    for number, url in links:
        assert int(number) in by_number, f"#{number} is not a PR of {since}..{until}"
        assert url == f"https://github.com/{repo}/pull/{number}"

    # In the notes ⇔ no reason; out ⇔ a reason, and then no link anywhere.
    body = markdown.split("\n## ", 2)[-1]
    linked = {int(n) for n, _ in _LINK.findall(body)}
    for row in rows:
        number = int(row["pr_link"].rsplit("/", 1)[1]) if row["pr_link"] else None
        if row["reason"]:
            duplicate = number is not None and sum(pr.number == number for pr in in_range) > 1
            assert number is None or number not in linked or duplicate, row
        else:
            assert number in linked, row
    assert counts["in_notes"] == sum(1 for row in rows if not row["reason"])

    # Each entry: one sentence, then its links (a series says so first), all on one line.
    entry = re.compile(
        r"^\* \S.*? \((?:an? [a-z0-9]+-part series: (?=.*, \[#))?"
        r"\[#\d+\]\(https://[^)\s]+\)(?:, \[#\d+\]\(https://[^)\s]+\))*\)$"
    )
    # A Backwards Incompatible change is PyTorch's `### sentence (links)` and a paragraph.
    bc = markdown.split("\n## Backwards Incompatible changes\n", 1)[-1].split("\n## ", 1)[0]
    bc = bc if "\n## Backwards Incompatible changes\n" in markdown else ""
    headed = ["* " + line[4:] for line in bc.splitlines() if line.startswith("### ")]
    bullets = [line for line in body.splitlines() if line.startswith("* ")] + headed
    assert len(bullets) == counts["bullets"]
    assert all(entry.match(line) for line in bullets), [b for b in bullets if not entry.match(b)][
        :3
    ]

    # Sections follow PyTorch's order; Highlights first.
    sections = _sections(markdown)
    assert sections[0] == "Highlights"
    order = [heading for _, heading in SECTIONS]
    assert sections[1:] == [h for h in order if h in sections[1:]]
    assert len(sections) >= 4


def test_modules_follow_pytorchs_order_then_size() -> None:
    from prdigest.release.notes_plan import module_order

    modules = {
        "Inductor": [1],
        "Backends: Arm": [1, 2, 3],
        "Python Frontend": [1],
        "Other": [1] * 9,
        "Kernels": [1, 2],
    }
    assert module_order(modules) == [
        "Python Frontend",
        "Inductor",
        "Backends: Arm",
        "Kernels",
        "Other",
    ]
    assert normalize_name(PYTORCH_MODULES[0]) == "python_frontend"


def test_reverted_prs_stay_out_and_relanded_ones_join_one_bullet(
    executorch: Store, tmp_path: Path
) -> None:
    repo = "pytorch/executorch"
    window = window_between("2025-09-01", "2025-09-30")
    sheet = tmp_path / "sep.csv"
    markdown = release_notes(
        executorch, repo, Config(), window=window, worksheet=sheet
    ).report.markdown
    rows = {r["pr_link"].rsplit("/", 1)[-1]: r for r in read_rows(sheet) if r["pr_link"]}
    # #14017 "Update default executor runner …" was reverted by #14193 and reapplied by #14207.
    assert rows["14193"]["reason"] == "revert of #14017"
    assert rows["14207"]["merge_into"] == rows["14017"]["commit_hash"]
    assert "[#14207](" in bullet_of(markdown, 14017)
    # #14090 was reverted by #14307 and not relanded in September.
    assert rows["14090"]["reason"].startswith("reverted by #14307")
    assert "[#14090](" not in markdown


def test_short_links_write_numbers_only(executorch: Store) -> None:
    window = window_between("2025-01-01", "2025-01-31")
    markdown = release_notes(
        executorch, "pytorch/executorch", Config(), window=window, short_links=True
    ).report.markdown
    assert "https://" not in markdown
    assert re.search(r"^\* .+ \(#\d+(, #\d+)*\)$", markdown, re.M)


def test_the_notes_are_stored_as_a_report(executorch: Store) -> None:
    window = window_between("2025-01-01", "2025-01-31")
    release_notes(executorch, "pytorch/executorch", Config(), window=window)
    stored = [
        r
        for r in executorch.reports("pytorch/executorch", "release_notes")
        if (r.window_start, r.window_end) == ("2025-01-01", "2025-01-31")
    ]
    assert len(stored) == 1 and stored[0].writer == "deterministic"
    assert stored[0].markdown.startswith(
        "# pytorch/executorch release notes (2025-01-01..2025-01-31)"
    )


# -- the worksheet round trip ---------------------------------------------------------


def test_apply_of_an_untouched_worksheet_gives_the_draft(executorch: Store, tmp_path: Path) -> None:
    window = window_between("2025-01-01", "2025-01-31")
    sheet = tmp_path / "w.csv"
    draft = release_notes(
        executorch, "pytorch/executorch", Config(), window=window, worksheet=sheet
    )
    applied = release_notes(executorch, "pytorch/executorch", Config(), window=window, apply=sheet)
    assert applied.report.markdown == draft.report.markdown


def test_apply_keeps_every_kind_of_edit(executorch: Store, tmp_path: Path) -> None:
    repo = "pytorch/executorch"
    window = window_between("2025-01-01", "2025-01-31")
    sheet = tmp_path / "w.csv"
    release_notes(executorch, repo, Config(), window=window, worksheet=sheet)
    rows = read_rows(sheet)
    kept = [r for r in rows if not r["reason"] and not r["merge_into"] and r["pr_link"]]
    a, b, c, d, e = kept[:5]
    number = {id(r): r["pr_link"].rsplit("/", 1)[-1] for r in rows}
    a["category"] = "Releng"  # category
    b["topic"] = "bug_fixes" if b["topic"] != "bug_fixes" else "performance"  # topic
    c["title"] = "Rewrote this sentence by hand"  # title
    d["merge_into"] = e["commit_hash"][:10]  # merge_into (a short hash works)
    reverted = next(
        r for r in rows if r["reason"].startswith("reverted by") and r["topic"] != "not_user_facing"
    )
    reverted["reason"] = ""  # restore a reverted PR
    deleted = kept[5]
    rows.remove(deleted)  # a deleted row
    write_rows(sheet, rows)

    result = release_notes(executorch, repo, Config(), window=window, apply=sheet)
    md = result.report.markdown
    assert module_of(md, int(number[id(a)]))[1] == "Releng"
    headings = dict(SECTIONS)
    assert module_of(md, int(number[id(b)]))[0] == headings[b["topic"]]
    assert bullet_of(md, int(number[id(c)])).startswith("* Rewrote this sentence by hand (")
    merged = bullet_of(md, int(number[id(e)]))
    assert f"[#{number[id(d)]}](" in merged and merged.index(number[id(e)]) < merged.index(
        number[id(d)]
    )
    assert f"[#{number[id(reverted)]}](" in md
    assert f"[#{number[id(deleted)]}](" not in md
    counts = result.context.as_dict()["counts"]
    assert counts["deleted_rows"] == 1
    assert counts["in_notes"] + counts["out"] + counts["deleted_rows"] == counts["prs"]


def test_rerunning_the_worksheet_keeps_edits_and_adds_new_commits(
    executorch: Store, tmp_path: Path
) -> None:
    repo = "pytorch/executorch"
    sheet = tmp_path / "w.csv"
    first = release_notes(
        executorch,
        repo,
        Config(),
        window=window_between("2025-01-01", "2025-01-15"),
        worksheet=sheet,
    )
    rows = read_rows(sheet)
    rows[3]["title"] = "Edited by a human"
    rows[4]["category"] = "skip"
    deleted = rows.pop(7)
    write_rows(sheet, rows)

    second = release_notes(
        executorch,
        repo,
        Config(),
        window=window_between("2025-01-01", "2025-01-31"),
        worksheet=sheet,
    )
    again = read_rows(sheet)
    assert again[: len(rows)] == rows  # every edited row as it was, in place
    assert deleted["commit_hash"] not in {r["commit_hash"] for r in again}  # stays deleted
    assert second.rows_added == len(again) - len(rows) > 100
    assert second.context.as_dict()["counts"]["prs"] > first.context.as_dict()["counts"]["prs"]
    assert "Edited by a human" in second.report.markdown


# -- bad input: one clear line, exit 1 --------------------------------------------------


def _error(result: object) -> str:
    assert result.exit_code == 1, result.output  # type: ignore[attr-defined]
    lines = result.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and lines[0].startswith("Error: ") and " — " in lines[0], lines
    return lines[0]


def test_a_worksheet_with_missing_columns_is_one_line(
    executorch_jsonl: Path, tmp_path: Path
) -> None:
    sheet = tmp_path / "bad.csv"
    sheet.write_text("commit_hash,category,title\nabc1234,Releng,x\n", encoding="utf-8")
    result = run_cli(
        "release-notes",
        "pytorch/executorch",
        "--jsonl",
        str(executorch_jsonl),
        "--since",
        "2025-01-01",
        "--until",
        "2025-01-31",
        "--apply",
        str(sheet),
    )
    line = _error(result)
    assert "missing column(s) topic, merge_into, reason" in line and "bad.csv line 1" in line


def test_a_worksheet_with_an_unknown_pr_is_one_line(executorch: Store, tmp_path: Path) -> None:
    window = window_between("2025-01-01", "2025-01-31")
    sheet = tmp_path / "w.csv"
    release_notes(executorch, "pytorch/executorch", Config(), window=window, worksheet=sheet)
    rows = read_rows(sheet)
    rows[2]["commit_hash"] = "0123456789abcdef"
    write_rows(sheet, rows)
    db = _DBS["pytorch/executorch"]

    def apply_january() -> Result:
        return run_cli("--db", str(db), "release-notes", "pytorch/executorch",
                       "--since", "2025-01-01", "--until", "2025-01-31", "--apply", str(sheet))  # fmt: skip

    result = apply_january()
    assert "w.csv line 4: commit_hash 0123456789abcdef is not a PR of this range" in _error(result)
    rows[2]["commit_hash"], rows[2]["merge_into"] = rows[1]["commit_hash"], ""
    rows[5]["merge_into"] = "#1"
    write_rows(sheet, rows)
    result = apply_january()
    assert "w.csv line 4: " in _error(result) and "is already on line 3" in _error(result)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--from-ref", "v1"], "--from-ref and --to-ref go together"),
        (["--from-ref", "v1", "--to-ref", "v2"], "need a clone"),
        (["--since", "2025-03-01"], "--since and --until go together"),
        ([], "no range given"),
        (
            [
                "--since",
                "2025-01-01",
                "--until",
                "2025-02-01",
                "--worksheet",
                "a.csv",
                "--apply",
                "b.csv",
            ],
            "--worksheet and --apply were both given",
        ),
        (
            ["--from-ref", "a", "--to-ref", "b", "--since", "2025-01-01", "--until", "2025-02-01"],
            "both given",
        ),
    ],
)
def test_bad_ranges_are_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    result = run_cli("release-notes", "pytorch/executorch", *args)
    assert needle in _error(result)


# -- ref ranges on a small real git repository -------------------------------------------


def _git(repo: Path, *args: str, when: int = 0) -> str:
    import os
    import subprocess

    stamp = f"{1_740_000_000 + when * 3600} +0000"
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ada",
        "GIT_AUTHOR_EMAIL": "ada@example.com",
        "GIT_COMMITTER_NAME": "Ada",
        "GIT_COMMITTER_EMAIL": "ada@example.com",
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_DATE": stamp,
        # An empty config of our own: no user settings, and no reliance on /dev/null.
        "GIT_CONFIG_GLOBAL": str(repo.parent / "empty.gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    done = subprocess.run(
        ["git", "-C", str(repo), *args], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """main: #1 #2 (v1) #3, revert of #3 (#4), #5 (v2); release-1.1 from v1 with #5 cherry-picked (v1.1)."""
    repo = tmp_path / "clone"
    repo.mkdir()
    (tmp_path / "empty.gitconfig").write_text("", encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    shas = {}
    for step, (number, title, path) in enumerate(
        [
            (1, "Add the `foo_bar` option", "src/a.py"),
            (2, "Fix crash in loader", "src/b.py"),
            (3, "Add C to the runtime", "src/c.py"),
            (5, "Add D to the exporter", "src/d.py"),
        ],
        start=1,
    ):
        (repo / "src").mkdir(exist_ok=True)
        (repo / path).write_text(f"{title}\n", encoding="utf-8")
        _git(repo, "add", path, when=step)
        _git(repo, "commit", "-q", "-m", f"{title} (#{number})", when=step * 2)
        shas[number] = _git(repo, "rev-parse", "HEAD")
        if number == 2:
            _git(repo, "tag", "v1")
        if number == 3:
            _git(repo, "revert", "--no-edit", "HEAD", when=7)
            _git(
                repo,
                "commit",
                "-q",
                "--amend",
                "-m",
                f'Revert "Add C to the runtime" (#4)\n\nThis reverts commit {shas[3]}.',
                when=7,
            )
    _git(repo, "tag", "v2")
    _git(repo, "checkout", "-q", "-b", "release-1.1", "v1")
    _git(repo, "cherry-pick", "-x", shas[5], when=20)
    _git(repo, "tag", "v1.1")
    _git(repo, "checkout", "-q", "main")
    return repo


def test_a_ref_range_is_what_the_new_ref_reaches_and_the_old_does_not(
    clone: Path, tmp_path: Path
) -> None:
    sheet = tmp_path / "w.csv"
    result = run_cli(
        "release-notes",
        "acme/widget",
        "--git",
        str(clone),
        "--from-ref",
        "v1",
        "--to-ref",
        "v2",
        "--worksheet",
        str(sheet),
    )
    assert result.exit_code == 0, result.stderr
    md = result.stdout
    assert md.startswith("# acme/widget release notes (v1..v2)")
    assert {int(n) for n, _ in _LINK.findall(md)} == {5}
    rows = {r["pr_link"].rsplit("/", 1)[-1]: r["reason"] for r in read_rows(sheet)}
    assert rows == {"3": "reverted by #4, not relanded in this range", "4": "revert of #3", "5": ""}
    assert "acme/widget release notes (v1..v2): 3 commits = 1 in the notes" in result.stderr

    # A release branch: its cherry-pick is in the range, main's commits are not.
    result = run_cli(
        "release-notes",
        "acme/widget",
        "--git",
        str(clone),
        "--from-ref",
        "v1",
        "--to-ref",
        "v1.1",
        "--short-links",
    )
    assert result.exit_code == 0, result.stderr
    assert "* Added D to the exporter (#5)" in result.stdout
    assert "#3" not in result.stdout and "1 commits = 1 in the notes" in result.stderr


@pytest.mark.parametrize(
    ("refs", "needle"),
    [
        (
            ["--from-ref", "v0", "--to-ref", "v2"],
            "--from-ref 'v0' is not a commit, branch or tag of",
        ),
        (
            ["--from-ref", "v1", "--to-ref", "nope"],
            "--to-ref 'nope' is not a commit, branch or tag of",
        ),
        (
            ["--from-ref", "v1.1", "--to-ref", "v2"],
            "--from-ref v1.1 is not an ancestor of --to-ref v2",
        ),
    ],
)
def test_bad_refs_are_one_line(clone: Path, refs: list[str], needle: str) -> None:
    result = run_cli("release-notes", "acme/widget", "--git", str(clone), *refs)
    assert needle in _error(result)


def test_refs_without_a_clone_say_what_to_do(executorch_jsonl: Path) -> None:
    result = run_cli(
        "release-notes",
        "pytorch/executorch",
        "--jsonl",
        str(executorch_jsonl),
        "--from-ref",
        "v0.5.0",
        "--to-ref",
        "v0.6.0",
    )
    line = _error(result)
    assert (
        "need a clone" in line and "--jsonl data has no git history" in line and "--since" in line
    )


def test_a_rerun_follows_reverts_and_relands_that_arrive_later(
    executorch: Store, tmp_path: Path
) -> None:
    repo = "pytorch/executorch"
    sheet = tmp_path / "w.csv"

    def run(until: str) -> tuple[dict[str, dict[str, str]], str]:
        window = window_between("2025-09-01", until)
        md = release_notes(
            executorch, repo, Config(), window=window, worksheet=sheet
        ).report.markdown
        return {r["pr_link"].rsplit("/", 1)[-1]: r for r in read_rows(sheet)}, md

    rows, md = run("2025-09-12")  # #14090 landed on 09-12
    assert rows["14090"]["reason"] == "" and "[#14090](" in md
    rows, md = run("2025-09-15")  # #14307 reverts it
    assert rows["14090"]["reason"] == "reverted by #14307, not relanded in this range"
    assert "[#14090](" not in md
    rows, md = run("2025-10-09")  # #14842 reapplies it
    assert (
        rows["14090"]["reason"] == ""
        and rows["14842"]["merge_into"] == rows["14090"]["commit_hash"]
    )
    assert "[#14842](" in bullet_of(md, 14090)


# -- reverts that name a commit by an abbreviated sha -------------------------------------


@pytest.mark.parametrize("since", ["2025-03-01", "2025-03-10"])
def test_a_revert_by_an_ambiguous_sha_prefix_reverts_nothing(
    executorch_jsonl: Path, tmp_path: Path, since: str
) -> None:
    """executorch's #8892 (1a9a59bd…, 2025-03-04) and #9396 (1a9a59b9…, 2025-03-20) share
    the prefix 1a9a59b. A revert that names only `This reverts commit 1a9a59b` (git's
    7-character form, as #7978's body does) cannot say which one it undoes: it is told
    as a revert of nothing in the range, and neither PR is taken for reverted, whether
    both are in the range or #8892 landed before it."""
    records = ambiguous_revert_records(executorch_jsonl, tmp_path, "2025-03-25T12:00:00Z")
    sheet = tmp_path / "march.csv"
    result = run_cli(
        "--db", str(tmp_path / "s.db"), "release-notes", "pytorch/executorch",
        "--jsonl", str(records), "--since", since, "--until", "2025-03-31",
        "--worksheet", str(sheet),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = {r["pr_link"].rsplit("/", 1)[-1]: r for r in read_rows(sheet) if r["pr_link"]}
    assert rows[str(AMBIGUOUS_REVERT)]["reason"] == "revert of a change not in this range"
    # judged for what it is (a pin bump with the example's quantization code), not reverted
    assert not rows["9396"]["reason"].startswith("reverted")
    assert not [r for r in rows.values() if "1a9a59b" in r["reason"] or "99396" in r["reason"]]


# -- PyTorch's headings, spelled out (not read from SECTIONS) -----------------------------

# The PyTorch 2.6 release notes (/work/shared/seeds/003_*.txt): its table of contents gives
# the order, its `## **…**` headings the spelling.
PYTORCH_HEADINGS = [
    "Highlights",
    "Backwards Incompatible changes",
    "Deprecations",
    "New features",
    "Improvements",
    "Bug fixes",
    "Performance",
    "Documentation",
    "Developers",
]


def test_the_notes_use_pytorchs_headings_in_pytorchs_order(ao_jsonl: Path, tmp_path: Path) -> None:
    """ao's 2026 Q1 has a PR of every kind: every heading is PyTorch's, in its place; a
    breaking change comes right after the highlights, before the deprecations."""
    result = run_cli(
        "--db", str(tmp_path / "s.db"), "release-notes", "pytorch/ao", "--jsonl", str(ao_jsonl),
        "--since", "2026-01-01", "--until", "2026-03-31",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    markdown = result.stdout
    assert _sections(markdown) == PYTORCH_HEADINGS
    # #3720 "Remove old GPTQ implementation" breaks its users' code; a breaking change is
    # its own `###` entry, as in PyTorch's notes (no module heading)
    assert module_of(markdown, 3720) == ("Backwards Incompatible changes", "")
    # the Highlights paragraph points to it; the table lists features (issue 22)
    highlights = markdown.split("\n## Highlights\n", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"Read the \d+ backwards incompatible changes? ", highlights)


def test_the_pinned_headings_are_those_of_pytorchs_own_notes(shared_data: Path) -> None:
    """The excerpt of PyTorch 2.6's notes: its contents list all nine sections, its `##`
    headings the first four, spelled as PYTORCH_HEADINGS spells them."""
    seeds = sorted((shared_data.parent / "seeds").glob("003_*.txt"))
    if not seeds:
        pytest.skip(f"PyTorch's release notes excerpt is absent from {shared_data.parent}/seeds")
    text = seeds[0].read_text(encoding="utf-8")
    contents = re.findall(r"^\* (.+)$", text.split("## ", 1)[0], re.M)
    headings = re.findall(r"^## \*\*(.+?)\*\*$", text, re.M)
    assert headings == PYTORCH_HEADINGS[:4]
    assert [c.lower().rstrip("s") for c in contents] == [
        h.lower().rstrip("s") for h in PYTORCH_HEADINGS
    ]


def test_a_worksheet_topic_may_be_written_as_pytorchs_heading_or_label(
    executorch: Store, tmp_path: Path
) -> None:
    """CLI.md: release-notes section names (and label spellings) are accepted for kind
    ids. A topic copied from the notes' headings, in any case, or from a GitHub label
    puts the PR under that heading."""
    sheet = tmp_path / "w.csv"
    db = str(_DBS["pytorch/executorch"])
    january = ["--since", "2025-01-01", "--until", "2025-01-31"]
    drafted = run_cli("--db", db, "release-notes", "pytorch/executorch", *january,
                      "--worksheet", str(sheet))  # fmt: skip
    assert drafted.exit_code == 0, drafted.output
    rows = read_rows(sheet)
    kept = [r for r in rows if not r["reason"] and not r["merge_into"] and r["pr_link"]]
    topics = {  # as written → the heading it must land under
        "Backwards Incompatible changes": "Backwards Incompatible changes",
        "DEPRECATIONS": "Deprecations",
        "New Features": "New features",
        "topic: improvements": "Improvements",
        "bugfix": "Bug fixes",
        "perf": "Performance",
        "Documentation": "Documentation",
        "Developers": "Developers",
    }
    edited = {}
    for row, (topic, heading) in zip(kept, topics.items(), strict=False):
        row["topic"] = topic
        edited[int(row["pr_link"].rsplit("/", 1)[-1])] = heading
    assert len(edited) == len(topics)
    write_rows(sheet, rows)
    applied = run_cli("--db", db, "release-notes", "pytorch/executorch", *january,
                      "--apply", str(sheet))  # fmt: skip
    assert applied.exit_code == 0, applied.output
    assert {n: module_of(applied.stdout, n)[0] for n in edited} == edited
