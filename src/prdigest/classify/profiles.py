"""A repository's profile: a built-in or file profile (profile_specs.py) under the user's layer
from prdigest.toml, with its trained model.

A profile may name a trained `model` and a `code_index` (an index file of the project's code
that `classify train` uses by default), both relative to the profile file.
`[repos."owner/name"]` may set `profile = "name"` (or a path to a profile .toml),
`model = "path"`, and `[[repos."owner/name".areas]]` / `[[….kinds]]` rules that go
IN FRONT of the profile's (first match wins). All mistakes are reported together.
"""

from __future__ import annotations

from pathlib import Path

from ..config import Config
from ..errors import ConfigError
from .base import AreaKindModel, Profile
from .profile_specs import (
    GENERIC,
    ProfileSpec,
    builtin_profile_for_repo,
    builtin_profile_names,
    builtin_spec,
    parse_profile_text,
)
from .rule_tables import Problems, parse_area_rules, parse_kind_rules
from .rules import RuleEngine

USER_ORIGIN = "config"


def load_profile(name: str, config: Config | None = None, repo: str | None = None) -> Profile:
    """A profile by name (or path to a .toml), with `repo`'s user rules when both are given."""
    return profile_for(repo or "", config or Config(), name)


def profile_name_for(repo: str, config: Config, name: str | None = None) -> str:
    """The name of the profile `profile_for` would give (without building it)."""
    configured = (config.repo_settings(repo) if repo else {}).get("profile")
    chosen = name or (configured if isinstance(configured, str) else None)
    return chosen or builtin_profile_for_repo(repo) or GENERIC


def profile_for(repo: str, config: Config, name: str | None = None) -> Profile:
    settings = config.repo_settings(repo) if repo else {}
    source = str(config.path) if config.path else "configuration"
    problems = Problems(source_text=_read_text(config.path))
    where = f'[repos."{repo}"]'

    configured = settings.get("profile")
    if configured is not None and not isinstance(configured, str):
        problems.add(where, "`profile` must be a string naming a profile", "profile")
        configured = None
    chosen = name or configured or builtin_profile_for_repo(repo) or GENERIC
    user_areas = (
        parse_area_rules(settings["areas"], USER_ORIGIN, f"{where}.areas", problems)
        if "areas" in settings
        else []
    )
    user_kinds = (
        parse_kind_rules(settings["kinds"], USER_ORIGIN, f"{where}.kinds", problems)
        if "kinds" in settings
        else []
    )
    model_setting = settings.get("model")
    if model_setting is not None and not isinstance(model_setting, str):
        problems.add(where, "`model` must be a string: the path of a trained model file", "model")
        model_setting = None

    spec = _resolve(
        chosen, config, problems, from_config=name is None and configured is not None, where=where
    )
    problems.raise_if_any(source)
    assert spec is not None

    model_path = _config_relative(model_setting, config) if model_setting else spec.model_path
    model = _load_model(model_path) if model_path else None
    if spec.name == GENERIC:
        from .generic import GenericProfile

        return GenericProfile(
            user_areas,
            user_kinds + list(spec.kinds),
            model=model,
            model_path=str(model_path) if model_path else None,
        )
    engine = RuleEngine(
        spec.name,
        user_areas + list(spec.areas),
        user_kinds + list(spec.kinds),
        spec.default_area,
        spec.default_kind,
    )
    profile = Profile(
        spec.name,
        engine,
        spec.description,
        spec.repos,
        [rule.name for rule in spec.areas],
        model=model,
        model_path=str(model_path) if model_path else None,
    )
    profile.code_index_path = str(spec.code_index_path) if spec.code_index_path else None
    return profile


def _resolve(
    chosen: str, config: Config, problems: Problems, *, from_config: bool, where: str
) -> ProfileSpec | None:
    if chosen.endswith(".toml"):
        path = _config_relative(chosen, config)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            if not from_config:  # --profile: the one problem, told at once
                raise ConfigError(
                    f"cannot read the profile file {path} (--profile): {exc.strerror}",
                    "give a built-in profile name or the path of a readable .toml",
                ) from None
            problems.add(
                f"{where} profile" if from_config else "profile",
                f"cannot read profile file {path}: {exc}",
                chosen,
            )
            return None
        return parse_profile_text(text, str(path), path.parent)
    if chosen == GENERIC:
        return builtin_spec(GENERIC)
    if chosen not in builtin_profile_names():
        known = ", ".join(builtin_profile_names())
        if not from_config:  # --profile: the one problem, told at once
            raise ConfigError(
                f"unknown profile {chosen!r} (--profile)",
                f"use one of {known}, or the path of a profile .toml file",
            )
        problems.add(
            f"{where} profile",
            f"unknown profile {chosen!r}; known profiles: {known} (or a path to a .toml file)",
            chosen,
        )
        return None
    return builtin_spec(chosen)


def _config_relative(value: str, config: Config) -> Path:
    path = Path(value).expanduser()
    if not path.is_absolute() and config.path is not None:
        path = config.path.parent / path
    return path


def _read_text(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _load_model(path: Path) -> AreaKindModel:
    """Trained models come from `prdigest.classify.model.load_model` (issue 4); loaded only when named."""
    try:
        from . import model as model_module  # heavy (scikit-learn): imported only here
    except ImportError as exc:
        raise ConfigError(
            f"a model is configured ({path}) but model support cannot be loaded: {exc}",
            "install prdigest with its dependencies, or remove `model` from the profile / prdigest.toml",
        ) from None
    loader = getattr(model_module, "load_model", None)
    if loader is None:
        raise ConfigError(
            f"a model is configured ({path}) but this prdigest cannot load models",
            "remove `model` from the profile / prdigest.toml",
        )
    loaded: AreaKindModel = loader(path)
    return loaded
