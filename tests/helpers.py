"""Small helpers shared by tests (not fixtures)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from prdigest.cli import main


def run_cli(*args: str, db: Path | None = None) -> Result:
    argv = (["--db", str(db)] if db else []) + list(args)
    return CliRunner().invoke(main, argv, catch_exceptions=False)


def cli_subprocess(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "prdigest", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def table_rows(db: Path, *tables: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tables, ids left out, for comparing two databases."""
    conn = sqlite3.connect(db)
    out = {}
    for table in tables:
        cols = [
            r[1]
            for r in conn.execute(f"PRAGMA table_info({table})")
            if r[1] not in ("id", "pr_id", "repo_id")
        ]
        out[table] = sorted(
            conn.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall(), key=repr
        )
    conn.close()
    return out
