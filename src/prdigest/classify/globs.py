"""Path globs compiled once into one regex per rule.

Semantics (documented in docs/classification.md):
- a glob matches the whole repository-relative path, `/`-separated;
- `*` matches within one path component, `?` one character of it;
- `**` matches any number of components (`dir/**` = everything below `dir`,
  `**/x.py` = `x.py` at any depth, `**hip**` = any path containing `hip`);
- `[abc]` is a character class;
- a glob without any wildcard also matches everything below it when it names a
  directory (`third_party/ideep` matches `third_party/ideep/x.c`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def glob_to_regex(glob: str) -> str:
    """Translate one glob to a regex source string (anchored by the caller)."""
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        char = glob[i]
        if char == "*":
            if glob.startswith("**", i):
                i += 2
                if glob.startswith("/", i):  # `**/` : zero or more whole components
                    out.append("(?:.*/)?")
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = glob[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    source = "".join(out)
    if not any(c in glob for c in "*?["):
        source += "(?:/.*)?"  # a plain directory name covers what is below it
    return source


def compile_globs(globs: Iterable[str]) -> re.Pattern[str] | None:
    """One alternation for all globs of a rule; None when there are none."""
    parts = [glob_to_regex(glob.strip().lstrip("/")) for glob in globs if glob.strip()]
    if not parts:
        return None
    return re.compile("(?:" + "|".join(parts) + r")\Z")
