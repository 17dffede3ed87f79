"""Training the area/kind model: features, one linear SVM per head, calibrated confidences.

Choices are fixed, not searched on the evaluation folds: C = 0.3, TF-IDF blocks as in
`model.BLOCKS`, softmax temperature fitted by 3-fold cross-validation inside the
training data, seed 0.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence

import numpy as np
from scipy import sparse
from scipy.optimize import minimize_scalar
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC

from ..errors import ConfigError
from .base import Profile
from .code_index import CodeIndex
from .features import RuleHints, Sample
from .model import SEED, SVM_C, Featurizer, Head, TrainedModel, _softmax
from .rules import Decision
from .training_labels import WORKSHEET_ALIASES, area_key


def train_model(
    samples: Sequence[Sample],
    areas: Sequence[str],
    kinds: Sequence[str | None],
    profile: Profile | None = None,
    name: str = "model",
    code: CodeIndex | None = None,
) -> TrainedModel:
    """Fit both heads. `kinds[i]` is None where the row has no topic (it then trains area only).
    `code`: an index of the project's source, whose directories become features (code_index.py)."""
    if len(samples) != len(areas) or len(samples) != len(kinds):
        raise ValueError("samples, areas and kinds must have the same length")
    if len(set(areas)) < 2:
        raise ConfigError(
            "the labels hold fewer than 2 categories", "label more rows before training"
        )
    featurizer = Featurizer(RuleHints(profile), code)
    decisions = [profile.explain(s.as_pr()) for s in samples] if profile is not None else None
    X = featurizer.fit_transform(samples, decisions)
    area_head, area_scores = _fit_head(X, list(areas))
    topiced = [i for i, kind in enumerate(kinds) if kind is not None]
    kind_head = None
    if len({kinds[i] for i in topiced}) >= 2:
        kind_head, _ = _fit_head(X[topiced], [str(kinds[i]) for i in topiced])
    display = _display_names(area_head.classes, profile)
    overruled: frozenset[str] = frozenset()
    if decisions is not None and area_scores is not None:
        overruled = overruled_rules(decisions, areas, area_scores, area_head.classes, display)
    return TrainedModel(
        name,
        featurizer,
        area_head,
        kind_head,
        profile.name if profile else None,
        display,
        {"rows": len(samples), "topiced_rows": len(topiced), "features": featurizer.width},
        overruled,
    )


def _fit_head(X: sparse.csr_matrix, y: list[str]) -> tuple[Head, np.ndarray | None]:
    """The head and its out-of-fold scores on the training rows (None when too few rows)."""
    classes, coef, intercept = _fit_svm(X, y)
    head = Head(classes, coef, intercept)
    scores = _out_of_fold_scores(X, y, classes)
    if scores is not None:
        head.temperature = _fit_temperature(scores, y, classes)
    return head, scores


def _fit_svm(X: sparse.csr_matrix, y: list[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    svm = LinearSVC(C=SVM_C, random_state=SEED)
    svm.fit(X, y)
    classes = [str(c) for c in svm.classes_]
    coef = np.asarray(svm.coef_, dtype=np.float32)
    intercept = np.asarray(svm.intercept_, dtype=np.float32)
    if len(classes) == 2:  # sklearn keeps one row for two classes: make it one row per class
        coef = np.vstack([-coef[0], coef[0]])
        intercept = np.array([-intercept[0], intercept[0]], dtype=np.float32)
    return classes, coef, intercept


def _out_of_fold_scores(
    X: sparse.csr_matrix, y: list[str], classes: list[str], folds: int = 3
) -> np.ndarray | None:
    """Each training row's scores from a model fitted on the other folds (nested inside
    the training data: evaluation folds never see them)."""
    labels = np.array(y)
    if len(labels) < 2 * folds:
        return None
    scores = np.full((len(labels), len(classes)), -10.0)
    splitter = StratifiedKFold(folds, shuffle=True, random_state=SEED)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # classes rarer than the folds: fine here
        for train, test in splitter.split(np.zeros(len(labels)), labels):
            if len(set(labels[train])) < 2:
                return None
            fold_classes, coef, intercept = _fit_svm(X[train], list(labels[train]))
            columns = [classes.index(c) for c in fold_classes]
            scores[np.ix_(test, columns)] = np.asarray(X[test] @ coef.T) + intercept
    return scores


def _fit_temperature(scores: np.ndarray, y: list[str], classes: list[str]) -> float:
    """The softmax temperature that best explains out-of-fold scores (negative log-likelihood)."""
    truth = np.array([classes.index(label) for label in y])

    def nll(log_t: float) -> float:
        p = _softmax(scores / np.exp(log_t))
        return float(-np.log(p[np.arange(len(truth)), truth] + 1e-12).mean())

    result = minimize_scalar(nll, bounds=(-5.0, 3.0), method="bounded")
    return float(np.exp(result.x))


def overruled_rules(
    decisions: Sequence[tuple[Decision, Decision]],
    areas: Sequence[str],
    scores: np.ndarray,
    classes: list[str],
    display: dict[str, str],
) -> frozenset[str]:
    """Strong area rules the model should not obey: those whose rows the model's
    out-of-fold guesses (argmax, `skip` included) got right more often than the rule did.
    No threshold to tune: each rule is kept or handed to the model by a head-to-head count
    on rows neither saw in training. The inner models learn from two thirds of the
    training rows, so the comparison leans towards the rules."""
    to_class = {area: cls for cls, area in display.items()}
    guesses = scores.argmax(axis=1)
    rule_right: Counter[str] = Counter()
    model_right: Counter[str] = Counter()
    for (area, _kind), gold, guess in zip(decisions, areas, guesses, strict=True):
        if not area.strong:
            continue
        rule_right[area.rule] += to_class.get(area.value, area_key(area.value)) == gold
        model_right[area.rule] += classes[guess] == gold
    return frozenset(rule for rule in rule_right if model_right[rule] > rule_right[rule])


def _display_names(classes: list[str], profile: Profile | None) -> dict[str, str]:
    """Worksheet category → the profile's area of that name (`cuda` → `CUDA`,
    `autograd_frontend` → `Autograd`, following PyTorch's `<x>_frontend` convention)."""
    if profile is None:
        return {}
    by_key = {area_key(name): name for name in profile.area_names()}
    display = {}
    for cls in classes:
        key = cls.removesuffix("_frontend")
        for candidate in (cls, key):
            if candidate in by_key:
                display[cls] = by_key[candidate]
                break
        else:
            alias = WORKSHEET_ALIASES.get(cls)
            if alias and alias in by_key:
                display[cls] = by_key[alias]
    return display
