"""GitHub's JSON (REST and GraphQL), decoded where it enters into Structs that describe
just the fields we read, and parsed from them into `PullRequest` records.

A shape GitHub did not send as we asked (a wrong type, a missing field) is one clear
GitHubError naming the field (`decode`), never a traceback further on."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, TypeVar

import msgspec

from ...errors import GitHubError
from ...models import FileChange, PullRequest
from ...timeutil import parse_datetime

Number = Annotated[int, msgspec.Meta(ge=1)]  # a PR number: a positive integer

_T = TypeVar("_T")


def decode(data: object, shape: type[_T], what: str, fix: str) -> _T:
    """GitHub's decoded JSON `data` as `shape`, or one GitHubError saying which field of
    `what` (e.g. "the PR listing of o/r") is not as asked."""
    try:
        return msgspec.convert(data, shape)
    except msgspec.ValidationError as exc:
        raise GitHubError(f"GitHub sent {what} we cannot read ({exc})", fix) from None


# -- REST ------------------------------------------------------------------------------
class User(msgspec.Struct, frozen=True):
    login: str | None = None


class Label(msgspec.Struct, frozen=True):
    name: str | None = None


class RestPull(msgspec.Struct, frozen=True):
    """An object of `GET /repos/{repo}/pulls` (the listing sorts by `updated_at`)."""

    number: Number
    updated_at: str | None = None  # checked where read: `pull_updated_at`
    title: str | None = None
    body: str | None = None
    state: str | None = None
    draft: bool | None = None
    created_at: str | None = None
    merged_at: str | None = None
    merge_commit_sha: str | None = None
    user: User | None = None
    labels: list[Label] | None = None


class RestFile(msgspec.Struct, frozen=True):
    """An object of `GET /repos/{repo}/pulls/{n}/files`."""

    filename: str
    additions: int | None = None
    deletions: int | None = None
    status: str | None = None
    previous_filename: str | None = None


# -- GraphQL (the fields `graphql.PULLS_QUERY` asks for) -------------------------------
class PageInfo(msgspec.Struct, frozen=True):
    hasNextPage: bool | None = None  # noqa: N815 - GitHub's names
    endCursor: str | None = None  # noqa: N815


class FileNode(msgspec.Struct, frozen=True):
    path: str
    additions: int | None = None
    deletions: int | None = None


class FilesConnection(msgspec.Struct, frozen=True):
    pageInfo: PageInfo | None = None  # noqa: N815
    nodes: list[FileNode] | None = None


class Commit(msgspec.Struct, frozen=True):
    oid: str | None = None


class Labels(msgspec.Struct, frozen=True):
    nodes: list[Label] | None = None


class GraphQLPull(msgspec.Struct, frozen=True):
    """A node of our GraphQL listing."""

    number: Number
    title: str | None = None
    body: str | None = None
    state: str | None = None
    isDraft: bool | None = None  # noqa: N815
    createdAt: str | None = None  # noqa: N815
    updatedAt: str | None = None  # noqa: N815
    mergedAt: str | None = None  # noqa: N815
    author: User | None = None
    mergeCommit: Commit | None = None  # noqa: N815
    labels: Labels | None = None
    files: FilesConnection | None = None


# What we keep of a REST pull object as the row's raw payload (the rest is URLs).
_KEPT = (
    "number",
    "title",
    "state",
    "draft",
    "created_at",
    "updated_at",
    "merged_at",
    "merge_commit_sha",
)


def parse_rest_pull(raw: RestPull, repo: str, files: Sequence[FileChange] = ()) -> PullRequest:
    """One object of `GET /repos/{repo}/pulls` (plus its files) → a PullRequest."""
    try:
        merged_at = _when(raw.merged_at)
        state = "merged" if merged_at else ("open" if raw.state == "open" else "closed")
        login = raw.user.login if raw.user else None
        labels = tuple(label.name for label in raw.labels or () if label.name)
        trimmed: dict[str, object] = {key: getattr(raw, key) for key in _KEPT}
        trimmed["user"] = {"login": login}
        trimmed["labels"] = [{"name": name} for name in labels]
        return PullRequest(
            repo=repo,
            number=raw.number,
            title=raw.title or "",
            body=raw.body or "",
            sha=raw.merge_commit_sha if merged_at and raw.merge_commit_sha else None,
            number_source="github",
            author_login=login,
            created_at=_when(raw.created_at),
            merged_at=merged_at,
            updated_at=_required_when(raw.updated_at),
            state=state,
            draft=bool(raw.draft),
            source="github",
            labels=labels,
            files=tuple(files),
            raw=trimmed,
        )
    except ValueError as exc:
        raise GitHubError(
            f"GitHub sent a pull request we cannot read ({exc})",
            "report this with the repository name",
        ) from None


def parse_rest_file(raw: RestFile) -> FileChange:
    """One object of `GET /repos/{repo}/pulls/{n}/files`."""
    return FileChange(
        path=raw.filename,
        additions=raw.additions,
        deletions=raw.deletions,
        old_path=raw.previous_filename if raw.status == "renamed" else None,
    )


def parse_graphql_pull(node: GraphQLPull, repo: str) -> tuple[PullRequest, bool]:
    """One node of our GraphQL listing → (PullRequest, whether its file list is complete)."""
    try:
        connection = node.files or FilesConnection()
        files = parse_graphql_files(connection)
        complete = not (connection.pageInfo and connection.pageInfo.hasNextPage)
        merged_at = _when(node.mergedAt)
        state = {"MERGED": "merged", "OPEN": "open"}.get(str(node.state), "closed")
        if merged_at is None and state == "merged":
            state = "closed"
        labels = tuple(n.name for n in (node.labels or Labels()).nodes or () if n.name)
        login = node.author.login if node.author else None
        merge_sha = node.mergeCommit.oid if node.mergeCommit else None
        raw: dict[str, object] = {
            "number": node.number,
            "title": node.title,
            "state": node.state,
            "draft": node.isDraft,
            "created_at": node.createdAt,
            "updated_at": node.updatedAt,
            "merged_at": node.mergedAt,
            "merge_commit_sha": merge_sha,
            "user": {"login": login},
            "labels": [{"name": name} for name in labels],
        }
        pr = PullRequest(
            repo=repo,
            number=node.number,
            title=node.title or "",
            body=node.body or "",
            sha=merge_sha if merged_at and merge_sha else None,
            number_source="github",
            author_login=login,
            created_at=_when(node.createdAt),
            merged_at=merged_at,
            updated_at=_required_when(node.updatedAt),
            state=state,
            draft=bool(node.isDraft),
            source="github",
            labels=labels,
            files=files,
            raw=raw,
        )
        return pr, complete
    except ValueError as exc:
        raise GitHubError(
            f"GitHub's GraphQL API sent a pull request we cannot read ({exc})", "try --api rest"
        ) from None


def parse_graphql_files(connection: FilesConnection) -> tuple[FileChange, ...]:
    """The nodes of a GraphQL `files` connection (GraphQL gives no old path for renames)."""
    return tuple(
        FileChange(path=f.path, additions=f.additions, deletions=f.deletions)
        for f in connection.nodes or ()
    )


def pull_updated_at(pull: RestPull | GraphQLPull) -> str:
    """The `updated_at` of a listing item, checked (the listing is sorted by it)."""
    value = pull.updated_at if isinstance(pull, RestPull) else pull.updatedAt
    if value is None:
        raise GitHubError("GitHub sent a pull request without updated_at", "report this")
    return value


def _when(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def _required_when(value: str | None) -> datetime:
    if not value:
        raise ValueError("updated_at is missing")
    return parse_datetime(value)
