"""Built-in profiles (`classify/profiles/*.toml`) and the user's layer from prdigest.toml.

A profile may name a trained `model` and a `code_index` (an index file of the project's code
that `classify train` uses by default), both relative to the profile file.
`[repos."owner/name"]` may set `profile = "name"` (or a path to a profile .toml),
`model = "path"`, and `[[repos."owner/name".areas]]` / `[[….kinds]]` rules that go
IN FRONT of the profile's (first match wins). All mistakes are reported together.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..config import Config
from ..errors import ConfigError
from .base import AreaKindModel, Profile
from .rules import AreaRule, KindRule, RuleEngine
from .spec import Problems, normalize_kind, parse_area_rules, parse_kind_rules

GENERIC = "generic"
USER_ORIGIN = "config"
PROFILE_KEYS = frozenset(
    {
        "name",
        "description",
        "repos",
        "default_area",
        "default_kind",
        "model",
        "code_index",
        "default_kinds",
        "areas",
        "kinds",
    }
)


@dataclass(frozen=True)
class ProfileSpec:
    """A parsed profile file: rules compiled, nothing bound to a repository yet."""

    name: str
    description: str
    repos: tuple[str, ...]
    default_area: str
    default_kind: str
    model_path: Path | None
    areas: tuple[AreaRule, ...]
    kinds: tuple[KindRule, ...]
    code_index_path: Path | None = None  # an index file of the project's code, for training


def builtin_profile_names() -> list[str]:
    names = {entry.name[:-5] for entry in _builtin_dir().iterdir() if entry.name.endswith(".toml")}
    return sorted({name for name in names if not name.startswith("_")} | {GENERIC})


def builtin_profile_for_repo(repo: str) -> str | None:
    """The built-in profile whose `repos` list names `repo` (case-insensitive)."""
    wanted = repo.lower()
    for name, repos in _builtin_repos():
        if wanted in repos:
            return name
    return None


@cache
def _builtin_repos() -> tuple[tuple[str, frozenset[str]], ...]:
    """Only the `repos` lists: choosing a profile must not compile (or trip on) the others."""
    found = []
    for name in builtin_profile_names():
        if name == GENERIC:
            continue
        try:
            data = tomllib.loads((_builtin_dir() / f"{name}.toml").read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            continue  # reported when that profile itself is loaded
        repos = data.get("repos", [])
        if isinstance(repos, list):
            found.append((name, frozenset(str(r).lower() for r in repos)))
    return tuple(found)


def load_profile(name: str, config: Config | None = None, repo: str | None = None) -> Profile:
    """A profile by name (or path to a .toml), with `repo`'s user rules when both are given."""
    return profile_for(repo or "", config or Config(), name)


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
        place = f"{where} profile" if from_config else "profile"
        problems.add(
            place,
            f"unknown profile {chosen!r}; known profiles: {known} (or a path to a .toml file)",
            chosen,
        )
        return None
    return builtin_spec(chosen)


@cache
def builtin_spec(name: str) -> ProfileSpec:
    if name == GENERIC:
        problems = Problems()
        kinds = tuple(
            parse_kind_rules(_default_kind_tables(), GENERIC, "_kinds.toml kinds", problems)
        )
        problems.raise_if_any("built-in profile generic")
        return ProfileSpec(
            GENERIC,
            "Areas derived from the repository's own layout",
            (),
            "Other",
            "improvements",
            None,
            (),
            kinds,
        )
    resource = _builtin_dir() / f"{name}.toml"
    return parse_profile_text(
        resource.read_text(encoding="utf-8"), f"built-in profile {name}", None
    )


def parse_profile_text(text: str, source: str, base_dir: Path | None) -> ProfileSpec:
    """Parse a profile file; every problem is reported in one ConfigError."""
    problems = Problems(source_text=text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}", "fix the file") from None
    for key in data:
        if key not in PROFILE_KEYS:
            problems.add(
                "profile", f"unknown key `{key}`; allowed: {', '.join(sorted(PROFILE_KEYS))}", key
            )
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.add("profile", "lacks `name`")
        name = "unnamed"
    default_kind_raw = str(data.get("default_kind", "improvements"))
    default_kind = normalize_kind(default_kind_raw)
    if default_kind is None:
        problems.add("profile", f"unknown default_kind {default_kind_raw!r}", default_kind_raw)
    repos = data.get("repos", [])
    if not isinstance(repos, list) or not all(isinstance(r, str) for r in repos):
        problems.add("profile", "`repos` must be a list of owner/name strings", "repos")
        repos = []
    areas = parse_area_rules(data.get("areas", []), name, "areas", problems)
    kinds = parse_kind_rules(data.get("kinds", []), name, "kinds", problems)
    if data.get("default_kinds", True) is not False:
        kinds += parse_kind_rules(_default_kind_tables(), name, "_kinds.toml kinds", problems)
    model_path = _beside(data.get("model"), base_dir)
    code_index_path = _beside(data.get("code_index"), base_dir)
    problems.raise_if_any(source)
    return ProfileSpec(
        name,
        str(data.get("description", "")),
        tuple(repos),
        str(data.get("default_area", "Other")),
        default_kind or "improvements",
        model_path,
        tuple(areas),
        tuple(kinds),
        code_index_path,
    )


def _beside(value: object, base_dir: Path | None) -> Path | None:
    """A file a profile names, relative to the profile file (built-in: its folder)."""
    if not isinstance(value, str) or not value:
        return None
    path = Path(value)
    if path.is_absolute():
        return path
    return base_dir / path if base_dir is not None else Path(str(_builtin_dir() / value))


@lru_cache(maxsize=1)
def _default_kind_tables() -> list[dict[str, Any]]:
    data = tomllib.loads((_builtin_dir() / "_kinds.toml").read_text(encoding="utf-8"))
    tables = data.get("kinds", [])
    return tables if isinstance(tables, list) else []


def _builtin_dir() -> Any:
    return resources.files("prdigest.classify") / "profiles"


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
