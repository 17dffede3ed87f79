"""A clone's `.mailmap`, resolved by git itself (`git check-mailmap`): which author
identities it maps to another name or address.

Read from the working tree's `.mailmap` and from the synced commit's (`mailmap.blob`), so
a bare clone or one checked out elsewhere still counts; nothing is asked of git when the
clone has neither.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .git import _git

_CONTACT = re.compile(r"^(.*?)\s*<([^<>]*)>$")
_CHUNK = 200  # contacts a git call: far below any command-line limit


def mailmap(
    path: Path, head: str, identities: Iterable[tuple[str, str]]
) -> dict[tuple[str, str], tuple[str, str]]:
    """{(name, e-mail) as recorded: (name, e-mail) as .mailmap says} for the identities
    git maps to something else."""
    config = ["-c", f"mailmap.blob={head}:.mailmap"]
    if (
        not (path / ".mailmap").is_file()
        and _git(path, "cat-file", "-e", f"{head}:.mailmap", check=False).returncode
    ):
        return {}
    # git cannot take a contact with angle brackets or a line break in it
    asked = sorted({(n, e) for n, e in identities if e and not re.search(r"[<>\n\0]", n + e)})
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for i in range(0, len(asked), _CHUNK):
        chunk = asked[i : i + _CHUNK]
        contacts = [f"{name} <{email}>" if name else f"<{email}>" for name, email in chunk]
        lines = _git(path, *config, "check-mailmap", "--", *contacts).stdout.splitlines()
        for (name, email), line in zip(chunk, lines, strict=False):
            match = _CONTACT.match(line.strip())
            if match and (match.group(1), match.group(2)) != (name, email):
                found[(name, email)] = (match.group(1), match.group(2))
    return found
