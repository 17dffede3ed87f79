"""The command line: parse options, call one pipeline function, print.

`main` (app.py) is the `prdigest` entry point; each command lives in its own module
(sync.py, digest.py, release_notes.py, classify.py, site.py, post.py, teams.py),
imported only when that command runs.
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
