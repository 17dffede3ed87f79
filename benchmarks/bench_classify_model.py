"""Speed of the trained classifier, beside the rules alone measured in the same run.

    python benchmarks/bench_classify_model.py

1. Training on PyTorch's 1.11 worksheet (2,222 rows), as `classify train` does
   (features, both heads, the calibration folds, saving). Target: under 30 s.
2. Classifying 10,000 real PRs (executorch then ao records, titles and changed files)
   with the `pytorch` profile: rules alone (the baseline) and rules + model, cold
   (a model freshly loaded from its file, empty title cache). Target: under 2 s.

    python benchmarks/bench_classify_model.py --accuracy

3. The accuracy baseline of issue 4, on the same 5 folds as `classify eval --folds 5`:
   a plain TF-IDF + linear SVM on the raw titles (scikit-learn defaults).

Training uses the `pytorch` profile's code index (classify/code_index.py), as `classify
train` does; `--code PATH` indexes PATH instead (a source tree, package archive or index
file: building the index is then part of training), `--no-code` trains without one.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from _common import AO, EXECUTORCH, SHARED_DATA, best_of, need

from prdigest.classify import load_profile
from prdigest.classify.code_index import build_code_index
from prdigest.classify.evaluate import train_on
from prdigest.classify.features import Sample
from prdigest.classify.model import load_model, save_model
from prdigest.classify.training_labels import read_worksheet
from prdigest.models import PullRequest
from prdigest.reading import parse_title
from prdigest.sources.jsonl import read_jsonl
from prdigest.sources.records import parse_record

WORKSHEET = SHARED_DATA / "pytorch_release_notes" / "commitlist-v1.11-dev.csv"
COUNT = 10_000


def real_prs() -> list[PullRequest]:
    prs: list[PullRequest] = []
    for path, repo in ((need(EXECUTORCH), "pytorch/executorch"), (need(AO), "pytorch/ao")):
        prs += [parse_record(raw, repo, "jsonl", f"{path}:{n}") for n, raw in read_jsonl(path)]
    return prs[:COUNT]


def plain_baseline() -> None:
    import warnings

    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import LinearSVC

    rows = read_worksheet(need(WORKSHEET))
    titles = [row.title for row in rows]
    y = np.array([row.category for row in rows])
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    right = right_kept = kept = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        splits = list(folds.split(np.zeros(len(rows)), y))
    for train, test in splits:
        vectorizer = TfidfVectorizer()
        svm = LinearSVC(random_state=0).fit(
            vectorizer.fit_transform([titles[i] for i in train]), y[train]
        )
        scores = svm.decision_function(vectorizer.transform([titles[i] for i in test]))
        classes = list(svm.classes_)
        right += int((svm.classes_[scores.argmax(1)] == y[test]).sum())
        scores[:, classes.index("skip")] = -np.inf  # skip excluded: the best area besides skip
        mask = y[test] != "skip"
        kept += int(mask.sum())
        right_kept += int((svm.classes_[scores.argmax(1)][mask] == y[test][mask]).sum())
    print("plain TF-IDF + LinearSVC on raw titles, 5-fold CV (seed 0):")
    print(f"  category accuracy: {right / len(rows):.3f} ({right}/{len(rows)})")
    print(f"  category accuracy (skip excluded): {right_kept / kept:.3f} ({right_kept}/{kept})")


def main(code_path: str | None) -> None:
    rows = read_worksheet(need(WORKSHEET))
    profile = load_profile("pytorch")
    with tempfile.TemporaryDirectory() as folder:
        model_path = Path(folder) / "pytorch.prdm"

        def train() -> None:
            code = build_code_index(code_path) if code_path else None
            save_model(train_on(rows, profile, "bench", code), model_path)

        if code_path is None and "--no-code" not in sys.argv:
            code_path = profile.code_index_path

        t_train = best_of(3, train)
        size = model_path.stat().st_size
        t_load = best_of(3, lambda: load_model(model_path))

        prs = real_prs()

        def rules_only() -> object:
            parse_title.cache_clear()
            return load_profile("pytorch").classify_all(prs)

        def combined() -> object:
            parse_title.cache_clear()
            return load_profile("pytorch").with_model(load_model(model_path)).classify_all(prs)

        model = load_model(model_path)
        samples = [Sample.from_pr(pr) for pr in prs]

        def model_alone() -> object:
            parse_title.cache_clear()
            return model.guess(samples)

        t_rules = best_of(3, rules_only)
        t_model = best_of(3, model_alone)
        t_both = best_of(3, combined)
        by_model = sum(
            c.area_rule.startswith("model:")
            for c in load_profile("pytorch").with_model(model).classify_all(prs)
        )

    print(f"code index: {code_path or 'none'}")
    print(
        f"train   {len(rows)} worksheet rows (features, 2 heads, calibration, save): {t_train:6.2f} s  "
        f"(target < 30 s); model file {size / 1e6:.1f} MB, load {t_load * 1000:.0f} ms"
    )
    print(f"classify {len(prs)} real PRs, pytorch profile:")
    print(
        f"  baseline  rules alone:                    {t_rules * 1000:7.1f} ms  {len(prs) / t_rules:8.0f} PRs/s"
    )
    print(
        f"            model alone (features + heads): {t_model * 1000:7.1f} ms  {len(prs) / t_model:8.0f} PRs/s"
    )
    print(
        f"            rules + model, model loaded:    {t_both * 1000:7.1f} ms  {len(prs) / t_both:8.0f} PRs/s  "
        f"({t_both / t_rules:.2f}x rules alone; target < 2 s); the model decided {by_model} areas"
    )


if __name__ == "__main__":
    if "--accuracy" in sys.argv:
        plain_baseline()
    else:
        main(sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else None)
