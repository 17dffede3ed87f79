"""The generic profile: areas derived from the paths a repository's PRs actually touch.

Given the PRs that shape the areas (the pipeline passes the quarter up to the window's
end: `AREA_BASIS`), it
1. files CI, build, docs and test plumbing under fallback areas (Build/CI, Docs, Tests);
2. makes every other top-level directory an area, and splits a directory into its
   children when it is a container (`src/`, `backends/`, `models/`, `packages/`) at the
   top or right below a package root, or holds a large share of the PRs — repeatedly, up
   to 3 levels below the top or below a package root; children too small to stand alone
   stay in their parent's area, and a container inside another (`examples/models/`)
   stays whole, so one small effort (a model's example) is not spread over several areas;
3. never names an area after the package root (`src/<pkg>/`, `torchao/` in pytorch/ao):
   its every subdirectory is an area, its busy top-level modules too (`tracking.py` →
   Tracking), and its other top-level files are its Core;
4. maps `test/<x>/…` and `benchmarks/<x>/…` onto the area of `<pkg>/<x>/…` when one
   exists (and of `<pkg>/prototype/<x>/…`, the one component so named: pytorch/ao's
   `benchmarks/mx_formats`), so tests and benchmarks count for the component they exercise, and
   `examples/<x>/…` onto the one area named after a directory `<x>` (`backends/arm`):
   an example of the Arm backend is the Arm backend's work;
5. spells names as the repository's titles write them (`qwen3_5` → Qwen3.5, `mx_formats`
   → MX Formats: `use_spelling`, else learned from the PRs' own titles).
Deterministic: the same PRs (and spelling) give the same areas.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence

from ..models import Classification, PullRequest
from ..reading import normalize_tag
from ..reading.spelling import Spelling, squash
from .base import AreaKindModel, Profile
from .globs import compile_globs
from .layout import (
    CONTAINERS,
    EXAMPLE_DIRS,
    FALLBACK_NAMES,
    FALLBACKS,
    MIRROR_DIRS,
    ORIGIN,
    TEST_DIRS,
    TRIAL_DIRS,
    fallback_rules,
    is_plumbing,
)
from .rules import AreaRule, KindRule, RuleEngine

MAX_DEPTH = 3  # levels below the top, or below a package root
SPLIT_SHARE = 0.3  # a directory touched by this share of PRs is split into its children
MIN_CHILD_SHARE = 0.005
MIN_CHILD_PRS = 3

# Directories whose conventional name says less than what they hold.
CONVENTIONAL_NAMES = {"csrc": "C++/CUDA sources"}
CORE = "Core"  # a package root's top-level files that no busy module of their own holds


class GenericProfile(Profile):
    """`engine_for(prs)` derives the areas; `area_names()` shows those of the last batch."""

    batch_dependent = True

    def __init__(
        self,
        user_areas: Sequence[AreaRule],
        kinds: Sequence[KindRule],
        model: AreaKindModel | None = None,
        model_path: str | None = None,
    ) -> None:
        self._user_areas = tuple(user_areas)
        self._kinds = tuple(kinds)
        self._spelling: Spelling | None = None
        engine = RuleEngine(ORIGIN, self._user_areas + fallback_rules(), self._kinds)
        super().__init__(
            ORIGIN,
            engine,
            "Areas derived from the repository's own layout",
            (),
            [name for name, *_ in FALLBACKS],
            model=model,
            model_path=model_path,
        )

    def use_spelling(self, spelling: Spelling) -> None:
        self._spelling = spelling

    def engine_for(self, prs: Sequence[PullRequest]) -> RuleEngine:
        derived = derive_areas(prs, self._spelling)
        self.engine = RuleEngine(
            ORIGIN, self._user_areas + tuple(derived) + fallback_rules(), self._kinds
        )
        self._profile_areas = tuple(rule.name for rule in derived) + FALLBACK_NAMES
        return self.engine

    def classify_all(
        self, prs: Sequence[PullRequest], basis: Sequence[PullRequest] = ()
    ) -> list[Classification]:
        results = super().classify_all(prs, basis)
        # Display order: busiest area first (ties by name), the fallbacks last.
        counts = Counter(result.area for result in results)
        derived = [name for name in self._profile_areas if name not in FALLBACK_NAMES]
        ranked = sorted(dict.fromkeys(derived), key=lambda name: (-counts[name], name))
        self._profile_areas = tuple(ranked) + FALLBACK_NAMES
        return results


def derive_areas(prs: Sequence[PullRequest], spelling: Spelling | None = None) -> list[AreaRule]:
    """Area rules (deepest keys first, so first-match finds the most specific) for these
    PRs, named with `spelling` (default: learned from the PRs' own titles)."""
    spelling = spelling or Spelling.learned(pr.title for pr in prs)
    touches = _touches(prs)
    total = max(1, len(prs))
    repo = prs[0].repo if prs else ""
    package_roots = _package_roots(touches, total, repo)
    keys = _choose_keys(touches, total, package_roots)
    examples = _examples_of(keys)
    keys = [key for key in keys if key not in examples.values()]
    stripped = {key: _strip_root(key, package_roots) for key in keys}
    # `benchmarks/float8` beside `torchao/float8`: the mirror globs below make it Float8's
    mirrored = {stripped[key] for key in keys if key[0] not in MIRROR_DIRS and stripped[key]}
    keys = [key for key in keys if not (key[0] in MIRROR_DIRS and key[1:] in mirrored)]
    named = dict(stripped)
    for key in keys:
        if any(other[:-1] == key for other in keys):
            named[key] = key[-1:]  # `<pkg>/models/` beside `Models: Llama`: the family's own
    # `<pkg>/prototype/quantization` beside `<pkg>/quantization`: the prototype half of the
    # same component, one area ("Prototype: Quantization" split one subject in two)
    for key, parts in stripped.items():
        if len(parts) == 2 and parts[0] in TRIAL_DIRS and parts[1:] in mirrored:
            named[key] = parts[1:]
    mirror_roots = sorted(d for d in MIRROR_DIRS if (d,) in touches)
    names = _names(keys, named, spelling)
    leaf_counts = Counter(key[-1] for key in keys)
    rules = []
    for key in sorted(keys, key=lambda k: (-len(k), k)):
        path = "/".join(key)
        globs = [f"{path}/**"]
        tail = "/".join(stripped[key])
        if stripped[key] and key[0] not in MIRROR_DIRS:
            globs += [f"{root}/{tail}/**" for root in mirror_roots] + [
                f"{root}/test_{stripped[key][-1]}*" for root in mirror_roots
            ]
            trial = stripped[key]
            if len(trial) == 2 and trial[0] in TRIAL_DIRS and leaf_counts[trial[1]] == 1:
                # a prototype's tests or benchmarks may skip the `prototype/` level
                # (`benchmarks/mx_formats` for `<pkg>/prototype/mx_formats`)
                globs += [f"{root}/{trial[1]}/**" for root in mirror_roots]
        if key in examples:
            globs.append("/".join(examples[key]) + "/**")
        tags = [normalize_tag(key[-1])] if leaf_counts[key[-1]] == 1 and len(key[-1]) >= 3 else []
        rules.append(_rule(names[key], f"Changes under {path}/", globs, tags))
    rules += _root_file_rules(prs, package_roots, total, mirror_roots, spelling)
    # Keys that pretty-print alike (`src/foo`, `foo`) keep their own rules, each at its place
    # in the first-match order; the engine counts their files for one area.
    return rules


def _examples_of(keys: list[tuple[str, ...]]) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Component key → the key of its examples (`backends/arm` → `examples/arm`) or
    benchmarks (`<pkg>/prototype/mx_formats` → `benchmarks/mx_formats`): an examples or
    benchmarks directory named like exactly one other area's directory."""
    is_example = {key: key[0] in EXAMPLE_DIRS or key[0] in MIRROR_DIRS for key in keys}
    leaves = Counter(key[-1] for key in keys if not is_example[key])
    component = {key[-1]: key for key in keys if not is_example[key] and leaves[key[-1]] == 1}
    found: dict[tuple[str, ...], tuple[str, ...]] = {}
    for key in keys:
        if is_example[key] and len(key) == 2 and key[1] in component:
            found[component[key[1]]] = key
    return found


def _rule(name: str, description: str, globs: list[str], tags: list[str]) -> AreaRule:
    return AreaRule(
        name=name,
        origin=ORIGIN,
        description=description,
        title_tags=frozenset(tag for tag in tags if tag not in _RESERVED_TAGS),
        paths=compile_globs(globs),
        path_globs=tuple(globs),
    )


def _root_file_rules(
    prs: Sequence[PullRequest],
    roots: set[tuple[str, ...]],
    total: int,
    mirror_roots: list[str],
    spelling: Spelling,
) -> list[AreaRule]:
    """A package root's own files: a module touched by enough PRs is an area by its stem
    (`src/accelerate/tracking.py` → Tracking), the others are the package's Core. Last
    in the list: every subdirectory's rule comes first."""
    stems: Counter[tuple[tuple[str, ...], str]] = Counter()
    for pr in prs:
        seen = set()
        for change in pr.files:
            parts = tuple(change.path.split("/"))
            if parts[:-1] in roots:
                seen.add((parts[:-1], parts[-1]))
        stems.update(seen)
    busy: dict[tuple[str, ...], list[str]] = {}
    rest: set[tuple[str, ...]] = set()
    for (root, filename), n in sorted(stems.items()):
        stem = filename.split(".", 1)[0]
        if (
            n >= max(MIN_CHILD_PRS, MIN_CHILD_SHARE * total)
            and stem.strip("_")
            and not stem.startswith("__")
            and not is_plumbing(stem)
            and squash(stem) != squash(root[-1])  # `src/foo/foo.py` is no area named foo
        ):
            busy.setdefault(root, []).append(filename)
        else:
            rest.add(root)
    rules = []
    for root in sorted(roots):
        path = "/".join(root)
        for filename in busy.get(root, []):
            stem = filename.split(".", 1)[0]
            globs = [f"{path}/{filename}"] + [f"{m}/test_{stem.strip('_')}*" for m in mirror_roots]
            rules.append(_rule(spelling.name(stem), f"{path}/{filename}", globs, [stem]))
        if root in rest:
            rules.append(_rule(CORE, f"The top-level files of {path}/", [f"{path}/*"], []))
    return rules


_RESERVED_TAGS = frozenset(
    {"test", "tests", "docs", "doc", "ci", "build", "src", "lib", "core", "common", "utils", "misc"}
)


def _touches(prs: Sequence[PullRequest]) -> Counter[tuple[str, ...]]:
    """PRs touching each directory prefix (each PR counted once per prefix)."""
    counts: Counter[tuple[str, ...]] = Counter()
    for pr in prs:
        seen: set[tuple[str, ...]] = set()
        for change in pr.files:
            parts = change.path.split("/")[:-1]  # directories only
            for depth in range(1, min(len(parts), MAX_DEPTH + 2) + 1):
                seen.add(tuple(parts[:depth]))
        counts.update(seen)
    return counts


def _package_roots(
    touches: Counter[tuple[str, ...]], total: int, repo: str = ""
) -> set[tuple[str, ...]]:
    """`src/<pkg>`, a top-level directory named like the repository (`torchao/` in
    pytorch/ao), and one that holds most of the code (most PRs, three subdirectories)."""
    roots: set[tuple[str, ...]] = {key for key in touches if len(key) == 2 and key[0] == "src"}
    own = squash(repo.rsplit("/", 1)[-1])
    tops = [
        key
        for key in touches
        if len(key) == 1 and not is_plumbing(key[0]) and key[0] not in MIRROR_DIRS
    ]
    # a directory named exactly like the repository is its package (`mypy/`, not `mypyc/`)
    exact = any(squash(key[0]) == own for key in tops)
    for key in tops:
        squashed = squash(key[0])
        named = (
            bool(own)
            and len(squashed) >= 2
            and (squashed == own if exact else (own in squashed or squashed in own))
        )
        children = [k for k in touches if len(k) == 2 and k[0] == key[0]]
        if key[0] not in CONTAINERS and (
            named or (touches[key] >= 0.3 * total and len(children) >= 3)
        ):
            roots.add(key)
    return roots


def _choose_keys(
    touches: Counter[tuple[str, ...]], total: int, roots: set[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    keys: list[tuple[str, ...]] = []
    children_of: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for candidate in touches:
        if len(candidate) > 1:
            children_of.setdefault(candidate[:-1], []).append(candidate)
    pending: list[tuple[str, ...]] = [
        key
        for key in touches
        if len(key) == 1 and not is_plumbing(key[0]) and key[0] not in TEST_DIRS
    ]
    while pending:
        key = pending.pop()
        children = children_of.get(key, [])
        big = [
            k
            for k in children
            if touches[k] >= max(MIN_CHILD_PRS, MIN_CHILD_SHARE * total)
            and not is_plumbing(k[-1])
            and not _names_its_parent(k)
        ]
        if key in roots:  # never an area itself: all its subdirectories are
            pending.extend(k for k in children if not k[-1].startswith((".", "__")))
            continue
        # Size alone splits only top-level directories and those right below a package root:
        # `backends/arm` stays one area however busy it is, `torchao/quantization` splits.
        sized = len(key) == 1 or key[:-1] in roots
        depth = len(_strip_root(key, roots) or key)
        split = (
            depth < MAX_DEPTH
            and big
            and (
                (key[-1] in CONTAINERS and depth == 1)
                or (len(key) == 1 and key[0] == "src")
                or (sized and touches[key] >= SPLIT_SHARE * total and len(big) >= 2)
            )
        )
        if split:
            pending.extend(big)
            if touches[key] > sum(touches[k] for k in big) or len(big) < len(children):
                keys.append(key)  # what the children leave keeps the parent's area
        else:
            keys.append(key)
    return keys


def _names_its_parent(key: tuple[str, ...]) -> bool:
    """`quantization/quantize_`, `kernels/kernel`: a child named by its parent's own word is
    the parent's core, no area beside it ("Quantization: Quantize" says nothing more)."""
    if len(key) < 2:
        return False
    child, parent = squash(key[-1]), squash(key[-2])
    shorter = min(len(child), len(parent))
    if shorter < 4:
        return False
    common = len(os.path.commonprefix([child, parent]))
    return common >= shorter - 1


def _strip_root(key: tuple[str, ...], roots: set[tuple[str, ...]]) -> tuple[str, ...]:
    for depth in (2, 1):
        if key[:depth] in roots and len(key) > depth:
            return key[depth:]
    return () if key in roots else key


def _names(
    keys: list[tuple[str, ...]],
    stripped: dict[tuple[str, ...], tuple[str, ...]],
    spelling: Spelling,
) -> dict[tuple[str, ...], str]:
    """The last two levels below the top or the package root, spelled as the titles write
    them: `backends/arm` → Backends: Arm, `src/pkg/models/qwen3_vl` → Models: Qwen3-VL."""
    names = {}
    for key in keys:
        parts = stripped[key] or key[-1:]
        if parts and parts[0] == "src" and len(parts) > 1:
            parts = parts[1:]
        words = [_pretty(part, spelling) for part in parts[-2:]]
        names[key] = ": ".join(words) if len(words) == 2 else words[0]
    return names


def _pretty(part: str, spelling: Spelling) -> str:
    if part in CONVENTIONAL_NAMES:
        return CONVENTIONAL_NAMES[part]
    if any(c.isupper() for c in part):
        return part  # the directory's own capitals: already a spelling
    return spelling.name(part)
