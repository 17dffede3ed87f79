"""Shared fixtures. Real data is read from ../shared/data at run time, never copied."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_DATA = Path(
    os.environ.get("PRDIGEST_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"real data not available: {path} is absent (set PRDIGEST_SHARED_DATA)")
    return path


@pytest.fixture(autouse=True)
def _hermetic(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No user config, no real tokens, no stray database."""
    for name in (
        "GITHUB_TOKEN",
        "GH_TOKEN",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "PRDIGEST_CONFIG",
        "PRDIGEST_LLM_MODEL",
        "GITHUB_API_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PRDIGEST_DB", str(tmp_path / "default.db"))


@pytest.fixture
def shared_data() -> Path:
    return _need(SHARED_DATA)


@pytest.fixture
def executorch_jsonl() -> Path:
    return _need(SHARED_DATA / "pytorch__executorch" / "prs.jsonl.gz")


@pytest.fixture
def ao_jsonl() -> Path:
    return _need(SHARED_DATA / "pytorch__ao" / "prs.jsonl.gz")


@pytest.fixture
def commitlist_csv() -> Path:
    return _need(SHARED_DATA / "pytorch_release_notes" / "commitlist-v1.11-dev.csv")
