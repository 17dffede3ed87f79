"""LLM settings, resolved from flags, then environment, then `[llm]` in the config file.

The API key comes from `OPENAI_API_KEY` only: it is never read from a file,
stored, logged or printed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def settings_for(writer: str, config: Config, options: dict[str, Any]) -> LLMSettings | None:
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


def resolve_settings(config: Config, options: dict[str, Any]) -> LLMSettings:
    section = config.section("llm")
    file = config.path or "configuration"

    def pick(option: str, env: str | None, key: str) -> Any:
        value = options.get(option)
        if value not in (None, ""):
            return value
        if env and os.environ.get(env):
            return os.environ[env]
        return section.get(key)

    def setting(key: str, default: Any, kind: type = int) -> Any:
        """A number from its flag (`llm_<key>`), else the file, by config's one check."""
        value, where = options.get(f"llm_{key}"), f"--llm-{key.replace('_', '-')}"
        if value in (None, ""):
            value, where = section.get(key), f"{file}: [llm].{key}"
        if value is None:
            return default
        check_llm_setting(key, value, where)
        return kind(value)

    prompts_dir = section.get("prompts_dir")
    if prompts_dir is not None:
        base = config.path.parent if config.path else Path(".")
        prompts_dir = Path(base, str(prompts_dir))
        if not prompts_dir.is_dir():
            raise ConfigError(
                f"{file}: [llm].prompts_dir {prompts_dir} is not a directory",
                "point prompts_dir at a folder of .j2 templates (see docs/llm.md)",
            )
    return LLMSettings(
        base_url=pick("llm_base_url", "OPENAI_BASE_URL", "base_url") or None,
        model=pick("llm_model", "PRDIGEST_LLM_MODEL", "model") or None,
        api_key=os.environ.get("OPENAI_API_KEY") or None,
        context_tokens=setting("context", DEFAULT_CONTEXT),
        concurrency=setting("concurrency", 2),
        timeout=setting("timeout", None, float),
        max_retries=setting("max_retries", 3),
        backoff=setting("backoff", 1.0, float),
        temperature=setting("temperature", 0.0, float),
        strict=bool(options.get("llm_strict") or section.get("strict", False)),
        refresh=bool(options.get("llm_refresh")),
        prompts_dir=prompts_dir,
    )
