"""A brief in words, as a digest's bullet and as Key Takeaways' lead tell it: what the
change does, the public names it adds or removes when the sentence does not say them,
why (the PR's own reason or result), and its citation. Sizes are never a reason.
"""

from __future__ import annotations

import re

from ..analyze.brief_types import AnnouncementKind, Brief, Status
from ..analyze.english import sentence_case
from ..render.markdown import inline

LEAD_WORDS = 14  # a lead's clause in Key Takeaways, cut at a clause's end
_NAMES_SHOWN = 3
_CUT = re.compile(r",\s|;\s|\s[-–—]\s|\s(?:so that|which|by|to allow|in order to|when|because)\s")


def sentence(brief: Brief, *, name: str = "") -> str:
    """The brief as sentences (Markdown inline) without the closing stop, for the writer to
    put the citation before it: its what, the names it removes or renames when the what
    does not say them, and its why."""
    what = _without_name(brief.what, name)
    text = inline(sentence_case(what)).rstrip(".")
    names = _surface(brief, what)
    if names:
        text += f" ({names})"
    if brief.status is Status.RELAND:
        text += ", landed again after its revert"
    if brief.why:
        text += f". {inline(sentence_case(brief.why)).rstrip('.')}"
    return text


_PARTICIPLES = {
    "adds": "added", "introduces": "introduced", "implements": "implemented",
    "enables": "enabled", "removes": "removed", "deprecates": "deprecated", "fixes": "fixed",
    "refactors": "refactored", "updates": "updated", "improves": "improved",
    "replaces": "replaced", "renames": "renamed", "moves": "moved", "drops": "dropped",
    "exposes": "exposed", "optimizes": "optimized", "reduces": "reduced",
    "raises": "raised", "bumps": "bumped", "migrates": "migrated", "extends": "extended",
}  # fmt: skip


def lead_clause(brief: Brief) -> str:
    """What Key Takeaways says of a lead change, as a headline: "`X` added", "GGUF
    loading fixed", or its what when it has a subject of its own; cut at a clause's end."""
    if brief.release:
        return f"version {brief.release} released"
    what = _short(brief.what)
    verb, _, rest = what.partition(" ")
    participle = _PARTICIPLES.get(verb.lower())
    text = what
    if participle and rest:
        tail = ""
        for joint in (" for ", " to ", " in ", " on ", " with ", " from "):
            head, found, after = rest.partition(joint)
            if found and len(head.split()) >= 2:
                rest, tail = head, f" {joint.strip()} {after}"
                break
        text = f"{rest} {participle}{tail}"
    clause = inline(text)
    return clause[:1].lower() + clause[1:] if _lowerable(clause) else clause


def _short(what: str) -> str:
    words = what.split()
    if len(words) <= LEAD_WORDS:
        return what
    cuts = [
        m.start() for m in _CUT.finditer(what) if 4 <= len(what[: m.start()].split()) <= LEAD_WORDS
    ]
    what = what[: cuts[-1]] if cuts else " ".join(words[:LEAD_WORDS]).rstrip(",;:")
    return what[: what.rfind("`")].rstrip() if what.count("`") % 2 else what


def _lowerable(text: str) -> bool:
    first = text.split(" ", 1)[0]
    return first[:1].isupper() and first[1:].islower() and first.isalpha()


def _without_name(what: str, name: str) -> str:
    """`The \\`grid\\` command now accepts …` under the name `grid` keeps its own subject;
    a what that merely opens with the bullet's name drops it (`GGUF: GGUF …`)."""
    if not name:
        return what
    bare = name.strip("`").lower()
    head = what.split(" ", 1)
    if len(head) == 2 and head[0].strip("`:").lower() == bare:
        return head[1]
    return what


def _surface(brief: Brief, what: str) -> str:
    """The public names the sentence does not already say: those added (new), removed or
    renamed, a few of each."""
    said = what.lower()
    parts: list[str] = []
    surface = brief.surface
    if brief.announced is AnnouncementKind.BREAKING or brief.kind == "bc_breaking":
        gone = [n for n in surface.removed if n.lower() not in said]
        if gone:
            parts.append("removes " + _names(gone))
        moved = [f"`{a}` → `{b}`" for a, b in surface.renamed if a.lower() not in said]
        if moved:
            parts.append("renames " + ", ".join(moved[:_NAMES_SHOWN]))
    return "; ".join(parts)


def _names(names: list[str]) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:_NAMES_SHOWN])
    rest = len(names) - _NAMES_SHOWN
    return shown + (f" and {rest} more" if rest > 0 else "")
