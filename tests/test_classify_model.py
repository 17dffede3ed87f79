"""The trained classifier on PyTorch's real release-notes worksheet: reading it, training,
the model file format, rules + model together, and the evaluation figures."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from prdigest.classify import load_profile, profile_for
from prdigest.classify.evaluate import accuracies, classify_rows, report, train_on
from prdigest.classify.features import Sample, title_tokens
from prdigest.classify.model import TrainedModel, load_model, save_model
from prdigest.classify.training_labels import read_worksheet
from prdigest.config import Config
from prdigest.errors import ConfigError, SourceError
from prdigest.models import PullRequest


@pytest.fixture(scope="module")
def rows(worksheet_rows: list) -> list:
    return worksheet_rows


@pytest.fixture(scope="module")
def split(rows: list) -> tuple[list, list]:
    """A fixed split by commit hash (not by position): 80 % to train, 20 % to test."""

    def bucket(row) -> int:
        return int(hashlib.sha256(row.commit_hash.encode()).hexdigest(), 16) % 5

    return [r for r in rows if bucket(r) != 0], [r for r in rows if bucket(r) == 0]


@pytest.fixture(scope="module")
def pytorch_profile():
    return load_profile("pytorch")


@pytest.fixture(scope="module")
def trained(split, pytorch_profile) -> TrainedModel:
    return train_on(split[0], pytorch_profile, name="test")


# -- the worksheet ----------------------------------------------------------------------------
def test_reads_the_real_worksheet(commitlist_csv: Path) -> None:
    rows = read_worksheet(commitlist_csv)
    assert len(rows) == 2222
    assert rows[0].commit_hash == "04a5e45aeb"
    assert rows[0].category == "jit"
    assert rows[0].title.endswith("(#65352)") and "\r" not in rows[0].title
    assert rows[0].number == 65352
    categories = {row.category for row in rows}
    assert {"skip", "jit", "python_frontend", "cpp_frontend"} <= categories
    topics = [row.topic for row in rows if row.topic]
    assert len(topics) == 100  # everything but `Untopiced`
    assert "deprecation" in topics  # written `module: deprecation` in the file


def test_header_row_any_order_and_extra_columns(tmp_path: Path) -> None:
    path = tmp_path / "with_header.csv"
    path.write_bytes(
        b"title,category,commit_hash,topic,files_changed,author\r\n"
        b'"[ONNX] Fix export, again (#1)",onnx,abc,bug fixes,torch/onnx/a.py torch/onnx/b.py,alice\r\n'
        b"Update docs (#2),Python Frontend,def,Untopiced,,bob\r\n"
    )
    first, second = read_worksheet(path)
    assert first.title == "[ONNX] Fix export, again (#1)"
    assert first.topic == "bug_fixes" and first.files == ("torch/onnx/a.py", "torch/onnx/b.py")
    assert first.author == "alice"
    assert second.category == "python_frontend" and second.topic is None


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"a,jit,Untopiced,t1\r\nb,jit,Untopiced\r\n", r"bad\.csv:2: 3 columns, expected 4"),
        (b"a,jit,Untopiced\r\n", r"bad\.csv:1: 3 columns, expected at least 4"),
        (b"commit_hash,category,title\r\nx,jit,t\r\n", r"bad\.csv:1: header lacks topic"),
        (
            b"a,jit,Untopiced,t1\r\nb,jit,Untopiced,t2,extra\r\n",
            r"bad\.csv:2: 5 columns, expected 4",
        ),
        (b"", r"bad\.csv: no labelled rows"),
    ],
)
def test_malformed_worksheets_name_file_and_line(
    tmp_path: Path, content: bytes, expected: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(SourceError, match=expected) as info:
        read_worksheet(path)
    assert "\n" not in str(info.value)


# -- features -----------------------------------------------------------------------------------
def test_title_tokens_see_tags_modules_and_identifiers() -> None:
    tokens = title_tokens(
        "[Static Runtime] Fix torch.nn.functional.GetLivenessMap (#65175) (#65200)"
    )
    assert "__tag_static_runtime" in tokens
    assert {"__mod_torch_nn", "__mod_torch_nn_functional"} <= set(tokens)
    assert {"__part_get", "__part_liveness", "__part_map"} <= set(tokens)
    assert "__cherry_pick" in tokens
    assert "__no_pr" in title_tokens("Revert D31082208: Use shared CUPTI by default")


# -- training and prediction ----------------------------------------------------------------------
def test_model_beats_the_rules_on_rows_it_never_saw(
    trained: TrainedModel, split, pytorch_profile
) -> None:
    held_out = split[1]
    combined, no_skip, _ = accuracies(classify_rows(held_out, pytorch_profile, trained))
    rules, rules_no_skip, _ = accuracies(classify_rows(held_out, pytorch_profile, None))
    assert combined.total == len(held_out)
    assert combined.value > rules.value + 0.08
    assert no_skip.value > rules_no_skip.value + 0.05
    assert combined.value > 0.58 and no_skip.value > 0.65


def test_confidences_are_probabilities_and_calibrated(trained: TrainedModel, split) -> None:
    guesses = trained.guess([Sample(row.title) for row in split[1]])
    confident = [
        (g, row) for g, row in zip(guesses, split[1], strict=True) if g.area_confidence >= 0.7
    ]
    assert all(0.0 < g.area_confidence <= 1.0 for g in guesses)
    assert confident, "no confident guesses at all"
    right = sum(g.area == row.category for g, row in confident) / len(confident)
    assert right >= 0.7  # a confidence of 0.7+ is right at least that often


def test_save_and_load_give_the_same_predictions(
    trained: TrainedModel, split, tmp_path: Path
) -> None:
    path = tmp_path / "model.prdm"
    save_model(trained, path)
    loaded = load_model(path)
    samples = [Sample(row.title) for row in split[1][:200]]
    assert _same(loaded, trained, samples)
    assert loaded.profile_name == "pytorch"
    assert loaded.display("cuda") == "CUDA" and loaded.display("cpp_frontend") == "C++ Frontend"


def _same(a: TrainedModel, b: TrainedModel, samples: list[Sample]) -> bool:
    for x, y in zip(a.guess(samples), b.guess(samples), strict=True):
        assert (x.area, x.area_no_skip, x.kind) == (y.area, y.area_no_skip, y.kind)
        assert x.area_confidence == pytest.approx(y.area_confidence, abs=1e-5)
    return True


def _saved(trained: TrainedModel, tmp_path: Path) -> Path:
    path = tmp_path / "model.prdm"
    save_model(trained, path)
    return path


def test_model_file_from_another_version_is_refused(trained: TrainedModel, tmp_path: Path) -> None:
    path = _saved(trained, tmp_path)
    header, _, payload = path.read_bytes().partition(b"\n")
    meta = json.loads(header)
    meta["version"] = 2
    path.write_bytes(json.dumps(meta).encode() + b"\n" + payload)
    with pytest.raises(
        ConfigError, match="format version 2; this prdigest reads version 1"
    ) as info:
        load_model(path)
    assert "\n" not in str(info.value) and "classify train" in str(info.value)


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty"])
def test_corrupt_model_files_are_refused(
    trained: TrainedModel, tmp_path: Path, damage: str
) -> None:
    path = _saved(trained, tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0xFF
    elif damage == "truncate":
        data = data[: len(data) - 100]
    elif damage == "garbage":
        data = bytearray(b"\x80\x04\x95 this is a pickle, not a model\n")
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    with pytest.raises(ConfigError, match="corrupt|not a prdigest model file") as info:
        load_model(path)
    assert "\n" not in str(info.value)


def test_forged_checksum_still_cannot_execute_code(trained: TrainedModel, tmp_path: Path) -> None:
    """A payload with a valid checksum but a pickled object inside is refused, not run."""
    import io
    import pickle

    import numpy as np

    buffer = io.BytesIO()
    np.savez(buffer, meta=np.array([object()], dtype=object))
    payload = buffer.getvalue()
    header = {
        "format": "prdigest-classifier",
        "version": 1,
        "bytes": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    path = tmp_path / "forged.prdm"
    path.write_bytes(json.dumps(header).encode() + b"\n" + payload)
    assert pickle  # the archive holds a pickled array; allow_pickle=False refuses it
    with pytest.raises(ConfigError, match="corrupt"):
        load_model(path)


# -- rules and model together ------------------------------------------------------------------------
def test_profile_names_a_model_and_strong_rules_still_win(
    trained: TrainedModel, tmp_path: Path
) -> None:
    path = _saved(trained, tmp_path)
    config_path = tmp_path / "prdigest.toml"
    config_path.write_text(f'[repos."pytorch/pytorch"]\nmodel = "{path.name}"\n', encoding="utf-8")
    config = Config({"repos": {"pytorch/pytorch": {"model": path.name}}}, config_path)
    profile = profile_for("pytorch/pytorch", config)
    assert isinstance(profile.model, TrainedModel)

    tagged = PullRequest("pytorch/pytorch", 1, "[ONNX] Support opset 15 in the exporter")
    label = profile.classify(tagged)
    assert label.area == "ONNX" and label.area_rule.endswith("/title_tag")

    vague = PullRequest("pytorch/pytorch", 2, "Add out-variant for aten::sum in GetLivenessMap")
    label = profile.classify(vague)
    assert label.area_rule == "model:test"
    assert 0.0 < label.confidence <= 1.0


def test_report_ends_with_the_three_accuracy_lines(
    trained: TrainedModel, split, pytorch_profile
) -> None:
    text = report(classify_rows(split[1][:300], pytorch_profile, trained), ["header"])
    last = text.rstrip("\n").splitlines()[-3:]
    assert re.fullmatch(r"category accuracy: \d\.\d{3} \(\d+/300\)", last[0])
    assert re.fullmatch(r"category accuracy \(skip excluded\): \d\.\d{3} \(\d+/\d+\)", last[1])
    assert re.fullmatch(r"topic accuracy: \d\.\d{3} \(\d+/\d+\)", last[2])
    topiced = sum(row.topic is not None for row in split[1][:300])
    assert last[2].endswith(f"/{topiced})")
    assert "main confusions" in text and "precision" in text


def test_character_grams_match_scikit_learns_char_wb(rows: list) -> None:
    """The cached analyzer must give exactly scikit-learn's `char_wb` n-grams."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    from prdigest.classify.features import title_text
    from prdigest.classify.model import WordCharGrams

    reference = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5)).build_analyzer()
    ours = WordCharGrams(2, 5)
    texts = [title_text(row.title) for row in rows] + ["  Tabs\tand\u00a0nbsp  ", "ÉCOLE", "a", ""]
    assert [ours(text) for text in texts] == [reference(text) for text in texts]


def test_a_profile_file_can_name_its_model(trained: TrainedModel, tmp_path: Path) -> None:
    _saved(trained, tmp_path)  # tmp_path/model.prdm
    profile_file = tmp_path / "mine.toml"
    profile_file.write_text(
        'name = "mine"\nmodel = "model.prdm"\n'
        '[[areas]]\nname = "ONNX"\ntitle_tags = ["onnx"]\npaths = ["torch/onnx/**"]\n',
        encoding="utf-8",
    )
    profile = load_profile(str(profile_file))
    assert isinstance(profile.model, TrainedModel)
    labels = profile.classify_all(
        [
            PullRequest("x/y", 1, "[ONNX] Add symbolic for aten::gelu"),
            PullRequest("x/y", 2, "[quant][fx] Add qconfig_dict support for fused modules"),
        ]
    )
    assert labels[0].area == "ONNX" and labels[0].area_rule == "mine/area/ONNX/title_tag"
    assert labels[1].area_rule == "model:test" and labels[1].area == "Quantization"


def test_strong_rules_the_model_beat_on_held_out_training_rows_are_overruled(
    trained: TrainedModel, tmp_path: Path
) -> None:
    """`[PyTorch Edge]` is a Mobile tag, but the labellers filed many such PRs elsewhere
    (quantization, JIT): the model's out-of-fold guesses beat the tag on the training rows,
    so the model decides; the ONNX tag is right almost always and keeps its say."""
    assert "pytorch/area/Mobile/title_tag" in trained.overruled
    assert "pytorch/area/ONNX/title_tag" not in trained.overruled
    assert load_model(_saved(trained, tmp_path)).overruled == trained.overruled
    profile = load_profile("pytorch").with_model(trained)
    edge, onnx = profile.classify_all(
        [
            PullRequest("pytorch/pytorch", 1, "[PyTorch Edge] Optimize Dequantize"),
            PullRequest("pytorch/pytorch", 2, "[ONNX] Support opset 15 in the exporter"),
        ]
    )
    assert edge.area_rule == "model:test" and edge.area == "Quantization"
    assert onnx.area_rule == "pytorch/area/ONNX/title_tag"


def test_overruled_rules_is_a_head_to_head_count() -> None:
    import numpy as np

    from prdigest.classify.rules import Decision
    from prdigest.classify.training import overruled_rules

    tag = Decision("Mobile", "p/area/Mobile/title_tag", "title_tag")
    other = Decision("JIT", "p/area/JIT/title_tag", "title_tag")
    weak = Decision("Other", "p/area/Other/default", "default")
    kind = Decision("improvements", "p/kind/wording", "wording")
    classes = ["jit", "mobile", "skip"]
    # the Mobile tag is right once in three; the model (argmax of the scores) twice
    decisions = [(tag, kind)] * 3 + [(other, kind)] * 2 + [(weak, kind)]
    gold = ["mobile", "skip", "jit", "jit", "jit", "skip"]
    guesses = [2, 2, 0, 0, 1, 2]
    scores = np.eye(3)[guesses]
    display = {"jit": "JIT", "mobile": "Mobile"}
    assert overruled_rules(decisions, gold, scores, classes, display) == {tag.rule}
    # a tie leaves the rule its say
    assert overruled_rules(decisions[3:5], gold[3:5], np.eye(3)[[0, 2]], classes, display) == set()


class _SkipSayingModel:
    """A stand-in model that finds every PR outside the release notes."""

    name = "fake"

    def predict(self, prs):
        from prdigest.classify.base import ModelPrediction

        return [ModelPrediction("JIT", 0.3, "not_user_facing", 0.9) for _ in prs]


def test_the_model_does_not_file_a_not_user_facing_pr_it_would_skip_under_a_guessed_area() -> None:
    profile = load_profile("pytorch").with_model(_SkipSayingModel())
    revert, vague = profile.classify_all(
        [
            PullRequest("pytorch/pytorch", 1, "Revert D33172665: [LTC] Upstream utils"),
            PullRequest("pytorch/pytorch", 2, "Add out-variant for aten::sum in GetLivenessMap"),
        ]
    )
    # the rules say not user facing (a revert) and place it in no area: it stays there
    assert revert.kind_rule == "pytorch/kind/revert" and revert.area_rule.endswith("/default")
    # where the rules' kind is weak, the model decides both as before
    assert vague.area == "JIT" and vague.area_rule == "model:fake"
    assert vague.kind == "not_user_facing" and vague.kind_rule == "model:fake"
