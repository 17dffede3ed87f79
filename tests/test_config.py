"""The config file is checked as a whole: every problem in one ConfigError, one CLI line."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import one_error_line, run_cli
from prdigest.config import Config, load_config
from prdigest.errors import ConfigError

FULL = """
[repos."pytorch/executorch"]
profile = "executorch"
model = "models/pytorch.model"
git = "~/src/executorch"
jsonl = "data/prs.jsonl.gz"
ref = "main"
since = "2025-01-01"
github_api_url = "https://github.example.com/api/v3"
api = "graphql"

[[repos."pytorch/executorch".areas]]
name = "Backends: WebGPU"
paths = ["backends/webgpu/**"]

[[repos."pytorch/executorch".kinds]]
kind = "bug_fixes"
title_patterns = ["^fix"]

[repos."pytorch/ao"]
since = 2025-02-01
api = "rest"

[llm]
base_url = "http://localhost:11434/v1"
model = "qwen2.5:14b"
context = 8192
concurrency = 2
timeout = 120
max_retries = 3
backoff = 0.5
temperature = 0.0
prompts_dir = "prompts"
strict = true

[site]
title = "PyTorch DevLog"
recent = 10
"""


def _problems(tmp_path: Path, text: str) -> str:
    path = tmp_path / "prdigest.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message


def test_a_full_valid_config_loads(tmp_path: Path) -> None:
    path = tmp_path / "prdigest.toml"
    path.write_text(FULL, encoding="utf-8")
    config = load_config(str(path))
    assert config.repo_settings("pytorch/executorch")["api"] == "graphql"
    assert config.section("llm")["strict"] is True


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[llms]\nmodel = 'x'\n", "[llms] is not a known table (known: llm, repos, site)"),
        ('[repo."a/b"]\ngit = "x"\n', "[repo] is not a known table"),
        ("verbose = true\n", "verbose is not a known setting"),
        ("llm = 'x'\n", "llm must be a table written [llm], got 'x'"),
        ("site = 3\n", "site must be a table written [site], got 3"),
        ('[repos."executorch"]\n', "'executorch' is not a repository name written owner/name"),
        ("[repos]\n'a/b' = 1\n", '[repos."a/b"] must be a table, got 1'),
        ('[repos."a/b"]\ngit = 7\n', '[repos."a/b"].git must be a string, got 7'),
        ('[repos."a/b"]\nprofile = 1\n', '[repos."a/b"].profile must be a string'),
        ('[repos."a/b"]\nsince = "2025-13-01"\n', "since must be a date YYYY-MM-DD"),
        ('[repos."a/b"]\nsince = "last week"\n', "since must be a date YYYY-MM-DD"),
        ('[repos."a/b"]\nsince = 2025-01-01T00:00:00Z\n', "since must be a date YYYY-MM-DD"),
        ('[repos."a/b"]\napi = "soap"\n', 'api must be "auto", "rest" or "graphql", got \'soap\''),
        ('[repos."a/b"]\nareas = "x"\n', "areas must be an array of tables"),
        ('[repos."a/b"]\nkinds = [1]\n', "kinds must be an array of tables"),
        (
            '[repos."a/b"]\ngti = "x"\n',
            '[repos."a/b"].gti is not a known key (known: profile, model, git, jsonl, ref, since,'
            " github_api_url, api, areas, kinds)",
        ),
        ("[llm]\nbase_url = 5\n", "[llm].base_url must be a string, got 5"),
        ("[llm]\ncontext = '8192'\n", "[llm].context must be an integer of at least 1024"),
        ("[llm]\ncontext = 100\n", "[llm].context must be an integer of at least 1024, got 100"),
        ("[llm]\nconcurrency = 0\n", "[llm].concurrency must be an integer of at least 1"),
        ("[llm]\nmax_retries = true\n", "[llm].max_retries must be an integer of at least 0"),
        ("[llm]\ntimeout = 0\n", "[llm].timeout must be a number of seconds above 0"),
        ("[llm]\nbackoff = -1.5\n", "[llm].backoff must be a number of at least 0"),
        ("[llm]\ntemperature = 'hot'\n", "[llm].temperature must be a number of at least 0"),
        ("[llm]\nstrict = 'yes'\n", "[llm].strict must be true or false, got 'yes'"),
        ("[llm]\nprompts_dir = ['a']\n", "[llm].prompts_dir must be a string, got an array"),
        ("[llm]\napi_key = 'sk'\n", "[llm].api_key is not a known key (known: base_url, model"),
    ],
)
def test_each_kind_of_problem(tmp_path: Path, text: str, needle: str) -> None:
    assert needle in _problems(tmp_path, text)


def test_all_problems_are_reported_together(tmp_path: Path) -> None:
    message = _problems(
        tmp_path,
        '[llms]\n[repos."x"]\ngit = 7\napi = "soap"\n[llm]\nbase_url = 5\nstrict = 1\n',
    )
    expected = [
        "[llms] is not a known table",
        "'x' is not a repository name",
        '[repos."x"].git must be a string, got 7',
        '[repos."x"].api must be',
        "[llm].base_url must be a string, got 5",
        "[llm].strict must be true or false, got 1",
    ]
    positions = [message.index(needle) for needle in expected]
    assert positions == sorted(positions)  # in file order
    assert message.count("; ") == len(expected) - 1
    assert message.endswith("— fix these keys (see docs/configuration.md)")


def test_the_cli_shows_one_error_line(tmp_path: Path) -> None:
    cfg = tmp_path / "prdigest.toml"
    cfg.write_text('[repos."x"]\ngit = 7\n[llm]\nbase_url = 5\n', encoding="utf-8")
    for args in (["sync", "--all"], ["digest", "pytorch/executorch", "--week", "2026-W07"]):
        result = run_cli("--config", str(cfg), *args, db=tmp_path / "s.db")
        assert result.exit_code == 1
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith(f"Error: {cfg}: ") and " — " in lines[0]
        assert '[repos."x"].git must be a string, got 7' in lines[0]
        assert "[llm].base_url must be a string, got 5" in lines[0]
        assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("flag", "key", "value", "rule"),
    [
        ("--llm-context", "context", "100", "must be an integer of at least 1024, got 100"),
        ("--llm-concurrency", "concurrency", "0", "must be an integer of at least 1, got 0"),
        ("--llm-timeout", "timeout", "0.0", "must be a number of seconds above 0, got 0.0"),
    ],
)
def test_an_llm_setting_meets_one_rule_as_a_flag_or_in_the_file(
    tmp_path: Path, flag: str, key: str, value: str, rule: str
) -> None:
    """LLM settings were checked three times (click's ranges, config, settings), in three
    wordings; config's check is now the only one."""
    week = ["digest", "pytorch/executorch", "--week", "2026-W07"]
    by_flag = run_cli(*week, flag, value, db=tmp_path / "s.db")
    assert by_flag.exit_code == 2  # a usage error, as every bad flag is
    assert f"Error: Invalid value for '{flag}': {rule} — see" in one_error_line(by_flag)
    cfg = tmp_path / "prdigest.toml"
    cfg.write_text(f"[llm]\n{key} = {value}\n", encoding="utf-8")
    by_file = run_cli("--config", str(cfg), *week, db=tmp_path / "s.db")
    assert by_file.exit_code == 1 and f"[llm].{key} {rule}" in one_error_line(by_file)


def test_llm_settings_given_in_code_meet_the_same_rule(tmp_path: Path) -> None:
    from prdigest.write.llm import resolve_settings

    with pytest.raises(ConfigError) as info:
        resolve_settings(Config({"llm": {"context": 100}}, tmp_path / "p.toml"), {})
    assert str(info.value).startswith(
        f"{tmp_path / 'p.toml'}: [llm].context must be an integer of at least 1024, got 100 — "
    )
    with pytest.raises(ConfigError, match="^--llm-max-retries must be an integer of at least 0"):
        resolve_settings(Config(), {"llm_max_retries": -1})
    settings = resolve_settings(
        Config({"llm": {"timeout": 300, "backoff": 0}}), {"llm_context": 2048}
    )
    assert (settings.timeout, settings.backoff, settings.context_tokens) == (300.0, 0.0, 2048)
    assert isinstance(settings.timeout, float) and isinstance(settings.backoff, float)
