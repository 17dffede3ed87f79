"""Parse the landed-commit record format of `../shared/data/README.md`.

The git source emits these same records, so one parser serves both.
"""

from __future__ import annotations

from ..errors import SourceError
from ..models import FileChange, PullRequest
from ..timeutil import parse_datetime

_REQUIRED = ("sha", "title", "committed_at")


def parse_record(raw: object, repo: str, source: str, where: str) -> PullRequest:
    """One record (a decoded JSON value) → a frozen PullRequest. `where` names the place
    for error messages."""
    if not isinstance(raw, dict):
        raise SourceError(
            f"{where}: expected a JSON object, got {type(raw).__name__}", "fix or remove that line"
        )
    missing = [key for key in _REQUIRED if not raw.get(key)]
    if missing:
        raise SourceError(f"{where}: record lacks {', '.join(missing)}", "fix or remove that line")
    record_repo = raw.get("repo")
    if record_repo and record_repo != repo:
        raise SourceError(
            f"{where}: record belongs to {record_repo}, not {repo}",
            f"sync it as `prdigest sync {record_repo} …`",
        )
    try:
        number = raw.get("number")
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, int) or number <= 0
        ):
            raise ValueError(_number_problem(number))
        committed = parse_datetime(str(raw["committed_at"]))
        authored = parse_datetime(str(raw["authored_at"])) if raw.get("authored_at") else None
        files = tuple(_file(f) for f in raw.get("files") or ())
        trailers = tuple(
            (str(key), tuple(str(v) for v in (values if isinstance(values, list) else [values])))
            for key, values in (raw.get("trailers") or {}).items()
        )
        labels = tuple(str(x) for x in raw.get("labels") or ())
    except (TypeError, ValueError, KeyError) as exc:
        raise SourceError(f"{where}: bad record: {exc}", "fix or remove that line") from None
    return PullRequest(
        repo=repo,
        number=number,
        title=str(raw["title"]),
        body=str(raw.get("body") or ""),
        sha=str(raw["sha"]),
        parents=tuple(str(p) for p in raw.get("parents") or ()),
        number_source=raw.get("number_source"),
        author_name=str(raw.get("author_name") or ""),
        author_email=str(raw.get("author_email") or ""),
        author_login=raw.get("author_login"),
        merged_at=committed,
        authored_at=authored,
        state="merged",
        source=source,
        labels=labels,
        files=files,
        trailers=trailers,
        raw=raw,
    )


def _number_problem(number: object) -> str:
    """Why `number` is no PR number; a number written as text says how to write it."""
    if isinstance(number, str) and number.strip().isdigit():
        return f"number {number!r} is text: it must be a JSON integer, without quotes ({number.strip()})"
    return f"number {number!r} is not a positive JSON integer (e.g. 107457, or null for none)"


def _file(raw: object) -> FileChange:
    if not isinstance(raw, dict) or not raw.get("path"):
        raise ValueError("a file entry lacks its path")
    additions, deletions = raw.get("additions"), raw.get("deletions")
    patch = raw.get("patch")
    if patch is not None and not isinstance(patch, str):
        raise ValueError(f"the patch of {raw['path']} is not text")
    return FileChange(
        path=str(raw["path"]),
        additions=int(additions) if additions is not None else None,
        deletions=int(deletions) if deletions is not None else None,
        old_path=raw.get("old_path"),
        binary=bool(raw.get("binary", False)),
        patch=patch,
        patch_truncated=bool(raw.get("patch_truncated", False)),
    )
