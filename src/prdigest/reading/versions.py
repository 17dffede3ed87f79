"""The minimum versions a PR raises, read from its diff: a dependency's lower bound in a
packaging file (`"vllm>=0.10.2"` → `"vllm>=0.11.0"`), the interpreter's
(`requires-python`, `python_requires`, Cargo's `rust-version`), or a version check the
library code itself spells ("requires torchao > 0.9.0" → "requires torchao >= 0.15.0").
Users on the old version can no longer install or run the release: a break.

Only the `-`/`+` lines of library code and build files are read (a CI matrix, a test, a
README or an example raise no one's minimum), and only a bound both removed and added
in the same file, whose lowest value is higher after than before, counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..models import FileChange
from .file_roles import FileRole, file_role

# `vllm>=0.11.0`, `torchao >= 0.15.0`, `torch > 2.5` (the name right before the bound)
_BOUND = re.compile(
    r"(?<![\w.-])(?P<name>[A-Za-z][\w.-]{1,40}?)\s*(?:\[[\w,\s-]*\])?\s*(?:>=|>|~=)\s*v?"
    r"(?P<version>\d+(?:\.\d+){0,3})\b"
)
# `requires-python = ">=3.10"`, `python_requires=">=3.9"`, `rust-version = "1.85"`
_KEYED = re.compile(
    r"(?P<name>requires-python|python_requires|rust-version|MIN(?:IMUM)?_[A-Z_]*VERSION)"
    r"""\s*[=:]\s*["']?\s*(?:>=|>|~=|\^)?\s*v?(?P<version>\d+(?:\.\d+){0,3})"""
)
# "The minimum required version of `torchao` is 0.7.0"
_STATED = re.compile(
    r"(?i)minimum (?:required |supported )?version of [`'\"]?(?P<name>[A-Za-z][\w.-]{1,40})[`'\"]?"
    r"\s+is\s+v?(?P<version>\d+(?:\.\d+){0,3})"
)
_ROLES = frozenset({FileRole.LIBRARY, FileRole.BUILD})
# in library code, only a line about versions speaks of one (`if n_layers > 2` does not)
_ABOUT_VERSIONS = re.compile(r"(?i)version|requires?|install|upgrade")
_NOT_A_NAME = frozenset({"version", "python_version", "sys", "len", "x", "n", "i", "size", "dim"})


@dataclass(frozen=True, slots=True)
class RaisedMinimum:
    name: str  # the dependency, as the file spells it (`vllm`, `requires-python`)
    before: str
    after: str


def raised_minimums(files: Sequence[FileChange]) -> list[RaisedMinimum]:
    """The lower bounds the diff raises, one per dependency (the highest)."""
    found: dict[str, RaisedMinimum] = {}
    for change in files:
        role = file_role(change.path)
        if not change.patch or role not in _ROLES:
            continue
        lines = [
            line
            for line in change.patch.splitlines()
            if role is FileRole.BUILD or _ABOUT_VERSIONS.search(line)
        ]
        removed = _bounds(line[1:] for line in lines if line[:1] == "-")
        added = _bounds(line[1:] for line in lines if line[:1] == "+")
        for key, (name, after) in added.items():
            if key in removed and _newer(after, removed[key][1]):
                if key not in found or _newer(after, found[key].after):
                    found[key] = RaisedMinimum(name, removed[key][1], after)
    return list(found.values())


def _bounds(lines: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Dependency (lower-cased) → (its name, its lowest lower bound) on these lines: a
    bound kept for some environments (`>=4.6.0; python_version<'3.15'`) still admits the
    old version."""
    out: dict[str, tuple[str, str]] = {}
    for line in lines:
        for pattern in (_KEYED, _STATED, _BOUND):
            for match in pattern.finditer(line):
                name, version = match.group("name"), match.group("version")
                key = name.lower().replace("_", "-")
                if key in _NOT_A_NAME or name.isdigit():
                    continue
                if key not in out or _newer(out[key][1], version):
                    out[key] = (name, version)
    return out


def _newer(a: str, b: str) -> bool:
    def parts(v: str) -> tuple[int, ...]:
        numbers = tuple(int(p) for p in v.split("."))
        return numbers + (0,) * (4 - len(numbers))

    return parts(a) > parts(b)
