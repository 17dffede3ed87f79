"""Measure a classifier against a labelled worksheet: per-class precision and recall, the
main confusions, and the three accuracy lines of CLI.md.

How a classification is compared with a worksheet row:
- category: `skip` (the worksheet's "not in the release notes") when the trained model
  predicts it (it then sets the kind `not_user_facing`), or when the rules find the change
  not user facing and place it in no area (the rule of PyTorch's own `commitlist.py`);
  else the area, compared by `worksheet.area_key` (`C++ Frontend` ≡ `cpp_frontend`;
  `Autograd` ≡ `autograd_frontend`, PyTorch's `<x>_frontend` convention);
- category (skip excluded): over rows whose true category is not `skip`, the area alone
  (the task PyTorch's own classifier was measured on: an area for every PR in the notes);
- topic: over rows whose topic is not `Untopiced`, the kind.
"""

from __future__ import annotations

import statistics
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import StratifiedKFold

from ..kinds import NOT_USER_FACING
from ..models import Classification, PullRequest
from .base import Profile
from .code_index import CodeIndex
from .features import Sample
from .model import SEED, SKIP, TrainedModel
from .training import train_model
from .training_labels import WORKSHEET_ALIASES, WorksheetRow, area_key


@dataclass(frozen=True, slots=True)
class Outcome:
    gold_category: str
    gold_topic: str | None
    category: str  # predicted, may be `skip`
    area: str  # predicted area as a worksheet category (never `skip` unless the area is)
    kind: str


def to_pr(row: WorksheetRow) -> PullRequest:
    return Sample(row.title, row.files, row.author).as_pr()


def category_of(area: str, known: set[str]) -> str:
    """A profile's area name as a worksheet category."""
    key = area_key(area)
    if key in known:
        return key
    if f"{key}_frontend" in known:
        return f"{key}_frontend"
    for category, alias in WORKSHEET_ALIASES.items():
        if alias == key and category in known:
            return category
    return key


def is_skip(label: Classification, default_area: str) -> bool:
    """The model predicts the worksheet's `skip` (it sets `not_user_facing`), or the rules
    find the change not user facing and place it in no area (PyTorch's `commitlist.py`)."""
    if label.kind != NOT_USER_FACING:
        return False
    return label.kind_rule.startswith("model:") or label.area == default_area


def outcomes(
    rows: Sequence[WorksheetRow],
    labels: Sequence[Classification],
    known: set[str],
    default_area: str,
) -> list[Outcome]:
    result = []
    for row, label in zip(rows, labels, strict=True):
        area = category_of(label.area, known)
        category = SKIP if is_skip(label, default_area) else area
        result.append(Outcome(row.category, row.topic, category, area, label.kind))
    return result


def classify_rows(
    rows: Sequence[WorksheetRow], profile: Profile, model: TrainedModel | None
) -> list[Outcome]:
    """Rules alone (model None) or rules + model, exactly as `digest` would classify."""
    chosen = profile.with_model(model) if model is not None else profile.with_model(None)
    labels = chosen.classify_all([to_pr(row) for row in rows])
    return outcomes(rows, labels, {row.category for row in rows}, profile.engine.default_area)


def train_on(
    rows: Sequence[WorksheetRow],
    profile: Profile | None,
    name: str = "model",
    code: CodeIndex | None = None,
) -> TrainedModel:
    samples = [Sample(row.title, row.files, row.author) for row in rows]
    areas = [row.category for row in rows]
    return train_model(samples, areas, [row.topic for row in rows], profile, name, code)


@dataclass
class CrossValidation:
    outcomes: list[Outcome]  # in row order, each predicted by the fold that held it out
    folds: list[list[Outcome]]
    model_alone: list[Outcome]  # the same folds' models without the rules' final say


def cross_validate(
    rows: Sequence[WorksheetRow],
    profile: Profile,
    folds: int = 5,
    progress: Callable[[int, int], None] | None = None,
    code: CodeIndex | None = None,
) -> CrossValidation:
    """Stratified k-fold (seed 0): train on k-1 folds, classify the held-out one with rules + model."""
    categories = np.array([row.category for row in rows])
    splitter = StratifiedKFold(folds, shuffle=True, random_state=SEED)
    held_out: list[Outcome | None] = [None] * len(rows)
    per_fold: list[list[Outcome]] = []
    alone: list[Outcome] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # categories rarer than the folds
        splits = list(splitter.split(np.zeros(len(rows)), categories))
    for number, (train, test) in enumerate(splits, start=1):
        model = train_on([rows[i] for i in train], profile, f"fold{number}", code)
        test_rows = [rows[i] for i in test]
        fold = classify_rows(test_rows, profile, model)
        alone += model_outcomes(test_rows, model)
        per_fold.append(fold)
        for i, outcome in zip(test, fold, strict=True):
            held_out[i] = outcome
        if progress:
            progress(number, folds)
    return CrossValidation([o for o in held_out if o is not None], per_fold, alone)


def model_outcomes(rows: Sequence[WorksheetRow], model: TrainedModel) -> list[Outcome]:
    """The model's own best guesses (argmax, `skip` included), no rules on top."""
    guesses = model.guess([Sample(row.title, row.files, row.author) for row in rows])
    return [
        Outcome(row.category, row.topic, guess.area, guess.area_no_skip, guess.kind or "")
        for row, guess in zip(rows, guesses, strict=True)
    ]


# -- figures ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Accuracy:
    right: int
    total: int

    @property
    def value(self) -> float:
        return self.right / self.total if self.total else 0.0

    def line(self, label: str) -> str:
        return f"{label}: {self.value:.3f} ({self.right}/{self.total})"


def accuracies(results: Sequence[Outcome]) -> tuple[Accuracy, Accuracy, Accuracy]:
    category = Accuracy(sum(o.category == o.gold_category for o in results), len(results))
    kept = [o for o in results if o.gold_category != SKIP]
    no_skip = Accuracy(sum(o.area == o.gold_category for o in kept), len(kept))
    topiced = [o for o in results if o.gold_topic is not None]
    topic = Accuracy(sum(o.kind == o.gold_topic for o in topiced), len(topiced))
    return category, no_skip, topic


def per_class(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, float, float, int, int]]:
    """(class, precision, recall, support, predicted) for every class seen, by support."""
    support = Counter(gold for gold, _ in pairs)
    predicted = Counter(guess for _, guess in pairs)
    right = Counter(gold for gold, guess in pairs if gold == guess)
    classes = sorted(set(support) | set(predicted), key=lambda c: (-support[c], c))
    return [
        (
            c,
            right[c] / predicted[c] if predicted[c] else 0.0,
            right[c] / support[c] if support[c] else 0.0,
            support[c],
            predicted[c],
        )
        for c in classes
    ]


def table(title: str, pairs: Sequence[tuple[str, str]]) -> list[str]:
    width = max([len(title)] + [len(c) for c, *_ in per_class(pairs)])
    lines = [f"{title:<{width}}  precision  recall  support  predicted"]
    for name, precision, recall, support, predicted in per_class(pairs):
        lines.append(
            f"{name:<{width}}  {precision:9.3f}  {recall:6.3f}  {support:7d}  {predicted:9d}"
        )
    return lines


def confusions(pairs: Sequence[tuple[str, str]], top: int = 12) -> list[str]:
    counts = Counter((gold, guess) for gold, guess in pairs if gold != guess)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:top]
    return [f"  {gold} → {guess}: {count}" for (gold, guess), count in ranked]


def summary_line(label: str, results: Sequence[Outcome]) -> str:
    category, no_skip, topic = accuracies(results)
    return (
        f"{label}: category {category.value:.3f}, skip excluded {no_skip.value:.3f}, "
        f"topic {topic.value:.3f}"
    )


def report(
    results: Sequence[Outcome], header: Sequence[str] = (), folds: Sequence[Sequence[Outcome]] = ()
) -> str:
    """The full `classify eval` text; it ends with the three accuracy lines of CLI.md."""
    lines = list(header)
    if folds:
        per_fold = [accuracies(fold) for fold in folds]
        for index, label in enumerate(("category", "category (skip excluded)", "topic")):
            values = [fold[index].value for fold in per_fold if fold[index].total]
            if values:
                spread = statistics.pstdev(values) if len(values) > 1 else 0.0
                lines.append(
                    f"fold {label} accuracy: mean {statistics.fmean(values):.3f} ± {spread:.3f} "
                    f"({', '.join(f'{v:.3f}' for v in values)})"
                )
        lines.append("")
    category_pairs = [(o.gold_category, o.category) for o in results]
    lines += table("category", category_pairs)
    lines += ["", "main confusions (true → predicted):"] + (
        confusions(category_pairs) or ["  none"]
    )
    topic_pairs = [(o.gold_topic, o.kind) for o in results if o.gold_topic is not None]
    if topic_pairs:
        lines += [""] + table("topic", topic_pairs)
        lines += ["", "main topic confusions (true → predicted):"] + (
            confusions(topic_pairs) or ["  none"]
        )
    category, no_skip, topic = accuracies(results)
    lines += [
        "",
        category.line("category accuracy"),
        no_skip.line("category accuracy (skip excluded)"),
        topic.line("topic accuracy"),
    ]
    return "\n".join(lines) + "\n"
