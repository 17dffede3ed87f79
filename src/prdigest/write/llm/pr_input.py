"""What the model is shown of one PR, and everything its sentences may rest on.

The model sees the title, the labels, the changed files with their line counts, the
opening of the description (trailers, cc lists, ghstack stacks, test plans and HTML
comments taken out) and an excerpt of the diff, library code first: each within its
share of a token budget, so one request fits any server's context. Verification reads
more (`evidence`): the title, the whole description, the labels, every path and every
line of the diff. PR text is written by strangers: it is data, never an instruction
(`brief_prompt` keeps it between markers it cannot forge).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...models import PullRequest
from ...reading.file_roles import FileRole, file_role
from .tokens import estimate_tokens

_BOILERPLATE_LINE = re.compile(
    r"^\s*(differential revision|pull request resolved|pull-request|ghstack-source-id|"
    r"signed-off-by|co-authored-by|approved by|reviewed by|reviewers|subscribers|tags|"
    r"change-id|fbshipit-source-id|imported from github|x-github|cc\s*@|stack from \[ghstack\]|"
    r"\*\s*(__->__\s*)?#\d+|\[ghstack-poisoned\]|\*\s*update\s*$)",
    re.IGNORECASE,
)
_TEST_PLAN = re.compile(r"^\s*(#+\s*)?test(?:ing)?[ _-]?(?:plan|done)?\s*:?\s*$", re.IGNORECASE)
_HEADING = re.compile(r"^\s*#+\s")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_BLANK_RUN = re.compile(r"\n{3,}")
_WORD_CUT = re.compile(r"\S+\s*")
MAX_EVIDENCE = 400_000  # characters of diff read for verification: enough for any sentence
MAX_FILES = 8  # files listed by name; the rest counted
# a request's data: the description's and the diff's shares of its token budget
BODY_SHARE, DIFF_SHARE = 0.55, 0.45
# what shows best what a change does: library code, then examples, tools, the build; tests last
_ORDER = {FileRole.LIBRARY: 0, FileRole.EXAMPLE: 1, FileRole.TOOL: 2, FileRole.BUILD: 3,
          FileRole.TEST: 8}  # fmt: skip


def _rank(path: str) -> int:
    return _ORDER.get(file_role(path), 5)


@dataclass(frozen=True)
class PRInput:
    """One PR as a request shows it, and the text its sentences are checked against."""

    number: int
    key: str  # the content key its brief is stored under (`analyze.pr_reading.content_key`)
    title: str
    labels: tuple[str, ...]
    files: tuple[str, ...]  # "path (+12 -3)", library code first
    more_files: int  # files changed beyond those listed
    body: str  # the description's opening, cleaned, within its budget
    diff: str  # an excerpt of the diff, library code first, within its budget
    evidence: str  # title, whole description, labels, paths and diff: what a sentence may use


def clean_body(body: str) -> str:
    """The description without trailers, cc lists, stack lists, test plans and HTML
    comments."""
    kept: list[str] = []
    skipping = False
    for line in _COMMENT.sub("", body or "").splitlines():
        if _TEST_PLAN.match(line):
            skipping = True
            continue
        if skipping and _HEADING.match(line):
            skipping = False
        if skipping or _BOILERPLATE_LINE.match(line):
            continue
        kept.append(line.rstrip())
    return _BLANK_RUN.sub("\n\n", "\n".join(kept)).strip()


def trim_tokens(text: str, budget: int) -> str:
    """The leading words of `text` that fit in `budget` tokens (its lines kept), "…" when
    cut."""
    if estimate_tokens(text) <= budget:
        return text
    out = ""
    for match in _WORD_CUT.finditer(text):
        if estimate_tokens(out + match.group(0)) > budget - 1:
            break
        out += match.group(0)
    return out.rstrip() + " …"


def pr_input(pr: PullRequest, key: str, budget: int) -> PRInput:
    """The PR within `budget` tokens of data (title, labels and file list are always
    whole)."""
    files = sorted(pr.files, key=lambda f: (_rank(f.path), f.path))
    listed = tuple(_file_line(f.path, f.additions, f.deletions) for f in files[:MAX_FILES])
    body = clean_body(pr.body)
    return PRInput(
        number=pr.number or 0,
        key=key,
        title=pr.title.strip(),
        labels=tuple(pr.labels),
        files=listed,
        more_files=max(0, len(files) - MAX_FILES),
        body=trim_tokens(body, int(budget * BODY_SHARE)) if budget > 0 else "",
        diff=diff_excerpt(pr, int(budget * DIFF_SHARE)) if budget > 0 else "",
        evidence=evidence_of(pr),
    )


def smaller(pr: PRInput) -> PRInput:
    """The same PR with half its description and diff: for a server whose context the
    request did not fit."""
    return replace(
        pr,
        body=trim_tokens(pr.body, estimate_tokens(pr.body) // 2),
        diff=trim_tokens(pr.diff, estimate_tokens(pr.diff) // 2),
    )


def _file_line(path: str, additions: int | None, deletions: int | None) -> str:
    if additions is None and deletions is None:
        return path
    return f"{path} (+{additions or 0} -{deletions or 0})"


def diff_excerpt(pr: PullRequest, budget: int) -> str:
    """The changed lines of the diff, library code first and tests last, each file under
    its path, within `budget` tokens: what the change does, in the code's own names."""
    ranked = sorted((f for f in pr.files if f.patch), key=lambda f: (_rank(f.path), f.path))
    out: list[str] = []
    used = 0
    for change in ranked:
        lines = [
            line
            for line in (change.patch or "").splitlines()
            if line[:1] in "+-" and line[1:].strip() and not line.startswith(("+++", "---"))
        ]
        if not lines:
            continue
        header = f"--- {change.path}"
        cost = estimate_tokens(header)
        if used + cost + 8 > budget:
            break
        out.append(header)
        used += cost
        for line in lines:
            cost = estimate_tokens(line) + 1
            if used + cost > budget:
                out.append("…")
                return "\n".join(out)
            out.append(line[:200])
            used += cost
    return "\n".join(out)


def evidence_of(pr: PullRequest) -> str:
    """Everything a sentence about the PR may rest on: its title, whole description,
    labels, every path it changed and its diff."""
    parts = [pr.title, pr.body or "", " ".join(pr.labels)]
    parts += [p for f in pr.files for p in (f.path, f.old_path) if p]
    size = 0
    for change in pr.files:
        if change.patch and size < MAX_EVIDENCE:
            parts.append(change.patch[: MAX_EVIDENCE - size])
            size += len(change.patch)
    return "\n".join(parts)
