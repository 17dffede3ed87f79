"""Small helpers shared by tests (not fixtures)."""

from __future__ import annotations

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
