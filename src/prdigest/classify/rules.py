"""The rules engine: ordered, immutable rules, first match wins, every decision named.

Area evidence, strongest first: label > title tag (`[ET-VK]`, `Arm backend:`,
`fix(arm):`) > changed paths (weighted by changed lines; plumbing only when nothing else
changed) > title pattern > default. Kind evidence: revert >
label > title tag > conventional prefix (`fix:`) > changed paths (docs-only,
tests-only, CI-only) > wording > default. See docs/classification.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..kinds import BC_BREAKING, IMPROVEMENTS, NOT_USER_FACING
from ..models import Classification, PullRequest
from ..reading import TitleInfo, parse_title

# Evidence a trained model may not overrule (issue 4: "a rule that fires on strong evidence wins").
STRONG_EVIDENCE = frozenset(
    {"label", "title_tag", "title_prefix", "revert", "breaking_marker", "prefix"}
)
UNAMBIGUOUS_PATHS = 0.8  # path evidence this sure counts as strong
# A fallback area tagged so holds tests: they exercise the component whose directory holds
# them (or that `test/<x>` mirrors); docs, CI and build files are about the docs and the build.
_COMPONENT_BOUND = frozenset({"test", "tests", "testing"})
# Directories of harness code: tests and benchmarks sit where the harness is kept (a MoE
# benchmark script under `benchmarks/float8/`); a title naming what they exercise beats it.
_HARNESS_DIRS = frozenset("__tests__ androidTest bench benchmark benchmarks test tests".split())
# Build manifests: one inside a component's directory (`examples/models/llama/CMakeLists.txt`)
# builds that component; a sweep over many directories' manifests is build work.
_MANIFEST_NAMES = frozenset({"CMakeLists.txt", "BUCK", "TARGETS", "BUILD", "BUILD.bazel"})
_MANIFEST_SUFFIXES = (".bzl", ".cmake")


@dataclass(frozen=True, slots=True)
class AreaRule:
    name: str
    origin: str  # first part of the rule id: the profile's name, or `config` for prdigest.toml
    description: str = ""
    labels: frozenset[str] = frozenset()
    title_tags: frozenset[str] = frozenset()  # normalized (titles.normalize_tag)
    title_patterns: tuple[re.Pattern[str], ...] = ()
    paths: re.Pattern[str] | None = None
    path_globs: tuple[str, ...] = ()
    # CI / build / tests / docs: its files decide only for a PR changing nothing else
    # (tests then count for the specific area owning them; see `vote_paths`)
    fallback: bool = False
    # a platform or team stream (XPU, ROCm): its title tag always beats the paths
    cross_cutting: bool = False

    def rule_id(self, evidence: str) -> str:
        return f"{self.origin}/area/{self.name}/{evidence}"


@dataclass(frozen=True, slots=True)
class KindRule:
    kind: str
    origin: str
    labels: frozenset[str] = frozenset()
    title_tags: frozenset[str] = frozenset()
    prefixes: frozenset[str] = frozenset()  # conventional-commit types
    title_patterns: tuple[re.Pattern[str], ...] = ()
    all_paths: re.Pattern[str] | None = None

    def rule_id(self, evidence: str) -> str:
        return f"{self.origin}/kind/{self.kind}/{evidence}"


@dataclass(frozen=True, slots=True)
class Decision:
    value: str
    rule: str
    evidence: str  # label | title_tag | title_prefix | paths | title_pattern | revert | prefix | wording | default …
    confidence: float = 1.0

    @property
    def strong(self) -> bool:
        if self.evidence == "paths":
            return self.confidence >= UNAMBIGUOUS_PATHS
        return self.evidence in STRONG_EVIDENCE


@dataclass(frozen=True, slots=True)
class PathVote:
    """How the changed files split between areas."""

    winner: int | None  # index into the engine's areas
    share: float  # the winner's share of the considered files/lines, 0..1
    owners: frozenset[int]  # every area owning at least one changed file
    scores: dict[
        int, float
    ]  # area index → score (fallback areas score 0 when a specific one matched)


_NO_VOTE = PathVote(None, 0.0, frozenset(), {})


class RuleEngine:
    """Compiled rules of one profile (user rules first). Thread-compatible, caches per path."""

    def __init__(
        self,
        origin: str,
        areas: Sequence[AreaRule],
        kinds: Sequence[KindRule],
        default_area: str = "Other",
        default_kind: str = IMPROVEMENTS,
    ) -> None:
        self.origin = origin
        self.areas = tuple(areas)
        self.kinds = tuple(kinds)
        self.default_area = default_area
        self.default_kind = default_kind
        self._area_by_label = _first_index(rule.labels for rule in self.areas)
        self._area_by_tag = _first_index(rule.title_tags for rule in self.areas)
        self._kind_by_label = _first_index(rule.labels for rule in self.kinds)
        self._kind_by_tag = _first_index(rule.title_tags for rule in self.kinds)
        self._kind_by_prefix = _first_index(rule.prefixes for rule in self.kinds)
        self._path_areas = [i for i, rule in enumerate(self.areas) if rule.paths is not None]
        self._path_cache: dict[str, tuple[int, int]] = {}  # path → (owner, fallback match)
        self._fallback_areas = [i for i in self._path_areas if self.areas[i].fallback]
        # Rules of one name are one area (`<pkg>/x/` and `<pkg>/prototype/x/`, each at its
        # own place in the first-match order): their files count for the first rule's index.
        first_of: dict[str, int] = {}
        self._same_area = tuple(
            i if rule.fallback else first_of.setdefault(rule.name, i)
            for i, rule in enumerate(self.areas)
        )
        # Fallback areas of tests: such files speak of the component they sit in.
        self._component_bound = frozenset(
            i for i in self._fallback_areas if self.areas[i].title_tags & _COMPONENT_BOUND
        )
        self._doc_paths = [rule for rule in self.kinds if rule.all_paths is not None]
        # path → bitmask of the `_doc_paths` rules it matches
        self._doc_path_cache: dict[str, int] = {}
        # Flat (rule, pattern) lists in rule order; one alternation per rule measured 2x slower.
        self._area_wording = [
            (i, pattern) for i, rule in enumerate(self.areas) for pattern in rule.title_patterns
        ]
        self._kind_wording = [
            (rule, pattern) for rule in self.kinds for pattern in rule.title_patterns
        ]

    # -- areas ---------------------------------------------------------------------------
    def decide_area(self, pr: PullRequest, info: TitleInfo | None = None) -> Decision:
        info = info or parse_title(pr.title)
        if pr.labels:  # several matching labels: the earliest rule wins, whatever the label order
            found = [self._area_by_label.get(label.lower()) for label in pr.labels]
            indexes = [index for index in found if index is not None]
            if indexes:
                return self._area(min(indexes), "label")
        candidates = self._tag_candidates(info)
        vote = self.vote_paths(pr)
        if candidates:
            index, evidence = self._choose_tag(candidates, vote)
            if _harness_only(pr):
                return self._area(index, evidence)
            return self._resolve_tag_against_paths(index, evidence, vote)
        if vote.winner is not None:
            return self._area(vote.winner, "paths", vote.share)
        for index, pattern in self._area_wording:
            if pattern.search(info.inner):
                return self._area(index, "title_pattern", 0.6)
        return Decision(
            self.default_area, f"{self.origin}/area/{self.default_area}/default", "default", 0.0
        )

    def _tag_candidates(self, info: TitleInfo) -> list[tuple[int, str]]:
        """Areas the title names, in title order: leading `[tags]`, then a `Component:` prefix
        or conventional scope, then tags later in the title."""
        found: list[tuple[int, str]] = []
        for tag in info.tags[: info.leading_tags]:
            index = self._tag_area(tag)
            if index is not None:
                found.append((index, "title_tag"))
        for name in (info.prefix, info.conventional_scope):
            if name:
                index = self._tag_area(name)
                if index is not None:
                    found.append((index, "title_prefix"))
        for tag in info.tags[info.leading_tags :]:
            index = self._tag_area(tag)
            if index is not None:
                found.append((index, "title_tag"))
        return found

    def _tag_area(self, name: str) -> int | None:
        """The area a tag or prefix names (its first rule, as the path vote counts it): as
        written, else its longest leading words that are a tag (`qualcomm ai engine direct`
        … `qualcomm`), else its longest trailing ones (`mxfp8 moe training` → `moe
        training`: a qualifier before the subject)."""
        index = self._tag_rule(name)
        return None if index is None else self._same_area[index]

    def _tag_rule(self, name: str) -> int | None:
        index = self._area_by_tag.get(name)
        if index is not None or " " not in name:
            return index
        words = name.split(" ")
        for end in range(len(words) - 1, 0, -1):
            index = self._area_by_tag.get(" ".join(words[:end]))
            if index is not None:
                return index
        for start in range(1, len(words)):
            index = self._area_by_tag.get(" ".join(words[start:]))
            if index is not None:
                return index
        return None

    def _choose_tag(self, candidates: list[tuple[int, str]], vote: PathVote) -> tuple[int, str]:
        """Several areas named (`[Recipes][CoreML]`): the one owning most of the change; ties → title order.
        A platform or team stream (`cross_cutting`) beats the components named beside it:
        `[ROCm][INT4] configurable tile size` is ROCm work, as its tag beats the paths (a
        docs, CI or test tag beside it keeps the rules below: `[ci][aarch64] wheels`). A
        component named and owning changed files beats a docs, CI or test area named beside
        it: `[moe training] readme updates` on the component's README is the component's."""

        named = [self.areas[index] for index, _ in candidates]
        if not any(rule.fallback for rule in named):
            for candidate, rule in zip(candidates, named, strict=True):
                if rule.cross_cutting:
                    return candidate

        def weight(candidate: tuple[int, str]) -> tuple[bool, float]:
            index = candidate[0]
            owning = not self.areas[index].fallback and index in vote.owners
            return owning, vote.scores.get(index, 0.0)

        best = candidates[0]
        for candidate in candidates[1:]:
            if weight(candidate) > weight(best):
                best = candidate
        return best

    def _resolve_tag_against_paths(self, index: int, evidence: str, vote: PathVote) -> Decision:
        """The tag names whose change it is; it yields only when the tag's area owns none of
        the changed files AND one other specific (non-fallback) area owns every one of them."""
        tag_rule = self.areas[index]
        winner = vote.winner
        if (
            winner is not None
            and winner != index
            and index not in vote.owners
            and tag_rule.paths is not None  # a tag-only area (no paths) cannot disagree
            and not tag_rule.cross_cutting
            and vote.owners == {winner}
            and not self.areas[winner].fallback
        ):
            return self._area(winner, "paths_over_tag", vote.share)
        return self._area(index, evidence)

    def vote_paths(self, pr: PullRequest) -> PathVote:
        """Where the change lands: each file weighs its changed lines + 1 (so renames and
        binary files count) for the area owning it. Tests count for the component they
        sit in; docs, CI and build files, and tests no specific area owns, count only when
        the PR changes nothing else (see `_plumbing_vote`)."""
        weights: dict[int, int] = {}  # area → weight of the files counted for it
        plumbing: dict[int, int] = {}  # fallback area → weight of the files it matches
        owners: set[int] = set()
        substance = False  # a file no fallback area matches
        manifests: set[tuple[int, str]] = set()  # (specific owner, directory) of build files
        cache = self._path_cache
        areas = self.areas
        for change in pr.files:
            found = cache.get(change.path)
            if found is None:
                found = self._path_owner(change.path)
            owner, kind = found
            if owner < 0:
                continue
            owners.add(owner)
            weight = (change.additions or 0) + (change.deletions or 0) + 1
            if kind < 0:
                substance = True
            else:
                plumbing[kind] = plumbing.get(kind, 0) + weight
                manifests.add(_manifest_of(change.path, -1 if areas[owner].fallback else owner))
                if kind not in self._component_bound or areas[owner].fallback:
                    continue
            weights[owner] = weights.get(owner, 0) + weight
        if not owners:
            return _NO_VOTE
        if substance:
            return self._tally(weights, frozenset(owners))
        if len(manifests) == 1:
            ((owner, _),) = manifests
            if owner >= 0:  # one component's build manifests, and nothing else
                return PathVote(owner, 1.0, frozenset(owners), {owner: 1.0})
        return self._plumbing_vote(weights, plumbing, frozenset(owners))

    def _plumbing_vote(
        self, weights: dict[int, int], plumbing: dict[int, int], owners: frozenset[int]
    ) -> PathVote:
        """Tests, docs, CI or build files only: filed by what they are about. Mostly docs,
        CI or build files → their area; mostly tests → the one component holding nearly all
        of them, else the shared test area."""
        total = sum(plumbing.values())
        heaviest = min(plumbing, key=lambda i: (-plumbing[i], i))
        share = round(plumbing[heaviest] / total, 3)
        if heaviest not in self._component_bound or not weights:
            return PathVote(heaviest, share, owners, {heaviest: share})
        vote = self._tally(weights, owners)
        # Tests of several components: the shared test area's. The components keep their
        # scores: a title tag naming one of them (`[xpu][test]`) still decides.
        return PathVote(heaviest, share, owners, vote.scores)

    def _tally(self, weights: dict[int, int], owners: frozenset[int]) -> PathVote:
        if len(weights) == 1:  # the common case: one area owns every counted file
            (only,) = weights
            return PathVote(only, 1.0, owners, {only: 1.0})
        total = sum(weights.values())
        scores = {i: weight / total for i, weight in weights.items()}
        # Highest score; ties go to the earlier rule (profile order).
        winner = min(scores, key=lambda i: (-scores[i], i))
        return PathVote(winner, round(scores[winner], 3), owners, scores)

    def _path_owner(self, path: str) -> tuple[int, int]:
        """(the first area whose paths match, the first fallback area whose paths match);
        -1 for none."""
        cached = self._path_cache.get(path)
        if cached is not None:
            return cached
        owner = kind = -1
        for index in self._path_areas:
            pattern = self.areas[index].paths
            if pattern is not None and pattern.match(path):
                owner = self._same_area[index]
                break
        if owner >= 0 and self.areas[owner].fallback:
            kind = owner  # no earlier fallback matched: it would own the file
        else:
            for index in self._fallback_areas:
                pattern = self.areas[index].paths
                if pattern is not None and pattern.match(path):
                    kind = index
                    break
        if len(self._path_cache) < 500_000:
            self._path_cache[path] = (owner, kind)
        return owner, kind

    def _area(self, index: int, evidence: str, confidence: float = 1.0) -> Decision:
        rule = self.areas[index]
        return Decision(rule.name, rule.rule_id(evidence), evidence, confidence)

    # -- kinds ---------------------------------------------------------------------------
    def decide_kind(self, pr: PullRequest, info: TitleInfo | None = None) -> Decision:
        info = info or parse_title(pr.title)
        if info.revert_of is not None:
            return Decision(NOT_USER_FACING, f"{self.origin}/kind/revert", "revert")
        if pr.labels:
            found = [self._kind_by_label.get(label.lower()) for label in pr.labels]
            indexes = [index for index in found if index is not None]
            if indexes:
                return self._kind(min(indexes), "label")
        for tag in info.tags:
            index = self._kind_by_tag.get(tag)
            if index is not None:
                return self._kind(index, "title_tag")
        if info.breaking:
            return Decision(
                BC_BREAKING, f"{self.origin}/kind/{BC_BREAKING}/breaking_marker", "breaking_marker"
            )
        if info.conventional_type:
            index = self._kind_by_prefix.get(info.conventional_type)
            if index is not None:
                return self._kind(index, "prefix")
        if pr.files and self._doc_paths:
            mask = -1
            for change in pr.files:
                mask &= self._doc_path_mask(change.path)
                if not mask:
                    break
            if mask:
                first = (mask & -mask).bit_length() - 1  # the first rule every file matches
                rule = self._doc_paths[first]
                return Decision(rule.kind, rule.rule_id("paths"), "paths", 0.8)
        clean, body = info.clean, (info.body if info.body != info.clean else "")
        for rule, pattern in self._kind_wording:  # the hottest loop of classifying: no generator
            if pattern.search(clean) or (body and pattern.search(body)):
                return Decision(rule.kind, rule.rule_id("wording"), "wording", 0.7)
        return Decision(
            self.default_kind, f"{self.origin}/kind/{self.default_kind}/default", "default", 0.0
        )

    def _doc_path_mask(self, path: str) -> int:
        mask = self._doc_path_cache.get(path)
        if mask is None:
            mask = 0
            for bit, rule in enumerate(self._doc_paths):
                if rule.all_paths is not None and rule.all_paths.match(path):
                    mask |= 1 << bit
            if len(self._doc_path_cache) < 500_000:
                self._doc_path_cache[path] = mask
        return mask

    def _kind(self, index: int, evidence: str) -> Decision:
        rule = self.kinds[index]
        return Decision(rule.kind, rule.rule_id(evidence), evidence)

    # -- both ----------------------------------------------------------------------------
    def decide(self, pr: PullRequest) -> tuple[Decision, Decision]:
        info = parse_title(pr.title)
        return self.decide_area(pr, info), self.decide_kind(pr, info)


def to_classification(area: Decision, kind: Decision, profile: str) -> Classification:
    """The record's confidence is the area's: areas group the digest; the kind keeps its rule id."""
    return Classification(
        area=area.value,
        kind=kind.value,
        area_rule=area.rule,
        kind_rule=kind.rule,
        confidence=round(area.confidence, 3),
        profile=profile,
    )


def _manifest_of(path: str, owner: int) -> tuple[int, str]:
    """(the specific area a build manifest builds, its directory), or (-1, path) for any
    other plumbing file: docs, CI, tests, a top-level or a test directory's manifest (it
    builds tests: test plumbing, filed as tests are)."""
    folder, _, name = path.rpartition("/")
    if (
        owner < 0
        or not (name in _MANIFEST_NAMES or name.endswith(_MANIFEST_SUFFIXES))
        or not _HARNESS_DIRS.isdisjoint(folder.split("/"))
    ):
        return -1, path
    return owner, folder


def _harness_only(pr: PullRequest) -> bool:
    """Whether every changed file is a test or a benchmark (by a directory of its path)."""
    return bool(pr.files) and all(
        not _HARNESS_DIRS.isdisjoint(change.path.split("/")[:-1]) for change in pr.files
    )


def _first_index(keysets: Iterable[frozenset[str]]) -> dict[str, int]:
    """key → index of the first rule that lists it (first match wins)."""
    table: dict[str, int] = {}
    for index, keys in enumerate(keysets):
        for key in keys:
            table.setdefault(key, index)
    return table
