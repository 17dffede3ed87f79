"""Backwards Incompatible changes in PyTorch's form, from each PR's brief: what was
removed or renamed (its `surface`: the public names users import, configure or call,
read from the diff), how to migrate in the PR's own words (`migration`), and a
before/after block where the body gives one, or where the diff renames names (the old
names before, the new ones after). A break that removes no name (a changed default, a
raised minimum version) says what the PR announced. Nothing is invented: where the PR
states no migration, the worksheet asks a human for one (`MIGRATION_NOTE`).

Worked out from the PRs and their briefs at render time, so a drafted and an applied
worksheet read alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..analyze.announcements import WindowNames, deleted_library
from ..analyze.brief_types import Brief
from ..analyze.pr_reading import MAX_SURFACE
from ..models import PullRequest
from .release_context import BreakingDetails, CodeBlock, Renamed

MIGRATION_NOTE = "breaking: the PR states no migration; write one before publishing"
SHOWN = 6  # names a paragraph lists before "and more"
_FENCE = re.compile(r"```[\w+-]*\n(?P<code>.*?)\n```", re.S)
_BEFORE = re.compile(r"(?i)\b(?:before|old|previously|used to)\b")
_AFTER = re.compile(r"(?i)\b(?:after|new|now|instead|migrat\w*|replace\w*)\b")
_MAX_BLOCK_LINES = 12


MASS_DELETION = 20  # files: past this, the files a change deletes from are not listed


def window_of(prs: Sequence[PullRequest]) -> WindowNames:
    return WindowNames(list(prs))


def details(members: Sequence[PullRequest], briefs: Sequence[Brief]) -> BreakingDetails:
    """What the entry's paragraph says: `removed`, `renamed` (old, new), `hint`, `code`
    ((label, text) blocks) and `why` — each empty when nothing states it."""
    removed: list[str] = []
    renamed: list[tuple[str, str]] = []
    hint = ""
    code: list[tuple[str, str]] = []
    why = ""
    more = False
    for brief in briefs:
        surface = brief.surface
        removed += [n for n in surface.removed if n not in removed]
        renamed += [pair for pair in surface.renamed if pair not in renamed]
        more = more or len(surface.removed) >= MAX_SURFACE
        hint = hint or brief.migration
        why = why or _told(brief.kind_evidence.why)
    deleted: list[str] = []
    for pr in members:
        code = code or before_after(pr.body)
        deleted += [p for p in deleted_library(pr) if p not in deleted]
    if not code and renamed:
        code = _renamed_block(renamed[:SHOWN])
    if len(deleted) > MASS_DELETION:
        deleted = []  # a rewrite's hundreds of files name nothing a user looks for
    extra = max(0, len(removed) - SHOWN)
    return BreakingDetails(
        removed=tuple(f"`{n}`" for n in removed[:SHOWN]),
        removed_more=extra,
        renamed=tuple(Renamed(old, new) for old, new in renamed[:SHOWN]),
        hint=hint,
        code=tuple(CodeBlock(lab, text) for lab, text in code),
        # a removal whose diff shows no names: the files it deletes from, never guesses
        deleted=tuple(f"`{p}`" for p in deleted[:SHOWN]) if not (removed or renamed) else (),
        deleted_more=max(0, len(deleted) - SHOWN) if not (removed or renamed) else 0,
        why=why if not (removed or renamed) else "",
        more=more and not extra,
    )


# the reading's evidence that says nothing a reader needs (the hint says it, or nothing)
_UNTOLD = (
    "says it is BC-breaking",
    "its release note says users must change",
    "title (",
    "labelled",
    "its news fragment",
)


def _told(why: str) -> str:
    """The evidence as the paragraph's "The PR …" sentence, or ""."""
    return "" if why.startswith(_UNTOLD) else why


def states_migration(members: Sequence[PullRequest], briefs: Sequence[Brief]) -> bool:
    facts = details(members, briefs)
    return bool(facts.hint or facts.renamed or facts.code)


def _renamed_block(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The diff's renames as a before/after block: what users wrote, what they write now."""
    return [
        ("Before", "\n".join(old for old, _ in pairs)),
        ("After", "\n".join(n for _, n in pairs)),
    ]


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


_SAYS_GONE = re.compile(
    r"(?i)\b(?:remov|delet|drop|renam|replac|deprecat|mov|migrat|kill|phas|retir|rework|"
    r"chang|switch|no longer)\w*"
)
_CLAUSE = re.compile(r"\s*(?:[,;]|\band\b|\bwhile\b|\bvia\b)\s*")
_CODE = re.compile(r"`([^`]+)`")


def breaking_heading(text: str, briefs: Sequence[Brief]) -> str:
    """The entry's heading: its sentence, unless a clause of it names a name the PR takes
    away without saying so ("… and integrate via `comm.use_torchcomms` config", where the
    diff removes `--comm.use_torchcomms`): then what the diff shows it renames or removes."""
    gone = [n for b in briefs for n in b.surface.removed] + [
        old for b in briefs for old, _ in b.surface.renamed
    ]
    keys = {_name_key(n) for n in gone}
    for clause in _CLAUSE.split(text):
        named = [_name_key(n) for n in _CODE.findall(clause)]
        if any(k in keys for k in named) and not _SAYS_GONE.search(clause):
            return _from_surface(briefs) or text
    return text


def _name_key(name: str) -> str:
    return name.strip().lstrip("-").replace("-", "_").lower()


def _from_surface(briefs: Sequence[Brief]) -> str:
    renamed = [pair for b in briefs for pair in b.surface.renamed][:2]
    removed = [n for b in briefs for n in b.surface.removed][:3]
    parts = []
    if renamed:
        parts.append("renamed " + ", ".join(f"`{old}` to `{new}`" for old, new in renamed))
    if removed:
        parts.append("removed " + ", ".join(f"`{n}`" for n in removed))
    text = " and ".join(parts)
    return text[:1].upper() + text[1:]
