"""scripts/quickstart.sh's helper, not a `prdigest` command: what it digests first and
suggests next, read from the store it synced into, as one tab-separated line.

    python3 -m prdigest.cli.quickstart OWNER/NAME

prints the store (as `status` names it), the window's first and last day, the newest
landing's day, 1 when nothing landed in the last 7 days (else 0), and the ISO week of the
newest landing before the window (`-` when none). The store is found as every command
finds it (PRDIGEST_DB, else the default); today is `timeutil.now()` (PRDIGEST_NOW pins it).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from ..errors import PrdigestError
from ..pipeline.first_digest import first_digest
from ..store.location import describe
from ..timeutil import now
from .common import AppContext


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        click.echo(
            "Error: give one repository — python3 -m prdigest.cli.quickstart OWNER/NAME", err=True
        )
        sys.exit(2)
    app = AppContext(db=os.environ.get("PRDIGEST_DB") or None, config_path=None)
    try:
        plan = first_digest(app.existing_store, args[0], now().date())
    except PrdigestError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(exc.exit_code)
    fields = [
        describe(app.db),
        plan.window.first_day.isoformat(),
        plan.window.last_day.isoformat(),
        plan.newest.date().isoformat(),
        "1" if plan.moved else "0",
        plan.earlier_week or "-",
    ]
    click.echo("\t".join(fields))


if __name__ == "__main__":
    main()
