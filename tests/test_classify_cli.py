"""`prdigest classify train | eval | explain` as a user runs them, on real data."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from prdigest.cli import main
from prdigest.sources.records import parse_record
from prdigest.store import open_store

LAST_THREE = [
    r"category accuracy: \d\.\d{3} \(\d+/\d+\)",
    r"category accuracy \(skip excluded\): \d\.\d{3} \(\d+/\d+\)",
    r"topic accuracy: \d\.\d{3} \(\d+/\d+\)",
]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, pattern: str) -> None:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and " — " in lines[0]
    assert re.search(pattern, lines[0]), lines[0]


def assert_ends_with_accuracy_lines(text: str, rows: int) -> list[str]:
    last = text.rstrip("\n").splitlines()[-3:]
    for line, pattern in zip(last, LAST_THREE, strict=True):
        assert re.fullmatch(pattern, line), line
    assert last[0].endswith(f"/{rows})")
    return last


@pytest.fixture
def sample_csv(commitlist_csv: Path, tmp_path: Path) -> Path:
    """Every third row of the real worksheet (741 rows), CRLF and headerless like the original."""
    lines = commitlist_csv.read_bytes().split(b"\r\n")
    path = tmp_path / "sample.csv"
    path.write_bytes(
        b"\r\n".join(line for i, line in enumerate(lines) if line and i % 3 == 0) + b"\r\n"
    )
    return path


def test_eval_rules_alone_on_the_whole_worksheet(commitlist_csv: Path) -> None:
    result = run("classify", "eval", "--labels", str(commitlist_csv))
    assert result.exit_code == 0, result.stderr
    assert "method: rules alone (profile pytorch)" in result.stdout
    assert "main confusions" in result.stdout
    last = assert_ends_with_accuracy_lines(result.stdout, 2222)
    assert last[1].endswith("/1885)")  # rows whose category is not skip
    assert last[2].endswith("/100)")  # rows whose topic is not Untopiced


def test_train_then_eval_with_the_model(
    sample_csv: Path, commitlist_csv: Path, tmp_path: Path
) -> None:
    model = tmp_path / "pytorch.prdm"
    trained = run("classify", "train", "--labels", str(sample_csv), "--out", str(model))
    assert trained.exit_code == 0, trained.stderr
    assert model.is_file() and "trained on 741 rows" in trained.stderr
    with_model = run("classify", "eval", "--labels", str(commitlist_csv), "--model", str(model))
    rules = run("classify", "eval", "--labels", str(commitlist_csv))
    assert with_model.exit_code == 0, with_model.stderr
    model_acc = float(assert_ends_with_accuracy_lines(with_model.stdout, 2222)[0].split()[2])
    rules_acc = float(assert_ends_with_accuracy_lines(rules.stdout, 2222)[0].split()[2])
    assert model_acc > rules_acc


def test_cross_validation_mode(sample_csv: Path) -> None:
    result = run("classify", "eval", "--labels", str(sample_csv), "--folds", "3")
    assert result.exit_code == 0, result.stderr
    assert "3-fold cross-validation" in result.stdout
    assert re.search(r"fold category accuracy: mean \d\.\d{3} ± \d\.\d{3} \(", result.stdout)
    assert_ends_with_accuracy_lines(result.stdout, 741)


def test_wrong_column_count_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(
        b"a1,jit,Untopiced,Fix a (#1)\r\na2,jit,Untopiced,Fix b (#2)\r\na3,jit,Untopiced\r\n"
    )
    for command in (["eval"], ["train", "--out", str(tmp_path / "m.prdm")]):
        result = run("classify", *command, "--labels", str(bad))
        assert_one_line_error(result, r"bad\.csv:3: 3 columns, expected 4")


def test_unknown_profile_is_one_line(sample_csv: Path) -> None:
    result = run("classify", "eval", "--labels", str(sample_csv), "--profile", "nosuch")
    assert_one_line_error(result, r"unknown profile 'nosuch'.*pytorch")


def test_model_from_another_version_and_corrupt_model(sample_csv: Path, tmp_path: Path) -> None:
    model = tmp_path / "m.prdm"
    assert run("classify", "train", "--labels", str(sample_csv), "--out", str(model)).exit_code == 0
    header, _, payload = model.read_bytes().partition(b"\n")
    future = tmp_path / "future.prdm"
    future.write_bytes(json.dumps({**json.loads(header), "version": 99}).encode() + b"\n" + payload)
    result = run("classify", "eval", "--labels", str(sample_csv), "--model", str(future))
    assert_one_line_error(result, r"format version 99; this prdigest reads version 1")

    corrupt = tmp_path / "corrupt.prdm"
    corrupt.write_bytes(header + b"\n" + payload[: len(payload) // 2])
    result = run("classify", "eval", "--labels", str(sample_csv), "--model", str(corrupt))
    assert_one_line_error(result, r"corrupt")

    missing = run(
        "classify", "eval", "--labels", str(sample_csv), "--model", str(tmp_path / "none.prdm")
    )
    assert_one_line_error(missing, r"not found")


def test_model_and_folds_together_is_a_usage_error(sample_csv: Path, tmp_path: Path) -> None:
    result = run("classify", "eval", "--labels", str(sample_csv), "--model", "x", "--folds", "3")
    assert result.exit_code == 2


def _store_some_executorch_prs(executorch_jsonl: Path, db: Path, count: int = 300) -> list[dict]:
    records = []
    with gzip.open(executorch_jsonl, "rt", encoding="utf-8") as handle:
        for line in handle:
            raw = json.loads(line)
            if raw.get("number"):
                records.append(raw)
            if len(records) == count:
                break
    store = open_store(str(db))
    prs = [
        parse_record(raw, "pytorch/executorch", "jsonl", f"record {i}")
        for i, raw in enumerate(records)
    ]
    store.upsert_pull_requests("pytorch/executorch", prs)
    store.close()
    return records


def test_explain_shows_area_kind_and_evidence(executorch_jsonl: Path, tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    records = _store_some_executorch_prs(executorch_jsonl, db)
    tagged = next(r for r in records if r["title"].startswith("[ET-VK]"))
    result = run(
        "--db", str(db), "classify", "explain", "pytorch/executorch", str(tagged["number"])
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert f"pytorch/executorch#{tagged['number']}  {tagged['title']}" in out
    assert re.search(
        r"^area: Backends: Vulkan  \(decided by executorch/area/Backends: Vulkan/title_tag",
        out,
        re.M,
    )
    assert re.search(r"^kind: \w+  \(decided by ", out, re.M)
    assert re.search(r"^area: .*\n  won: a title tag\n", out, re.M)
    assert "rules: " not in out
    assert "files: backends/vulkan/" in out


def test_explain_a_pr_not_in_the_store(executorch_jsonl: Path, tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    _store_some_executorch_prs(executorch_jsonl, db, count=5)
    result = run("--db", str(db), "classify", "explain", "pytorch/executorch", "999999999")
    assert_one_line_error(result, r"pytorch/executorch#999999999 is not in the store")


def test_explain_with_a_model_shows_who_decided(
    executorch_jsonl: Path, sample_csv: Path, tmp_path: Path
) -> None:
    db = tmp_path / "store.db"
    records = _store_some_executorch_prs(executorch_jsonl, db)
    model = tmp_path / "pt.prdm"
    assert run("classify", "train", "--labels", str(sample_csv), "--out", str(model)).exit_code == 0
    untagged = next(r for r in records if not r["title"].startswith("["))
    result = run(
        "--db", str(db), "classify", "explain", "pytorch/executorch", str(untagged["number"]),
        "--profile", "pytorch", "--model", str(model),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "profile: pytorch + model pt" in result.stdout
    assert re.search(
        r"^model: area .+ \(0\.\d\d\), best area besides skip .+ \(0\.\d\d\)", result.stdout, re.M
    )
    # the rules have no strong evidence for an ExecuTorch path under the pytorch profile
    assert re.search(r"^area: .+  \(decided by model:pt, confidence 0\.\d\d\)", result.stdout, re.M)


def test_explain_says_which_rule_won_and_why_the_others_lost(
    ao_jsonl: Path, tmp_path: Path
) -> None:
    """The generic profile derives areas from the week's PRs: explain uses the same engine
    as the digest did, so it never says one area won and another "from paths" (issue 15)."""
    renamed = tmp_path / "ao.jsonl"
    with gzip.open(ao_jsonl, "rt", encoding="utf-8") as lines:
        renamed.write_text(lines.read().replace('"pytorch/ao"', '"acme/ao"'), encoding="utf-8")
    db = str(tmp_path / "store.db")
    assert run("--db", db, "sync", "acme/ao", "--jsonl", str(renamed)).exit_code == 0
    assert run("--db", db, "digest", "acme/ao", "--week", "2026-W32").exit_code == 0
    result = run("--db", db, "classify", "explain", "acme/ao", "4697")  # Remove `torchao/swizzle`
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "profile: generic" in out and "rules: " not in out
    # no area is the package root `torchao/`: its subdirectory `swizzle/` and its
    # top-level files (`ops.py`, `__init__.py`: the package's Core) are areas of their own
    assert re.search(
        r"^area: C\+\+/CUDA sources  \(decided by generic/area/C\+\+/CUDA sources/paths,"
        r" confidence 0\.73\)",
        out,
        re.M,
    )
    assert "\n  won: the changed paths, 73% of the change\n" in out
    assert "  lost: Swizzle (the changed paths): owns less of the change (22% against 73%)" in out
    assert "  lost: Core (the changed paths): owns less of the change (6% against 73%)" in out
    assert (
        "  lost: Build/CI (the changed paths): a fallback area (tests, docs, CI, build): its"
        " files decide only when the PR changes nothing else" in out
    )
    store = open_store(db)
    [pr] = store.pull_requests_by_number("acme/ao", 4697)
    stored = store.classification_of("acme/ao", pr.sha, "generic")
    assert stored is not None and stored.area == "C++/CUDA sources", "what the digest decided"
