"""Training the area/kind model: features, one linear SVM per head, calibrated confidences.

Choices are fixed, not searched on the evaluation folds: C = 0.3, TF-IDF blocks as in
`model.BLOCKS`, softmax temperature fitted by 3-fold cross-validation inside the
training data, seed 0.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
from scipy import sparse
from scipy.optimize import minimize_scalar
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC

from ..errors import ConfigError
from .base import Profile
from .features import RuleHints, Sample
from .model import SEED, SVM_C, Featurizer, Head, TrainedModel, _softmax
from .worksheet import WORKSHEET_ALIASES, area_key


def train_model(
    samples: Sequence[Sample],
    areas: Sequence[str],
    kinds: Sequence[str | None],
    profile: Profile | None = None,
    name: str = "model",
) -> TrainedModel:
    """Fit both heads. `kinds[i]` is None where the row has no topic (it then trains area only)."""
    if len(samples) != len(areas) or len(samples) != len(kinds):
        raise ValueError("samples, areas and kinds must have the same length")
    if len(set(areas)) < 2:
        raise ConfigError(
            "the labels hold fewer than 2 categories", "label more rows before training"
        )
    featurizer = Featurizer(RuleHints(profile))
    X = featurizer.fit_transform(samples)
    area_head = _fit_head(X, list(areas))
    topiced = [i for i, kind in enumerate(kinds) if kind is not None]
    kind_head = None
    if len({kinds[i] for i in topiced}) >= 2:
        kind_head = _fit_head(X[topiced], [str(kinds[i]) for i in topiced])
    display = _display_names(area_head.classes, profile)
    return TrainedModel(
        name,
        featurizer,
        area_head,
        kind_head,
        profile.name if profile else None,
        display,
        {"rows": len(samples), "topiced_rows": len(topiced), "features": featurizer.width},
    )


def _fit_head(X: sparse.csr_matrix, y: list[str]) -> Head:
    classes, coef, intercept = _fit_svm(X, y)
    head = Head(classes, coef, intercept)
    head.temperature = _fit_temperature(X, y, classes)
    return head


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


def _fit_temperature(
    X: sparse.csr_matrix, y: list[str], classes: list[str], folds: int = 3
) -> float:
    """The softmax temperature that best explains out-of-fold scores (negative log-likelihood)."""
    labels = np.array(y)
    if len(labels) < 2 * folds:
        return 1.0
    scores = np.full((len(labels), len(classes)), -10.0)
    splitter = StratifiedKFold(folds, shuffle=True, random_state=SEED)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # classes rarer than the folds: fine here
        for train, test in splitter.split(np.zeros(len(labels)), labels):
            if len(set(labels[train])) < 2:
                return 1.0
            fold_classes, coef, intercept = _fit_svm(X[train], list(labels[train]))
            columns = [classes.index(c) for c in fold_classes]
            scores[np.ix_(test, columns)] = np.asarray(X[test] @ coef.T) + intercept
    truth = np.array([classes.index(label) for label in labels])

    def nll(log_t: float) -> float:
        p = _softmax(scores / np.exp(log_t))
        return float(-np.log(p[np.arange(len(truth)), truth] + 1e-12).mean())

    result = minimize_scalar(nll, bounds=(-5.0, 3.0), method="bounded")
    return float(np.exp(result.x))


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
