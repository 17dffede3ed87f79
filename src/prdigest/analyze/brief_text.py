"""The words of a PR's brief: `what` it does for the people who use the project (one
sentence, present tense, third person), `why` (the motivation or the result the PR
states, or nothing; never a size), and the `subject` a bullet names it by.

`what` comes from the author's own words for users, in this order: the news fragment the
PR adds for the changelog (towncrier's `changelog/123.bugfix.rst`), what its body's
user-facing or release-notes section says, then its summary's first statement, and only
then the title made into a clause ("Add X" → "Adds X"). A body's statement must speak of
what the title names, or it is a detail of something else. Names are spelled as the diff
spells them: a title's `preverse_empty_path` is written `url_preserve_empty_path` when
that is the name the code has.

`why` is, in order: a measured result the PR states (`find_claims`), the first sentence
of its motivation section, a sentence of its summary that gives a reason ("so that …",
"Previously …", "This allows …"), or the failure a fix ends. It must say something the
`what` does not.
"""

from __future__ import annotations

import difflib
import re

from ..models import BriefText, PullRequest
from ..reading import CleanTitle
from ..reading.news_fragments import news_fragment
from ..reading.pr_body import PRBody, Role, is_bot_body, read_body
from .english import as_clause, sentence_case
from .statements import about_the_same, as_statement, content_words, has_subject, sentences
from .substance import restates

_REASON = re.compile(
    r"(?i)\b(?:so that|so (?:users?|you|people|we|it|that)|in order to|to (?:allow|enable|avoid|"
    r"prevent|support|make|reduce|improve|let|speed)|which (?:allows|enables|makes|lets|means|"
    r"avoids|prevents|reduces|improves)|this (?:allows|enables|makes|lets|means|avoids|"
    r"prevents|reduces|improves|fixes|unblocks|ensures)|previously|before this (?:pr|change)|"
    r"without this|otherwise|because|since|due to|(?:was|were|is|are) (?:broken|failing|wrong|"
    r"incorrect|slow)|(?:fail|crash|hang|error|raise)(?:s|ed|ing)?\b|unblocks?|needed (?:for|by))"
)
_FAILURE = re.compile(
    r"(?i)\b(?:fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|hang(?:s|ing)?|hung|raises?|raised|"
    r"errors? out|broke|broken|incorrect(?:ly)?|wrong|segfault\w*|regress\w*|leak\w*|"
    r"never|always|silently|spurious)\b"
)
_FIRST_PERSON = re.compile(r"(?i)^(?:i|we|i'm|i've|we've|my|our)\b")
_REF_ONLY = re.compile(r"(?i)^(?:fixes|closes|resolves|see|related to|part of|addresses)\b")
_CODE_NAME = re.compile(r"`([^`]{2,80})`|\b([A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]+)\b")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_REFERENCE = re.compile(r"#\d+|\b(?:review|feedback|comments?|follow[- ]?up|nits?)\b", re.I)
_ABOUT_TESTS = re.compile(r"(?i)\b(?:unit ?tests?|tests?|testing|test cases?|CI)\b")
MAX_WHY_WORDS = 30
MAX_FRAGMENT_WORDS = 45
# who made the words of a brief, and by which rules: a change of the rules that changes
# what they write takes a new number, so briefs stored by the old rules are made anew
WRITER = "deterministic@3"


def brief_text(pr: PullRequest, clean: CleanTitle, claims: tuple[str, ...] = ()) -> BriefText:
    """The what and why of one PR, from its title, body and diff."""
    body = pr.body or ""
    title_clause = sentence_case(as_clause(clean.text))
    read = read_body(body) if body and not is_bot_body(body) else PRBody((), False)
    if read.commit_log and not any(about_the_same(text, clean.text) for text in read.prose[:2]):
        read = PRBody((), True)  # its first commit is another change's (a merged branch)
    what, source = _what(read, clean.text, title_clause)
    fragment = news_fragment(pr.files)
    stated = _fragment_statement(fragment.text) if fragment is not None else ""
    if stated:
        what, source = stated, "news fragment"  # the author's own words for the changelog
    what = spelled_as_code(what, pr)
    why, why_from = _why(read, what, clean.text, claims)
    return BriefText(what, spelled_as_code(why, pr) if why else "", source, why_from, WRITER)


def _fragment_statement(text: str) -> str:
    """A news fragment's first sentence, when it is one a note can use."""
    first = sentences(text)[0] if text else ""
    words = first.split()
    if not 4 <= len(words) <= MAX_FRAGMENT_WORDS or first.count("`") % 2:
        return ""
    return first.rstrip(".")


def _what(body: PRBody, title: str, title_clause: str) -> tuple[str, str]:
    """What users see, in the words of the body's user-facing section; else the body's
    statement with a subject of its own ("`cp` now keeps symlinks"); else a title that
    is a clear clause; else the body's first statement; else the title as it stands."""
    users = _statement(body, Role.USERS, title)
    if users:
        return users, "users"
    summary = _statement(body, Role.SUMMARY, title)
    if summary and has_subject(summary):
        return summary, "summary"
    if _clear(title_clause, title) or not summary:
        return title_clause, "title"
    return summary, "summary"


def _statement(body: PRBody, role: Role, title: str) -> str:
    for section in body.of(role):
        for text in (*section.paragraphs[:2], *section.items[:2]):
            for sentence in sentences(text)[:2]:
                stated = as_statement(sentence)
                if stated and about_the_same(stated, title) and _adds_to(stated, title):
                    return stated
    return ""


def _clear(clause: str, title: str) -> bool:
    """Whether a title made into a clause says what changed on its own: it opens with a
    verb (or has its own subject) and names more than one thing, and points at no other
    PR or issue ("Fix llada2 review #13598" says where to look, not what changed)."""
    words = clause.split()
    verb_led = clause != title or has_subject(clause)
    return verb_led and len(words) >= 4 and not _REFERENCE.search(clause)


def _adds_to(statement: str, title: str) -> bool:
    """Whether a statement says more than the title: words the title does not have. One
    that only restates the title is no better than it ("Adds docs" under "add docs for
    JoyAI-Image-Edit")."""
    return bool(content_words(statement) - content_words(title))


def _why(body: PRBody, what: str, title: str, claims: tuple[str, ...]) -> tuple[str, str]:
    for claim in claims:
        if not _same_as(claim, what):
            return _clause(claim), "result"
    for section in body.of(Role.MOTIVATION):
        for text in section.paragraphs[:1] + section.items[:1]:
            for sentence in sentences(text)[:1]:
                if _usable(sentence, what):
                    return _clause(sentence), "motivation"
    for section in body.of(Role.SUMMARY, Role.USERS, Role.RESULTS):
        # a summary's list items say what was done, part by part: no reasons
        texts = (
            section.paragraphs[:3]
            if section.role is Role.SUMMARY
            else section.paragraphs[:3] + section.items[:2]
        )
        for text in texts:
            for sentence in sentences(text)[:3]:
                if (_REASON.search(sentence) or _FAILURE.search(sentence)) and _usable(
                    sentence, what
                ):
                    kind = "failure" if _FAILURE.search(sentence) else "reason"
                    return _clause(sentence), kind
    return "", ""


def _usable(sentence: str, what: str) -> bool:
    words = sentence.split()
    return (
        not _ABOUT_TESTS.search(sentence)  # how it was tested is no reason a reader needs
        and 4 <= len(words) <= MAX_WHY_WORDS + 10
        and not _same_as(sentence, what)
        and not _REF_ONLY.match(sentence)
        and sentence.count("`") % 2 == 0
        and "http" not in sentence
        and not sentence.rstrip().endswith(":")
    )


def _same_as(sentence: str, what: str) -> bool:
    return restates(sentence, what) or restates(what, sentence)


def _clause(sentence: str) -> str:
    """A why as the digest quotes it: whole, without its closing stop, at most
    MAX_WHY_WORDS words (cut at a clause's end), first person made impersonal."""
    text = sentence.strip().rstrip(".;:")
    if _FIRST_PERSON.match(text):
        text = re.sub(r"(?i)^(?:we|i)\s+", "", text)
        text = sentence_case(text)
    words = text.split()
    if len(words) > MAX_WHY_WORDS:
        cut = re.search(r"^(.{20,}?)(?:[,;]\s|\s[-–—]\s)", text)
        text = cut.group(1) if cut and len(cut.group(1).split()) <= MAX_WHY_WORDS else ""
    return sentence_case(text) if text else ""


def spelled_as_code(text: str, pr: PullRequest) -> str:
    """`text` with each code name it writes that the diff does not, but writes one close
    to, spelled as the diff does (a title's typo `preverse_empty_path` → the code's
    `url_preserve_empty_path`). Names the diff writes, and names with no close match,
    stay as written."""
    names = _diff_names(pr)
    if not names:
        return text

    def respell(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name in names or not _IDENT.fullmatch(name):
            return match.group(0)
        close = [n for n in names if name in n and len(n) <= len(name) + 12]
        close = close or difflib.get_close_matches(name, names, n=1, cutoff=0.85)
        if not close:
            return match.group(0)
        return match.group(0).replace(name, close[0])

    return _CODE_NAME.sub(respell, text)


def _diff_names(pr: PullRequest) -> frozenset[str]:
    found: set[str] = set()
    for change in pr.files:
        if change.patch:
            found.update(_IDENT.findall(change.patch))
    return frozenset(found)
