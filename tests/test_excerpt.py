"""tests/data/excerpt: the real records a clone without ../shared/data tests with (issue
30). Small, read by the same code as the shared files, and what its script makes."""

from __future__ import annotations

import gzip
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import EXCERPT, SHARED_DATA
from prdigest.classify.training_labels import read_worksheet
from prdigest.sources.jsonl import read_jsonl
from prdigest.sources.records import parse_record

RECORDS = {"pytorch/executorch": "pytorch__executorch", "pytorch/ao": "pytorch__ao"}


def _make_excerpt() -> ModuleType:
    path = EXCERPT / "tools" / "make_excerpt.py"
    spec = importlib.util.spec_from_file_location("make_excerpt", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_excerpt_is_small_and_reads_as_the_shared_data_does(tmp_path: Path) -> None:
    files = [p for p in EXCERPT.rglob("*.gz")]
    assert sum(p.stat().st_size for p in files) < 500_000
    for repo, folder in RECORDS.items():
        path = EXCERPT / folder / "prs.jsonl.gz"
        prs = [parse_record(raw, repo, "jsonl", f"{path}:{n}") for n, raw in read_jsonl(path)]
        assert len(prs) > 300 and all(pr.repo == repo for pr in prs)
        landed = [pr.merged_at for pr in prs]
        assert landed == sorted(landed), "oldest first, as the shared files"
    sheet = tmp_path / "commitlist.csv"
    sheet.write_bytes(
        gzip.decompress(
            (EXCERPT / "pytorch_release_notes" / "commitlist-v1.11-dev.csv.gz").read_bytes()
        )
    )
    assert len(read_worksheet(sheet)) == 2222


@pytest.mark.whole_history("the shared data it is cut from")
def test_make_excerpt_writes_the_committed_excerpt(tmp_path: Path) -> None:
    make = _make_excerpt()
    for name, pick in make.SELECTION.items():
        written = tmp_path / name
        make.write_gzip(written, make.excerpt(SHARED_DATA / name, pick))
        assert written.read_bytes() == (EXCERPT / name).read_bytes(), name
    sheet = tmp_path / "sheet.gz"
    make.write_gzip(sheet, [(SHARED_DATA / make.WORKSHEET).read_bytes().decode("utf-8")])
    assert sheet.read_bytes() == (EXCERPT / (make.WORKSHEET + ".gz")).read_bytes()
