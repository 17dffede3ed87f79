"""A trained area/kind classifier: features, heads, prediction, and its file (training.py fits it).

Model: three TF-IDF feature blocks (features.py) → one linear SVM per head (area, and
kind where the labels have topics), with softmax confidences whose temperature is
fitted on out-of-fold scores (so "0.8" means about 80 % right). The same out-of-fold scores
pick the strong area rules the model overrules (`TrainedModel.overruled`, see training.py).

File format (no pickle; nothing in it is ever executed):

    line 1: {"format": "prdigest-classifier", "version": 1, "sha256": …, "bytes": N}
    then:   N bytes of a NumPy .npz archive (loaded with allow_pickle=False)

The archive holds the vocabularies and parameters as JSON text and float arrays, and a
code index (code_index.py), when the model has one, as arrays of text bytes and ints. A file
of another format version, a truncated or altered one (sha256 mismatch), or something
that is not a model at all is refused with one clear message.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

import msgspec
import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer

from ..errors import ConfigError
from ..fileio import write_atomic
from ..kinds import NOT_USER_FACING
from ..models import PullRequest
from .base import ModelPrediction
from .code_index import CodeIndex
from .features import RuleHints, Sample, symbolic_tokens, title_text
from .profile_specs import rules_only_profile
from .rules import Decision

Decisions = Sequence[tuple[Decision, Decision]]

FORMAT = "prdigest-classifier"
VERSION = 1
SKIP = "skip"  # the worksheet's "not in the release notes" category
SEED = 0
SKIP_THRESHOLD = 0.5  # "outside the release notes" must be more likely than not
SVM_C = 0.3  # fixed, not searched (early trials: C = 0.2 and 0.5 within half a point)


class VectorizerSettings(TypedDict, total=False):
    """A block's keyword arguments to scikit-learn's TfidfVectorizer."""

    sublinear_tf: bool
    ngram_range: list[int]  # [low, high]
    token_pattern: str
    analyzer: str
    min_df: int
    lowercase: bool


# The blocks' settings are part of the format: a model file records them.
BLOCKS: dict[str, VectorizerSettings] = {
    "words": {"sublinear_tf": True, "ngram_range": [1, 2], "token_pattern": r"(?u)\b\w+\b"},
    "chars": {"sublinear_tf": True, "analyzer": "char_wb", "ngram_range": [2, 5], "min_df": 2},
    "symbols": {"sublinear_tf": True, "token_pattern": r"\S+", "lowercase": False},
}


def _vectorizer(
    settings: VectorizerSettings, vocabulary: dict[str, int] | None = None
) -> TfidfVectorizer:
    options: dict[str, object] = {k: v for k, v in settings.items() if k != "ngram_range"}
    low, high = settings.get("ngram_range", [1, 1])
    if settings.get("analyzer") == "char_wb":
        options["analyzer"] = WordCharGrams(low, high, known=vocabulary)
    else:
        options["ngram_range"] = (low, high)
    if vocabulary is not None:
        options.pop("min_df", None)
        options["vocabulary"] = vocabulary
    return TfidfVectorizer(dtype=np.float32, **options)


class WordCharGrams:
    """scikit-learn's `char_wb` analyzer (lower case, n-grams inside space-padded words),
    computed once per distinct word — titles share most of their words — and, once the
    vocabulary is known, only the n-grams in it (scikit-learn would drop the others anyway,
    slowly). Character n-grams are the costliest step of classifying."""

    def __init__(self, low: int, high: int, known: Container[str] | None = None) -> None:
        self.low, self.high = low, high
        self.known = known
        self._cache: dict[str, tuple[str, ...]] = {}

    def __call__(self, text: str) -> list[str]:
        grams: list[str] = []
        for word in text.lower().split():
            cached = self._cache.get(word)
            if cached is None:
                cached = _word_grams(word, self.low, self.high)
                if self.known is not None:
                    cached = tuple(gram for gram in cached if gram in self.known)
                if len(self._cache) < 200_000:
                    self._cache[word] = cached
            grams.extend(cached)
        return grams


def _word_grams(word: str, low: int, high: int) -> tuple[str, ...]:
    padded = f" {word} "
    grams = []
    for n in range(low, high + 1):
        offset = 0
        grams.append(padded[:n])
        while offset + n < len(padded):
            offset += 1
            grams.append(padded[offset : offset + n])
        if offset == 0:  # a word shorter than n counts once, as in scikit-learn
            break
    return tuple(grams)


class Featurizer:
    """Sample → sparse row: the three blocks side by side."""

    def __init__(self, hints: RuleHints, code: CodeIndex | None = None) -> None:
        self.hints = hints
        self.code = code
        self.vectorizers: dict[str, TfidfVectorizer] = {}

    def _texts(
        self, samples: Sequence[Sample], decisions: Decisions | None = None
    ) -> dict[str, list[str]]:
        words = [title_text(sample.title) for sample in samples]
        if decisions is None:
            symbols = [symbolic_tokens(s, self.hints, None, self.code) for s in samples]
        else:
            symbols = [
                symbolic_tokens(s, self.hints, d, self.code)
                for s, d in zip(samples, decisions, strict=True)
            ]
        return {"words": words, "chars": words, "symbols": symbols}

    def fit_transform(
        self, samples: Sequence[Sample], decisions: Decisions | None = None
    ) -> sparse.csr_matrix:
        texts = self._texts(samples, decisions)
        blocks = []
        for name, settings in BLOCKS.items():
            vectorizer = _vectorizer(settings)
            blocks.append(vectorizer.fit_transform(texts[name]))
            if isinstance(vectorizer.analyzer, WordCharGrams):  # from now on: known n-grams only
                analyzer = vectorizer.analyzer
                vectorizer.analyzer = WordCharGrams(
                    analyzer.low, analyzer.high, vectorizer.vocabulary_
                )
            self.vectorizers[name] = vectorizer
        return sparse.hstack(blocks, format="csr")

    def transform(
        self, samples: Sequence[Sample], decisions: Decisions | None = None
    ) -> sparse.csr_matrix:
        texts = self._texts(samples, decisions)
        return sparse.hstack(
            [self.vectorizers[name].transform(texts[name]) for name in BLOCKS], format="csr"
        )

    @property
    def width(self) -> int:
        return sum(len(v.vocabulary_) for v in self.vectorizers.values())


@dataclass
class Head:
    """One linear classifier: scores = X·coefᵀ + intercept; probabilities = softmax(scores / T)."""

    classes: list[str]
    coef: np.ndarray  # (classes, features) float32
    intercept: np.ndarray  # (classes,)
    temperature: float = 1.0

    def scores(self, X: sparse.csr_matrix) -> np.ndarray:
        return np.asarray(X @ self.coef.T) + self.intercept

    def probabilities(self, X: sparse.csr_matrix) -> np.ndarray:
        return _softmax(self.scores(X) / self.temperature)


@dataclass(frozen=True, slots=True)
class Guess:
    """A model's full opinion on one sample (evaluation and `explain` use it)."""

    area: str  # best class, possibly `skip`
    area_confidence: float
    area_no_skip: str  # best class other than `skip`
    area_no_skip_confidence: float
    kind: str | None
    kind_confidence: float


@dataclass
class TrainedModel:
    name: str
    featurizer: Featurizer
    area: Head
    kind: Head | None
    profile_name: str | None = None  # built-in profile whose rules were features
    area_display: dict[str, str] = field(default_factory=dict)  # class → the profile's area name
    info: dict[str, int] = field(default_factory=dict)  # rows, topiced_rows, features
    # Strong area rules of `profile_name` that this model beat on held-out training rows
    # (training.overruled_rules): where one fires, the model decides the area.
    overruled: frozenset[str] = frozenset()

    def overrules(self, decision: Decision) -> bool:
        """Whether the model, not this strong area rule, should decide (see `overruled`)."""
        return decision.rule in self.overruled

    # -- prediction ----------------------------------------------------------------------
    def guess(self, samples: Sequence[Sample], decisions: Decisions | None = None) -> list[Guess]:
        """`decisions`: the rules' (area, kind) per sample when already known (saves a rules pass)."""
        if not samples:
            return []
        X = self.featurizer.transform(samples, decisions)
        area_p = self.area.probabilities(X)
        kind_p = self.kind.probabilities(X) if self.kind is not None else None
        classes = self.area.classes
        no_skip = area_p.copy()
        if SKIP in classes:
            no_skip[:, classes.index(SKIP)] = -1.0
        best = area_p.argmax(axis=1)
        best_no_skip = no_skip.argmax(axis=1)
        guesses = []
        for i in range(len(samples)):
            kind, kind_confidence = None, 0.0
            if kind_p is not None:
                k = int(kind_p[i].argmax())
                kind, kind_confidence = (
                    self.kind.classes[k] if self.kind else None,
                    float(kind_p[i, k]),
                )
            guesses.append(
                Guess(
                    classes[best[i]],
                    float(area_p[i, best[i]]),
                    classes[best_no_skip[i]],
                    float(area_p[i, best_no_skip[i]]),
                    kind,
                    kind_confidence,
                )
            )
        return guesses

    def predict(self, prs: Sequence[PullRequest]) -> list[ModelPrediction]:
        """The `AreaKindModel` seam of `Profile`: an area always (never `skip`: a digest
        files every PR somewhere); `not_user_facing` as kind when `skip` is the most
        likely category and more likely than not (SKIP_THRESHOLD)."""
        return self._predictions(self.guess([Sample.from_pr(pr) for pr in prs]))

    def predict_with_decisions(
        self, prs: Sequence[PullRequest], decisions: Decisions, profile_name: str
    ) -> list[ModelPrediction]:
        """As `predict`, reusing the rules' decisions when they come from the profile this
        model was trained with (its features are that profile's decisions)."""
        if profile_name != self.profile_name:
            return self.predict(prs)
        return self._predictions(self.guess([Sample.from_pr(pr) for pr in prs], decisions))

    def _predictions(self, guesses: Sequence[Guess]) -> list[ModelPrediction]:
        predictions = []
        for guess in guesses:
            area = self.display(guess.area_no_skip)
            kind: str | None = guess.kind
            kind_confidence = guess.kind_confidence
            if guess.area == SKIP and guess.area_confidence >= SKIP_THRESHOLD:
                kind, kind_confidence = NOT_USER_FACING, guess.area_confidence
            predictions.append(
                ModelPrediction(area, guess.area_no_skip_confidence, kind, kind_confidence)
            )
        return predictions

    def display(self, area_class: str) -> str:
        return self.area_display.get(area_class, area_class)


def _softmax(scores: np.ndarray) -> np.ndarray:
    shifted = scores - scores.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True))


# -- file format ----------------------------------------------------------------------------
def save_model(model: TrainedModel, path: Path | str) -> None:
    arrays: dict[str, np.ndarray] = {}
    vocabularies = {}
    for name, vectorizer in model.featurizer.vectorizers.items():
        vocab = sorted(vectorizer.vocabulary_.items(), key=lambda item: item[1])
        vocabularies[name] = [term for term, _ in vocab]
        arrays[f"idf_{name}"] = np.asarray(vectorizer.idf_, dtype=np.float32)
    heads = {"area": model.area, "kind": model.kind}
    head_meta = {}
    for name, head in heads.items():
        if head is None:
            continue
        arrays[f"{name}_coef"] = head.coef.astype(np.float32)
        arrays[f"{name}_intercept"] = head.intercept.astype(np.float32)
        head_meta[name] = {"classes": head.classes, "temperature": head.temperature}
    meta = {
        "name": model.name,
        "profile": model.profile_name,
        "area_display": model.area_display,
        "blocks": BLOCKS,
        "vocabularies": vocabularies,
        "heads": head_meta,
        "info": model.info,
        "overruled": sorted(model.overruled),
        "code_index": model.featurizer.code is not None,
    }
    if model.featurizer.code is not None:
        arrays.update(model.featurizer.code.arrays("code_"))
    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    payload = buffer.getvalue()
    header = {
        "format": FORMAT,
        "version": VERSION,
        "sha256": hashlib.sha256(payload).hexdigest(),
        "bytes": len(payload),
    }
    write_atomic(path, json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + payload)


def load_model(path: Path | str) -> TrainedModel:
    source = Path(path)
    retrain = "train a new one with `prdigest classify train --labels FILE.csv --out MODEL`"
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        raise ConfigError(
            f"model file {source} not found", "check the path, or " + retrain
        ) from None
    except OSError as exc:
        raise ConfigError(
            f"cannot read model file {source}: {exc.strerror}", "check its permissions"
        ) from None
    first, _, payload = data.partition(b"\n")
    try:
        header = json.loads(first.decode("utf-8"))
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ValueError
    except (UnicodeDecodeError, ValueError):
        raise ConfigError(f"{source} is not a prdigest model file", retrain) from None
    if header.get("version") != VERSION:
        raise ConfigError(
            f"model file {source} has format version {header.get('version')!r}; this prdigest reads version {VERSION}",
            retrain,
        )
    if len(payload) != header.get("bytes") or hashlib.sha256(payload).hexdigest() != header.get(
        "sha256"
    ):
        raise ConfigError(f"model file {source} is corrupt (checksum mismatch)", retrain)
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
        meta = msgspec.json.decode(arrays["meta"].tobytes(), type=_ModelMeta)
        return _from_arrays(meta, arrays)
    except (KeyError, ValueError, TypeError, OSError, zipfile.BadZipFile) as exc:
        raise ConfigError(
            f"model file {source} is corrupt ({type(exc).__name__})", retrain
        ) from None


class _HeadMeta(msgspec.Struct, frozen=True):
    classes: list[str]
    temperature: float


class _ModelMeta(msgspec.Struct, frozen=True):
    """A model file's `meta` array (`save_model`)."""

    name: str
    blocks: dict[str, VectorizerSettings]
    vocabularies: dict[str, list[str]]
    heads: dict[str, _HeadMeta]
    profile: str | None = None
    area_display: dict[str, str] = {}
    info: dict[str, int] = {}
    overruled: list[str] = []
    code_index: bool = False


def _from_arrays(meta: _ModelMeta, arrays: dict[str, np.ndarray]) -> TrainedModel:
    profile = None
    if meta.profile:
        profile = rules_only_profile(meta.profile)
    code = CodeIndex.from_arrays(arrays, "code_") if meta.code_index else None
    featurizer = Featurizer(RuleHints(profile), code)
    for name, settings in meta.blocks.items():
        terms = meta.vocabularies[name]
        vectorizer = _vectorizer(settings, {term: i for i, term in enumerate(terms)})
        vectorizer.idf_ = arrays[f"idf_{name}"]
        featurizer.vectorizers[name] = vectorizer
    heads: dict[str, Head] = {}
    for name, head_meta in meta.heads.items():
        coef = arrays[f"{name}_coef"]
        if coef.shape != (len(head_meta.classes), featurizer.width):
            raise ValueError("coefficient shape does not match the vocabulary")
        heads[name] = Head(
            list(head_meta.classes),
            coef,
            arrays[f"{name}_intercept"],
            head_meta.temperature,
        )
    return TrainedModel(
        meta.name,
        featurizer,
        heads["area"],
        heads.get("kind"),
        meta.profile,
        dict(meta.area_display),
        dict(meta.info),
        frozenset(meta.overruled),
    )
