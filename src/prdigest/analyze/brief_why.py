"""Why a PR matters, in its own words, or nothing: never a size, never a restatement of
what it does. In order:

1. `result`: a measured result it states (`claims.find_claims`): "about 4x faster for 8x8
   input".
2. `reason`: the reason clause of a sentence of its summary or user-facing section,
   from its connective on ("so that nuon output is more succinct", "to allow custom
   reductions", "because the old path copied twice"), told after the `what`.
3. `before`: what was wrong before, from a sentence of its motivation section (naming a
   failure or a limit) or of a fix's summary (naming a failure):
   "Previously, the `grid` command was hardcoded to look for a `name` column" (a
   sentence in the present tense about the old state is put in the past, since it is
   no longer true once the PR lands).

A sentence about tests, a reference to an issue, a question, a link or an unfinished
code span is none of them.
"""

from __future__ import annotations

import re

from ..reading.pr_body import PRBody, Role
from .english import sentence_case
from .statements import as_statement, content_words, sentences

MAX_WORDS = 25
_CONNECTIVE = re.compile(
    r"(?i)(?:,\s*|\s)(?P<clause>(?:so that|so (?:users?|you|it|they|we|people|callers?) "
    r"(?:can|no longer|don'?t|won'?t)|in order to|to (?:allow|enable|avoid|prevent|let|support|"
    r"reduce|improve|speed up|unblock|make it possible|match|align with|fix)|which (?:allows|"
    r"enables|lets|avoids|prevents|reduces|improves|means|makes)|because|otherwise)\b.+)$"
)
_ENABLES = re.compile(
    r"(?i)^(?:this|it)(?: (?:pr|change|patch|diff))? (?P<rest>(?:enables|allows|lets) \S.+)$"
)
_OLD_STATE = re.compile(
    r"(?i)^(?P<subject>(?:the |a |an |this |our |some )?[`\w][\w`.:/()\- ]{0,60}?)\s+"
    r"(?P<adverb>(?:silently|sometimes|intermittently|occasionally)\s+)?"
    r"(?P<verb>is|are|isn't|aren't|is not|are not|does not|doesn't|do not|don't|cannot|"
    r"can't|can not|has no|have no|fails?|crashes|hangs|raises|returns|always|never|only|"
    r"can|may|will|causes|gives|throws|produces|breaks|ignores|leaks|loses|drops|triggers|"
    r"failed|crashed|hung|raised|returned|gave|threw|produced|broke|ignored|leaked|lost|"
    r"dropped|triggered|caused)\b"
)
_PAST = {
    "is": "was", "are": "were", "isn't": "wasn't", "aren't": "weren't", "is not": "was not",
    "are not": "were not", "does not": "did not", "doesn't": "didn't", "do not": "did not",
    "don't": "didn't", "cannot": "could not", "can't": "couldn't", "can not": "could not",
    "has no": "had no", "have no": "had no", "fails": "failed", "fail": "failed",
    "crashes": "crashed", "hangs": "hung", "raises": "raised", "returns": "returned",
    "can": "could", "may": "might", "will": "would", "causes": "caused", "gives": "gave",
    "throws": "threw", "produces": "produced", "breaks": "broke", "ignores": "ignored",
    "leaks": "leaked", "loses": "lost", "drops": "dropped", "triggers": "triggered",
}  # fmt: skip
# a sentence's opening circumstance, kept as written: "On the numpy backend, X could crash"
_OPENER = re.compile(r"(?i)^(?:on|in|with|under|for|when|if|after|during)\b[^,]{3,60},\s+")
# a sentence that leans on another for its meaning ("That's numpy's mode", "So on …")
_LEANS = (
    "this ", "these ", "it ", "fix", "add", "that", "those ", "they ", "so ", "but ", "and ",
    "also ", "however", "note", "with this", "here", "unrelated", "then ", "thus", "as a ",
)  # fmt: skip
_TEMPORAL = re.compile(
    r"(?i)(?<!-)\b(?:previously|before this|used to|was|were|had|did|could not)\b(?!-)"
)
_SKIP = re.compile(
    r"(?i)\b(?:unit ?tests?|tests?|testing|test cases?|ci|reviewers?|pr description|"
    r"follow[- ]?up|todo|this pr|in this pr|i think|we think|hopefully|see|issue)\b|https?://|\?"
)
_PREVIOUSLY = frozenset({"previously"})
_SYMPTOM = re.compile(
    r"(?i)\b(?:fail\w*|crash\w*|hang\w*|error\w*|exception|raises?|wrong\w*|incorrect\w*|"
    r"broken|break\w*|never|ignor\w*|doesn'?t|does not|can'?t|cannot|silently|spurious|leak\w*|"
    r"stale|missing|lost)\b"
)
# a failure users saw: what a fix's summary must name for its sentence to be the old state
_FAILURE = re.compile(
    r"\b\w+(?:Error|Exception)\b|(?i:\b(?:crash\w*|segfault\w*|segmentation fault|hangs?|hung|"
    r"deadlock\w*|rais(?:e|es|ed|ing)|fail(?:s|ed|ing|ure)?|wrong|incorrect\w*|corrupt\w*|"
    r"errors?|OOM|out of memory|panic\w*|silently)\b)"
)
# the state after the fix, not before it
_AFTER_FIX = re.compile(
    r"(?i)\bnow\b|\bthis (?:pr|change|patch)\b|\b(?:the|this|with the|after the) fix\b"
)
# what a motivation says users could not do: a limit, not a failure
_LIMIT = re.compile(
    r"(?i)\b(?:hard-?coded|only|unsupported|not supported|no way|impossible|have to|has to|"
    r"must|manual(?:ly)?|slow\w*|requires?|limited)\b"
)
_FIRST_PERSON = re.compile(r"(?i)^(?:i|we|i'm|i've|we've)\s+")


def stated_why(body: PRBody, what: str, claims: tuple[str, ...], fix: bool) -> tuple[str, str]:
    """(why, its kind) of a PR, or ("", "")."""
    for claim in claims:
        if not _restates(claim, what):
            return _short(claim), "result"
    for section in body.of(Role.SUMMARY, Role.USERS):
        for text in section.paragraphs[:3]:
            for sentence in sentences(text)[:3]:
                # a reason belongs to the change only in a sentence stating the change;
                # elsewhere it may be the old code's ("… which prevents async work")
                found = _CONNECTIVE.search(sentence) if as_statement(sentence) else None
                clause = _short(found.group("clause")) if found else ""
                enables = _ENABLES.match(sentence.strip())
                if not clause and enables:  # "This enables X": what the change makes possible
                    reason = _short(f"which {enables.group('rest')}")
                    # it may share the what's words ("fp16 checkpoints"): it only has to say more
                    if _fit(reason) and len(content_words(reason) - content_words(what)) >= 2:
                        return reason, "reason"
                if clause and _fit(clause) and not _restates(clause, what):
                    return clause[:1].lower() + clause[1:], "reason"
    roles = (Role.MOTIVATION, Role.SUMMARY) if fix else (Role.MOTIVATION,)
    for section in body.of(*roles):
        for text in (*section.paragraphs[:3], *section.items[:1]):
            for sentence in sentences(text)[:2]:
                # only a sentence that names a failure (or, in a motivation, a limit) tells
                # the state a change ends: the rest of a problem statement is context ("The
                # fallback is enabled around `forward()`"), and a summary's present tense
                # how things are meant to be
                # a fix's must name the failure itself, or it is the mechanism behind it
                loose = section.role is Role.MOTIVATION and not fix
                if not (
                    _FAILURE.search(sentence)
                    or (loose and (_SYMPTOM.search(sentence) or _LIMIT.search(sentence)))
                ) or _AFTER_FIX.search(sentence):
                    continue
                before = _before(sentence)
                # the old state names what the change touches: it only has to say more
                if before and content_words(before) - content_words(what) - _PREVIOUSLY:
                    return before, "before"
    return "", ""


def _before(sentence: str) -> str:
    """The old state, told in the past: "Previously, X was …"; "" for a sentence that
    does not describe one."""
    if sentence.rstrip().endswith(":"):
        return ""  # it introduces a list: what follows says it, not this sentence
    text = _FIRST_PERSON.sub("", sentence.strip()).rstrip(".;:")
    if not _fit(text) or text.lower().startswith(_LEANS):
        return ""
    if re.match(r"(?i)^(?:previously|before this (?:pr|change)),?\s", text):
        return _short(sentence_case(text))
    opener = _OPENER.match(text)
    circumstance = opener.group(0) if opener else ""
    match = _OLD_STATE.match(text[len(circumstance) :])
    if match is None or not text[len(circumstance) + match.end("verb") :].strip():
        return ""
    if circumstance and match.group("verb").lower() in ("only", "always", "never"):
        return ""  # "when X, built from Y only": no subject after the circumstance
    verb = match.group("verb").lower()
    past = _PAST.get(verb, verb)
    subject = match.group("subject")
    adverb = match.group("adverb") or ""
    rest = text[len(circumstance) + match.end("verb") :]
    said = subject[:1].lower() + subject[1:] if _plain_word(subject) else subject
    clause = f"{said} {adverb}{past}{rest}"
    if _TEMPORAL.search(text):
        clause = f"{said} {adverb}{verb}{rest}"
    opening = circumstance[:1].lower() + circumstance[1:]
    return _short(f"Previously, {opening}{clause}")


def _plain_word(subject: str) -> bool:
    first = subject.split(" ", 1)[0]
    return first.isalpha() and first[1:].islower()


def _fit(text: str) -> bool:
    words = text.split()
    return (
        4 <= len(words) <= MAX_WORDS + 15
        and not _SKIP.search(text)
        and text.count("`") % 2 == 0
        and text.count("(") == text.count(")")
    )


def _short(text: str) -> str:
    """At most MAX_WORDS words, cut at a clause's end; without its closing stop."""
    text = text.strip().rstrip(".;:")
    words = text.split()
    if len(words) <= MAX_WORDS:
        return text
    for match in reversed(list(re.finditer(r",\s|;\s|\s[-–—]\s", text))):
        head = text[: match.start()]
        if 5 <= len(head.split()) <= MAX_WORDS and head.count("`") % 2 == 0:
            return head
    return ""


def _restates(sentence: str, what: str) -> bool:
    """Whether a sentence says mostly what `what` says: most of the words of the shorter
    are the other's."""
    one, two = content_words(sentence), content_words(what)
    if not one or not two:
        return False
    return len(one & two) >= 0.6 * min(len(one), len(two))
