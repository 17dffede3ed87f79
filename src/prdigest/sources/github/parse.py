"""Pure parsing of GitHub's JSON (REST and GraphQL) into `PullRequest` records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import GitHubError
from ...models import FileChange, PullRequest
from ...timeutil import parse_datetime

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


def parse_rest_pull(
    raw: dict[str, Any], repo: str, files: Sequence[FileChange] = ()
) -> PullRequest:
    """One object of `GET /repos/{repo}/pulls` (plus its files) → a PullRequest."""
    try:
        number = _number(raw.get("number"))
        merged_at = _when(raw.get("merged_at"))
        state = "merged" if merged_at else ("open" if raw.get("state") == "open" else "closed")
        user = raw.get("user") or {}
        labels = tuple(str(label["name"]) for label in raw.get("labels") or () if label.get("name"))
        trimmed = {key: raw.get(key) for key in _KEPT}
        trimmed["user"] = {"login": user.get("login")}
        trimmed["labels"] = [{"name": name} for name in labels]
        return PullRequest(
            repo=repo,
            number=number,
            title=str(raw.get("title") or ""),
            body=str(raw.get("body") or ""),
            sha=str(raw["merge_commit_sha"]) if merged_at and raw.get("merge_commit_sha") else None,
            number_source="github",
            author_login=user.get("login"),
            created_at=_when(raw.get("created_at")),
            merged_at=merged_at,
            updated_at=_required_when(raw.get("updated_at")),
            state=state,
            draft=bool(raw.get("draft")),
            source="github",
            labels=labels,
            files=tuple(files),
            raw=trimmed,
        )
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise GitHubError(
            f"GitHub sent a pull request we cannot read ({exc})",
            "report this with the repository name",
        ) from None


def parse_rest_file(raw: dict[str, Any]) -> FileChange:
    """One object of `GET /repos/{repo}/pulls/{n}/files`."""
    try:
        return FileChange(
            path=str(raw["filename"]),
            additions=_count(raw.get("additions")),
            deletions=_count(raw.get("deletions")),
            old_path=raw.get("previous_filename") if raw.get("status") == "renamed" else None,
        )
    except (TypeError, ValueError, KeyError) as exc:
        raise GitHubError(
            f"GitHub sent a file entry we cannot read ({exc})", "report this"
        ) from None


def parse_graphql_pull(node: dict[str, Any], repo: str) -> tuple[PullRequest, bool]:
    """One node of our GraphQL listing → (PullRequest, whether its file list is complete)."""
    try:
        files_conn = node.get("files") or {}
        files = parse_graphql_files(files_conn)
        complete = not (files_conn.get("pageInfo") or {}).get("hasNextPage", False)
        merged_at = _when(node.get("mergedAt"))
        state = {"MERGED": "merged", "OPEN": "open"}.get(str(node.get("state")), "closed")
        if merged_at is None and state == "merged":
            state = "closed"
        labels = tuple(
            str(n["name"]) for n in (node.get("labels") or {}).get("nodes") or () if n.get("name")
        )
        login = (node.get("author") or {}).get("login")
        merge_sha = (node.get("mergeCommit") or {}).get("oid")
        raw = {
            "number": node.get("number"),
            "title": node.get("title"),
            "state": node.get("state"),
            "draft": node.get("isDraft"),
            "created_at": node.get("createdAt"),
            "updated_at": node.get("updatedAt"),
            "merged_at": node.get("mergedAt"),
            "merge_commit_sha": merge_sha,
            "user": {"login": login},
            "labels": [{"name": name} for name in labels],
        }
        pr = PullRequest(
            repo=repo,
            number=_number(node.get("number")),
            title=str(node.get("title") or ""),
            body=str(node.get("body") or ""),
            sha=str(merge_sha) if merged_at and merge_sha else None,
            number_source="github",
            author_login=login,
            created_at=_when(node.get("createdAt")),
            merged_at=merged_at,
            updated_at=_required_when(node.get("updatedAt")),
            state=state,
            draft=bool(node.get("isDraft")),
            source="github",
            labels=labels,
            files=files,
            raw=raw,
        )
        return pr, complete
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise GitHubError(
            f"GitHub's GraphQL API sent a pull request we cannot read ({exc})", "try --api rest"
        ) from None


def parse_graphql_files(connection: dict[str, Any]) -> tuple[FileChange, ...]:
    """The nodes of a GraphQL `files` connection (GraphQL gives no old path for renames)."""
    try:
        return tuple(
            FileChange(
                path=str(f["path"]),
                additions=_count(f.get("additions")),
                deletions=_count(f.get("deletions")),
            )
            for f in connection.get("nodes") or ()
        )
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise GitHubError(
            f"GitHub's GraphQL API sent a file we cannot read ({exc})", "try --api rest"
        ) from None


def rest_updated_at(raw: Any) -> str:
    """The `updated_at` of a listing item, checked (the listing is sorted by it)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("updated_at"), str):
        raise GitHubError("GitHub sent a pull request without updated_at", "report this")
    return raw["updated_at"]


def _number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"number {value!r} is not a positive integer")
    return value


def _when(value: Any) -> Any:
    return parse_datetime(str(value)) if value else None


def _required_when(value: Any) -> Any:
    if not value:
        raise ValueError("updated_at is missing")
    return parse_datetime(str(value))


def _count(value: Any) -> int | None:
    return int(value) if value is not None else None
