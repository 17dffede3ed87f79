"""Layered configuration: built-in defaults < `prdigest.toml` < environment < flags.

Each feature reads its own table (`[llm]`, `[site]`, `[repos."owner/name"]`);
`Config.section` hands it over as a plain dict.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError

DEFAULT_CONFIG_FILE = "prdigest.toml"


@dataclass(frozen=True)
class Config:
    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self._where()}: [{name}] must be a table", f"write it as [{name}]")
        return value

    def repo_settings(self, repo: str) -> dict[str, Any]:
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
    return Config(data, chosen)
