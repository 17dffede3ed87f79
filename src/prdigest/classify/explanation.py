"""`classify explain`'s report: one PR classified as a digest would, which rule or model
won each of area and kind, and why the other rules' answers lost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..models import PullRequest
from .base import Profile
from .explain import area_rivals, kind_rivals, model_lines, why_won
from .features import Sample
from .rules import Decision

if TYPE_CHECKING:
    from .model import TrainedModel


def explain_lines(
    pr: PullRequest,
    profile: Profile,
    model: TrainedModel | None,
    batch: list[PullRequest] | None = None,
) -> list[str]:
    """The PR classified as a digest would (with `batch`, the PRs classified with it) by
    `profile` and `model`; which rule or model won each of area and kind, and why the
    other rules' answers lost, all from the one engine that decided."""
    batch = batch or [pr]
    chosen = profile.with_model(model) if model is not None else profile
    position = next(i for i, other in enumerate(batch) if other.sha == pr.sha)
    label = chosen.classify_all(batch)[position]
    engine = chosen.engine  # after classify_all: the generic profile's derived one too
    area_rule, kind_rule = engine.decide(pr)
    area = _decided(label.area, label.area_rule, label.confidence, area_rule)
    kind = _decided(label.kind, label.kind_rule, 1.0, kind_rule)
    lines = [
        f"{pr.repo}#{pr.number}  {pr.title}" + (f"  ({pr.sha[:10]})" if pr.sha else ""),
        f"profile: {profile.name}" + (f" + model {model.name}" if model else ""),
        f"area: {label.area}  (decided by {label.area_rule}, confidence {label.confidence:.2f})",
        why_won(area),
        *(model_lines(area_rule, area, "area") if model else []),
        *(rival.line for rival in area_rivals(engine, pr, area_rule)),
        f"kind: {label.kind}  (decided by {label.kind_rule})",
        why_won(kind),
        *(model_lines(kind_rule, kind, "kind") if model else []),
        *(rival.line for rival in kind_rivals(engine, pr, kind_rule)),
    ]
    if model is not None:
        guess = model.guess([Sample.from_pr(pr)])[0]
        its_kind = f"; kind {guess.kind} ({guess.kind_confidence:.2f})" if guess.kind else ""
        lines.append(
            f"model: area {model.display(guess.area)} ({guess.area_confidence:.2f}), "
            f"best area besides skip {model.display(guess.area_no_skip)} "
            f"({guess.area_no_skip_confidence:.2f}){its_kind}"
        )
    if model is not None and model.featurizer.code is not None:
        named = model.featurizer.code.lookup(pr.title)
        if named:
            lines.append("code: " + "; ".join(_placed(name, dirs) for name, dirs in named[:4]))
    if pr.labels:
        lines.append(f"labels: {', '.join(pr.labels)}")
    if pr.files:
        shown = [change.path for change in pr.files[:8]]
        more = f" … (+{len(pr.files) - 8})" if len(pr.files) > 8 else ""
        lines.append(f"files: {', '.join(shown)}{more}")
    lines.append("")
    return lines


def _decided(value: str, rule: str, confidence: float, by_rules: Decision) -> Decision:
    """The decision as stored (a model's, or the rules' own)."""
    if rule.startswith("model:"):
        return Decision(value, rule, "model", confidence)
    return by_rules


def _placed(name: str, directories: tuple[str, ...]) -> str:
    shown = ", ".join(directories[:3]) + (
        f" (+{len(directories) - 3})" if len(directories) > 3 else ""
    )
    return f"{name} → {shown}"
