"""Layered configuration: built-in defaults < `prdigest.toml` < environment < flags.

Each feature reads its own table (`[llm]`, `[site]`, `[repos."owner/name"]`);
`Config.section` hands it over as TOML read it (`dict[str, object]`): the keys are
checked once here (`config_problems`), and each feature narrows the values it reads.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TypeVar

from .errors import ConfigError

DEFAULT_CONFIG_FILE = "prdigest.toml"

# A key's check: (what it must be, test). Tables nested deeper (`[site]`, rule lists) are
# checked by the feature that reads them; this only catches what no one else would.
Check = tuple[str, Callable[[object], bool]]
_T = TypeVar("_T")


def _is_int(value: object, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def _is_number(value: object, minimum: float, above: bool = False) -> bool:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    return value > minimum if above else value >= minimum


def _is_day(value: object) -> bool:
    if isinstance(value, date) and not isinstance(value, datetime):
        return True  # an unquoted TOML date
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _is_rule_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


STRING: Check = ("a string", lambda v: isinstance(v, str))
REPO_KEYS: dict[str, Check] = {
    "profile": STRING,
    "model": STRING,
    "git": STRING,
    "jsonl": STRING,
    "ref": STRING,
    "since": ("a date YYYY-MM-DD", _is_day),
    "github_api_url": STRING,
    "api": ('"auto", "rest" or "graphql"', lambda v: v in ("auto", "rest", "graphql")),
    "areas": ("an array of tables, written [[…areas]]", _is_rule_list),
    "kinds": ("an array of tables, written [[…kinds]]", _is_rule_list),
}
LLM_MIN_CONTEXT = 1024  # tokens: below this no prompt of the LLM writer fits
# The one check of each LLM setting, wherever it comes from: the file (`config_problems`),
# a flag (the CLI's callbacks) or a caller (`write/llm/settings.resolve_settings`).
LLM_KEYS: dict[str, Check] = {
    "base_url": STRING,
    "model": STRING,
    "context": (
        f"an integer of at least {LLM_MIN_CONTEXT}",
        lambda v: _is_int(v, LLM_MIN_CONTEXT),
    ),
    "concurrency": ("an integer of at least 1", lambda v: _is_int(v, 1)),
    "timeout": ("a number of seconds above 0", lambda v: _is_number(v, 0, above=True)),
    "max_retries": ("an integer of at least 0", lambda v: _is_int(v, 0)),
    "backoff": ("a number of at least 0", lambda v: _is_number(v, 0)),
    "temperature": ("a number of at least 0", lambda v: _is_number(v, 0)),
    "prompts_dir": STRING,
    "strict": ("true or false", lambda v: isinstance(v, bool)),
}
TOP_LEVEL = ("llm", "repos", "site")
# GitHub's own rules: an owner is letters, digits and hyphens (at most 39); a repository
# name letters, digits, '.', '-' and '_' (at most 100). Anything else never names a
# GitHub repository, and a name becomes file names on the site.
REPO_OWNER = re.compile(r"[A-Za-z0-9-]{1,39}")
REPO_PART = re.compile(r"[A-Za-z0-9._-]{1,100}")
REPO_RULE = (
    "write it as owner/name as GitHub does: an owner of letters, digits and hyphens"
    " (at most 39), a name of letters, digits, '.', '-' and '_' (at most 100),"
    " e.g. pytorch/executorch"
)


def repo_name_problem(repo: str) -> str | None:
    """What makes `repo` no GitHub repository name, or None when it is one."""
    owner, slash, name = repo.partition("/")
    if not slash or not owner or not name:
        return "it is not owner/name"
    if not REPO_OWNER.fullmatch(owner):
        too_long = len(owner) > 39 and REPO_OWNER.fullmatch(owner[:39])
        return (
            f"the owner is {len(owner)} characters long"
            if too_long
            else "the owner may hold only letters, digits and hyphens"
        )
    if name in (".", ".."):
        return f"the name cannot be {name!r}"
    if not REPO_PART.fullmatch(name):
        too_long = len(name) > 100 and REPO_PART.fullmatch(name[:100])
        return (
            f"the name is {len(name)} characters long"
            if too_long
            else "the name may hold only letters, digits, '.', '-' and '_'"
        )
    return None


def check_repo_name(repo: str) -> str:
    """`repo` itself when GitHub would accept it as owner/name; else a one-line error."""
    problem = repo_name_problem(repo)
    if problem is not None:
        shown = repo if len(repo) <= 60 else f"{repo[:57]}…"
        raise ConfigError(f"invalid repository {shown!r}: {problem}", REPO_RULE)
    return repo


def llm_setting_problem(key: str, value: object) -> str | None:
    """What is wrong with `value` as the LLM setting `key` ("must be …, got …"), or None."""
    return _problem(LLM_KEYS[key], value)


def check_llm_setting(key: str, value: _T, where: str) -> _T:
    """`value` when it is a good LLM setting `key`; else a one-line error naming `where`."""
    problem = llm_setting_problem(key, value)
    if problem is not None:
        raise ConfigError(f"{where} {problem}", "see docs/configuration.md")
    return value


@dataclass(frozen=True)
class Config:
    data: dict[str, object] = field(default_factory=dict)  # the file, as TOML read it
    path: Path | None = None

    def section(self, name: str) -> dict[str, object]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self._where()}: [{name}] must be a table", f"write it as [{name}]")
        return value

    def repo_settings(self, repo: str) -> dict[str, object]:
        """`[repos."owner/name"]`: profile, rules and other per-repository settings."""
        value = self.section("repos").get(repo, {})
        if not isinstance(value, dict):
            raise ConfigError(
                f'{self._where()}: [repos."{repo}"] must be a table', "see docs/configuration.md"
            )
        return value

    def _where(self) -> str:
        return str(self.path) if self.path else "configuration"


def load_config(path: str | None) -> Config:
    """Read `path`, or ./prdigest.toml if present, else built-in defaults."""
    if path is None:
        candidate = Path(DEFAULT_CONFIG_FILE)
        if not candidate.is_file():
            return Config()
        chosen = candidate
    else:
        chosen = Path(path)
        if not chosen.is_file():
            raise ConfigError(f"config file {chosen} not found", "check --config / PRDIGEST_CONFIG")
    try:
        data = tomllib.loads(chosen.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{chosen}: invalid TOML: {exc}", "fix the file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{chosen}: cannot read: {exc}", "check the file's permissions") from None
    problems = config_problems(data)
    if problems:
        raise ConfigError(
            f"{chosen}: {'; '.join(problems)}", "fix these keys (see docs/configuration.md)"
        )
    return Config(data, chosen)


def config_problems(data: Mapping[str, object]) -> list[str]:
    """Every structural problem of a parsed config file, in file order."""
    problems: list[str] = []
    for name, value in data.items():
        if name not in TOP_LEVEL:
            problems.append(
                f"[{name}] is not a known table (known: {', '.join(TOP_LEVEL)})"
                if isinstance(value, dict)
                else f"{name} is not a known setting (top-level tables: {', '.join(TOP_LEVEL)})"
            )
        elif not isinstance(value, dict):
            problems.append(f"{name} must be a table written [{name}], got {_show(value)}")
    repos = data.get("repos")
    if isinstance(repos, dict):
        for repo, settings in repos.items():
            where = f'[repos."{repo}"]'
            problem = repo_name_problem(repo)
            if problem is not None:
                problems.append(
                    f"{where}: {repo!r} is not a repository name written owner/name ({problem})"
                )
            if isinstance(settings, dict):
                _check_keys(settings, REPO_KEYS, where, problems)
            else:
                problems.append(f"{where} must be a table, got {_show(settings)}")
    llm = data.get("llm")
    if isinstance(llm, dict):
        _check_keys(llm, LLM_KEYS, "[llm]", problems)
    return problems


def _check_keys(
    table: Mapping[str, object], checks: dict[str, Check], where: str, out: list[str]
) -> None:
    for key, value in table.items():
        check = checks.get(key)
        if check is None:
            out.append(f"{where}.{key} is not a known key (known: {', '.join(checks)})")
        elif (problem := _problem(check, value)) is not None:
            out.append(f"{where}.{key} {problem}")


def _problem(check: Check, value: object) -> str | None:
    what, ok = check
    return None if ok(value) else f"must be {what}, got {_show(value)}"


def _show(value: object) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"an array {value!r}" if len(repr(value)) <= 40 else "an array"
    return repr(value)
