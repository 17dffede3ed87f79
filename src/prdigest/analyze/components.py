"""New components: directories first created in the window (a backend, a model, a
command), told with the PRs that created them.

A directory is new when no landed PR before the window touched a path under it (the
`History` says so; a rename's old path counts as existing) and the window adds its files:
each file's first touch in the window adds it (a first touch that deletes lines shows a
file the stored history merely did not reach). Only the top-most new directory counts,
with `MIN_FILES` or more files that are not tests, docs, CI, benchmarks, assets,
configuration or vendored code. Many new siblings make one component, named by their
parent (`backends/webgpu/runtime/ops/`: 53 new op directories); a few (three new models
under `examples/models/`) stay apart, each with the PR that made it.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache

from ..models import FileChange
from .items import Item
from .prior_facts import History

MIN_FILES = 3
MANY_SIBLINGS = 7  # this many new directories side by side are one component (ops, kernels)
# A history shorter than this cannot tell a new directory from one merely quiet since.
WARM_UP = timedelta(weeks=8)

_NOT_COMPONENT = frozenset(
    "test tests testing test_data testdata fixtures docs doc documentation benchmark "
    "benchmarks third-party third_party thirdparty vendor vendored generated __pycache__ "
    "assets res resources images img static _static config configs".split()
)
_TEST_NAME = re.compile(r"(?i)^(?:tests?|testing)(?:[_-]|$)|[_-]tests?$")


@dataclass
class Component:
    path: str  # the new directory (or the parent of new siblings)
    files: int  # component files the window added under it
    makers: list[Item]  # the PRs (or direct pushes) that added them, most files first
    members: list[str] = field(default_factory=list)  # new sibling directories, if grouped

    @property
    def lead(self) -> Item:
        return self.makers[0]

    @property
    def prs(self) -> list[int]:
        return [it.number for it in self.makers if it.number is not None]


@lru_cache(maxsize=65536)
def is_component_part(part: str) -> bool:
    return not (part.lower() in _NOT_COMPONENT or part.startswith(".") or _TEST_NAME.search(part))


@lru_cache(maxsize=65536)
def is_component_dir(directory: str) -> bool:
    """No part of the directory is tests, docs, CI, assets, … (`a/tests/b` is not code)."""
    return all(is_component_part(p) for p in directory.split("/"))


def new_components(items: Sequence[Item], history: History, first_day: date) -> list[Component]:
    """The window's new components, largest first (`items` in landing order)."""
    if history.first_landed is None or first_day - history.first_landed.date() < WARM_UP:
        return []
    first_touch: dict[str, tuple[FileChange, Item]] = {}
    for it in items:
        for change in it.pr.files:
            first_touch.setdefault(change.path, (change, it))
    under: dict[str, list[tuple[FileChange, Item]]] = defaultdict(list)
    for path, touch in first_touch.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):
            directory = "/".join(parts[:depth])
            if history.knows_dir(directory):
                continue
            if is_component_dir("/".join(parts[:-1])):
                under[directory].append(touch)
            break  # the first unknown level is the new directory
    found: list[Component] = []
    for directory, touches in under.items():
        added = all(not c.deletions or c.old_path or c.binary for c, _ in touches)
        if len(touches) >= MIN_FILES and added:
            found.append(Component(directory, len(touches), _by_files([it for _, it in touches])))
    return _grouped(found)


def history_order(items: Sequence[Item]) -> list[Item]:
    """The items as history ordered them: by landing time, and commits landed in the same
    second (a pushed batch) parent before child, so a file's first touch is its first."""
    ordered = sorted(items, key=lambda it: (_landed(it), it.pr.sha or "", it.number or 0))
    out: list[Item] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and _landed(ordered[end]) == _landed(ordered[start]):
            end += 1
        out += _parents_first(ordered[start:end])
        start = end
    return out


def _landed(it: Item) -> str:
    return it.pr.merged_at.isoformat() if it.pr.merged_at else ""


def _parents_first(group: list[Item]) -> list[Item]:
    """`group` (sorted by sha) with each commit after its parents within the group (a
    topological order; ties keep the sha order)."""
    if len(group) == 1:
        return group
    index = {it.pr.sha: i for i, it in enumerate(group) if it.pr.sha}
    waiting = [sum(1 for p in set(it.pr.parents) if p in index and p != it.pr.sha) for it in group]
    children: dict[int, list[int]] = defaultdict(list)
    for i, it in enumerate(group):
        for parent in set(it.pr.parents):
            if parent in index and parent != it.pr.sha:
                children[index[parent]].append(i)
    ready = [i for i, n in enumerate(waiting) if n == 0]
    heapq.heapify(ready)
    out: list[Item] = []
    while ready:
        i = heapq.heappop(ready)
        out.append(group[i])
        for child in children[i]:
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, child)
    placed = {id(it) for it in out}
    return out + [it for it in group if id(it) not in placed]  # a cycle: sha order


def _by_files(makers: list[Item]) -> list[Item]:
    """Each maker once, the one that added most files first (then in landing order)."""
    counts = Counter(id(it) for it in makers)
    unique = list({id(it): it for it in makers}.values())
    return sorted(unique, key=lambda it: -counts[id(it)])


def _grouped(found: list[Component]) -> list[Component]:
    """`MANY_SIBLINGS` or more new siblings are one component under their parent."""
    by_parent: dict[str, list[Component]] = defaultdict(list)
    for component in found:
        by_parent[component.path.rpartition("/")[0]].append(component)
    out: list[Component] = []
    for parent, members in by_parent.items():
        if parent and len(members) >= MANY_SIBLINGS:
            files = sum(m.files for m in members)
            makers = _by_files([it for m in members for it in m.makers for _ in range(m.files)])
            names = sorted(m.path for m in members)
            out.append(Component(parent, files, makers, names))
        else:
            out.extend(members)
    return sorted(out, key=lambda c: (-c.files, c.path))
