#!/usr/bin/env bash
# Install prdigest, sync a git clone and write the digest of its last 7 days, on embedded
# defaults (SQLite store, deterministic writer, no network). A clone whose newest commit is
# older than that gets the digest of the last 7 days that have commits, and is told so; a
# window of direct pushes only (no PR) is digested and stored like any other. Then it says
# where the digest is stored and which commands to try next, each one runnable as printed
# (tests/test_quickstart.py runs them). Usage:
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
# The store, the window, the newest landing and another week worth a digest, read from the
# store (one line: DB, FIRST DAY, LAST DAY, NEWEST DAY, MOVED, EARLIER WEEK or -).
IFS=$'\t' read -r db since_day until_day newest moved earlier \
  < <(python3 -m prdigest.cli.quickstart "$repo")
if [ "$moved" = 1 ]; then
  say "Nothing of $repo landed in the last 7 days: its newest commit is from $newest."
  say "Writing the digest of the last 7 days that have commits instead, $since_day..$until_day."
fi
prdigest digest "$repo" --since "$since_day" --until "$until_day" --writer deterministic

id="$(prdigest reports list "$repo" 2>/dev/null | awk -v w="$since_day..$until_day" \
  '$3 == "digest" && $4 == w && $5 == "deterministic" { print $1; exit }')"

# The commands to try next, as this shell can run them: `prdigest` when it is the one just
# installed (a user install may leave it off PATH), else through python3.
cli="python3 -m prdigest"
found="$(type -P prdigest || true)"  # the one on PATH, not the function above
if [ -n "$found" ]; then
  interpreter="$(head -n 1 "$found" | sed -n 's/^#![[:space:]]*//p' | awk '{ print $1 }')"
  prefix() { "$1" -c 'import sys; print(sys.prefix)' 2>/dev/null || true; }
  if [ -n "$interpreter" ] && [ "$(prefix "$interpreter")" = "$(prefix python3)" ]; then
    cli="prdigest"
  fi
fi
say ""
if [ -n "$id" ]; then
  say "Stored as report $id in $db"
  say "(the database every prdigest command uses; --db or PRDIGEST_DB for another)."
else
  say "Not stored in $db: the line above says why."
fi
say "Next:"
next() { printf '  %-58s # %s\n' "$cli $1" "$2" >&2; }
[ -z "$id" ] || next "reports show $id" "this digest again"
if [ "$earlier" != "-" ]; then
  next "digest $repo --week $earlier" "an earlier week with commits (ISO), from the store"
fi
next "reports list" "every stored digest and release note"
next "site build --out public" "the DevLog site of what is stored"
next "site serve --out public" "preview it on http://127.0.0.1:8000/"
[ -z "$id" ] || next "reports delete $id" "remove this digest"
if [ -n "$try_out" ]; then
  say "$repo is the quickstart's name for a clone with no GitHub origin: site build"
  say "leaves quickstart/… out. To publish, run the quickstart again with OWNER/NAME."
fi
