"""Messages that say what is true and what to do (issue 23, item 8), each through the CLI."""

from __future__ import annotations

import gzip
import json
import socket
from itertools import islice
from pathlib import Path

import click
import pytest

from helpers import one_error_line, run_cli
from prdigest.cli import main
from replay import replay

AO = "pytorch/ao"


@pytest.fixture
def ao_db(ao_jsonl: Path, tmp_path: Path) -> Path:
    db = tmp_path / "ao.db"
    assert run_cli("sync", AO, "--jsonl", str(ao_jsonl), db=db).exit_code == 0
    return db


def _records(path: Path, count: int) -> list[dict[str, object]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in islice(handle, count)]


@pytest.mark.parametrize("option", ["--db", "--config"])
def test_a_global_option_after_the_command_says_where_it_goes(option: str, tmp_path: Path) -> None:
    result = run_cli("status", option, str(tmp_path / "x"))
    assert result.exit_code == 2
    line = one_error_line(result)
    assert f"{option} is a global option and goes before the command, not after 'status'" in line
    assert f"prdigest {option} " in line and " status" in line


def test_broken_json_names_file_line_and_column_once(ao_jsonl: Path, tmp_path: Path) -> None:
    good = json.dumps(_records(ao_jsonl, 1)[0])
    broken = tmp_path / "broken.jsonl"
    broken.write_text(good + "\n" + good[:243] + "\n", encoding="utf-8")  # cut inside a string
    result = run_cli("sync", AO, "--jsonl", str(broken), db=tmp_path / "x.db")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"{broken}:2: not valid JSON at column " in line
    assert "(unterminated string)" in line and "at at" not in line


def test_a_number_written_as_text_asks_for_a_json_integer(ao_jsonl: Path, tmp_path: Path) -> None:
    record = {**_records(ao_jsonl, 1)[0], "number": "107457"}
    path = tmp_path / "text-number.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = run_cli("sync", AO, "--jsonl", str(path), db=tmp_path / "x.db")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"{path}:1:" in line
    assert "number '107457' is text: it must be a JSON integer, without quotes (107457)" in line


def test_explain_suggests_the_source_the_repository_was_synced_from(
    executorch_jsonl: Path, tmp_path: Path
) -> None:
    clone = replay(_records(executorch_jsonl, 20), tmp_path / "clone", non_utf8=False).path
    db = tmp_path / "git.db"
    synced = run_cli("sync", "pytorch/executorch", "--git", str(clone), db=db)
    assert synced.exit_code == 0, synced.stderr
    result = run_cli("classify", "explain", "pytorch/executorch", "999999", db=db)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"prdigest sync pytorch/executorch --git {clone.resolve()} --ref main" in line
    assert "--jsonl" not in line


def test_no_network_says_nothing_was_fetched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port on 127.0.0.1 that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GITHUB_TOKEN", "")
    result = run_cli(
        "sync", AO, "--github-api-url", f"http://127.0.0.1:{port}", db=tmp_path / "x.db"
    )
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1
    assert "nothing was fetched" in errors[0] and "what was fetched is kept" not in errors[0]


def test_an_unknown_profile_is_one_line(ao_db: Path) -> None:
    for command in (
        ("digest", AO, "--week", "2026-W02"),
        ("release-notes", AO, "--since", "2026-01-01", "--until", "2026-01-31"),
    ):
        result = run_cli(*command, "--profile", "nosuch", db=ao_db)
        assert result.exit_code == 1
        line = one_error_line(result)
        assert "unknown profile 'nosuch' (--profile)" in line and "executorch, generic" in line


@pytest.mark.parametrize(
    "command",
    [
        ("digest", "PyTorch/AO", "--week", "2026-W02"),
        ("release-notes", "PyTorch/AO", "--since", "2026-01-01", "--until", "2026-01-31"),
        ("classify", "explain", "PyTorch/AO", "3538"),
        ("reports", "list", "PyTorch/AO"),
    ],
)
def test_a_name_in_another_case_points_at_the_stored_one(
    ao_db: Path, command: tuple[str, ...]
) -> None:
    result = run_cli(*command, db=ao_db)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "PyTorch/AO is not in the store, but pytorch/ao is" in line and "use pytorch/ao" in line


def test_release_notes_name_their_range_as_the_docs_do(ao_db: Path) -> None:
    result = run_cli(
        "release-notes", AO, "--since", "2026-01-01", "--until", "2026-01-31", db=ao_db
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# pytorch/ao release notes (2026-01-01..2026-01-31)")
    assert "…" not in result.stdout.splitlines()[0]
    assert "release notes (2026-01-01..2026-01-31):" in result.stderr


def test_every_option_has_help_text() -> None:
    context = click.Context(main)
    missing = []

    def walk(command: click.Command, path: str) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                assert sub is not None
                walk(sub, f"{path} {name}")
        missing.extend(
            f"{path} {param.opts[0]}"
            for param in command.params
            if isinstance(param, click.Option) and not param.help and not param.hidden
        )

    walk(main, "prdigest")
    assert missing == []
    shown = run_cli("digest", "--help").stdout
    assert "Who writes the prose" in shown and "context it was written from" in shown
