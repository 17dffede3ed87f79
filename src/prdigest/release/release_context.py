"""The release-notes context as types: what `plan.build_context` hands the template and
the store. Frozen and complete when built; JSON only at the edges (`as_dict`, for the
stored report), through `msgspec` as the digest context is (analyze/context_types.py)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import msgspec
import msgspec.json


@dataclass(frozen=True, slots=True)
class Link:
    number: int | None  # None: a direct push, linked by its commit
    url: str | None
    label: str


@dataclass(frozen=True, slots=True)
class Renamed:
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class CodeBlock:
    label: str
    text: str


@dataclass(frozen=True, slots=True)
class BreakingDetails:
    """What a backwards-incompatible entry's paragraph says (breaking.details)."""

    removed: tuple[str, ...]
    removed_more: int
    renamed: tuple[Renamed, ...]
    hint: str
    code: tuple[CodeBlock, ...]
    deleted: tuple[str, ...]
    deleted_more: int
    why: str
    more: bool = False  # more names went than the brief keeps: "and more"


@dataclass(frozen=True, slots=True)
class EntryPart:
    """One time of a change made several times: what differs (`IntxWeightOnlyConfig` of
    "Removed v1 of …"), its PRs and what it removed."""

    label: str
    links: tuple[Link, ...]
    details: BreakingDetails | None = None
    series: str = ""  # never a series: read by the template's link list as an entry's


@dataclass(frozen=True, slots=True)
class Entry:
    """A bullet of the notes: its sentence, the series it tells, the PRs it links."""

    text: str
    series: str
    links: tuple[Link, ...]
    details: BreakingDetails | None = None  # backwards-incompatible entries only
    parts: tuple[EntryPart, ...] = ()  # a backwards-incompatible change made several times


@dataclass(frozen=True, slots=True)
class Highlight:
    text: str
    series: str
    links: tuple[Link, ...]
    section: str
    module: str
    stage: str  # Core | Prototype
    phrase: str  # how the Highlights paragraph names it
    lead: str  # the sha of the worksheet row it was drafted from
    details: BreakingDetails | None = None


@dataclass(frozen=True, slots=True)
class Headline:
    named: tuple[Highlight, ...]
    breaking: int
    deprecations: int
    columns: tuple[str, ...]
    rows: tuple[tuple[Highlight | None, ...], ...]


@dataclass(frozen=True, slots=True)
class Module:
    name: str
    bullets: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class GroupArea:
    lead: str  # the sub-area's lead-in; "" for the family's own area
    bullets: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Group:
    name: str
    areas: tuple[GroupArea, ...]


@dataclass(frozen=True, slots=True)
class NotesSection:
    kind: str
    heading: str
    modules: tuple[Module, ...]
    groups: tuple[Group, ...]
    entries: tuple[Entry, ...] = ()  # Backwards Incompatible changes, as told (repeated_changes)


@dataclass(frozen=True, slots=True)
class NotesCounts:
    prs: int
    in_notes: int
    bullets: int
    out: int
    out_reasons: dict[str, int]
    deleted_rows: int
    contributors: int


@dataclass(frozen=True, slots=True)
class ReleaseContext:
    repo: str
    title: str
    range: dict[str, str]  # type (dates | refs), from, to (and the refs' shas)
    short_links: bool
    highlights: tuple[Highlight, ...]
    headline: Headline
    sections: tuple[NotesSection, ...]
    counts: NotesCounts

    def template_values(self) -> dict[str, object]:
        """The template's variables: the context's parts by name (Jinja reads attributes)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def as_dict(self) -> dict[str, Any]:
        """The JSON form the store keeps: an entry's `details` only where it has them."""
        out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(self))
        _drop_empty_details(out)
        return out


def _drop_empty_details(value: object) -> None:
    if isinstance(value, dict):
        if "details" in value and value["details"] is None:
            del value["details"]
        for key in ("parts", "entries"):  # only where a section or entry has some
            if value.get(key) == []:
                del value[key]
        for item in value.values():
            _drop_empty_details(item)
    elif isinstance(value, list):
        for item in value:
            _drop_empty_details(item)
