"""Turn `[[areas]]` / `[[kinds]]` tables (from a built-in profile or prdigest.toml) into
compiled rules, collecting every mistake so the user sees them all at once.

The tables are TOML as read (`Mapping[str, object]`): each key is checked where it is
read, so every mistake is told with its line, not only the first (as a decoder would)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from ..errors import ConfigError
from ..kinds import ALIASES, KINDS
from ..reading import normalize_tag
from .globs import compile_globs
from .rules import AreaRule, KindRule

AREA_KEYS = frozenset(
    {
        "name",
        "description",
        "labels",
        "title_tags",
        "title_patterns",
        "paths",
        "fallback",
        "cross_cutting",
    }
)
KIND_KEYS = frozenset({"kind", "labels", "title_tags", "prefixes", "title_patterns", "all_paths"})


def normalize_name(name: str) -> str:
    """CLI.md: lower case, every run of non-alphanumerics → `_`."""
    return re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def normalize_kind(name: str) -> str | None:
    """A kind id from an id, alias or release-notes section name; None when unknown."""
    key = normalize_name(name)
    for prefix in ("topic_", "module_"):
        if key.startswith(prefix) and key[len(prefix) :] in KINDS:
            key = key[len(prefix) :]
    key = ALIASES.get(key, key)
    return key if key in KINDS else None


@dataclass
class Problems:
    """Errors found while reading rules; raised together by `raise_if_any`."""

    source_text: str | None = None  # the file, to point at a line
    messages: list[str] = field(default_factory=list)

    def add(self, where: str, what: str, needle: str | None = None) -> None:
        line = self._line_of(needle)
        self.messages.append(f"{where}{f' (line {line})' if line else ''}: {what}")

    def _line_of(self, needle: str | None) -> int | None:
        if not needle or not self.source_text:
            return None
        for number, line in enumerate(self.source_text.splitlines(), start=1):
            if needle in line:
                return number
        return None

    def raise_if_any(self, source: str) -> None:
        if self.messages:
            listing = "; ".join(self.messages)  # one line, as every error (CLI.md)
            count = len(self.messages)
            raise ConfigError(
                f"{source}: {count} classification rule error{'s' if count > 1 else ''}: {listing}",
                "fix these entries (see docs/classification.md for the rule format)",
            )


def parse_area_rules(tables: object, origin: str, where: str, problems: Problems) -> list[AreaRule]:
    rules: list[AreaRule] = []
    for here, table in _tables(tables, where, "areas", AREA_KEYS, problems):
        name = table.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.add(here, "lacks `name` (the area's display name)")
            continue
        here = f'{here} (area "{name}")'
        globs = _strings(table, "paths", here, problems)
        rules.append(
            AreaRule(
                name=name.strip(),
                origin=origin,
                description=str(table.get("description", "")),
                labels=_labels(table, here, problems),
                title_tags=_title_tags(table, here, problems),
                title_patterns=_patterns(table, here, problems),
                paths=_globs(globs, here, problems),
                path_globs=tuple(globs),
                fallback=_boolean(table, "fallback", here, problems),
                cross_cutting=_boolean(table, "cross_cutting", here, problems),
            )
        )
    return rules


def parse_kind_rules(tables: object, origin: str, where: str, problems: Problems) -> list[KindRule]:
    rules: list[KindRule] = []
    for here, table in _tables(tables, where, "kinds", KIND_KEYS, problems):
        raw_kind = table.get("kind")
        kind = normalize_kind(raw_kind) if isinstance(raw_kind, str) else None
        if kind is None:
            problems.add(
                here, f"unknown kind {raw_kind!r}; use one of {', '.join(KINDS)}", str(raw_kind)
            )
            continue
        rules.append(
            KindRule(
                kind=kind,
                origin=origin,
                labels=_labels(table, here, problems),
                title_tags=_title_tags(table, here, problems),
                prefixes=frozenset(
                    p.lower().rstrip(":") for p in _strings(table, "prefixes", here, problems)
                ),
                title_patterns=_patterns(table, here, problems),
                all_paths=_globs(_strings(table, "all_paths", here, problems), here, problems),
            )
        )
    return rules


def _tables(
    tables: object, where: str, what: str, allowed: frozenset[str], problems: Problems
) -> Iterator[tuple[str, Mapping[str, object]]]:
    """Each `[[what]]` table with its place for messages; what is not a table is reported."""
    if not isinstance(tables, list):
        problems.add(where, f"must be an array of tables, written [[…{what}]]")
        return
    for number, table in enumerate(tables, start=1):
        here = f"{where}[{number}]"
        if not isinstance(table, dict):
            problems.add(here, "must be a table")
            continue
        _unknown_keys(table, allowed, here, problems)
        yield here, table


def _labels(table: Mapping[str, object], where: str, problems: Problems) -> frozenset[str]:
    return frozenset(label.lower() for label in _strings(table, "labels", where, problems))


def _title_tags(table: Mapping[str, object], where: str, problems: Problems) -> frozenset[str]:
    return frozenset(normalize_tag(t) for t in _strings(table, "title_tags", where, problems))


def _unknown_keys(
    table: Mapping[str, object], allowed: frozenset[str], where: str, problems: Problems
) -> None:
    for key in table:
        if key not in allowed:
            problems.add(where, f"unknown key `{key}`; allowed: {', '.join(sorted(allowed))}", key)


def _strings(table: Mapping[str, object], key: str, where: str, problems: Problems) -> list[str]:
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.add(where, f"`{key}` must be a list of strings", key)
        return []
    return value


def _boolean(table: Mapping[str, object], key: str, where: str, problems: Problems) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        problems.add(where, f"`{key}` must be true or false", key)
        return False
    return value


def _patterns(
    table: Mapping[str, object], where: str, problems: Problems
) -> tuple[re.Pattern[str], ...]:
    compiled = []
    for source in _strings(table, "title_patterns", where, problems):
        try:
            compiled.append(re.compile(source))
        except re.error as exc:
            problems.add(where, f"bad regex {source!r} in title_patterns: {exc}", source)
    return tuple(compiled)


def _globs(globs: list[str], where: str, problems: Problems) -> re.Pattern[str] | None:
    try:
        return compile_globs(globs)
    except re.error as exc:  # e.g. a malformed character class
        problems.add(where, f"bad path glob in {globs!r}: {exc}")
        return None
