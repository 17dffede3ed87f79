"""Why a PR got its area and kind: the rule that won, and why each rival lost.

`classify explain` prints these. Every rival is a rule of the same engine that
classified the PR (for the generic profile, the one derived from the PR's week), so
the winner and the losers never contradict each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kinds import BC_BREAKING
from ..models import PullRequest
from ..reading import TitleInfo, parse_title
from .rules import Decision, PathVote, RuleEngine

# How a person reads each kind of evidence.
EVIDENCE = {
    "label": "a label",
    "title_tag": "a title tag",
    "title_prefix": "the title's prefix",
    "paths": "the changed paths",
    "paths_over_tag": "the changed paths",
    "title_pattern": "the title's wording",
    "wording": "the title's wording",
    "revert": "a revert title",
    "breaking_marker": "a breaking-change marker",
    "prefix": "a conventional-commit prefix",
    "default": "no rule matched, the default",
    "model": "the trained model",
}
# Strongest first, as the engine consults them (rules.py's docstring).
_AREA_RANK = {"label": 0, "title_tag": 1, "title_prefix": 1, "paths_over_tag": 1, "paths": 2}
_AREA_RANK |= {"title_pattern": 3, "default": 4}
_KIND_RANK = {"revert": 0, "label": 1, "title_tag": 2, "breaking_marker": 3, "prefix": 4}
_KIND_RANK |= {"paths": 5, "wording": 6, "default": 7}
MAX_RIVALS = 3


@dataclass(frozen=True)
class Rival:
    """A rule that also matched, with a different answer, and why it lost."""

    value: str
    evidence: str
    why: str

    @property
    def line(self) -> str:
        return f"  lost: {self.value} ({EVIDENCE.get(self.evidence, self.evidence)}): {self.why}"


def why_won(decision: Decision) -> str:
    """`  won: …`: the evidence of the deciding rule (or model), as a person reads it."""
    what = EVIDENCE.get(decision.evidence, decision.evidence)
    if decision.evidence in ("paths", "paths_over_tag"):
        what += f", {decision.confidence:.0%} of the change"
    return f"  won: {what}"


def area_rivals(engine: RuleEngine, pr: PullRequest, won: Decision) -> list[Rival]:
    """Areas other rules would give, each with why it lost to `won` (a rules decision)."""
    info = parse_title(pr.title)
    vote = engine.vote_paths(pr)
    found: list[Rival] = []
    seen = {won.value}

    def add(value: str, evidence: str, why: str) -> None:
        if value not in seen and len(found) < MAX_RIVALS:
            seen.add(value)
            found.append(Rival(value, evidence, why))

    labels = {label.lower() for label in pr.labels}
    for rule in engine.areas:
        if labels & rule.labels:
            add(rule.name, "label", _outranked(won, "label", _AREA_RANK, "an earlier rule's"))
    for index, evidence in _tag_candidates(engine, info):
        add(engine.areas[index].name, evidence, _tag_lost(won, index, vote, engine))
    for index in sorted(vote.owners, key=lambda i: (-vote.scores.get(i, 0.0), i)):
        add(engine.areas[index].name, "paths", _paths_lost(won, index, vote, engine))
    for rule in engine.areas:
        if any(pattern.search(info.inner) for pattern in rule.title_patterns):
            add(rule.name, "title_pattern", _outranked(won, "title_pattern", _AREA_RANK, "a"))
    return found


def kind_rivals(engine: RuleEngine, pr: PullRequest, won: Decision) -> list[Rival]:
    info = parse_title(pr.title)
    found: list[Rival] = []
    seen = {won.value}

    def add(value: str, evidence: str) -> None:
        if value not in seen and len(found) < MAX_RIVALS:
            seen.add(value)
            found.append(Rival(value, evidence, _outranked(won, evidence, _KIND_RANK, "an")))

    labels = {label.lower() for label in pr.labels}
    for rule in engine.kinds:
        if labels & rule.labels:
            add(rule.kind, "label")
    for rule in engine.kinds:
        if set(info.tags) & rule.title_tags:
            add(rule.kind, "title_tag")
    if info.breaking:
        add(BC_BREAKING, "breaking_marker")
    for rule in engine.kinds:
        if info.conventional_type and info.conventional_type in rule.prefixes:
            add(rule.kind, "prefix")
    for rule in engine.kinds:
        paths = rule.all_paths
        if paths is not None and pr.files and all(paths.match(f.path) for f in pr.files):
            add(rule.kind, "paths")
    body = info.body if info.body != info.clean else ""
    for rule in engine.kinds:
        if any(p.search(info.clean) or (body and p.search(body)) for p in rule.title_patterns):
            add(rule.kind, "wording")
    return found


def model_lines(rules: Decision, chosen: Decision, what: str) -> list[str]:
    """When a model decided, why the rules' answer lost; when it could not, why not."""
    if chosen.evidence == "model" and chosen.value != rules.value:
        strength = "overruled: the model beat this strong rule on held-out rows"
        if not rules.strong:
            strength = "weak evidence, so the trained model decides"
        return [
            f"  lost: {rules.value} ({EVIDENCE.get(rules.evidence, rules.evidence)}): {strength}"
        ]
    if chosen.evidence != "model" and rules.strong:
        return [f"  model: not consulted for the {what}: the rules' evidence is strong"]
    if chosen.evidence != "model":
        return [f"  model: no answer for the {what} (or none worth taking), so the rules' stands"]
    return []


def _outranked(won: Decision, evidence: str, rank: dict[str, int], same: str) -> str:
    """A rival of another kind of evidence lost on strength; of the same kind, on order."""
    mine, theirs = rank.get(evidence, 9), rank.get(won.evidence, 9)
    if mine > theirs:
        return f"{EVIDENCE.get(evidence, evidence)} ranks below {EVIDENCE[won.evidence]}"
    if mine == theirs:
        return f"{same} rule comes first in the profile (the first match wins)"
    return "outranked"  # only a model can beat stronger evidence; model_lines says so


FALLBACK_LOST = (
    "a fallback area (tests, docs, CI, build): its files decide only when the PR changes"
    " nothing else"
)


def _tag_candidates(engine: RuleEngine, info: TitleInfo) -> list[tuple[int, str]]:
    return engine._tag_candidates(info)  # the engine's own reading of the title


def _tag_lost(won: Decision, index: int, vote: PathVote, engine: RuleEngine) -> str:
    if won.evidence == "paths_over_tag":
        return (
            f"its area owns none of the changed files, and {won.value} owns every one"
            " (the one case where paths beat a tag)"
        )
    if won.evidence in ("title_tag", "title_prefix"):
        winner = next((i for i, r in enumerate(engine.areas) if r.name == won.value), None)
        if winner is not None and vote.scores.get(index, 0.0) < vote.scores.get(winner, 0.0):
            return "named too, but it owns less of the change"
        return "named later in the title"
    return _outranked(won, "title_tag", _AREA_RANK, "an earlier")


def _paths_lost(won: Decision, index: int, vote: PathVote, engine: RuleEngine) -> str:
    rule = engine.areas[index]
    if won.evidence == "paths":
        if rule.fallback:
            return FALLBACK_LOST
        if index not in vote.scores:
            return (
                "owns only CI or build files of this PR: those count for the build area,"
                " and only when nothing else changed"
            )
        share = vote.scores.get(index, 0.0)
        if round(share, 3) >= won.confidence:
            return f"owns as much of the change ({share:.0%}): the earlier rule wins a tie"
        return f"owns less of the change ({share:.0%} against {won.confidence:.0%})"
    if won.evidence in ("title_tag", "title_prefix") and not rule.fallback:
        return (
            "a title tag outranks the changed paths (it yields only when its area owns none"
            " of the files and one other specific area owns them all)"
        )
    if rule.fallback:
        return FALLBACK_LOST
    return _outranked(won, "paths", _AREA_RANK, "an earlier")
