"""One model sentence checked against one PR (`write/llm/brief_check.py`): a table of
sentences that pass and of sentences that fail, each with the reason it fails. A rule
weakened or dropped fails its own rows."""

from __future__ import annotations

import pytest

from prdigest.models import BriefText, FileChange, PullRequest
from prdigest.write.llm.brief_check import Evidence, check_sentence
from prdigest.write.llm.brief_words import verified_text
from prdigest.write.llm.pr_input import clean_body, pr_input

PR = PullRequest(
    repo="o/r",
    number=7,
    title="[Arm] Add FP16 support for `bitwise_not` in the TOSA serializer",
    body=(
        "## Summary\nLowers `aten.bitwise_not` for bool inputs via `logical_not`, so models"
        " with masks export on Ethos-U55. Cuts export time by 15% on MobileNetV2.\n\n"
        "cc @someone\nTest Plan:\npytest backends/arm -k secret_test_name\n"
    ),
    labels=("module: arm",),
    files=(
        FileChange(
            "backends/arm/tosa/serializer.py",
            12,
            3,
            patch="@@ -1 +1 @@\n-def old():\n+def lower_bitwise_not(node):\n+    return logical_not(node)",
        ),
    ),
)
EVIDENCE = Evidence.of(pr_input(PR, "k", 400).evidence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Adds FP16 support for `bitwise_not` in the TOSA serializer",
        "Lowers `aten.bitwise_not` on bool inputs through `logical_not`",
        "Models with masks now export on Ethos-U55",
        "Cuts export time by 15% on MobileNetV2",
        "Adds `lower_bitwise_not` to the Arm serializer",  # a name the diff writes
        "Supports bitwise-not for bool masks",  # separators forgiven
        "Exports models with masks",
        "Lowered bool inputs export",  # "Lowers", "lowered": one word
    ],
)
def test_a_sentence_its_pr_supports_passes(sentence: str) -> None:
    assert check_sentence(sentence, EVIDENCE) == ""


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("Adds `FluxCapacitor` to the serializer", "names 'FluxCapacitor'"),
        ("Adds FP32 support for the serializer", "names 'FP32'"),
        ("Lowers bitwise ops for Cortex-M", "names 'Cortex-M'"),
        ("Adds support for Qwen3 in the serializer", "names 'Qwen3'"),
        ("Adds support for GPT inputs", "names 'GPT'"),
        ("Exports models with masks on Ethos-U55 via MobileNetv2", "names 'MobileNetv2'"),
        ("Adds `Lower_Bitwise_Not` to the serializer", "names 'Lower_Bitwise_Not'"),
        ("Exports models for Graalpy users", "names 'Graalpy'"),
        ("Cuts export time by 150% on MobileNetV2", "gives '150%'"),
        ("Cuts export time by 20 seconds", "gives '20 seconds'"),
        ("Makes export 3x faster", "gives '3x'"),
        ("Makes the serializer faster for masks", "claims 'faster'"),
        ("Reduces memory use of the serializer", "claims 'memory'"),
        ("Fixes a crash in the serializer", "claims 'crash'"),
        ("Changes 12 files of the serializer", "gives a size"),
        ("Adds support, see https://evil.example/x", "links or markup"),
        ("Adds **bold** support to the serializer", "links or markup"),
        ("Adds `bitwise_not support to the serializer", "a code span left open"),
        ("Fixes #1234 in the serializer", "a PR or issue number"),
        ("This PR adds FP16 to the serializer", "speaks of the PR"),
        ("Adds FP16. Also lowers masks", "more than one sentence"),
        ("Serializer", "not one sentence"),
        (
            "Revolutionises seamless synergy across heterogeneous quantum pipelines",
            "words the PR does not use",
        ),
    ],
)
def test_a_sentence_with_what_its_pr_does_not_say_fails_saying_why(
    sentence: str, reason: str
) -> None:
    assert reason in check_sentence(sentence, EVIDENCE)


def test_the_model_sees_the_description_without_its_trailers_and_test_plan() -> None:
    shown = pr_input(PR, "k", 400)
    assert "cc @someone" not in shown.body and "secret_test_name" not in shown.body
    assert "logical_not" in shown.diff and shown.files == (
        "backends/arm/tosa/serializer.py (+12 -3)",
    )
    assert clean_body("<!-- hidden -->Kept\nSigned-off-by: x") == "Kept"


def test_a_failed_sentence_gives_way_to_the_deterministic_one_and_says_why() -> None:
    shown = pr_input(PR, "k", 400)
    fallback = BriefText("Adds FP16 support for `bitwise_not`", "Masks export", "title", "reason")
    text = verified_text(
        {"what": "Adds `FluxCapacitor`.", "why": "Models with masks now export on Ethos-U55."},
        shown,
        fallback,
        "model:m@1",
    )
    assert (text.what, text.what_from) == ("Adds FP16 support for `bitwise_not`", "title")
    assert (text.why, text.why_from) == ("Models with masks now export on Ethos-U55", "model")
    assert text.replaced == "what: names 'FluxCapacitor', which the PR does not"
    said_twice = verified_text(
        {"what": "Models with masks now export", "why": "Models with masks export"},
        shown,
        fallback,
        "model:m@1",
    )
    assert said_twice.why == "" and "why: says the what again" in said_twice.replaced


def test_the_prs_own_reason_is_not_told_again_when_the_models_what_says_it() -> None:
    shown = pr_input(PR, "k", 400)
    fallback = BriefText("Adds FP16", "Models with masks export on Ethos-U55", "title", "reason")
    text = verified_text(
        {"what": "Lets models with masks export on Ethos-U55", "why": ""}, shown, fallback, "m"
    )
    assert (text.what_from, text.why, text.why_from) == ("model", "", "")
    kept = verified_text({"what": "Adds FP16 support", "why": ""}, shown, fallback, "m")
    assert (kept.why, kept.why_from) == ("Models with masks export on Ethos-U55", "reason")
