"""Small helpers shared by tests (not fixtures)."""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from prdigest.cli import main


def run_cli(*args: str, db: Path | None = None) -> Result:
    argv = (["--db", str(db)] if db else []) + list(args)
    return CliRunner().invoke(main, argv, catch_exceptions=False)


def one_error_line(result: Result) -> str:
    """The one `Error: what — what to do` line a failed command printed on stderr."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and " — " in lines[0]
    return lines[0]


def cli_subprocess(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "prdigest", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def table_rows(db: Path | str, *tables: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tables, for comparing two databases (SQLite path or PostgreSQL URL):
    surrogate ids are replaced by what they stand for (the repository name, the PR's sha)."""
    is_pg = str(db).startswith("postgresql://")
    if is_pg:
        import psycopg

        conn: Any = psycopg.connect(str(db), autocommit=True)
    else:
        conn = sqlite3.connect(db)
    out = {}
    for table in tables:
        cols = _columns(conn, table, is_pg)
        joins, keys = "", []
        if "pr_id" in cols:
            joins += " JOIN pull_requests p ON p.id = t.pr_id"
            keys.append("p.sha")
        if "repo_id" in cols:
            joins += " JOIN repositories r ON r.id = t.repo_id"
            keys.append("r.name")
        plain = [f"t.{c}" for c in cols if c not in ("id", "pr_id", "repo_id")]
        rows = conn.execute(f"SELECT {', '.join(keys + plain)} FROM {table} t{joins}").fetchall()
        out[table] = sorted((tuple(row) for row in rows), key=repr)
    conn.close()
    return out


def _columns(conn: Any, table: str, is_pg: bool) -> list[str]:
    if is_pg:
        rows = conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s"
            " ORDER BY ordinal_position",
            (table,),
        ).fetchall()
        return [r[0] for r in rows]
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


AMBIGUOUS_REVERT = 99396  # the number of the revert `ambiguous_revert_records` adds


def ambiguous_revert_records(executorch_jsonl: Path, folder: Path, landed: str) -> Path:
    """executorch's records of 2025-02-15..2025-03-31 and one revert more, landed at
    `landed`, whose only evidence is `This reverts commit 1a9a59b`: a prefix of both
    #8892 (2025-03-04) and #9396 (2025-03-20), the one 7-character prefix two of
    executorch's commits share."""
    with gzip.open(executorch_jsonl, "rt", encoding="utf-8") as handle:
        kept = [
            line
            for line in handle
            if '"committed_at": "2025-03-' in line or '"committed_at": "2025-02-' in line
        ]
    by_number = {json.loads(line)["number"]: json.loads(line) for line in kept}
    assert by_number[8892]["sha"][:7] == by_number[9396]["sha"][:7] == "1a9a59b"
    revert = {
        **by_number[9396],
        "number": AMBIGUOUS_REVERT,
        "sha": "7e57" * 10,
        "parents": [],
        "title": "Revert 1a9a59b",
        "body": "This reverts commit 1a9a59b. It broke the nightly build.",
        "committed_at": landed,
        "authored_at": landed,
        "files": [{"path": "third-party/ao", "additions": 1, "deletions": 1}],
        "trailers": {},
    }
    target = folder / "records.jsonl"
    target.write_text("".join(kept) + json.dumps(revert) + "\n")
    return target


def pr_record(
    repo: str,
    number: int,
    title: str,
    files: list[tuple[str, int, int]],
    *,
    when: str,
    author: str = "Ada",
    email: str = "",
    body: str = "",
    committer: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """One landed PR as `sync --jsonl` reads it; `files`: (path, additions, deletions)."""
    email = email or f"{author.lower()}@example.com"
    committer_name, committer_email = committer or (author, email)
    return {
        "repo": repo,
        "number": number,
        "number_source": "title",
        "sha": f"{number:040x}",
        "parents": [],
        "title": title,
        "body": body,
        "author_name": author,
        "author_email": email,
        "committer_name": committer_name,
        "committer_email": committer_email,
        "committed_at": when,
        "authored_at": when,
        "files": [{"path": p, "additions": a, "deletions": d} for p, a, d in files],
        "trailers": {},
    }
