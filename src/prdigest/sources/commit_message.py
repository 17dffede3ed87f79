"""Pure parsing of a landed commit's message: title, body, trailers, PR number.

The rules reproduce what made `../shared/data/*/prs.jsonl.gz`, so a clone synced
with `--git` gives the same titles, numbers and trailers as the published records.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# Trailer-like keys worth collecting wherever they appear: PyTorch, Phabricator
# and ghstack put several of them mid-body, not only in git's final trailer block.
_KNOWN_KEYS = (
    "Signed-off-by", "Co-authored-by", "Reviewed-by", "Acked-by", "Tested-by",
    "Reported-by", "Suggested-by", "Helped-by", "Assisted-by", "Co-developed-by",
    "Generated-by", "Change-Id", "Fixes", "Closes", "Resolves",
    "Pull Request resolved", "Pull-Request", "Approved by", "Differential Revision",
    "Reviewed By", "Pulled By", "ghstack-source-id", "ghstack PR number",
    "ghstack PR head", "ghstack PR base", "Merge bot PR head", "Merge bot PR base",
    "stack-info", "Reviewers", "Subscribers", "Tasks", "Tags", "cc",
)  # fmt: skip
_CANONICAL = {key.lower(): key for key in _KNOWN_KEYS}

# "Key: value" (the key may hold spaces, e.g. "Differential Revision").
_KEY_VALUE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9 _-]{0,40}?)\s*:\s+(\S.*?)\s*$")
# "Key:" alone, its value wrapped onto the next line.
_KEY_ONLY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9 _-]{0,40}?)\s*:\s*$")
# A git-style trailer token has a hyphen ("Bug-Id: 12"), which tells it from prose.
_GIT_TOKEN = re.compile(r"^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+):\s*(\S.*?)\s*$")

_TITLE_NUMBER = re.compile(r"\s*\(#([1-9][0-9]*)\)\s*$")
_MERGE_SUBJECT = re.compile(r"^Merge pull request #([1-9][0-9]*) from \S+")
_FENCE = "```"

# Trailers that name the PR by URL, in the order they are trusted.
_NUMBER_TRAILERS = (
    ("Pull Request resolved", "pull_request_resolved"),
    ("Pull-Request", "pull_request_trailer"),
    ("ghstack PR number", "ghstack_pr_number"),
)


@dataclass(frozen=True, slots=True)
class ParsedMessage:
    title: str
    body: str
    number: int | None
    number_source: str | None
    trailers: dict[str, list[str]]


def parse_message(message: str, repo: str) -> ParsedMessage:
    """Split a full commit message (as `%B` gives it) into the record's fields."""
    subject, body = split_message(message)
    trailers = parse_trailers(body)
    number, source = pr_number(repo, subject, body, trailers)
    title = subject
    if source == "title":
        title = _TITLE_NUMBER.sub("", subject).rstrip()
    elif source == "merge_subject" and body:
        # GitHub's merge commits carry the PR title as the first body line.
        first, _, rest = body.partition("\n")
        title, body = first.strip(), rest.strip("\n")
    return ParsedMessage(title, body, number, source, trailers)


def split_message(message: str) -> tuple[str, str]:
    lines = message.replace("\r\n", "\n").split("\n")
    subject = lines[0].strip()
    body = "\n".join(lines[1:]).strip("\n").rstrip()
    return subject, body


def parse_trailers(body: str) -> dict[str, list[str]]:
    """{key: [values]} from known keys anywhere (outside code fences) and from the
    final paragraph when it is a git trailer block. A line counts once per key."""
    lines = body.split("\n")
    found: dict[str, list[str]] = {}
    taken: set[tuple[int, str]] = set()

    def add(line_no: int, key: str, value: str) -> None:
        if (line_no, key) not in taken:
            taken.add((line_no, key))
            found.setdefault(key, []).append(value)

    for line_no, key, value in _known_key_lines(lines):
        add(line_no, key, value)
    for line_no, key, value in _trailer_block(lines):
        add(line_no, key, value)
    return found


def _known_key_lines(lines: list[str]) -> list[tuple[int, str, str]]:
    hits: list[tuple[int, str, str]] = []
    in_fence = False
    fenced = any(_FENCE in line for line in lines)  # most bodies have no code block
    for index, line in enumerate(lines):
        if fenced and line.lstrip().startswith(_FENCE):
            in_fence = not in_fence
            continue
        if in_fence or ":" not in line:
            continue
        match = _KEY_VALUE.match(line)
        if match:
            key = _CANONICAL.get(match.group(1).strip().lower())
            if key:
                hits.append((index, key, match.group(2)))
            continue
        match = _KEY_ONLY.match(line)
        if match and index + 1 < len(lines):
            key = _CANONICAL.get(match.group(1).strip().lower())
            wrapped = lines[index + 1].strip()
            if key and wrapped and not _KEY_VALUE.match(wrapped) and not _KEY_ONLY.match(wrapped):
                hits.append((index, key, wrapped))
    return hits


def _trailer_block(lines: list[str]) -> list[tuple[int, str, str]]:
    """The last paragraph's trailers, if every line of it is one (or a folded continuation)."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    start = end
    while start and lines[start - 1].strip():
        start -= 1
    hits: list[tuple[int, str | None, str]] = []
    for index in range(start, end):
        line = lines[index]
        if hits and line[:1].isspace():
            continue  # continuation of the previous trailer's value
        generic = _GIT_TOKEN.match(line)
        match = generic or _KEY_VALUE.match(line)
        if not match:
            return []
        key = match.group(1).strip()
        hits.append(
            (index, _CANONICAL.get(key.lower()) or (key if generic else None), match.group(2))
        )
    return [(index, key, value) for index, key, value in hits if key]


def pr_number(
    repo: str, subject: str, body: str, trailers: dict[str, list[str]]
) -> tuple[int | None, str | None]:
    """(number, where it came from) or (None, None) for a direct push."""
    match = _TITLE_NUMBER.search(subject)
    if match:
        return int(match.group(1)), "title"
    match = _MERGE_SUBJECT.match(subject)
    if match:
        return int(match.group(1)), "merge_subject"
    pull_url, ghstack_line = _pull_patterns(repo)
    for key, source in _NUMBER_TRAILERS:
        for value in trailers.get(key, ()):
            match = pull_url.search(value)
            if match:
                return int(match.group(1)), source
    match = ghstack_line.search(body)
    if match:
        return int(match.group(1)), "ghstack_pr_number"
    return None, None


@functools.lru_cache(maxsize=16)
def _pull_patterns(repo: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """This repository's PR URL, alone and on a ghstack line (compiled once per repo)."""
    url = rf"https?://github\.com/{re.escape(repo)}/pull/([1-9][0-9]*)"
    return re.compile(url, re.I), re.compile(rf"^ghstack PR number:\s*{url}", re.I | re.M)
