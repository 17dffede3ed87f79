"""`Profile`: a named rule set (plus, optionally, a trained model) that classifies PRs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ..kinds import NOT_USER_FACING
from ..models import Classification, PullRequest
from ..reading.spelling import Spelling
from .rules import AreaRule, Decision, RuleEngine, to_classification


@dataclass(frozen=True, slots=True)
class ModelPrediction:
    """What a trained model says about one PR; None where it has no opinion."""

    area: str | None
    area_confidence: float
    kind: str | None
    kind_confidence: float


class AreaKindModel(Protocol):
    """The seam for trained models (issue 4). `prdigest.classify.model.load_model(path)` returns one."""

    name: str

    def predict(self, prs: Sequence[PullRequest]) -> Sequence[ModelPrediction]: ...


class Profile:
    """Rules first; a model, when attached, decides only where the rules' evidence is weak
    (see `Decision.strong`). Every classification names the rule or `model:<name>` that decided."""

    def __init__(
        self,
        name: str,
        engine: RuleEngine,
        description: str = "",
        repos: Sequence[str] = (),
        profile_areas: Sequence[str] = (),
        model: AreaKindModel | None = None,
        model_path: str | None = None,
    ) -> None:
        self.name = name
        self.engine = engine
        self.description = description
        self.repos = tuple(repos)
        self.model = model
        self.model_path = model_path  # as configured; the loader resolved it already
        # An index file of the project's code (code_index.py) that training uses by default.
        self.code_index_path: str | None = None
        self._profile_areas = tuple(profile_areas)

    # -- areas ---------------------------------------------------------------------------
    def area_names(self) -> list[str]:
        """The profile's areas in profile order, then areas only user rules add, then the default."""
        names = list(dict.fromkeys(self._profile_areas))
        for rule in self.engine.areas:
            if rule.name not in names:
                names.append(rule.name)
        if self.engine.default_area not in names:
            names.append(self.engine.default_area)
        return names

    def area_description(self, name: str) -> str:
        for rule in self.engine.areas:
            if rule.name == name and rule.description:
                return rule.description
        if name == self.engine.default_area:
            return "Changes no rule of this profile placed elsewhere"
        return ""

    def area_rules(self) -> tuple[AreaRule, ...]:
        return self.engine.areas

    def use_spelling(self, spelling: Spelling) -> None:
        """How the repository writes names: a profile that names areas after its paths (the
        generic one) spells them so; a profile's own area names are as written."""

    # -- classification ------------------------------------------------------------------
    def explain(self, pr: PullRequest) -> tuple[Decision, Decision]:
        """The rules' decisions on one PR (area, kind) with their evidence; no model."""
        return self.engine.decide(pr)

    def classify(self, pr: PullRequest) -> Classification:
        return self.classify_all([pr])[0]

    def classify_all(
        self, prs: Sequence[PullRequest], basis: Sequence[PullRequest] = ()
    ) -> list[Classification]:
        """`prs` classified; `basis`: the PRs whose paths shape the areas (default `prs`)."""
        engine = self.engine_for(basis or prs)
        decisions = [engine.decide(pr) for pr in prs]
        if self.model is not None:
            decisions = self._consult_model(prs, decisions)
        return [to_classification(area, kind, self.name) for area, kind in decisions]

    # Whether a PR's classification depends on the PRs classified with it (and on the
    # spelling): only for a profile that derives its areas from the PRs (generic.py). It
    # reads them from `basis`, which callers make a longer span than they classify
    # (classify/weekly.AREA_BASIS), so the areas hold week to week.
    batch_dependent = False

    def engine_for(self, prs: Sequence[PullRequest]) -> RuleEngine:
        """The engine that classifies PRs like these (the generic profile derives one from them)."""
        return self.engine

    def with_model(self, model: AreaKindModel | None) -> Profile:
        clone = _copy(self)
        clone.model = model
        return clone

    def _consult_model(
        self, prs: Sequence[PullRequest], decisions: list[tuple[Decision, Decision]]
    ) -> list[tuple[Decision, Decision]]:
        assert self.model is not None
        # A trained model may name strong area rules it beat on held-out training rows (issue 4).
        overrules = getattr(self.model, "overrules", None)

        def model_decides(area: Decision) -> bool:
            return not area.strong or (overrules is not None and bool(overrules(area)))

        weak = [
            i for i, (area, kind) in enumerate(decisions) if model_decides(area) or not kind.strong
        ]
        if not weak:
            return decisions
        weak_prs = [prs[i] for i in weak]
        # A model that uses the rules' decisions as features may take them instead of recomputing (issue 4).
        with_rules = getattr(self.model, "predict_with_decisions", None)
        predictions = (
            with_rules(weak_prs, [decisions[i] for i in weak], self.name)
            if with_rules
            else self.model.predict(weak_prs)
        )
        rule = f"model:{self.model.name}"
        result = list(decisions)
        for i, guess in zip(weak, predictions, strict=True):
            area, kind = result[i]
            # Not user facing by the rules and outside the release notes by the model: the
            # model's guessed area would only hide that; the rules' placement (often none) stays.
            both_skip = kind.strong and kind.value == guess.kind == NOT_USER_FACING
            if model_decides(area) and guess.area is not None and not both_skip:
                area = replace(
                    area,
                    value=guess.area,
                    rule=rule,
                    evidence="model",
                    confidence=guess.area_confidence,
                )
            if not kind.strong and guess.kind is not None:
                kind = replace(
                    kind,
                    value=guess.kind,
                    rule=rule,
                    evidence="model",
                    confidence=guess.kind_confidence,
                )
            result[i] = (area, kind)
        return result

    def __repr__(self) -> str:
        return f"Profile({self.name!r}, {len(self.engine.areas)} area rules, {len(self.engine.kinds)} kind rules)"


def _copy(profile: Profile) -> Profile:
    clone = object.__new__(type(profile))
    clone.__dict__.update(profile.__dict__)
    return clone
