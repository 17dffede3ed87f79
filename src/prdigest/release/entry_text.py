"""A release-notes entry written from its PR's brief: the brief's `what` (what the change
does for users, from the body's statement or the title made a clause, names spelled as
the code spells them) in the past tense PyTorch's notes use ("Added X", "Fixed Y"), with
the thing it is about when the sentence does not name it ("MXFP8 MoE training: added
emulated mode"), and the brief's `why` where the PR states a result or the failure a fix
ends. The title is pasted only where the brief has no usable sentence (a direct push, a
title whose clause is a fragment).
"""

from __future__ import annotations

import re

from ..analyze.brief_types import Brief
from ..analyze.english import sentence_case
from ..analyze.statements import content_words
from ..kinds import BUG_FIXES
from ..models import PullRequest
from .sentences import backtick_code, past_tense, to_sentence, whole_title

WHY_WORDS = 25  # a why longer than this is the PR's discussion, not a note's reason
_WHY_FIT = re.compile(r"(?i)^(?:to only|the approach|this pr|we |i |tested|test plan)")


def entry_sentence(brief: Brief | None, pr: PullRequest, module: str = "") -> str:
    """The entry's sentence, without its links. `module`: the `###` section it is told
    under (a subject that is the section's name is not said again)."""
    title = to_sentence(whole_title(pr.title, pr.body), pr.number)
    if brief is None or not _usable(brief.what, pr.title):
        return title
    text = backtick_code(past_tense(brief.what.strip().rstrip(".")))
    text = sentence_case(text)
    subject = brief.subject.strip("`")
    if subject and _titled(subject, pr, module) and not _names(text, subject):
        text = f"{sentence_case(brief.subject)}: {_lowered(text)}"
    why = _why(brief)
    return f"{text}. {why}" if why else text


def _usable(what: str, title: str) -> bool:
    """A sentence that says something: two content words at least, and not a fragment
    of a title cut at a colon ("No such file or directory" of "Fix CI …: No such file
    or directory")."""
    words = content_words(what)
    if len(words) < 2:
        return False
    head = title.split(":", 1)[0]
    return not (":" in title and not (words & content_words(head)) and len(words) < 4)


def _names(text: str, subject: str) -> bool:
    """Whether the sentence already names the subject (a word of it, any case)."""
    wanted = content_words(subject) or {subject.lower()}
    return bool(wanted & content_words(text)) or subject.lower() in text.lower()


def _titled(subject: str, pr: PullRequest, module: str) -> bool:
    """Whether the subject is the title's own (its tag or scope: `[mxfp8 moe training]`),
    not where the code lies, and not the section's or the project's name."""
    key = _squash(subject)
    project = _squash(pr.repo.rsplit("/", 1)[-1])
    return (
        len(key) >= 2
        and key in _squash(pr.title)
        and key not in _squash(module)
        and key != project
        and not (project and project in key)
    )


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _lowered(text: str) -> str:
    """`Added X` → `added X` after a lead-in; a name keeps its capitals (`GGUF`, `` `x` ``)."""
    first = text.split(" ", 1)[0]
    if first[1:2].isupper() or first.startswith("`") or not first[:1].isupper():
        return text
    return text[:1].lower() + text[1:]


def _why(brief: Brief) -> str:
    """The brief's why as a second sentence, where a note needs one: a result the PR
    states (its figures), or the failure a fix ends; short, and no process talk."""
    why = brief.why.strip().rstrip(".")
    if not why or len(why.split()) > WHY_WORDS or _WHY_FIT.match(why):
        return ""
    if brief.figures or brief.kind == BUG_FIXES:
        return backtick_code(sentence_case(why))
    return ""
