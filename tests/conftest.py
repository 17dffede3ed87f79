"""Shared fixtures. Real data is read from ../shared/data at run time (never copied into
the repository); where that folder is absent (a fresh clone), the tests that read it skip,
saying why."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# the LLM tests' fixtures (a synced template store, a copy of it per test, a week's context)
pytest_plugins = ["llm_helpers"]

SHARED_DATA = Path(
    os.environ.get("PRDIGEST_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
ET_RECORDS = "pytorch__executorch/prs.jsonl.gz"
AO_RECORDS = "pytorch__ao/prs.jsonl.gz"
WORKSHEET_NAME = "pytorch_release_notes/commitlist-v1.11-dev.csv"


def real_data(name: str) -> Path:
    """A file of the real data (`pytorch__ao/prs.jsonl.gz`) in the shared data, or a skip."""
    return _need(SHARED_DATA / name)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "whole_history(why): reads the whole history of the real data (every week, a"
        " quarter's notes, diffs); skips, saying why, without the shared data",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("whole_history")
    if marker is not None and not SHARED_DATA.is_dir():
        pytest.skip(
            f"needs the whole history ({marker.args[0]}): {SHARED_DATA} is absent (set"
            " PRDIGEST_SHARED_DATA)"
        )


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"real data not available: {path} is absent (set PRDIGEST_SHARED_DATA)")
    return path


@pytest.fixture(autouse=True)
def _hermetic(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No user config (not even a ./prdigest.toml), no real tokens, no stray database."""
    monkeypatch.chdir(tmp_path)
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
    return real_data(ET_RECORDS)


@pytest.fixture
def ao_jsonl() -> Path:
    return real_data(AO_RECORDS)


@pytest.fixture(scope="session")
def worksheet_csv() -> Path:
    """PyTorch's 1.11 worksheet as `classify` reads it (CRLF CSV)."""
    return real_data(WORKSHEET_NAME)


@pytest.fixture
def commitlist_csv(worksheet_csv: Path) -> Path:
    return worksheet_csv


@pytest.fixture(scope="session")
def worksheet_rows(worksheet_csv: Path) -> list:
    """PyTorch's 1.11 worksheet, read once for the whole run."""
    from prdigest.classify.training_labels import read_worksheet

    return read_worksheet(worksheet_csv)


# -- PostgreSQL: the store's tests run against both backends --------------------

PG_ADMIN_URL = os.environ.get("PRDIGEST_TEST_PG", "postgresql:///postgres")


def _postgres_or_skip() -> str:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=3):
            return PG_ADMIN_URL
    except Exception as exc:  # any failure means: no server to test against
        reason = f"PostgreSQL not reachable at {PG_ADMIN_URL}: {str(exc).strip()[:120]}"
        if os.environ.get("PRDIGEST_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database; dropped afterwards."""
    import uuid

    import psycopg

    admin = _postgres_or_skip()
    name = f"prdigest_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = admin.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store URL for each backend: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return str(request.getfixturevalue("postgres_url"))
