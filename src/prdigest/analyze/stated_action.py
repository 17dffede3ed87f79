"""What a PR does, as a third-person clause: its title's when the title opens with a verb
(`Add X` → "adds X"), else what its body says it does ("This PR adds the pipeline
orchestrator (`GenAIPipeline`) that wires …" → "adds the pipeline orchestrator
(`GenAIPipeline`)"), else the title as it stands. A title that is a name ("Pipeline
Orchestrator") tells a reader what was touched, not what changed.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..models import PullRequest
from .claims import prose_lines
from .english import as_clause, third_person, verb_base
from .items import STOPWORDS

# The body's own statement of the change: "This PR adds …", "This diff introduces …",
# "We now support …", "Adds …" opening the summary.
_STATEMENT = re.compile(
    r"(?:(?:this|the)\s+(?:pr|diff|change|commit|patch|stack)\s+(?:also\s+|now\s+)?"
    r"|we\s+(?:now\s+)?|here\s+we\s+|^)"
    r"(?P<verb>[a-z][a-z-]+)\s+(?P<object>\S.*)",
    re.IGNORECASE,
)
# Where a statement's object ends: the rest says how or why, which the title never did.
_OBJECT_END = re.compile(
    r"\s+(?:that|which|so that|so|because|since|where|when|by|via|in order to|to allow|"
    r"to enable|to make|to support|, (?:and|which|so|but))\s|[.;:!?](?:\s|$)|,\s|\s[-–—]\s"
)
_DANGLING = re.compile(r"(?i)\s+(?:a|an|the|of|for|to|in|on|with|and|or|from|by|as|at|instead)$")
_AND_VERB = re.compile(r"(\band )([a-z]+)\b")
_PARAGRAPH = re.compile(r"\n\s*\n")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
MAX_WORDS = 12
MIN_WORDS = 2


def what_it_does(pr: PullRequest, clean_text: str) -> str:
    """The PR's action as a third-person clause (lower-case verb first when it has one)."""
    clause = as_clause(clean_text)
    if clause != clean_text or _acts_later(clean_text):
        return clause
    stated = stated_action(pr.body or "", about=clean_text)
    return stated or clean_text


def stated_action_of(pr: PullRequest, clean_text: str) -> str:
    """What the body says the PR does, where its title does not say it; else ""."""
    if as_clause(clean_text) != clean_text or _acts_later(clean_text):
        return ""
    return stated_action(pr.body or "", about=clean_text) or ""


@lru_cache(maxsize=4096)  # a PR is told in several places of one digest
def stated_action(body: str, about: str = "") -> str | None:
    """The body's first sentence that states an action in its opening words, as a short
    clause: "adds the pipeline orchestrator (`GenAIPipeline`)"; None when none does.
    `about`: the title; the statement must name at least half of its words (a body's first
    action is often a detail: "New Neutron-C flow support for ReLU" is not "removes
    unnecessary checks for ReLU conversion")."""
    wanted = _words(about)
    text = "\n".join(prose_lines(body))
    for paragraph in _PARAGRAPH.split(text)[:4]:  # the opening says what it does
        sentence = " ".join(paragraph.split())
        match = _STATEMENT.match(sentence)
        if not match:
            continue
        base = verb_base(match.group("verb"))
        if not base or sentence.lower().startswith("test plan"):
            continue
        found = _OBJECT_END.search(match.group("object"))
        obj = match.group("object")[: found.start()] if found else match.group("object")
        obj = _DANGLING.sub("", obj.strip())
        words = obj.split()
        if not MIN_WORDS <= len(words) <= MAX_WORDS or obj.count("`") % 2 or "(" in obj[-1:]:
            continue
        if obj.count("(") != obj.count(")"):
            continue
        if wanted and 2 * len(wanted & _words(obj)) < len(wanted):
            continue
        # `adds X and add Y`: the body's second verb is imperative too
        obj = _AND_VERB.sub(lambda m: m.group(1) + _third(m.group(2)), obj)
        return f"{third_person(base)} {obj}"
    return None


def _third(verb: str) -> str:
    base = verb_base(verb, third=False)
    return third_person(base) if base and base == verb.lower() else verb


def _acts_later(title: str) -> bool:
    """A title whose verb follows a name (`Android add a new … const`) says what it does."""
    return any(word.islower() and verb_base(word, third=False) for word in title.split()[1:3])


def _words(text: str) -> set[str]:
    """Content words, lower-case and singular, for comparing a title with a statement."""
    return {
        word.lower().removesuffix("s")
        for word in _WORD.findall(text)
        if len(word) >= 3 and word.lower() not in STOPWORDS
    }
