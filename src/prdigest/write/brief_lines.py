"""A brief in words, as a digest's bullet and as Key Takeaways' lead tell it: what the
change does, the public names it removes or renames when the sentence does not say them,
and why (the PR's own reason, result or the state it ends). Sizes are never a reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..analyze.brief_types import AnnouncementKind, Brief, Status
from ..analyze.english import lowered_start, sentence_case, verb_base
from ..analyze.statements import has_subject, sentences, without_asides
from ..reading.patterns import comparable
from ..render.markdown import inline

LEAD_WORDS = 14  # a lead's clause in Key Takeaways, cut at a clause's end
_NAMES_SHOWN = 3
_CUT = re.compile(r",\s|;\s|\s[-–—]\s|\s(?:so that|which|by|to allow|in order to|because)\s")
# a clause cut short must not end waiting for its next word
_DANGLING = re.compile(
    r"(?i)\s+(?:a|an|the|of|for|to|in|on|with|and|or|from|by|as|at|that|which|where|when|"
    r"whose|its|their|into|via|than|so|is|are|be)$"
)


def sentence(brief: Brief, *, name: str = "") -> str:
    """The brief as sentences (Markdown inline) without the closing stop, for the writer to
    put the citation before it: its what, the names it removes or renames when the what
    does not say them, and its why (a reason clause joins the what; a result or the old
    state is a sentence of its own)."""
    what = _deprecated_and_removed(brief, _without_name(brief.what, name))
    text = inline(sentence_case(what)).rstrip(".")
    names = _surface(brief, what)
    if names:
        text += f" ({names})"
    if brief.status is Status.RELAND:
        text += ", landed again after its revert"
    if brief.why and brief.why_from == "reason":
        text += f", {inline(brief.why).rstrip('.')}"
    elif brief.why:
        text += f". {inline(sentence_case(brief.why)).rstrip('.')}"
    todo = _instruction(brief.migration, text) if brief.announced in _TOLD_MIGRATION else ""
    if todo:
        text += f". {inline(sentence_case(todo)).rstrip('.')}"
    return text


def shared_sentence(briefs: Sequence[Brief]) -> str:
    """The briefs as one sentence when their whats differ in one short span alone
    ("Enables PGO for Linux x86-64 uv releases", "… for macOS ARM64 uv releases" →
    "Enables PGO for Linux x86-64 and macOS ARM64 uv releases"), told with the first one's
    why; the one sentence when they all say it; "" when they say different things."""
    words = [b.what.rstrip(".").split() for b in briefs]
    if any(b.surface for b in briefs) or len(words) < 2:
        return ""
    if len({tuple(w) for w in words}) == 1:  # the same change again (a bot's weekly update)
        return sentence(briefs[0])
    if len({tuple(w) for w in words}) < len(words):
        return ""
    head = 0
    while all(len(w) > head and w[head] == words[0][head] for w in words):
        head += 1
    tail = 0
    while all(len(w) > head + tail and w[-1 - tail] == words[0][-1 - tail] for w in words):
        tail += 1
    spans = [" ".join(w[head : len(w) - tail]) for w in words]
    if head + tail < 3 or head < 1 or not all(0 < len(s.split()) <= 4 for s in spans):
        return ""
    joined = ", ".join(spans[:-1]) + f" and {spans[-1]}"
    what = " ".join([*words[0][:head], joined, *words[0][len(words[0]) - tail :]])
    return sentence(replace(briefs[0], what=what))


_INSTRUCTS = re.compile(
    r"(?i)\b(?:use|pass|replace|upgrade|install|rename|call|set|migrate|switch|update|add|"
    r"remove|change|import)\b|\binstead\b"
)


def _instruction(migration: str, told: str) -> str:
    """The sentence of a migration note that tells users what to do and that the bullet
    has not said yet, or ""."""
    for part in sentences(migration):
        if _INSTRUCTS.search(part) and comparable(part) not in comparable(told):
            return part
    return ""


def _deprecated_and_removed(brief: Brief, what: str) -> str:
    """A deprecation the diff shows is a removal (it deletes the names or the old
    warning): `Deprecates v1 of X` → `Deprecates and removes v1 of X`."""
    verb, _, rest = what.partition(" ")
    if brief.announced is AnnouncementKind.BREAKING and verb_base(verb) == "deprecate" and rest:
        return f"{verb} and removes {rest}"
    return what


# what users must do is told with the changes that ask it of them
_TOLD_MIGRATION = (AnnouncementKind.BREAKING, AnnouncementKind.DEPRECATION)


def named(brief: Brief, name: str) -> bool:
    """Whether a bullet should show `name` before the brief: not when its what has a
    subject of its own ("The `grid` command now accepts …")."""
    bare = name.strip("`").lower()
    said = re.search(rf"(?<![\w`]){re.escape(bare)}(?![\w`])", brief.what.lower())
    return bool(bare) and not has_subject(brief.what) and not said


def lead_clause(brief: Brief) -> str:
    """What Key Takeaways says of a lead change, short: a noun phrase for what is added
    ("a `--no-commas` flag for `to nuon`"), "a fix for X" for a fix, the what itself when
    it has a subject of its own ("`grid` now accepts a column name")."""
    if brief.release:  # `tokio-util 0.7.19`, or the project's own `1.53.1`
        return f"{brief.release} released" if brief.released_package else f"version {brief.release}"
    clause = _lead_words(brief)
    # what a bullet names by its subject, the lead names by it too (`to_json` of what?)
    subject = brief.subject.strip("`")
    if subject and not has_subject(brief.what) and subject.lower() not in clause.lower():
        clause += f" for {inline(brief.subject)}"
    return clause


def _lead_words(brief: Brief) -> str:
    what = _short(brief.what)
    verb, _, rest = what.partition(" ")
    base = verb_base(verb)
    # the word after the verb keeps its capital: mid-sentence, a capital is a name's
    if base in ("add", "introduce", "implement") and rest:
        return inline(rest)
    if base == "fix" and rest:
        return inline(f"a fix for {rest}")
    if base == "support" and rest:
        return inline(f"support for {rest}")
    if base:  # "enables X", mid-sentence
        return inline(verb[:1].lower() + what[1:])
    return lowered_start(inline(what))


def _short(what: str) -> str:
    if len(what.split()) > LEAD_WORDS:
        what = without_asides(what)
    words = what.split()
    if len(words) > LEAD_WORDS:
        cuts = [
            m.start()
            for m in _CUT.finditer(what)
            if 4 <= len(what[: m.start()].split()) <= LEAD_WORDS
        ]
        what = what[: cuts[-1]] if cuts else " ".join(words[:LEAD_WORDS]).rstrip(",;:")
    if what.count("`") % 2:
        what = what[: what.rfind("`")].rstrip()
    if what.count("(") > what.count(")"):  # a parenthesis cut open: the words before it
        what = what[: what.rfind("(")].rstrip(" ,;:")
    while _DANGLING.search(what):
        what = _DANGLING.sub("", what)
    return what


def _without_name(what: str, name: str) -> str:
    """A what that opens with the bullet's name and then its verb drops the name
    (`GGUF: GGUF loads …` → `GGUF: Loads …`); any other what keeps its words."""
    if not name:
        return what
    bare = name.strip("`").lower()
    head = what.split(" ", 2)
    if len(head) == 3 and head[0].strip("`:").lower() == bare and verb_base(head[1]):
        return " ".join(head[1:])
    return what


def _surface(brief: Brief, what: str) -> str:
    """The public names the sentence does not already say that a break removes or renames,
    a few of each."""
    said = what.lower()
    if brief.announced is not AnnouncementKind.BREAKING and brief.kind != "bc_breaking":
        return ""
    # a package the what names (`Removes `trainer/legacy``) says its modules too
    paths = [p.strip("/").replace("/", ".") for p in re.findall(r"`([^`]+)`", what)]
    parts: list[str] = []
    gone = [
        n
        for n in brief.surface.removed
        if _leaf(n).lower() not in said and not any(n.startswith(f"{p}.") for p in paths)
    ]
    if gone:
        parts.append("removes " + _names(gone))
    moved = [
        f"`{_leaf(a)}` → `{_leaf(b)}`"
        for a, b in brief.surface.renamed
        if _leaf(a).lower() not in said
    ]
    if moved:
        parts.append("renames " + ", ".join(moved[:_NAMES_SHOWN]))
    return "; ".join(parts)


def _leaf(name: str) -> str:
    """`tinygrad.codegen.DEVECTORIZE` → `DEVECTORIZE`; `Tensor.idiv` stays (a method says
    whose); `--flag` stays, `--comm.mode` too (what users type)."""
    if name.startswith("-"):
        return name
    parts = name.split(".")
    return ".".join(parts[-2:]) if len(parts) > 1 and parts[-2][:1].isupper() else parts[-1]


def _names(names: list[str]) -> str:
    shown = ", ".join(f"`{_leaf(n)}`" for n in names[:_NAMES_SHOWN])
    rest = len(names) - _NAMES_SHOWN
    return shown + (f" and {rest} more" if rest > 0 else "")
