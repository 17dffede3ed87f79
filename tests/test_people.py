"""People, not addresses (issue 13): an author is one person across e-mail addresses,
GitHub logins and names, and across the clone's `.mailmap`; first-time means never
landed anything under any of their identities."""

from __future__ import annotations

import gzip
import json
import subprocess
from datetime import UTC, datetime, timedelta
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from prdigest.analyze import build_context
from prdigest.analyze.people import Identity, People
from prdigest.analyze.prior_facts import History
from prdigest.config import Config
from prdigest.models import Classification, FileChange, PullRequest
from prdigest.pipeline import SourceSpec, build_digest_context, sync
from prdigest.store import open_store
from prdigest.timeutil import Window, iso_week_window
from replay import REPOSITORY_OVERRIDES, git_env, replay

REPO = "pytorch/executorch"
WEEK = "2025-W03"
_CLS = Classification("Runtime", "improvements", "test", "test")


@pytest.fixture(autouse=True)
def _no_outer_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in REPOSITORY_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def _pr(n: int, day: int, name: str, email: str, login: str | None = None) -> PullRequest:
    return PullRequest(
        repo="o/r",
        number=n,
        title=f"Add thing {n}",
        sha=f"{n:040x}",
        author_name=name,
        author_email=email,
        author_login=login,
        merged_at=datetime(2026, 2, day, 12, tzinfo=UTC),
        files=(FileChange("runtime/a.cpp", 3, 1),),
    )


# the store's oldest PR: over a year before the window, so who is new can be told
# (`analyze.context.NEWCOMER_HISTORY`)
_HISTORY_START = datetime(2024, 6, 3, 12, tzinfo=UTC)


def _context(
    prs: list[PullRequest],
    seen: list[Identity],
    mailmap: dict[Any, Any] | None = None,
    first_landed: datetime | None = _HISTORY_START,
) -> dict[str, Any]:
    window = Window(datetime(2026, 2, 9).date(), datetime(2026, 2, 15).date())
    people = People(mailmap=mailmap or {}, seen=frozenset(seen))
    items = [(pr, _CLS) for pr in prs]
    history = History(people=people, first_landed=first_landed)
    return build_context("o/r", window, items, [], history=history).as_dict()


def test_one_person_with_two_addresses_is_one_first_time_author() -> None:
    context = _context(
        [
            _pr(1, 10, "Ann One", "ann@work.example"),
            _pr(2, 11, "Ann One", "ann@home.example"),  # the same name, another address
            _pr(3, 12, "ann", "7+ann-one@users.noreply.github.com"),
            _pr(4, 12, "Someone", "x@y.example", login="ann-one"),  # the noreply's login
            _pr(5, 13, "Bo", "bo@x.example"),
        ],
        [],
    )
    # `ann` and `Someone` share a login; `Ann One` only a first name with them: apart
    assert context["first_time_authors"] == ["ann", "Ann One", "Bo"]
    assert context["counts"]["authors"] == 3


def test_someone_who_landed_under_another_address_months_ago_is_not_new() -> None:
    prs = [_pr(1, 10, "Ann One", "ann@new.example"), _pr(2, 10, "Bo", "bo@x.example")]
    months_ago = Identity("Ann One", "ann@old.example")
    context = _context(prs, [months_ago])
    assert context["first_time_authors"] == ["Bo"]
    # the same through a login (a GitHub source) or a noreply address
    prs = [_pr(1, 10, "A", "a@new.example", login="ann-one")]
    assert (
        _context(prs, [Identity("Ann", "9+ann-one@users.noreply.github.com")])["first_time_authors"]
        == []
    )


def test_placeholder_names_and_addresses_in_another_case() -> None:
    prs = [_pr(1, 10, "root", "a@x.example"), _pr(2, 10, "root", "b@x.example")]
    context = _context(prs, [Identity("Someone", "A@X.example")])
    assert context["first_time_authors"] == ["root"]  # b@…; `root` links nobody
    assert context["counts"]["authors"] == 2


def test_mailmap_names_the_person_and_joins_their_addresses() -> None:
    prs = [_pr(1, 10, "bo", "bo@home.example"), _pr(2, 11, "Bo Builder", "bo@work.example")]
    mailmap = {("bo", "bo@home.example"): ("Bo Builder", "bo@work.example")}
    context = _context(prs, [], mailmap)
    assert context["first_time_authors"] == ["Bo Builder"]
    assert context["counts"]["authors"] == 1


def test_a_history_shorter_than_a_year_names_no_first_time_author() -> None:
    """Against months of history, everyone whose regular work is older looks new: nobody
    is named first-time, though the authors are still counted as people."""
    prs = [_pr(1, 10, "Ann One", "ann@work.example"), _pr(2, 11, "Bo", "bo@x.example")]
    for start in (None, datetime(2025, 9, 1, tzinfo=UTC)):
        context = _context(prs, [], first_landed=start)
        assert context["first_time_authors"] == [], start
        assert context["counts"]["first_time_authors"] == 0
        assert context["counts"]["authors"] == 2
    assert _context(prs, [])["first_time_authors"] == ["Ann One", "Bo"]


def test_people_do_not_depend_on_the_order_of_the_window() -> None:
    prs = [
        _pr(1, 10, "Ann One", "ann@work.example"),
        _pr(2, 11, "A. One", "ann@work.example"),
        _pr(3, 12, "A. One", "a1@home.example"),
        _pr(4, 13, "Bo", "bo@x.example"),
    ]
    forward, backward = _context(prs, []), _context(list(reversed(prs)), [])
    assert forward["first_time_authors"] == backward["first_time_authors"]
    assert forward["counts"]["authors"] == backward["counts"]["authors"] == 2


# --- a real clone with a real .mailmap -------------------------------------------------


def _records(path: Path, count: int) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in islice(handle, count)]


def _commit_mailmap(path: Path, text: str, when: int) -> None:
    """A commit on main adding `.mailmap` (plumbing: the replay has no working tree)."""
    env = {
        **git_env(),
        "GIT_AUTHOR_NAME": "Maintainer",
        "GIT_AUTHOR_EMAIL": "maintainer@example.org",
        "GIT_COMMITTER_NAME": "Maintainer",
        "GIT_COMMITTER_EMAIL": "maintainer@example.org",
        "GIT_AUTHOR_DATE": f"{when} +0000",
        "GIT_COMMITTER_DATE": f"{when} +0000",
    }

    def git(*args: str, stdin: str | None = None) -> str:
        return subprocess.run(
            ["git", "-C", str(path), *args],
            input=stdin,
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout.strip()

    blob = git("hash-object", "-w", "--stdin", stdin=text)
    tree = git("mktree", stdin=git("ls-tree", "main") + f"\n100644 blob {blob}\t.mailmap\n")
    commit = git("commit-tree", tree, "-p", "main", "-m", "Add .mailmap")
    git("update-ref", "refs/heads/main", commit)


def test_a_clones_mailmap_makes_two_addresses_one_person(
    executorch_jsonl: Path, tmp_path: Path
) -> None:
    window = iso_week_window(WEEK)
    records = _records(executorch_jsonl, 300)
    inside = [i for i, r in enumerate(records) if window.contains(_landed(r))][:3]
    assert len(inside) == 3 and _landed(records[5]) < window.start

    def author(index: int, name: str, email: str) -> None:
        records[index] = {**records[index], "author_name": name, "author_email": email}

    author(5, "Ann Old", "ann@old.example")  # landed two weeks before the window
    author(inside[0], "A. N. Other", "ann@new.example")
    author(inside[1], "bo", "bo@home.example")
    author(inside[2], "Bo Builder", "bo@work.example")
    # a PR of over a year before: history enough to tell who is new (NEWCOMER_HISTORY)
    clone = replay([_year_before(records[0])] + records, tmp_path / "clone", non_utf8=False).path
    store = open_store(str(tmp_path / "store.db"))

    def digest() -> dict[str, Any]:
        sync(store, REPO, SourceSpec(git=clone))
        return build_digest_context(store, REPO, window, Config(), "generic").as_dict()

    before = digest()
    assert {"A. N. Other", "bo", "Bo Builder"} <= set(before["first_time_authors"])

    mailmap = (
        "Ann New <ann@new.example> <ann@old.example>\n"
        "Bo Builder <bo@work.example> bo <bo@home.example>\n"
    )
    _commit_mailmap(clone, mailmap, _epoch(records[-1]["committed_at"]) + 86400)
    after = digest()  # the next sync reads the new .mailmap over the whole history
    names = set(after["first_time_authors"])
    assert not names & {"A. N. Other", "Ann New", "bo"}  # Ann landed before, as Ann Old
    assert "Bo Builder" in names  # one person, new once
    assert len(names) == len(before["first_time_authors"]) - 2
    assert after["counts"]["authors"] == before["counts"]["authors"] - 1
    assert store.mailmap_of(REPO, ["bo@home.example"]) == {
        ("bo", "bo@home.example"): ("Bo Builder", "bo@work.example")
    }
    assert store.mailmap_of(REPO, ["ann@new.example"]) == {
        ("Ann Old", "ann@old.example"): ("Ann New", "ann@new.example")
    }


def _year_before(first: dict[str, Any]) -> dict[str, Any]:
    """A PR by someone else, 400 days before `first`, adding a file of its own."""
    when = (_landed(first) - timedelta(days=400)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        **first,
        "number": 1,
        "sha": "01d" * 13 + "0",
        "parents": [],
        "title": "Add the history note",
        "body": "",
        "author_name": "Old Timer",
        "author_email": "old.timer@example.org",
        "committed_at": when,
        "authored_at": when,
        "files": [{"path": "docs/history_note.md", "additions": 3, "deletions": 0}],
        "trailers": {},
    }


def _landed(record: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(record["committed_at"].replace("Z", "+00:00"))


def _epoch(iso: str) -> int:
    return int(_landed({"committed_at": iso}).timestamp())
