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
_LIST_KEY = re.compile(r"^(?P<key>[\w.-]+)\s*=\s*\[")
_DEV_GROUP = re.compile(
    r"dev|develop|docs?|docker|tests?|testing|lint(?:ing)?|release|typing|types|ci|bench|"
    r"benchmarks?|build|format|mypy|pre-commit|tools?"
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
            for line in _outside_dev_groups(change.patch.splitlines())
            if role is FileRole.BUILD or _ABOUT_VERSIONS.search(line)
        ]
        removed = _bounds(line[1:] for line in lines if line[:1] == "-")
        added = _bounds(line[1:] for line in lines if line[:1] == "+")
        for key, (name, after) in added.items():
            if key in removed and _newer(after, removed[key][1]):
                if key not in found or _newer(after, found[key].after):
                    found[key] = RaisedMinimum(name, removed[key][1], after)
    return list(found.values())


def _outside_dev_groups(lines: list[str]) -> Iterable[str]:
    """The lines of a diff not inside a developers' dependency list (`docs = [`, `dev = [`,
    `[dependency-groups]`'s lists, `[dev-dependencies]`): the project's own tooling, which
    no user installs."""
    dev_table = dev_list = False
    for line in lines:
        if line.startswith("@@"):
            # a hunk starts afresh; git's context names the list it starts in, if any
            dev_table, dev_list = False, _is_dev_list(line.rsplit("@@", 1)[-1])
            continue
        text = (line[1:] if line[:1] in "+- " else line).strip()
        if text.startswith("[") and text.endswith("]") and "=" not in text:
            header = text.lower()
            dev_table, dev_list = "dev" in header or "dependency-groups" in header, False
        elif _LIST_KEY.match(text):
            dev_list = _is_dev_list(text)
        if not (dev_table or dev_list):
            yield line
        if text.startswith("]"):
            dev_list = False


def _is_dev_list(text: str) -> bool:
    key = _LIST_KEY.match(text.strip())
    return bool(key and _DEV_GROUP.fullmatch(key.group("key").lower()))


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
