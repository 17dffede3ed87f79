"""A PR body read as its author wrote it: sections by their role (what the change is, why,
what users see, how it was tested, a template's checklist), each with its paragraphs,
list items and code blocks; template comments, trailers, ghstack lists, bot footers and
collapsed `<details>` dropped. Parsed with markdown-it (CommonMark), not by lines, so a
list, a fence or an HTML comment is read as Markdown reads it.

A squash merge's body is often the list of its commits (`* fix tests`, `* up`): such a
body is a `commit_log`, whose items say how the work went, not what it does; its first
item is kept as the description when it says more than one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token


class Role(StrEnum):
    """What a section of a body is for."""

    SUMMARY = "summary"  # the change itself (untitled opening text too)
    MOTIVATION = "motivation"  # why: the problem, the context, who asked
    USERS = "users"  # what users see: release notes, user-facing changes, migration
    RESULTS = "results"  # benchmarks, measurements
    TESTING = "testing"  # how it was tested: never the change
    CHECKLIST = "checklist"  # a template's boxes, reviewers, links
    OTHER = "other"


# heading words → role, first match wins (lower case, punctuation dropped)
_ROLES: tuple[tuple[Role, re.Pattern[str]], ...] = (
    (
        Role.TESTING,
        re.compile(
            r"\btest(?:s|ing|ed)?\b|\bverif|\bvalidat|\breproduc|\brepro\b|how to run|\bci\b"
        ),
    ),
    (
        Role.CHECKLIST,
        re.compile(
            r"checklist|before submitting|who can review|reviewers?|related (?:issues?|prs?)|\blinks?\b|\bcc\b|issues? fixed|fixes|closes|ai (?:assistance|usage|disclosure)|breakdown|stack|todo|notes? for reviewers?"
        ),
    ),
    (
        Role.USERS,
        re.compile(
            r"user.?facing|release ?notes?|changelog|\bbc\b|backwards?.?compat|breaking|migrat|upgrade|deprecat|\busage\b|\bapi\b|how to use|\bexample"
        ),
    ),
    (
        Role.RESULTS,
        re.compile(r"benchmark|result|perf|measure|speed|memory|accuracy|numbers|impact"),
    ),
    (
        Role.MOTIVATION,
        re.compile(r"motivation|\bwhy\b|context|background|problem|issue|rationale|root cause|bug"),
    ),
    (
        Role.SUMMARY,
        re.compile(
            r"summary|description|what|overview|changes?|details?|tl;?dr|proposal|approach|implementation|solution|this pr|\bpr\b|purpose|about"
        ),
    ),
)
_TRAILER = re.compile(
    r"(?im)^\s*(?:co-authored-by|signed-off-by|reviewed[- ]by|approved[- ]by|differential revision|"
    r"pull request resolved|pull-request|ghstack-source-id|ghstack-comment-id|fbshipit-source-id|"
    r"reviewed-on|change-id|x-link|imported from|bypass-github\S*|rollback plan|"
    r"@exported-using|subscribers|tags|tasks)\s*:.*$"
)
_CC = re.compile(r"(?im)^\s*cc:?\s+@.*$|^\s*@\w[\w-]*(?:\s+@\w[\w-]*)+\s*$")
_STACK = re.compile(r"(?ims)^\s*stack from \[?ghstack.*?(?=\n\s*\n(?!\s*\*)|\Z)")
_DETAILS = re.compile(r"(?is)<details\b.*?</details>")
_COMMENT = re.compile(r"(?s)<!--.*?-->")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>")
_TAG = re.compile(r"</?(?:p|br|sub|sup|em|b|i|strong|a|div|span|h\d|ul|li|ol)\b[^>]*>", re.I)
_PSEUDO_HEADING = re.compile(
    r"^\s*(?:\*\*|__)?([A-Za-z][\w /&?'()-]{0,40}?)(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$"
)
_LEADING_LABEL = re.compile(
    r"^(?:\*\*|__)?([A-Z][\w /&'-]{1,30}?)(?:\*\*|__)?:(?:\*\*|__)?\s+(?=\S)"
)
_CHECKBOX = re.compile(r"^\s*\[[ xX]\]")
_BOT = re.compile(
    r"(?i)^\s*bumps \S+ from|\bdependabot\b|\brenovate\b|this pr contains the following updates|"
    r"automated changes by|^\s*this (?:pr|pull request) was (?:automatically )?(?:created|generated)"
)
_AI_NOTE = re.compile(r"(?im)^.*(?:generated with|🤖).*$")
_WS = re.compile(r"\s+")
_LINK = re.compile(r"\[([^\]]+)\]\((?:https?://|#)[^)]*\)")  # a Markdown link: its text
_MD = MarkdownIt("commonmark")


@dataclass(frozen=True, slots=True)
class Section:
    heading: str  # as written, "" for the text before any heading
    role: Role
    paragraphs: tuple[str, ...]  # prose, whitespace collapsed, Markdown inline kept
    items: tuple[str, ...]  # list items, in order (nested ones flattened)
    code: tuple[str, ...]  # fenced or indented code blocks


@dataclass(frozen=True, slots=True)
class PRBody:
    sections: tuple[Section, ...]
    commit_log: bool  # the body lists the squashed commits, not what the PR does

    def of(self, *roles: Role) -> list[Section]:
        return [s for s in self.sections if s.role in roles]

    @property
    def prose(self) -> list[str]:
        """Every paragraph and list item of the sections that may say what or why."""
        keep = (Role.SUMMARY, Role.MOTIVATION, Role.USERS, Role.RESULTS, Role.OTHER)
        return [text for s in self.of(*keep) for text in (*s.paragraphs, *s.items)]


def role_of(heading: str) -> Role:
    words = re.sub(r"[^a-z0-9;? ]+", " ", heading.lower())
    for role, pattern in _ROLES:
        if pattern.search(words):
            return role
    return Role.OTHER


@lru_cache(maxsize=8192)
def read_body(body: str) -> PRBody:
    """The body's sections. Bodies repeat across a digest's stages: read once each."""
    text = _clean(body or "")
    log = _is_commit_log(text)
    if log:
        text = _first_commit(text)
    builder = _Builder()
    _walk(_MD.parse(text), builder)
    return PRBody(tuple(builder.done()), log)


def _clean(body: str) -> str:
    text = body.replace("\r\n", "\n")
    for pattern in (_COMMENT, _DETAILS, _STACK, _IMAGE):
        text = pattern.sub("\n", text)
    text = _TRAILER.sub("", _AI_NOTE.sub("", text))
    text = _CC.sub("", text)
    return _TAG.sub("", text)


class _Builder:
    def __init__(self) -> None:
        self.heading = ""
        self.role = Role.SUMMARY
        self.paragraphs: list[str] = []
        self.items: list[str] = []
        self.code: list[str] = []
        self.out: list[Section] = []

    def start(self, heading: str) -> None:
        self._flush()
        self.heading = heading.strip().strip("*_: ")
        self.role = role_of(self.heading)

    def _flush(self) -> None:
        if self.paragraphs or self.items or self.code:
            self.out.append(
                Section(
                    self.heading,
                    self.role,
                    tuple(self.paragraphs),
                    tuple(self.items),
                    tuple(self.code),
                )
            )
        self.paragraphs, self.items, self.code = [], [], []

    def done(self) -> list[Section]:
        self._flush()
        return self.out


def _walk(tokens: list[Token], out: _Builder) -> None:
    depth = 0  # inside a list
    heading_next = False
    for token in tokens:
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif kind == "heading_open":
            heading_next = True
        elif kind == "inline" and heading_next:
            heading_next = False
            out.start(token.content)
        elif kind in ("fence", "code_block"):
            out.code.append(token.content.rstrip())
        elif kind == "inline":
            _inline(token.content, depth > 0, out)


def _inline(content: str, in_list: bool, out: _Builder) -> None:
    lines = content.split("\n")
    first = lines[0]
    heading = _PSEUDO_HEADING.fullmatch(first) if len(first) <= 44 else None
    if heading and (first.rstrip().endswith(":") or first.lstrip().startswith(("**", "__"))):
        if not in_list or len(lines) == 1:
            out.start(heading.group(1))
            lines = lines[1:]
    text = _LINK.sub(r"\1", _WS.sub(" ", " ".join(lines))).strip()
    if not in_list:
        label = _LEADING_LABEL.match(text)
        if label and role_of(label.group(1)) is not Role.OTHER:
            out.start(label.group(1))  # `Motivation: the old path …` on one line
            text = text[label.end() :]
    box = _CHECKBOX.match(text)
    if not text or (box and not text.startswith(("[x]", "[X]"))):
        return  # an empty box of a template: nothing its author said
    if box:
        text = "[x] " + text[box.end() :].strip()
    (out.items if in_list else out.paragraphs).append(text)


_COMMIT_ITEM = re.compile(r"(?m)^\* \S")


def _is_commit_log(text: str) -> bool:
    """GitHub's squash message: the body opens with `* <commit subject>`, and most of its
    blocks are such items (`* up`, `* fix tests`), with no Markdown heading."""
    body = text.strip()
    if not body.startswith("* ") or re.search(r"(?m)^#{1,6} ", body):
        return False
    blocks = [b.strip() for b in re.split(r"\n\s*\n", body) if b.strip()]
    listed = sum(b.startswith("* ") for b in blocks)
    return listed >= 2 and listed >= 0.4 * len(blocks)


def _first_commit(text: str) -> str:
    """A commit log keeps its first commit (often the PR's own message, with the prose
    under it); the other commits' subjects say how the work went, not what it does."""
    starts = [m.start() for m in _COMMIT_ITEM.finditer(text)]
    end = starts[1] if len(starts) > 1 else len(text)
    return text[starts[0] + 2 : end].strip() if starts else text


def is_bot_body(body: str) -> bool:
    """A body written by a bot (dependency updates, generated PRs): no author's words."""
    return bool(_BOT.search(body[:2000]))


_ELLIPSIS = ("…", "...")


def continued_title(title: str, body: str) -> tuple[str, str]:
    """A title GitHub cut at its length limit (`… when st…`) continues on the body's first
    line (`…reams are used`): the title whole, and the body without that line."""
    head = (body or "").lstrip()
    if not title.rstrip().endswith(_ELLIPSIS) or not head.startswith(_ELLIPSIS):
        return title, body
    first, _, rest = head.partition("\n")
    cut = title.rstrip()
    cut = cut[: -len(next(e for e in _ELLIPSIS if cut.endswith(e)))]
    tail = first[len(next(e for e in _ELLIPSIS if first.startswith(e))) :]
    return f"{cut}{tail}".strip(), rest


# the author saying the change is the code's form alone: "Small refactoring for #N", "A
# small cleanup now that …", "No functional change", "preserving the existing behavior"
_OPENS_AS_REFACTOR = re.compile(
    r"(?i)^(?:this is |this pr is )?(?:just |purely )?(?:an? )?(?:small |minor |simple |tiny |"
    r"pure |internal )?(?:refactor(?:ing)?|clean-?up|code cleanup|nfc)\b"
)
_NO_BEHAVIOUR_CHANGE = re.compile(
    r"(?i)\bno (?:functional|functionality|behaviou?r(?:al)?|user[- ]facing|semantic) changes?\b|"
    r"\b(?:should|does|will) not change (?:any |the )?(?:behaviou?r|functionality)\b|"
    r"\bpreserv\w* (?:the )?existing\b[\w\s-]{0,40}\bbehaviou?r\b|\bpure(?:ly)? (?:a )?refactor|"
    r"\bnfc\b"
)


def says_internal(body: str) -> bool:
    """Whether the body calls the change a refactor or cleanup, or says it changes no
    behaviour: its author's word that users see nothing, whatever its size."""
    prose = read_body(body).prose if body else []
    if prose and _OPENS_AS_REFACTOR.match(prose[0]):
        return True
    return any(_NO_BEHAVIOUR_CHANGE.search(text) for text in prose)
