"""An announcement in the PR's own words: its title as a digest sentence (`Java Remove X
API` → "Java: removes X API."), what it is about with its participle ("Java X API
removed", for Key Takeaways), and, from its description, the sentence that tells users
what to use instead ("X is deprecated in favor of Y.")."""

from __future__ import annotations

import re

from .claims import normalize, prose_lines
from .english import as_clause, is_verb, sentence_case, third_person

_VERB = re.compile(
    r"(?i)^(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?|kill(?:s|ed|ing)?|"
    r"deprecat(?:e|es|ing)|renam(?:e|es|ed|ing)|phas(?:e|es|ed|ing))$"
)


def starts_announcement(word: str) -> bool:
    """`Remove`, `drops`, `Deprecate`, `renamed`, `Phase`: a verb that announces."""
    return bool(_VERB.match(word))


_CONJUNCTION = re.compile(r"(\s*(?:,|;|\band\b)\s*)")
_HINT = re.compile(
    r"(?i)\b(?:in favou?r of|superseded by|instead|please (?:use|migrate|switch)|migrate to|"
    r"switch to|replaced (?:by|with)|renamed to|moved to|use \S+ now)\b"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n\s*[-*•]\s+")
_MAX_HINT = 220

_PARTICIPLES = {  # by the verb's first four letters
    "remo": "removed",
    "dele": "deleted",
    "drop": "dropped",
    "kill": "removed",
    "depr": "deprecated",
    "rena": "renamed",
    "phas": "phased out",
}


def sentence(text: str) -> str:
    """`Java Remove X API` → `Java: removes X API.`; `Add X and drop Y` → `Adds X and drops Y.`"""
    prefix, rest = _split_prefix(text)
    if prefix:
        return f"{prefix}: {_conjugated(rest[:1].lower() + rest[1:])}."
    return f"{sentence_case(_conjugated(text))}."


def _split_prefix(text: str) -> tuple[str, str]:
    """A component name the title puts before its verb without a colon (`Java Remove X`):
    one or two capitalised words, none a verb. ('', text) when there is none."""
    words = text.split()
    for i in (1, 2):
        if (
            len(words) > i
            and starts_announcement(words[i])
            and all(w[:1].isupper() and not is_verb(w) for w in words[:i])
        ):
            return " ".join(words[:i]), " ".join(words[i:])
    return "", text


def _conjugated(text: str) -> str:
    """Every clause's leading verb in the third person: `add X and drop Y` → `adds X and drops Y`."""
    pieces = _CONJUNCTION.split(text)
    out = []
    for piece in pieces:
        first = piece.split(" ", 1)[0]
        if first.lower() == "default" and piece[len(first) :].startswith(" to "):
            piece = first + "s" + piece[len(first) :]  # `Default to X` → `Defaults to X`
        elif first and is_verb(first):
            piece = (
                as_clause(piece)
                if piece[:1].isupper()
                else third_person(first) + piece[len(first) :]
            )
        out.append(piece)
    return "".join(out)


_TAIL = re.compile(r"\s+(?=(?:from|since|because|as|when|if|in favou?r of)\s)")
_PRONOUN = re.compile(r"(?i)^(?:it|them|this|that|these|those|all)\b")


def subject(clause: str, text: str) -> str:
    """What the announcement is about, with its participle: `Remove old GPTQ
    implementation` → `old GPTQ implementation removed`, `Rename X to Y` → `X renamed to
    Y`, `Drop X from Y` → `X dropped from Y`; '' when no such verb leads the clause."""
    prefix, clause = _split_prefix(clause)
    words = clause.split()
    if not words or not starts_announcement(words[0]):
        return ""
    own_prefix, own_rest = _split_prefix(text)
    if not prefix and own_prefix and own_rest.startswith(words[0]):
        prefix = own_prefix  # `Java Remove X`: the clause was cut after `Java`
    # from the verb to the title's end (the clause split may have cut `X and Y`), up to
    # the next clause's verb (`remove X and migrate tests`)
    rest = text[text.find(words[0]) + len(words[0]) :].split() if words[0] in text else words[1:]
    for i, word in enumerate(rest[1:], start=1):
        if rest[i - 1] in ("and", "then") and is_verb(word):
            rest = rest[: i - 1]
            break
    stem = words[0][:4].lower()
    if stem == "phas" and rest[:1] == ["out"]:
        rest = rest[1:]
    if not rest or len(rest) > 12 or _PRONOUN.match(rest[0]):
        return ""
    participle = _PARTICIPLES[stem]
    lead = f"{prefix} " if prefix else ""
    if participle == "renamed" and len(rest) >= 3 and rest[1] in ("to", "->", "→"):
        return f"{lead}{rest[0]} renamed to {' '.join(rest[2:])}"
    head, _, tail = _TAIL.sub("\0", " ".join(rest), count=1).partition("\0")
    return f"{lead}{head} {participle}" + (f" {tail}" if tail else "")


def migration_hint(body: str) -> str:
    """The first whole sentence of the body's prose that tells users what to use instead."""
    if not body or not _HINT.search(body):
        return ""
    for chunk in _SENTENCE.split("\n".join(prose_lines(body))):
        sentence = normalize(chunk)
        if (
            _HINT.search(sentence)
            and 20 <= len(sentence) <= _MAX_HINT
            and sentence[:1].isupper()
            and sentence.endswith((".", "!"))
        ):
            return sentence
    return ""
