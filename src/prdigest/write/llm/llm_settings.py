"""LLM settings, resolved from flags, then environment, then `[llm]` in the config file.

The API key comes from `OPENAI_API_KEY` only: it is never read from a file,
stored, logged or printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ...config import LLM_MIN_CONTEXT, Config, check_llm_setting
from ...errors import ConfigError

DEFAULT_CONTEXT = 8192
MIN_CONTEXT = LLM_MIN_CONTEXT


@dataclass(frozen=True)
class LLMSettings:
    base_url: str | None
    model: str | None
    api_key: str | None = None
    context_tokens: int = DEFAULT_CONTEXT
    concurrency: int = 2
    timeout: float | None = None  # seconds per request; None: from the server's measured speed
    max_retries: int = 3
    backoff: float = 1.0
    temperature: float = 0.0
    strict: bool = False
    refresh: bool = False
    prompts_dir: Path | None = None

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)


def settings_for(writer: str, config: Config, options: Mapping[str, object]) -> LLMSettings | None:
    """The LLM settings a digest is written with, or None when `auto` finds no LLM
    configured (the deterministic writer writes it)."""
    settings = resolve_settings(config, options)
    if settings.configured:
        return settings
    if writer == "auto":
        return None
    raise ConfigError(
        "--writer llm needs an LLM server and a model",
        "give --llm-base-url (or OPENAI_BASE_URL) and --llm-model (or PRDIGEST_LLM_MODEL)",
    )


def resolve_settings(config: Config, options: Mapping[str, object]) -> LLMSettings:
    """`options`: the command's `llm_*` flags (None or '' when not given)."""
    section = config.section("llm")
    file = config.path or "configuration"

    def pick(option: str, env: str | None, key: str) -> str | None:
        value = options.get(option)
        if value not in (None, ""):
            return str(value)
        if env and os.environ.get(env):
            return os.environ[env]
        found = section.get(key)  # a string: `config_problems` checked it
        return str(found) if found is not None else None

    def number(key: str) -> int | float | None:
        """A number from its flag (`llm_<key>`), else the file, by config's one check."""
        value, where = options.get(f"llm_{key}"), f"--llm-{key.replace('_', '-')}"
        if value in (None, ""):
            value, where = section.get(key), f"{file}: [llm].{key}"
        if value is None:
            return None
        checked = check_llm_setting(key, value, where)
        assert isinstance(checked, int | float), key  # the check lets numbers through only
        return checked

    def integer(key: str, default: int) -> int:
        value = number(key)
        return default if value is None else int(value)

    def real(key: str, default: float) -> float:
        value = number(key)
        return default if value is None else float(value)

    timeout = number("timeout")  # None: from the server's measured speed

    prompts_dir = None
    if (configured_dir := section.get("prompts_dir")) is not None:
        base = config.path.parent if config.path else Path(".")
        prompts_dir = Path(base, str(configured_dir))
        if not prompts_dir.is_dir():
            raise ConfigError(
                f"{file}: [llm].prompts_dir {prompts_dir} is not a directory",
                "point prompts_dir at a folder of .j2 templates (see docs/llm.md)",
            )
    return LLMSettings(
        base_url=pick("llm_base_url", "OPENAI_BASE_URL", "base_url") or None,
        model=pick("llm_model", "PRDIGEST_LLM_MODEL", "model") or None,
        api_key=os.environ.get("OPENAI_API_KEY") or None,
        context_tokens=integer("context", DEFAULT_CONTEXT),
        concurrency=integer("concurrency", 2),
        timeout=float(timeout) if timeout is not None else None,
        max_retries=integer("max_retries", 3),
        backoff=real("backoff", 1.0),
        temperature=real("temperature", 0.0),
        strict=bool(options.get("llm_strict") or section.get("strict", False)),
        refresh=bool(options.get("llm_refresh")),
        prompts_dir=prompts_dir,
    )
