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
from ..kinds import BUG_FIXES, NEW_FEATURES
from ..models import PullRequest
from ..reading import clean_title, parse_title, strip_noise
from .sentences import backtick_code, past_tense, to_sentence, whole_title

_VERB_OF = {BUG_FIXES: "Fixed", NEW_FEATURES: "Added"}  # a kind's verb, for a verbless what
_RST_LITERAL = re.compile(r"``([^`]+)``")
WHY_WORDS = 25  # a why longer than this is the PR's discussion, not a note's reason
# a why that leans on what went before it, or tells the PR's process
_WHY_FIT = re.compile(
    r"(?i)^(?:to only|the approach|this pr|we |i |tested|test plan|however|but |for this|"
    r"also|note|it still|then|so |and )"
)


def entry_sentence(brief: Brief | None, pr: PullRequest) -> str:
    """The entry's sentence, without its links."""
    if brief is None or not _usable(brief.what, pr.title) or "://" in brief.what:
        return to_sentence(whole_title(pr.title, pr.body), pr.number)
    described = _described_bug(brief, pr)
    if described:
        return described
    what = whole_title(brief.what.strip(), pr.body)  # a title git cut short ends whole
    what = _RST_LITERAL.sub(r"`\1`", what)  # reST's ``x`` is Markdown's `x`
    what = _first_clause(what)
    what = strip_noise(what)  # part markers (`(Part1)`), ticket ids: the links say them
    text = backtick_code(_past(what.rstrip(".")))
    if brief.kind in _VERB_OF and not _opens_with_verb(text):
        # `FIX Bug when …`, a paper's name for a new method: what the change did, said so
        text = f"{_VERB_OF[brief.kind]} {_lowered(text)}"
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


# verbs a fix's title opens with as an order (`FIX Correct scaling …`, `fix: handle …`);
# any other first word names the bug (`FIX Cache position is None …`, `FIX Saving adapter …`)
_IMPERATIVE = frozenset(
    """fix correct call handle harmonize make use add remove update avoid allow ensure prevent
    guard skip set support restore raise return pass apply respect honor preserve keep accept
    reject check validate convert move rename replace drop disable enable clear reset initialize
    load save register unify align catch propagate forward include exclude treat warn increase
    decrease lower bump change revert limit relax restrict""".split()
)


def _described_bug(brief: Brief, pr: PullRequest) -> str:
    """A fix whose title, after its `FIX`/`fix:` type, names the bug rather than orders
    its fix: "Fixed cache position is None with transformers v5.4", not "Cached …"."""
    info = parse_title(pr.title)
    if brief.kind != BUG_FIXES or info.conventional_type != "fix":
        return ""
    clean = strip_noise(clean_title(pr.title, pr.number).text)
    words = clean.split()
    if len(words) < 2 or words[0].lower() in _IMPERATIVE:
        return ""
    if brief.what.split()[1:] != words[1:]:
        return ""  # the brief says it in the body's words: they stand
    return "Fixed " + backtick_code(_lowered(clean.rstrip(".")))


# a list's items run together into one line: "Removed X Removed Y Removed Z"
_RUN_ON = re.compile(r"\s(?=(?:Removed|Added|Fixed|Updated|Deleted|Moved|Renamed|Changed)\s)")


def _first_clause(what: str) -> str:
    """The first of several statements a body's list ran together, when it says enough."""
    first = _RUN_ON.split(what, maxsplit=1)[0].rstrip(" ,;")
    return first if len(first.split()) >= 3 else what


def _opens_with_verb(text: str) -> bool:
    first = text.split(" ", 1)[0]
    return bool(verb_base(first)) or first.lower().endswith("ed") or first.lower() in _THIRD


def _lowered(text: str) -> str:
    """The sentence after a verb put before it: its first letter lowered, unless it starts
    a name (`GGUF`, `` `x` ``, `VeRA`)."""
    first = text.split(" ", 1)[0]
    if first.startswith("`") or any(c.isupper() for c in first[1:]):
        return text
    return text[:1].lower() + text[1:]


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
