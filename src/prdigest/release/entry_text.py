"""A release-notes entry written from its PR's brief: the brief's `what` (what the change
does for users, from the body's statement or the title made a clause, names spelled as
the code spells them) in the past tense PyTorch's notes use ("Added X", "Fixed Y"), and
the brief's `why` where the PR states a result or the failure a fix ends. The title is
the sentence only where the brief has none to give (a direct push, a title whose clause
is a fragment, a statement that is a link).
"""

from __future__ import annotations

import re

from ..analyze.brief_types import Brief
from ..analyze.english import sentence_case, third_person, verb_base
from ..analyze.statements import content_words
from ..kinds import BUG_FIXES
from ..models import PullRequest
from ..reading import strip_noise
from .sentences import backtick_code, past_tense, to_sentence, whole_title

WHY_WORDS = 25  # a why longer than this is the PR's discussion, not a note's reason
_WHY_FIT = re.compile(r"(?i)^(?:to only|the approach|this pr|we |i |tested|test plan)")


def entry_sentence(brief: Brief | None, pr: PullRequest) -> str:
    """The entry's sentence, without its links."""
    title = to_sentence(whole_title(pr.title, pr.body), pr.number)
    if brief is None or not _usable(brief.what, pr.title) or "://" in brief.what:
        return title
    what = whole_title(brief.what.strip(), pr.body)  # a title git cut short ends whole
    what = strip_noise(what)  # part markers (`(Part1)`), ticket ids: the links say them
    text = backtick_code(_past(what.rstrip(".")))
    text = sentence_case(text)
    why = _why(brief)
    return f"{text}. {why}" if why else text


# third-person verbs `past_tense` keeps as nouns in titles ("Sets of …"); a brief's `what`
# opens with its verb
_THIRD = {"uses": "Used", "sets": "Set", "links": "Linked", "logs": "Logged",
          "prints": "Printed", "returns": "Returned", "exports": "Exported", "builds": "Built"}  # fmt: skip


def _past(what: str) -> str:
    first, _, rest = what.partition(" ")
    low = first.lower()
    if low in _THIRD and rest:
        return f"{_THIRD[low]} {rest}"
    text = past_tense(what)
    base = verb_base(first) if text == what and low.endswith("s") and rest else ""
    if base and third_person(base) == low:  # `Precomputes` → `Precomputed`
        return f"{_regular_past(base).capitalize()} {rest}"
    return text


def _regular_past(base: str) -> str:
    if base.endswith("e"):
        return base + "d"
    if re.search(r"[^aeiou]y$", base):
        return base[:-1] + "ied"
    return base + "ed"


def _usable(what: str, title: str) -> bool:
    """A sentence that says something: two content words at least, and not a fragment
    of a title cut at a colon ("No such file or directory" of "Fix CI …: No such file
    or directory")."""
    words = content_words(what)
    if len(words) < 2:
        return False
    head = title.split(":", 1)[0]
    return not (":" in title and not (words & content_words(head)) and len(words) < 4)


def _why(brief: Brief) -> str:
    """The brief's why as a second sentence, where a note needs one: a result the PR
    states (its figures), or the failure a fix ends; short, and no process talk."""
    why = brief.why.strip().rstrip(".")
    if not why or len(why.split()) > WHY_WORDS or _WHY_FIT.match(why):
        return ""
    if brief.figures or brief.kind == BUG_FIXES:
        return backtick_code(sentence_case(why))
    return ""
