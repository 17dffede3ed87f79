"""Bad input: one clear line on stderr, exit code 1, nothing half-written."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from helpers import one_error_line, run_cli

REPO = "pytorch/executorch"


def test_malformed_jsonl_line_names_file_and_line(tmp_path: Path, executorch_jsonl: Path) -> None:
    lines = gzip.open(executorch_jsonl, "rt", encoding="utf-8").read().splitlines()[:700]
    lines[612] = lines[612][:40]  # truncated record on line 613
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = run_cli("sync", REPO, "--jsonl", str(bad), db=tmp_path / "s.db")
    assert result.exit_code == 1
    assert f"{bad}:613" in one_error_line(result)
    # The whole batches before the bad line were committed and a fixed file resumes from there.
    lines[612] = gzip.open(executorch_jsonl, "rt", encoding="utf-8").read().splitlines()[612]
    bad.write_text("\n".join(lines) + "\n")
    assert "200 read" in run_cli("sync", REPO, "--jsonl", str(bad), db=tmp_path / "s.db").stderr


def test_a_damaged_gzip_is_one_clear_line(tmp_path: Path) -> None:
    """A .gz whose compressed data is corrupt (zlib's error, not gzip's) is bad input too."""
    good = gzip.compress(b'{"repo": "pytorch/executorch"}\n' * 200)
    damaged = tmp_path / "damaged.jsonl.gz"
    damaged.write_bytes(good[:20] + bytes(b ^ 0xFF for b in good[20:60]) + good[60:])
    result = run_cli("sync", REPO, "--jsonl", str(damaged), db=tmp_path / "s.db")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"{damaged}: cannot read" in line and "JSONL, plain or gzip" in line


@pytest.mark.parametrize(
    ("args", "needle", "code"),
    [
        (["digest", REPO, "--week", "2026-W60"], "invalid week", 1),
        (["digest", REPO, "--week", "2026-W07", "--since", "2026-01-01"], "--week", 2),
        (["digest", REPO, "--since", "2026-13-01", "--until", "2026-12-01"], "invalid --since", 1),
        (["sync", "not-a-repo", "--jsonl", "x.jsonl"], "owner/name", 1),
        (["sync", REPO, "--jsonl", "missing.jsonl"], "no such file", 1),
        (["sync", REPO, "--jsonl", "a", "--git", "b"], "one source", 2),
        (["digest", REPO, "--week", "2026-W07"], "sync first", 1),
        (["digest", REPO, "--until", "2026-01-01"], "--until needs --since", 2),
        (["sync", REPO, "--bogus"], "No such option '--bogus'", 2),
        (["digest"], "give either REPO or --all", 2),
    ],
)
def test_bad_options_are_one_clear_line(
    tmp_path: Path, args: list[str], needle: str, code: int
) -> None:
    result = run_cli(*args, db=tmp_path / "s.db")
    assert result.exit_code == code, "1 for bad values, 2 for usage errors"
    assert needle in one_error_line(result)


def test_unwritable_out_leaves_nothing(tmp_path: Path, executorch_jsonl: Path) -> None:
    db = tmp_path / "s.db"
    run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), db=db)
    result = run_cli(
        "digest", REPO, "--week", "2026-W07", "--out", str(tmp_path / "no" / "dir" / "d.md"), db=db
    )
    assert result.exit_code == 1
    assert "cannot write" in one_error_line(result)
    assert not (tmp_path / "no").exists()


def test_a_config_with_bad_toml_is_one_clear_line(tmp_path: Path) -> None:
    cfg = tmp_path / "prdigest.toml"
    cfg.write_text("[repos\n")
    result = run_cli(
        "--config", str(cfg), "digest", REPO, "--week", "2026-W07", db=tmp_path / "s.db"
    )
    assert result.exit_code == 1
    assert "invalid TOML" in one_error_line(result)


def test_version_and_help() -> None:
    assert run_cli("--version").output.startswith("prdigest, version ")
    for command in ("sync", "digest"):
        assert run_cli(command, "--help").exit_code == 0


def test_a_window_after_the_data_is_refused(tmp_path: Path, executorch_jsonl: Path) -> None:
    db = tmp_path / "s.db"
    run_cli("sync", REPO, "--jsonl", str(executorch_jsonl), db=db)
    result = run_cli("digest", REPO, "--week", "2030-W01", db=db)
    assert result.exit_code == 1
    lines = gzip.open(executorch_jsonl, "rt", encoding="utf-8").read().splitlines()
    newest = max(json.loads(line)["committed_at"] for line in lines)[:10]  # 2026-08-22 in full
    assert f"newest landed PR is from {newest}" in one_error_line(result)
    assert run_cli("status", db=db).stdout.count("0 reports") == 1, "nothing was stored"
