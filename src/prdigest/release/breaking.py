"""Backwards Incompatible changes in PyTorch's form: a paragraph per change saying what
was removed or renamed (the public names, from the diff) and how to migrate, in the PR's
own words, with its before/after code where its body gives some. Nothing is invented:
where the PR states no migration, the entry says what went and the worksheet asks a human
for the migration (`MIGRATION_NOTE`).

Worked out from the PRs at render time, so a drafted and an applied worksheet read alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..analyze.announcements import BREAKING, Announcement, WindowNames, announce
from ..kinds import BC_BREAKING
from ..models import PullRequest
from .judgment import deleted_library
from .release_context import BreakingDetails, CodeBlock, Renamed

MIGRATION_NOTE = "breaking: the PR states no migration; write one before publishing"
SHOWN = 6  # names a paragraph lists before "and N more"
_FENCE = re.compile(r"```[\w+-]*\n(?P<code>.*?)\n```", re.S)
_BEFORE = re.compile(r"(?i)\b(?:before|old|previously|used to)\b")
_AFTER = re.compile(r"(?i)\b(?:after|new|now|instead|migrat\w*|replace\w*)\b")
_MAX_BLOCK_LINES = 12


def window_of(prs: Sequence[PullRequest]) -> WindowNames:
    return WindowNames(list(prs))


def details(members: Sequence[PullRequest], window: WindowNames) -> BreakingDetails:
    """What the entry's paragraph says: `removed`, `renamed` (old, new), `hint`, `code`
    ((label, text) blocks from a body) — each empty when nothing states it."""
    removed: list[str] = []
    renamed: list[tuple[str, str]] = []
    hint = ""
    code: list[tuple[str, str]] = []
    deleted: list[str] = []
    why = ""
    for pr in members:
        said = _said(pr, window)
        if said is None:
            deleted += [p for p in deleted_library(pr) if p not in deleted]
            continue
        why = why or said.why
        removed += [n for n in said.removed if n not in removed]
        renamed += [pair for pair in said.renamed if pair not in renamed]
        hint = hint or said.hint
        code = code or before_after(pr.body)
    return BreakingDetails(
        removed=tuple(f"`{n}`" for n in removed[:SHOWN]),
        removed_more=max(0, len(removed) - SHOWN),
        renamed=tuple(Renamed(old, new) for old, new in renamed[:SHOWN]),
        hint=hint,
        code=tuple(CodeBlock(lab, text) for lab, text in code),
        deleted=tuple(f"`{p}`" for p in deleted[:SHOWN]) if not removed and not renamed else (),
        deleted_more=max(0, len(deleted) - SHOWN) if not removed and not renamed else 0,
        why=why if not (removed or renamed) else "",
    )


def _said(pr: PullRequest, window: WindowNames) -> Announcement | None:
    if pr.number is None:
        return None
    found = announce(pr, BC_BREAKING, False, window)
    return found if found is not None and found.kind == BREAKING else None


def states_migration(members: Sequence[PullRequest], window: WindowNames) -> bool:
    facts = details(members, window)
    return bool(facts.hint or facts.renamed or facts.code)


def before_after(body: str) -> list[tuple[str, str]]:
    """The body's "before" and "after" code blocks: two fenced blocks where the text
    before the first speaks of the old way and the text before the second of the new."""
    blocks = list(_FENCE.finditer(body or ""))
    if len(blocks) < 2:
        return []
    first, second = blocks[0], blocks[1]
    lead_in = body[max(0, first.start() - 200) : first.start()]
    between = body[first.end() : second.start()]
    if not (_BEFORE.search(lead_in) and _AFTER.search(between)):
        return []
    out = []
    for label, block in (("Before", first), ("After", second)):
        lines = block.group("code").strip("\n").splitlines()
        if not lines or len(lines) > _MAX_BLOCK_LINES:
            return []
        out.append((label, "\n".join(lines)))
    return out
