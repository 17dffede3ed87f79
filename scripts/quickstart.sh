#!/usr/bin/env bash
# Install prdigest and write a digest of a git clone's last 7 days, on embedded
# defaults (SQLite store, deterministic writer). Usage:
#   ./scripts/quickstart.sh [CLONE] [OWNER/NAME]
# CLONE defaults to this repository; OWNER/NAME to the clone's GitHub origin.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
clone="$(cd "${1:-$here}" && pwd)"
python3 -m pip install --quiet --disable-pip-version-check -e "$here"
# An editable install is not byte-compiled: compile it once, so that no command pays
# for it (where PYTHONDONTWRITEBYTECODE is set, every command would).
python3 -m compileall -q "$here/src" >/dev/null

repo="${2:-}"
if [ -z "$repo" ]; then
  origin="$(git -C "$clone" remote get-url origin 2>/dev/null || true)"
  repo="$(printf '%s' "$origin" | sed -nE 's#^.*github\.com[:/]+([^/]+/[^/]+?)(\.git)?/?$#\1#p')"
  repo="${repo:-local/$(basename "$clone")}"
fi
until_day="$(date -u +%F)"
since_day="$(date -u -d '6 days ago' +%F)"
prdigest digest "$repo" --git "$clone" --since "$since_day" --until "$until_day"
