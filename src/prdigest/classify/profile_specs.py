"""Profile specs: a profile file parsed (`ProfileSpec`), and the built-in ones packaged in
`classify/profiles/*.toml` (profiles.py binds a spec to a repository, its user rules and model).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from ..errors import ConfigError
from ..kinds import IMPROVEMENTS
from .base import Profile
from .rule_tables import Problems, normalize_kind, parse_area_rules, parse_kind_rules
from .rules import AreaRule, KindRule, RuleEngine

GENERIC = "generic"
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
            IMPROVEMENTS,
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
    default_kind_raw = str(data.get("default_kind", IMPROVEMENTS))
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
        default_kind or IMPROVEMENTS,
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
def _default_kind_tables() -> object:
    """The built-in `[[kinds]]`, as TOML read them (`parse_kind_rules` checks them)."""
    data = tomllib.loads((_builtin_dir() / "_kinds.toml").read_text(encoding="utf-8"))
    return data.get("kinds", [])


def _builtin_dir() -> Traversable:
    return resources.files("prdigest.classify") / "profiles"


def rules_only_profile(name: str) -> Profile:
    """The built-in profile a model was trained with, without its own model (no recursion)."""
    if name not in builtin_profile_names() or name == GENERIC:
        raise ConfigError(
            f"the model was trained with profile {name!r}, which this prdigest lacks",
            "retrain it with a built-in profile",
        )
    spec = builtin_spec(name)
    engine = RuleEngine(
        spec.name, list(spec.areas), list(spec.kinds), spec.default_area, spec.default_kind
    )
    return Profile(
        spec.name, engine, spec.description, spec.repos, [rule.name for rule in spec.areas]
    )
