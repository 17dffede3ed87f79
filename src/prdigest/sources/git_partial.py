"""A partial clone's history (`git clone --filter=blob:none`): some file contents were
never fetched, so git cannot count those files' lines. Everything else is read as from a
full clone; the files whose counts need a missing content get `stats_unavailable` (the
record format's mark) and no counts. Nothing is ever fetched.

The streaming log runs as usual and stops at the first commit git cannot count; from
there on the commits are read by blob id (`--raw`, no contents), the missing blobs are
listed (`rev-list --missing=print`, which never fetches), the commits that need none are
counted in one more `git log`, and the others file by file (one git call each).
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from itertools import islice
from pathlib import Path

from ..errors import GitLogError
from . import git
from .git import (
    LOG_OPTIONS,
    GitCommit,
    GitFile,
    _chunks,
    _epoch,
    _git,
    _parse_stream,
    _shallow_boundary,
    _tokens,
)

_CHUNK = 500  # commits read by blob id at a time: memory stays flat on a long history
_NO_BLOB = "0" * 40

# Told, per commit read with files whose line counts are unavailable: its sha, how many.
Unavailable = Callable[[str, int], None]


def iter_clone_records(
    path: Path,
    repo: str,
    *,
    ref: str | None = None,
    since: datetime | None = None,
    after_sha: str | None = None,
    head: str | None = None,
    on_range: Callable[[list[str]], None] | None = None,
    on_unavailable: Unavailable | None = None,
) -> Iterator[GitCommit]:
    """`git.iter_git_records`, and in a partial clone that lacks contents, the rest of the
    history with those files marked (`on_unavailable` is told each such commit)."""
    revisions: list[str] = []

    def seen(revs: list[str]) -> None:
        revisions[:] = revs
        if on_range is not None:
            on_range(revs)

    last: str | None = None
    try:
        for record in git.iter_git_records(
            path, repo, ref=ref, since=since, after_sha=after_sha, head=head, on_range=seen
        ):
            last = record.sha
            yield record
    except GitLogError:
        if not revisions or not is_partial_clone(path):
            raise  # a full clone with a missing object is broken: git fsck says why
        rest = [*revisions, f"^{last}"] if last else revisions
        yield from _read_around_missing(path, repo, rest, since, on_unavailable)


def is_partial_clone(path: Path) -> bool:
    """Whether the clone has a promisor remote (one it may lack objects of)."""
    found = _git(
        path, "config", "--get-regexp", r"^(remote\..*\.promisor|extensions\.partialclone)$",
        check=False,
    )  # fmt: skip
    for line in found.stdout.splitlines():
        key, _, value = line.partition(" ")
        if key.endswith(".partialclone"):
            if value:  # extensions.partialClone names the promisor remote
                return True
        elif value.lower() in ("true", "yes", "on", "1"):  # remote.<name>.promisor
            return True
    return False


def _read_around_missing(
    path: Path,
    repo: str,
    revisions: list[str],
    since: datetime | None,
    on_unavailable: Unavailable | None,
) -> Iterator[GitCommit]:
    since_ts = since.timestamp() if since is not None else None
    cut = _shallow_boundary(path)
    with _log(path, ["--reverse", "--raw", "-M100%", "--no-abbrev", *revisions]) as tokens:
        records = _parse_stream(tokens, repo)
        while chunk := list(islice(records, _CHUNK)):
            chunk = [  # a shallow clone's oldest commit has no files: see git.py
                r.with_files([]) if r.sha in cut else r
                for r in chunk
                if since_ts is None or _epoch(r) >= since_ts
            ]
            yield from _counted(path, repo, chunk, on_unavailable)


def _counted(
    path: Path, repo: str, records: list[GitCommit], on_unavailable: Unavailable | None
) -> Iterator[GitCommit]:
    """The records with counts where git has the contents, else `stats_unavailable`."""
    missing = _missing_blobs(path, records)
    whole = [  # commits with changes (a shallow clone's cut has none left) that lack nothing
        r.sha for r in records if r.files and not any(_lacks(f, missing) for f in r.files)
    ]
    counts = {r.sha: r.files for r in _numstat(path, repo, whole)} if whole else {}
    for record in records:
        if record.sha in counts:
            yield record.with_files(counts[record.sha])
            continue
        files = _partly_counted(path, repo, record, missing)
        lacking = sum(1 for f in files if f.stats_unavailable)
        if on_unavailable is not None and lacking:
            on_unavailable(record.sha, lacking)
        yield record.with_files(files)


def _partly_counted(path: Path, repo: str, record: GitCommit, missing: set[str]) -> list[GitFile]:
    """A commit that needs a missing content: the files that do not are counted by git
    (one call, limited to their paths), the others marked."""
    countable = [f for f in record.files if not _lacks(f, missing)]
    paths = sorted({p for f in countable for p in (f.path, f.old_path) if p})
    found: dict[str, GitFile] = {}
    if paths:
        for counted in _numstat(path, repo, [record.sha], ["-M100%", "--", *paths]):
            found = {f.path: f for f in counted.files}
    files = []
    for change in record.files:
        if not _lacks(change, missing) and change.path in found:
            files.append(found[change.path])
            continue
        files.append(GitFile(change.path, old_path=change.old_path, stats_unavailable=True))
    return files


def _lacks(change: GitFile, missing: set[str]) -> bool:
    return any(blob in missing for blob in change.blobs)


def _missing_blobs(path: Path, records: list[GitCommit]) -> set[str]:
    """The blobs the records' diffs need that the clone lacks: the trees of each commit and
    of its first parent, walked without fetching anything."""
    commits = dict.fromkeys(
        sha for r in records for sha in (r.sha, *r.parents[:1])
    )  # fmt: skip
    wanted = {b for r in records for f in r.files for b in f.blobs if b != _NO_BLOB}
    if not wanted:
        return set()
    listed = _run(
        path,
        ["rev-list", "--objects", "--missing=print", "--no-object-names", "--no-walk", "--stdin"],
        "\n".join(commits) + "\n",
    )
    return {line[1:] for line in listed.splitlines() if line.startswith("?")} & wanted


def _numstat(
    path: Path, repo: str, shas: Iterable[str], extra: list[str] | None = None
) -> Iterator[GitCommit]:
    """These commits (in this order) with the numstat counts and diffs, in one git call."""
    args = ["--no-walk=unsorted", "--stdin", "--numstat", "--patch", "-U3", *(extra or ["-M"])]
    with _log(path, args, "\n".join(shas) + "\n") as tokens:
        yield from _parse_stream(tokens, repo)


class _log:  # noqa: N801 - used as a context manager, like open()
    """A `git log` (LOG_OPTIONS, then `args`; `stdin` fed to it) as tokens; fails if git does."""

    def __init__(self, path: Path, args: list[str], stdin: str = "") -> None:
        self._path, self._args, self._stdin = path, args, stdin
        self._files = contextlib.ExitStack()

    def __enter__(self) -> Iterator[bytes]:
        stdin = self._files.enter_context(tempfile.TemporaryFile())
        stdin.write(self._stdin.encode())
        stdin.seek(0)
        self._stderr = self._files.enter_context(tempfile.TemporaryFile())
        args = ["log", *LOG_OPTIONS, *self._args, *([] if "--" in self._args else ["--"])]
        self._process = git.popen_git(self._path, args, self._stderr, stdin)
        assert self._process.stdout is not None
        return _tokens(_chunks(self._process.stdout))

    def __exit__(self, *exc: object) -> None:
        with self._files:
            process = self._process
            stopped = exc[0] is not None and process.poll() is None
            if stopped:
                process.kill()  # the reader stopped early (or failed)
            assert process.stdout is not None
            process.stdout.close()
            if process.wait() != 0 and not stopped:
                self._stderr.seek(0)
                raise GitLogError(
                    f"{self._path}: git log failed: {git._last_line(self._stderr.read())}",
                    "check the clone with `git fsck`",
                )


def _run(path: Path, args: list[str], stdin: str) -> str:
    result = subprocess.run(
        ["git", "-C", str(path), *git._GIT_CONFIG, *args],
        input=stdin,
        capture_output=True,
        text=True,
        errors="replace",
        env=git._environment(),
    )
    if result.returncode != 0:
        raise GitLogError(
            f"{path}: git {args[0]} failed: {git._last_line(result.stderr.encode())}",
            "check the clone with `git fsck`",
        )
    return result.stdout
