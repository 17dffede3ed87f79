"""Families of areas: a family is the prefix of its areas' names (`Backends: Arm`,
`Backends: NXP` → Backends; the generic profile names areas `Models: Qwen3-VL` after the
path level above), and an area named like the family (`Backends`) is its general member.
The site charts a family's members together; the release notes keep them side by side.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from .context_types import Area, Family


def family_of(area: str, names: set[str] | frozenset[str] = frozenset()) -> str | None:
    """`Backends: Arm` → Backends; `Backends` → Backends when another area of `names` is
    one of its members; otherwise None (an area of no family)."""
    if ":" in area:
        return area.split(":", 1)[0].strip() or None
    if any(other.startswith(area + ":") for other in names):
        return area
    return None


def families(areas: Sequence[Area]) -> list[Family]:
    """The window's families, biggest first: name, PRs, the week before, member areas."""
    members: dict[str, list[Area]] = defaultdict(list)
    for area in areas:
        if area.family:
            members[area.family].append(area)
    out = [
        Family(
            name=name,
            count=sum(a.count for a in group),
            previous_count=sum(a.previous_count for a in group),
            areas=tuple(a.name for a in group),
        )
        for name, group in members.items()
    ]
    # `areas` come in the digest's order (count, then substance): equal families keep it
    return sorted(out, key=lambda f: -f.count)
