"""The words of a PR's brief: `what` it does for the people who use the project (one
sentence, present tense, third person) and `why` (the result or reason the PR states, or
nothing; never a size). The subject a bullet names it by is `pr_briefs.subject_of`'s.

`what` comes from the author's own words for users, in this order (`_what`): the news
fragment the PR adds for the changelog (towncrier's `changelog/123.bugfix.rst`), what its
body's user-facing or release-notes section says, a summary statement with a subject of
its own ("`cp` now keeps symlinks") or one that says a short title in full, then the title
made into a clause ("Add X" → "Adds X"). A body's statement must speak of what the title
names, or it is a detail of something else. Names are spelled as the diff spells them: a
title's `preverse_empty_path` is written `url_preserve_empty_path` when that is the name
the code has.

`why` is, in order (`brief_why.stated_why`): a measured result the PR states
(`find_claims`), a reason clause of a sentence stating the change ("so that …", "which
allows …", "This enables …"), the old state a motivation or a fix's summary names
("Previously …"); failing all, the opening sentence of a docs page the PR adds
(`docs_intro`); a release's why is its changelog's highlights. It must say something the
`what` does not.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from pathlib import Path

from ..models import BriefText, PullRequest
from ..reading import CleanTitle, clean_title, strip_part_markers
from ..reading.file_roles import is_library
from ..reading.news_fragments import news_fragment
from ..reading.patterns import normalize_tag
from ..reading.pr_body import PRBody, Role, continued_title, is_bot_body, read_body
from ..reading.releases import changelog_items, released_name, released_version
from .brief_why import stated_why
from .docs_intro import docs_intro
from .english import as_clause, lowered_start, sentence_case, third_person, verb_base
from .statements import (
    about_the_same,
    as_statement,
    content_words,
    has_subject,
    sentences,
    shortened,
)

_CODE_NAME = re.compile(r"`([^`]{2,80})`|\b([A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]+)\b")
_NAMES_CODE = re.compile(r"`|[A-Za-z]\.[A-Za-z]|\w_\w|[a-z][A-Z]|\b[A-Z]{3,}\b|--\w")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_REFERENCE = re.compile(r"#\d+|\b(?:review|feedback|comments?|follow[- ]?up|nits?)\b", re.I)
_FIX = re.compile(r"(?i)^fix(?:es|ed)?\b")
MAX_FRAGMENT_WORDS = 45


def _rules_version() -> str:
    """A digest of the rules the words are made by (these modules' source): briefs stored
    under other rules are made anew, never read back as if these had made them."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in _RULES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:10]


_RULES = (
    "brief_text.py",
    "brief_why.py",
    "statements.py",
    "docs_intro.py",
    "english.py",
    "../reading/pr_body.py",
    "../reading/titles.py",
    "../reading/releases.py",
    "../reading/news_fragments.py",
)
_BUG_VERB = re.compile(
    r"(?i)\b(?:raises|fails|crashes|returns|mishandles|ignores|breaks|hangs|throws|produces|"
    r"leaks|drops|loses|overflows|errors|doesn't|isn't|can't|never|always)\b"
)
_ISSUE_REF = re.compile(r"(?i)[\s,;(]*(?:(?:closes|fixes|fix|resolves|see|for)\s+)?#\d+\)?\s*$")
_FIX_TAG = frozenset({"fix", "bug fix", "bugfix", "hotfix", "bug"})
# who made the words of a brief, and by which rules
WRITER = f"deterministic@{_rules_version()}"


def brief_text(pr: PullRequest, clean: CleanTitle, claims: tuple[str, ...] = ()) -> BriefText:
    """The what and why of one PR, from its title, body and diff."""
    title, body = continued_title(pr.title, pr.body or "")
    if title != pr.title:  # the title GitHub cut short, whole again
        clean = clean_title(title, pr.number)
    # a sentence names no part (`pt.2`, `(1/3)`) and no issue (`… #28151`): the bullet
    # says the series, the link the PR
    text = _ISSUE_REF.sub("", strip_part_markers(clean.text))
    if len(text.split()) > 1:  # not `PR #5`, a title that was only its number
        clean = CleanTitle(text, clean.tags, clean.series_marker)
    typed = _as_typed(clean.text, title)
    clause = as_clause(typed)
    fix_tag = _FIX_TAG.intersection(normalize_tag(t) for t in clean.tags)
    if clause == typed and fix_tag and not has_subject(typed):
        # `[Fix] Empty generator passed to fit raises IndexError`: the title names the bug;
        # `fix: crash on empty input` names what is fixed
        bug = _FINITE.search(f" {typed} ") or _BUG_VERB.search(typed)
        clause = f"Fixes {'a bug where ' if bug else ''}{lowered_start(typed)}"
    elif clause == typed and not has_subject(typed):
        clause = _given_a_verb(typed, pr)
    title_clause = _and_verbs(sentence_case(clause))
    read = read_body(body) if body and not is_bot_body(body) else PRBody((), False)
    if read.commit_log and not any(about_the_same(text, clean.text) for text in read.prose[:2]):
        read = PRBody((), True)  # its first commit is another change's (a merged branch)
    what, source = _what(read, clean.text, title_clause)
    fragment = news_fragment(pr.files)
    stated = _fragment_statement(fragment.text) if fragment is not None else ""
    if stated:
        what, source = stated, "news fragment"  # the author's own words for the changelog
    what = spelled_as_code(what, pr)
    fix = bool(_FIX.match(clean.text))
    why, why_from = stated_why(read, what, claims, fix)
    if not why:  # no reason given: the page it adds says what its subject is
        why = docs_intro(pr.files, clean.text)
        why_from = "docs" if why else ""
    version = released_version(pr)
    if version:  # a release is told as one, with what it brings in its changelog's words
        what, source = f"Releases {released_name(pr) or 'version'} {version}", "release"
        brings = [_third_person(_clip(item)) for item in changelog_items(pr)]
        if brings:
            why, why_from = "Highlights: " + "; ".join(brings), "release"
    return BriefText(what, spelled_as_code(why, pr) if why else "", source, why_from, WRITER)


def _third_person(text: str) -> str:
    """A changelog's imperative in the third person ("add `x`" → "adds `x`")."""
    first, _, rest = text.partition(" ")
    verb = verb_base(first, third=False)
    if verb and verb == first.lower() and rest:
        return f"{third_person(verb)} {rest}"
    return text


def _fragment_statement(text: str) -> str:
    """A news fragment's first sentence, when it is one a note can use."""
    first = sentences(text)[0] if text else ""
    words = first.split()
    if not 4 <= len(words) <= MAX_FRAGMENT_WORDS or first.count("`") % 2:
        return ""
    verb = verb_base(words[0], third=False) or ("issue" if words[0] == "Issue" else "")
    if verb and verb == words[0].lower():  # "Issue a warning when …": the changelog's imperative
        first = f"{third_person(verb).capitalize()} {first.split(' ', 1)[1]}"
    return shortened(first) or first.rstrip(".")


def _what(body: PRBody, title: str, title_clause: str) -> tuple[str, str]:
    """What users see, in the words of the body's user-facing section; else the body's
    statement with a subject of its own ("`cp` now keeps symlinks"); else a title that
    is a clear clause; else the body's first statement; else the title as it stands."""
    users = _statement(body, Role.USERS, title)
    if users:
        return users, "users"
    summary = _statement(body, Role.SUMMARY, title)
    clear = _clear(title_clause, title)
    if summary and has_subject(summary) and not (body.commit_log and clear):
        return summary, "summary"
    # a squashed commit's words are how the work began ("start removing vconst"), not
    # what landed: they stand in only for a title that says nothing on its own
    if summary and not body.commit_log and _fuller(summary, title):
        return summary, "summary"  # "Add telemetry to trainers" said in full by its body
    if clear or not summary or (body.commit_log and title_clause != title):
        return title_clause, "title"
    wanted = content_words(title)
    if 2 * len(wanted & content_words(summary)) < len(wanted):
        # the body's first action is a detail of another subject: "New Neutron flow
        # support for ReLU" is not "removes unnecessary checks for ReLU conversion"
        return title_clause, "title"
    return summary, "summary"


def _fuller(statement: str, title: str) -> bool:
    """A short title (five words or fewer) that its body says in full, with three words
    of substance more."""
    return len(title.split()) <= 5 and len(content_words(statement) - content_words(title)) >= 3


def _clip(item: str, words: int = 14) -> str:
    """A changelog entry short enough to list: whole, or cut at a clause's end."""
    if len(item.split()) <= words:
        return item
    head = re.split(r",\s|;\s|\s[-–—]\s|\s\(", item)[0]
    return head if len(head.split()) <= words else " ".join(item.split()[:words]) + " …"


_NOUN_ACTION = re.compile(
    r"(?i)^(?P<what>.+?)\s+(?P<noun>fix(?:es)?|clean-?ups?|refactor(?:ing)?|support|improvements?|"
    r"updates?|removal|cleaning)$"
)
_SUPPORT_FOR = re.compile(r"(?i)^\S.*?\ssupport\s+(?:for|in|to|on|of)\s+\S")
_NOUN_VERBS = {
    "fix": "Fixes", "fixes": "Fixes", "cleanup": "Cleans up", "cleanups": "Cleans up",
    "clean-up": "Cleans up", "clean-ups": "Cleans up", "cleaning": "Cleans up",
    "refactor": "Refactors", "refactoring": "Refactors", "support": "Adds support for",
    "improvement": "Improves", "improvements": "Improves", "update": "Updates",
    "updates": "Updates", "removal": "Removes",
}  # fmt: skip
_LEADING_NOUN = re.compile(
    r"(?i)^(?P<noun>integration|implementation|introduction|migration|removal|refactor(?:ing)?|"
    r"clean-?up|optimi[sz]ation|deprecation)\s+(?:of\s+|for\s+)?(?P<rest>\S.*)$"
)
_LEADING_VERBS = {
    "integration": "Integrates", "implementation": "Implements", "introduction": "Introduces",
    "migration": "Migrates", "removal": "Removes", "refactor": "Refactors",
    "refactoring": "Refactors", "cleanup": "Cleans up", "clean-up": "Cleans up",
    "optimization": "Optimizes", "optimisation": "Optimizes", "deprecation": "Deprecates",
}  # fmt: skip
_FINITE = re.compile(
    r"(?i)\s(?:is|are|was|were|can|cannot|can't|will|should|must|has|have|does|do)\s"
)
_MOVED = re.compile(r"^(?P<what>\S+(?: \S+)?) to (?P<where>\S+)$")


def _given_a_verb(text: str, pr: PullRequest) -> str:
    """A title that names a change without its verb, given the verb its own words or its
    diff show: "Spec.py cleanups" → "Cleans up spec.py", "qr to mixin" → "Moves qr to
    mixin", "X86 with `Ops.INS`" (all new files) → "Adds X86 with `Ops.INS`". A title
    none of these fit stays as it is."""
    if _FINITE.search(text):
        return text  # "to and shard is noop for deviceless uop" has its verb
    leading = _LEADING_NOUN.match(text)
    if leading:
        rest = leading.group("rest")
        return f"{_LEADING_VERBS[leading.group('noun').lower()]} {rest}"
    if _SUPPORT_FOR.match(text):  # `VLM support for GOLDTrainer`
        return f"Adds {lowered_start(text)}"
    noun = _NOUN_ACTION.match(text)
    if noun:
        return f"{_NOUN_VERBS[noun.group('noun').lower()]} {noun.group('what')}"
    moved = _MOVED.match(text)
    if moved:
        return f"Moves {moved.group('what')} to {moved.group('where')}"
    created = sum(f.additions or 0 for f in pr.files if is_library(f.path) and not f.deletions)
    changed = sum((f.additions or 0) + (f.deletions or 0) for f in pr.files if is_library(f.path))
    if changed and created >= 0.6 * changed:
        return f"Adds {lowered_start(text)}"
    return text


def _as_typed(text: str, title: str) -> str:
    """The clean title with its first word as the author typed it when that is code:
    the cleaner capitalises `dtype.vec shapes` into `Dtype.vec shapes`."""
    first, _, rest = text.partition(" ")
    typed = first[:1].lower() + first[1:]
    if (
        typed != first
        and _NAMES_CODE.search(first)
        and re.search(rf"(?<![\w.]){re.escape(typed)}", title)
    ):
        return f"{typed} {rest}".strip()
    return text


_AND_VERB = re.compile(r"(?<=\w)(, and | and |, )([a-z]+)\b")


def _and_verbs(clause: str) -> str:
    """A clause's later verbs in the person of its first: "Adds X and consolidate Y" →
    "Adds X and consolidates Y" (only when the first verb was made third person)."""
    first = clause.split(" ", 1)[0]
    if not first.endswith("s") or not verb_base(first):
        return clause

    def third(match: re.Match[str]) -> str:
        word = match.group(2)
        base = verb_base(word, third=False)
        return match.group(1) + (third_person(base) if base and base == word else word)

    return _AND_VERB.sub(third, clause)


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
    named = len(words) >= 4 or (len(words) >= 2 and bool(_NAMES_CODE.search(clause)))
    return verb_led and named and not _REFERENCE.search(clause)


def _adds_to(statement: str, title: str) -> bool:
    """Whether a statement says more than the title: words the title does not have. One
    that only restates the title is no better than it ("Adds docs" under "add docs for
    JoyAI-Image-Edit")."""
    return bool(content_words(statement) - content_words(title))


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
        # the shortest name that holds it, never a test's; ties by name (a set has no order)
        close = sorted(
            (n for n in names if name in n and len(n) <= len(name) + 12 and "test" not in n),
            key=lambda n: (len(n), n),
        )
        close = close or difflib.get_close_matches(name, sorted(names), n=1, cutoff=0.8)
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
