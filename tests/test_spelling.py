"""The repository's spelling, learned from its titles (reading/spelling.py): real executorch
and ao titles, written the way their authors wrote them."""

from __future__ import annotations

from pathlib import Path

import pytest

from digest_weeks import load
from prdigest.reading.spelling import Spelling, TitleWords, title_forms

EXECUTORCH = "pytorch/executorch"

# Real titles of pytorch/executorch (2025), oldest first, as (landed at, title).
EXECUTORCH_TITLES = [
    ("2025-01-16T00:00:00Z", "[ExecuTorch][Llama] Split custom sdpa op and kv cache"),
    ("2025-01-23T00:00:00Z", "[ExecuTorch][BE] Split kv cache and SDPA for better code sharing"),
    ("2025-01-29T00:00:00Z", "Add event tracing and ETDumps to executor_runner"),
    ("2025-01-31T00:00:00Z", "Split SDPA + KV cache operator into SDPA operator and KV cache update operator"),
    ("2025-02-03T00:00:00Z", "Qualcomm AI Engine Direct - Add 4-bit Embedding Quantization Option"),
    ("2025-02-05T00:00:00Z", "Qualcomm AI Engine Direct - documentation for KV cache update"),
    ("2025-02-06T00:00:00Z", "[ET-VK][int4] patch 4-bit linear op for ensuring w-packed in/out"),
    ("2025-02-26T00:00:00Z", "move import of VK 4-bit source quantizer into function"),
    ("2025-02-27T00:00:00Z", "make ETDumpGen use bufferdatasink"),
    ("2025-03-19T00:00:00Z", "Fix etdump test"),
    ("2025-04-03T00:00:00Z", "Arm backend: Size Test for Cortex-M"),
    ("2025-04-10T00:00:00Z", "[#9971] Gracefully error out in ETDump for get_flatbuffer_scalar_type"),
    ("2025-04-14T00:00:00Z", "[#9971] Gracefully error out in ETDump for set_debug_buffer"),
    ("2025-04-16T00:00:00Z", "[ET-VK] Add co-op algorithm for 4 bit weight only quantized linear"),
    ("2025-04-24T00:00:00Z", "[cortex-m] initial commit"),
    ("2025-05-02T00:00:00Z", "Arm backend: Add Cortex-M quantize op"),
    ("2025-06-10T00:00:00Z", "Use the ETDump in the devtools tutorial"),
    ("2026-03-02T00:00:00Z", "Add Qwen3.5 MoE export for CUDA"),
    ("2026-03-09T00:00:00Z", "Qwen3.5: prequantized checkpoint save/load"),
    ("2026-03-10T00:00:00Z", "Enable fused MoE kernel for Qwen3.5 MoE model"),
    ("2026-04-01T00:00:00Z", "[GPT-OSS] Add GPT-OSS 20B export"),
    ("2026-04-02T00:00:00Z", "Run GPT-OSS on the CUDA backend"),
]  # fmt: skip


@pytest.fixture(scope="module")
def words() -> TitleWords:
    return TitleWords(EXECUTORCH_TITLES)


def test_positional_capitals_and_code_teach_nothing() -> None:
    forms = dict(title_forms("[ET-VK] Add SDPA support for `foo_bar` in backends/vulkan (#123)"))
    assert forms["sdpa"] == "SDPA" and forms["etvk"] == "ET-VK"  # a tag is written on purpose
    assert "add" not in forms  # the first word is capitalised by position
    assert not any("foo" in key or "vulkan" in key for key in forms)  # code and paths
    prefixed = dict(title_forms("Arm backend: Add KV cache"))
    assert "add" not in prefixed and prefixed["kvcache"] == "KV cache"


def test_names_from_directories_take_the_titles_spelling(words: TitleWords) -> None:
    spelling = words.spelling()
    assert spelling.name("qwen3_5") == "Qwen3.5"
    assert spelling.name("qwen3_5_moe") == "Qwen3.5 MoE"
    assert spelling.name("gpt_oss") == "GPT-OSS"
    assert spelling.name("cortex_m") == "Cortex-M"
    assert spelling.name("etdump") == "ETDump"
    assert spelling.name("kv_cache") == "KV Cache"  # an area name: plain words capitalised
    assert spelling.phrase("kv_cache") == "KV cache"  # in running text: as the titles write it
    assert spelling.name("flat_tensor") == "Flat Tensor"  # nothing learned: title-cased
    assert spelling.name("tosa") == "TOSA"  # nothing learned: the hand-kept fallback


def test_theme_names_are_respelled_as_the_titles_write_them(words: TitleWords) -> None:
    spelling = words.spelling()
    assert spelling.respell("Etdump generation support") == "ETDump generation support"
    assert spelling.respell("Sdpa refactor") == "SDPA refactor"
    assert spelling.respell("4 bit weight") == "4-bit weight"  # joined 3 times, spaced once
    assert spelling.respell("Cortex M quantize op") == "Cortex-M quantize op"
    assert spelling.respell("`sdpa` op") == "`sdpa` op"  # code is verbatim
    assert spelling.respell("ExecuTorch runtime") == "ExecuTorch runtime"  # its own capitals


def test_spelling_is_what_was_written_before_the_window_ends(words: TitleWords) -> None:
    before_qwen = words.spelling(before="2026-01-01T00:00:00Z")
    assert before_qwen.name("qwen3_5") == "Qwen3 5"  # not yet written: no evidence
    assert words.spelling(before="2026-03-03T00:00:00Z").name("qwen3_5") == "Qwen3.5"
    assert before_qwen.name("cortex_m") == "Cortex-M"


def test_a_word_without_spaces_is_no_spaced_pair() -> None:
    spelling = TitleWords(
        [("t", "Fix the Set Up of CI"), ("t", "Split the Set Up step")]
    ).spelling()
    assert spelling.name("setup") == "Setup"  # `setup` is not `set up`
    assert spelling.name("set_up") == "Set Up"


def test_lower_case_words_follow_capitals_only_when_the_titles_prefer_them() -> None:
    titles = [("t", f"Fix {word} again") for word in ("LoRA", "LoRA", "lora", "lora", "lora")]
    spelling = TitleWords(titles).spelling()
    assert spelling.respell("Lora adapters") == "LoRA adapters"  # capitalised: take theirs
    assert spelling.respell("the lora adapters") == "the lora adapters"  # typed lower-case more
    assert spelling.name("lora") == "LoRA"


def test_without_titles_the_hand_kept_list_stands_in() -> None:
    assert Spelling().spell("tosa") == "TOSA" and Spelling({}).spell("tosa") == "tosa"
    assert Spelling().name("moe_training") == "MoE Training"
    assert Spelling().respell("Vgf files move") == "VGF files move"


def test_the_whole_history_s_titles_spell_its_names(executorch_jsonl: Path) -> None:
    """(Its cost is measured in benchmarks/bench_digest_core.py, not here.)"""
    titles = [(str(pr.merged_at), pr.title) for pr in load(str(executorch_jsonl), EXECUTORCH)]
    spelling = TitleWords(titles).spelling()
    assert spelling.name("xnnpack") == "XNNPACK" and spelling.name("coreml") == "CoreML"


def test_the_pipeline_reads_the_titles_once_a_run_and_sees_new_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    import prdigest.reading.spelling as spelling_module
    from prdigest.models import PullRequest
    from prdigest.store import open_store
    from prdigest.timeutil import iso_week_window

    built: list[int] = []
    real = spelling_module.TitleWords

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, titles: object) -> None:
            built.append(1)
            super().__init__(titles)  # type: ignore[arg-type]

    monkeypatch.setattr(spelling_module, "TitleWords", Counted)
    store = open_store(str(tmp_path / "s.db"))

    def land(number: int, title: str, day: int) -> None:
        when = datetime(2026, 3, day, 12, tzinfo=UTC)
        pr = PullRequest("o/r", number, title, sha=f"{number:040x}", merged_at=when)
        store.upsert_pull_requests("o/r", [pr])

    land(1, "Add Qwen3.5 export", 3)
    land(2, "Fix Qwen3.5 rope", 4)
    w10, w09 = iso_week_window("2026-W10"), iso_week_window("2026-W09")
    assert store.title_spelling("o/r", w10).name("qwen3_5") == "Qwen3.5"
    assert store.title_spelling("o/r", w09).name("qwen3_5") == "Qwen3 5"
    assert len(built) == 1  # one read for both windows
    land(3, "Add GPT-OSS support", 5)
    assert store.title_spelling("o/r", w10).name("gpt_oss") == "GPT-OSS"
    assert len(built) == 2  # the store changed: read again
