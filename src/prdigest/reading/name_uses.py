"""Names a change defines and names it uses, read from its diff.

A PR that uses a function or class which another PR of its author defines builds on that
PR: `[mxfp8 moe training] integrate dim0 cast kernel` adds `from …kernels import
triton_to_mxfp8_dim0`, the function the kernel PR added. Only distinctive names count
(`triton_to_mxfp8_dim0`, `SizesAndStrides`): `forward` or `device` are everyone's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import FileChange

_DEFINED = re.compile(r"^\+\s*(?:async\s+def|def|class|struct)\s+([A-Za-z_]\w*)", re.M)
_ADDED = re.compile(r"^\+(?!\+\+ )(.*)$", re.M)
_NAME = re.compile(r"[A-Za-z_]\w*")
_MIN_LENGTH = 8


def _distinctive(name: str) -> bool:
    """Long, and a compound (`snake_case` or `CamelCase`): a name, not a word."""
    core = name.strip("_")
    return (
        len(name) >= _MIN_LENGTH
        and not name.startswith("__")
        and ("_" in core or any(c.isupper() for c in core[1:]))
    )


def defined_names(files: Sequence[FileChange]) -> frozenset[str]:
    """The distinctive functions, classes and structs the diff adds."""
    return frozenset(
        name
        for change in files
        if change.patch
        for name in _DEFINED.findall(change.patch)
        if _distinctive(name)
    )


def used_names(files: Sequence[FileChange]) -> frozenset[str]:
    """The distinctive names on the diff's added lines other than its own definitions."""
    used: set[str] = set()
    for change in files:
        if not change.patch:
            continue
        for line in _ADDED.findall(change.patch):
            if _DEFINED.match("+" + line):
                continue
            used.update(name for name in _NAME.findall(line) if _distinctive(name))
    return frozenset(used)
