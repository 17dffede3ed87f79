#!/usr/bin/env bash
# Install prdigest with its test tools (and Debian's chromium for the browser
# tests), then run lint, types and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests…" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'

echo "== ruff" >&2
python3 -m ruff check src tests benchmarks
python3 -m ruff format --check src tests benchmarks
echo "== mypy" >&2
python3 -m mypy
echo "== pytest" >&2
python3 -m pytest -q "$@"
