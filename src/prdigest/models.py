"""The records every stage passes along. Frozen: stages never mutate each other's data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    additions: int | None = None  # None: binary or stats unavailable
    deletions: int | None = None
    old_path: str | None = None  # set on renames
    binary: bool = False
    # the file's unified diff from its first `@@` hunk, as GitHub's files API returns it;
    # None when the source gave none (binary, too big, or a source without diffs)
    patch: str | None = None
    patch_truncated: bool = False  # the source cut the diff short


@dataclass(frozen=True, slots=True)
class PullRequest:
    """One landed change (a squash-merged PR, or a direct push when `number` is None),
    or, from the GitHub API, a PR in any state."""

    repo: str  # owner/name
    number: int | None
    title: str
    body: str = ""
    sha: str | None = None  # the landing commit; None for a PR not merged
    parents: tuple[str, ...] = ()
    number_source: str | None = (
        None  # title | pull_request_resolved | pull_request_trailer | merge_subject
    )
    author_name: str = ""
    author_email: str = ""
    author_login: str | None = None  # GitHub login when known
    created_at: datetime | None = None  # PR opened (GitHub only)
    merged_at: datetime | None = None  # landed: the commit's committer date for git
    authored_at: datetime | None = None
    updated_at: datetime | None = None
    state: str = "merged"  # merged | open | closed
    draft: bool = False
    source: str = "git"  # git | jsonl | github
    labels: tuple[str, ...] = ()
    files: tuple[FileChange, ...] = ()
    trailers: tuple[tuple[str, tuple[str, ...]], ...] = ()  # ordered (key, values)
    # the source's payload (JSON), kept as the store's `raw`: every field above derives from it
    raw: Mapping[str, object] | None = field(default=None, compare=False, hash=False)

    @property
    def is_direct_push(self) -> bool:
        return self.number is None

    @property
    def author(self) -> str:
        """The most stable identity we have: login, else e-mail, else name."""
        return self.author_login or self.author_email or self.author_name

    @property
    def additions(self) -> int:
        return sum(f.additions or 0 for f in self.files)

    @property
    def deletions(self) -> int:
        return sum(f.deletions or 0 for f in self.files)

    def trailer(self, key: str) -> tuple[str, ...]:
        wanted = key.lower()
        for name, values in self.trailers:
            if name.lower() == wanted:
                return values
        return ()

    def url(self) -> str | None:
        if self.number is None:
            return f"https://github.com/{self.repo}/commit/{self.sha}" if self.sha else None
        return pr_url(self.repo, self.number)


def pr_url(repo: str, number: int) -> str:
    return f"https://github.com/{repo}/pull/{number}"


# The quickstart's name for a clone with no GitHub origin (`quickstart/<folder>`): no
# GitHub repository is known, so a digest cites its PRs by number, without links.
TRY_OUT_OWNER = "quickstart/"


def links_to_github(repo: str) -> bool:
    """Whether `repo` names a GitHub repository that its PRs can link to."""
    return not repo.startswith(TRY_OUT_OWNER)


@dataclass(frozen=True, slots=True)
class Classification:
    """Area and kind of one PR, with what decided each (a rule id or `model:<name>`)."""

    area: str
    kind: str
    area_rule: str
    kind_rule: str
    confidence: float = 1.0  # 1.0 for a rule; the model's probability otherwise
    profile: str = ""


@dataclass(frozen=True, slots=True)
class Report:
    """A written digest or release note, as stored and published."""

    repo: str
    kind: str  # digest | release_notes
    window_start: str  # YYYY-MM-DD (inclusive)
    window_end: str  # YYYY-MM-DD (inclusive)
    writer: str  # deterministic | llm
    title: str
    markdown: str
    context: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class CachedReply:
    """An LLM reply as cached: the writer keys and reads it, the store keeps it."""

    key: str  # sha256 of what is kept and the server (`write.llm.cache.profile_key`)
    model: str
    content: str
    prompt_tokens: int
    completion_tokens: int
    exact_usage: bool  # True when the server reported `usage`


@dataclass(frozen=True, slots=True)
class BriefText:
    """The words of a PR's brief, as made once for its content and stored: `what` it does
    (a sentence without its closing stop, Markdown inline), `why` (its stated reason or
    result, or ""), where each was read, who wrote them, and what of a model's words
    verification replaced with the deterministic ones, and why."""

    what: str
    why: str = ""
    what_from: str = "title"  # users | summary | title | news fragment | model
    why_from: str = ""  # result | reason | before | docs | release | notice | model, or ""
    writer: str = "deterministic"  # `deterministic@N` or `model:<name>@<prompt version>`
    replaced: str = ""  # "what: names `Foo`, which the PR does not; …", or ""
