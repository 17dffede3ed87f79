#!/usr/bin/env bash
# Install prdigest, sync a git clone and write the digest of its last 7 days, on embedded
# defaults (SQLite store, deterministic writer, no network). A clone whose newest PR is
# older than that gets the digest of the last 7 days that have PRs, and is told so. Then
# it says where the digest is stored and which commands to try next. Usage:
#   ./scripts/quickstart.sh [CLONE] [OWNER/NAME]
# CLONE defaults to this repository; OWNER/NAME to the clone's GitHub origin, else
# quickstart/<folder name>: a try-out name that `site build` does not publish.
# PRDIGEST_QUICKSTART_NO_INSTALL=1 skips the install (prdigest is already installed).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
clone="$(cd "${1:-$here}" && pwd)"
if [ -z "${PRDIGEST_QUICKSTART_NO_INSTALL:-}" ]; then
  python3 -m pip install --quiet --disable-pip-version-check -e "$here"
  # An editable install is not byte-compiled: compile it once, so that no command pays
  # for it (where PYTHONDONTWRITEBYTECODE is set, every command would).
  python3 -m compileall -q "$here/src" >/dev/null
fi
prdigest() { python3 -m prdigest "$@"; }  # the prdigest this python3 just installed
say() { printf '%s\n' "$*" >&2; }

repo="${2:-}"
try_out=""
if [ -z "$repo" ]; then
  origin="$(git -C "$clone" remote get-url origin 2>/dev/null || true)"
  repo="$(printf '%s' "$origin" | sed -nE 's#^.*github\.com[:/]+([^/]+/[^/]+)/?$#\1#p')"
  repo="${repo%.git}"
  if [ -z "$repo" ]; then
    repo="quickstart/$(basename "$clone" | tr -c 'A-Za-z0-9._\n-' '-')"
    try_out=1
  fi
fi

prdigest sync "$repo" --git "$clone"
# Where the store is and the newest landed day, from `status` (one line: "DB<tab>DAY").
IFS=$'\t' read -r db newest < <(prdigest status --format json | python3 -c '
import json, sys
data = json.load(sys.stdin)
row = next((r for r in data["repositories"] if r["name"] == sys.argv[1]), {})
print(data["database"], (row.get("last_merged") or "-")[:10], sep="\t")
' "$repo")
if [ "$newest" = "-" ]; then
  say "Error: $clone has no commits on its default branch — give a clone with history"
  exit 1
fi

today="$(date -u +%F)"
until_day="$today"
since_day="$(date -u -d "$today -6 days" +%F)"
if [[ "$newest" < "$since_day" ]]; then
  until_day="$newest"
  since_day="$(date -u -d "$newest -6 days" +%F)"
  say "Nothing of $repo landed in the last 7 days: its newest PR is from $newest."
  say "Writing the digest of the last 7 days that have PRs instead, $since_day..$until_day."
fi
prdigest digest "$repo" --since "$since_day" --until "$until_day"

id="$(prdigest reports list "$repo" | awk -v w="$since_day..$until_day" \
  '$3 == "digest" && $4 == w && $5 == "deterministic" { print $1; exit }')"
earlier="$(date -u -d "$until_day -7 days" +%G-W%V)"
say ""
say "Stored as report $id in $db"
say "(the database every prdigest command uses; --db or PRDIGEST_DB for another)."
say "Next:"
next() { printf '  %-58s # %s\n' "$1" "$2" >&2; }
next "prdigest reports show $id" "this digest again"
next "prdigest digest $repo --week $earlier" "another week (ISO), from the store"
next "prdigest reports list" "every stored digest and release note"
next "prdigest site build --out public" "the DevLog site of what is stored"
next "prdigest site serve --out public" "preview it on http://127.0.0.1:8000/"
next "prdigest reports delete $id" "remove this digest"
if [ -n "$try_out" ]; then
  say "$repo is the quickstart's name for a clone with no GitHub origin: site build"
  say "leaves quickstart/… out. To publish, run the quickstart again with OWNER/NAME."
fi
