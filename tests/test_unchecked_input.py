"""Bad input is one clear line, never a traceback nor a loss (issue 23, item 7): an
impossible post date, repository names GitHub would refuse, and a site build into a
folder of someone's own files."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from helpers import one_error_line, run_cli
from prdigest import pipeline
from prdigest.errors import ConfigError
from prdigest.models import Report
from prdigest.store import open_store

REPO = "pytorch/ao"


@pytest.fixture
def ao_db(ao_jsonl: Path, tmp_path: Path) -> Path:
    db = tmp_path / "ao.db"
    assert run_cli("sync", REPO, "--jsonl", str(ao_jsonl), db=db).exit_code == 0
    assert run_cli("digest", REPO, "--week", "2026-W02", db=db).exit_code == 0
    return db


def test_an_impossible_unquoted_post_date_names_file_and_line(ao_db: Path, tmp_path: Path) -> None:
    posts = tmp_path / "posts"
    posts.mkdir()
    (posts / "leap.md").write_text(
        "---\ntitle: Leap day\nauthor: Jane\ndate: 2026-02-30\n---\nBody.\n", encoding="utf-8"
    )
    result = run_cli(
        "site", "build", "--out", str(tmp_path / "public"), "--posts", str(posts), db=ao_db
    )
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"{posts / 'leap.md'}:4: front matter date '2026-02-30' is not a real date" in line
    assert "YYYY-MM-DD" in line
    assert not (tmp_path / "public").exists()  # nothing half-built


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        (f"pytorch/{'a' * 300}", "the name is 300 characters long"),
        (f"{'o' * 40}/ao", "the owner is 40 characters long"),
        ("ÜnïCödé/репо", "the owner may hold only letters, digits and hyphens"),
        ("o\"q/n'q", "the owner may hold only letters, digits and hyphens"),
        ("owner/n'q", "the name may hold only letters, digits, '.', '-' and '_'"),
        ("owner/..", "the name cannot be '..'"),
        ("just-a-name", "it is not owner/name"),
    ],
)
def test_sync_refuses_names_github_would_refuse(
    ao_jsonl: Path, tmp_path: Path, name: str, problem: str
) -> None:
    db = tmp_path / "x.db"
    result = run_cli("sync", name, "--jsonl", str(ao_jsonl), db=db)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "invalid repository" in line and problem in line and "at most 100" in line
    assert len(line) < 400  # a 300-character name is not echoed whole
    assert not db.exists()  # nothing stored


@pytest.mark.parametrize("name", ["owner/n'q", "own er/x", "owner/.."])
def test_sync_in_code_refuses_the_names_the_cli_refuses(
    ao_jsonl: Path, tmp_path: Path, name: str
) -> None:
    """A queued job (the worker) or a caller in code reaches sync without the CLI's check:
    sync makes config's check itself, so a name is refused with the same line everywhere."""
    cli = run_cli("sync", name, "--jsonl", str(ao_jsonl), db=tmp_path / "cli.db")
    store = open_store(str(tmp_path / "code.db"))
    with pytest.raises(ConfigError) as refused:
        pipeline.sync(store, name, pipeline.SourceSpec(jsonl=ao_jsonl))
    assert store.repositories() == []  # nothing stored under the name
    store.close()
    assert one_error_line(cli) == f"Error: {refused.value}"


@pytest.mark.parametrize("command", [("digest",), ("release-notes",), ("reports", "list")])
def test_every_command_taking_repo_checks_it(ao_db: Path, command: tuple[str, ...]) -> None:
    result = run_cli(*command, f"pytorch/{'a' * 300}", db=ao_db)
    assert result.exit_code == 1
    assert "the name is 300 characters long" in one_error_line(result)


def test_explain_checks_repo(ao_db: Path) -> None:
    result = run_cli("classify", "explain", "o\"q/n'q", "3538", db=ao_db)
    assert result.exit_code == 1 and "invalid repository" in one_error_line(result)


def test_config_refuses_names_github_would_refuse(tmp_path: Path, ao_db: Path) -> None:
    config = tmp_path / "prdigest.toml"
    config.write_text('[repos."ÜnïCödé/репо"]\nprofile = "generic"\n', encoding="utf-8")
    result = run_cli("--config", str(config), "digest", REPO, "--week", "2026-W02", db=ao_db)
    assert result.exit_code == 1
    assert "the owner may hold only letters, digits and hyphens" in one_error_line(result)


def test_site_build_keeps_a_folder_of_someone_elses_files(ao_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "index.html").write_text("my own home page\n", encoding="utf-8")
    (out / "CNAME").write_text("devlog.example.org\n", encoding="utf-8")
    refused = run_cli("site", "build", "--out", str(out), db=ao_db)
    assert refused.exit_code == 1
    line = one_error_line(refused)
    assert f"--out {out} already holds index.html, which prdigest did not write" in line
    assert "--force" in line
    assert (out / "index.html").read_text(encoding="utf-8") == "my own home page\n"
    assert sorted(p.name for p in out.iterdir()) == ["CNAME", "index.html"]  # nothing written
    forced = run_cli("site", "build", "--out", str(out), "--force", db=ao_db)
    assert forced.exit_code == 0, forced.stderr
    assert "my own home page" not in (out / "index.html").read_text(encoding="utf-8")
    again = run_cli("site", "build", "--out", str(out), db=ao_db)  # now prdigest's own pages
    assert again.exit_code == 0, again.stderr
    assert (out / "CNAME").read_text(encoding="utf-8") == "devlog.example.org\n"
    beside = tmp_path / "gh-pages"  # a folder of other files the site does not take is fine
    beside.mkdir()
    (beside / "CNAME").write_text("x\n", encoding="utf-8")
    assert run_cli("site", "build", "--out", str(beside), db=ao_db).exit_code == 0


def test_a_stored_name_no_file_system_takes_stops_the_build_before_it_writes(
    tmp_path: Path,
) -> None:
    """A store written before names were checked may hold a 300-character repository."""
    db = tmp_path / "old.db"
    store = open_store(str(db))
    for repo in (REPO, f"pytorch/{'a' * 300}"):
        store.save_report(
            Report(repo, "digest", "2026-01-05", "2026-01-11", "deterministic",
                   f"Digest of {repo}", "# Digest\n\nText.\n", {}, datetime(2026, 1, 12, tzinfo=UTC))
        )  # fmt: skip
    store.close()
    out = tmp_path / "public"
    result = run_cli("site", "build", "--out", str(out), db=db)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "its file name is" in line and "more than 255" in line and "reports delete" in line
    assert not out.exists() or not any(out.iterdir())  # nothing half-built
