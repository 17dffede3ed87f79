"""Families of areas and the digest's sections: which work gets a section of its own.

A family is the prefix of its areas' names (`Backends: Arm`, `Backends: NXP` → Backends;
the generic profile names areas `Models: Qwen3-VL` after the path level above), and an
area named like the family (`Backends`) is its general member. The sections follow the
work: an area with MIN_SECTION or more PRs has its own; so do a family's other members
when together they have as many; then the biggest of what is left, until Other Areas
holds at most a quarter of the window's PRs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from .context_types import Area, Family, Section

MIN_SECTION = 5  # an area, or the rest of a family, with this many PRs gets a section
OTHER_SHARE = 0.25  # Other Areas holds at most this share of the window's PRs
OTHER_AREAS = "Other Areas"
_LISTED = 3  # members a family section's heading names before "and N more"


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


def plan_sections(areas: Sequence[Area], total: int) -> list[Section]:
    """The digest's sections in order, Other Areas (`kind` "other") last when anything is
    left for it. Each: heading, kind (area | family | other), family, areas (names, biggest
    first), count, previous_count. `areas` come biggest first, equal counts by the
    substance of their PRs: sections of equal count keep that order, never the alphabet."""
    rank = {a.name: i for i, a in enumerate(areas)}

    def weight(unit: list[Area]) -> tuple[int, int]:
        return -_count(unit), min(rank[a.name] for a in unit)

    sectioned: list[list[Area]] = [[a] for a in areas if a.count >= MIN_SECTION]
    placed = {a.name for unit in sectioned for a in unit}
    left: dict[str, list[Area]] = defaultdict(list)  # family (or area) → areas
    order: list[str] = []
    for area in areas:
        if area.name in placed:
            continue
        key = area.family or f"\0{area.name}"  # an area of no family stands alone
        if key not in left:
            order.append(key)
        left[key].append(area)
    units = [left[key] for key in order]
    for unit in list(units):
        if len(unit) > 1 and _count(unit) >= MIN_SECTION:
            sectioned.append(unit)
            units.remove(unit)
    units.sort(key=weight)
    while units and _count([a for u in units for a in u]) > OTHER_SHARE * total:
        sectioned.append(units.pop(0))
    own = {a.family for unit in sectioned if len(unit) == 1 for a in unit if a.family}
    sectioned.sort(key=weight)
    plan = [_entry(unit, own) for unit in sectioned]
    rest = [a for u in units for a in u]
    if rest:
        plan.append(
            Section(
                heading=OTHER_AREAS,
                kind="other",
                family=None,
                areas=tuple(a.name for a in rest),
                count=_count(rest),
                previous_count=sum(a.previous_count for a in rest),
            )
        )
    return plan


def _count(unit: list[Area]) -> int:
    return sum(a.count for a in unit)


def _entry(unit: list[Area], own: set[str]) -> Section:
    family = unit[0].family
    heading: str | None
    if len(unit) == 1:
        heading, kind = unit[0].name, "area"
    else:
        kind = "family"
        # a family some of whose members have sections of their own: say which these are
        heading = family if family not in own else f"{family}: {_listing(unit)}"
    return Section(
        heading=heading or "",
        kind=kind,
        family=family,
        areas=tuple(a.name for a in unit),
        count=_count(unit),
        previous_count=sum(a.previous_count for a in unit),
    )


def member_name(area: str, family: str | None) -> str:
    """`Backends: NXP` in the Backends family → NXP; the family's general member `Backends`
    (what no member of its own holds) → Other Backends."""
    if family and area.startswith(family + ":"):
        return area[len(family) + 1 :].strip()
    if family and area == family:
        return f"Other {family}"
    return area


def _listing(unit: list[Area]) -> str:
    """`NXP, Apple and 3 more`; the family's general member last, as `other backends`."""
    family = unit[0].family or ""
    named = [member_name(a.name, family) for a in unit if a.name != family]
    rest = len(unit) - len(named)  # the general member, when the section holds it
    if len(named) + rest > _LISTED:
        shown = named[: _LISTED - 1]
        return ", ".join(shown) + f" and {len(unit) - len(shown)} more"
    if rest:
        plain = family == family[:1] + family[1:].lower()
        named.append(f"other {family.lower() if plain else family}")
    return ", ".join(named[:-1]) + " and " + named[-1]
