"""The `--git` source: a clone's first-parent history as landed-commit records.

One streaming `git log` process gives every commit's metadata, message,
numstat and diff; it is parsed incrementally, so memory stays flat and the cost
stays close to git's own. Records have exactly the fields of
`../shared/data/README.md`, and, for Python files, each file's `patch` as GitHub's
files API gives it (from the first `@@`, cut at 8,000 bytes with `patch_truncated`):
what the analysis reads public names from. Other files' diffs are skipped unread.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..errors import GitError, GitLogError

if TYPE_CHECKING:
    from .commit_message import ParsedMessage

_PIPE_SIZE = 1 << 20  # Linux's ceiling for an unprivileged pipe (fs.pipe-max-size)
# A token git never writes as a numstat entry ("<n|->\t<n|->\t…"), so it marks a commit start.
_COMMIT_MARK = b"\x1eprdigest-commit"
# Metadata fields, then the raw message last; -z makes git end each with NUL.
_FORMAT = "%x1eprdigest-commit%x00%H%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B"
_HEADER_FIELDS = 9  # sha, parents, author name/email/time, committer name/email/time, message
_NO_TITLE = "(no commit message)"  # records need a title; git allows an empty message
_DIFF_START = b"diff --git "
_PATCHED = (".py", ".pyi")  # files whose diff the analysis reads (reading/api_changes.py)
_MAX_PATCH = 8000  # bytes of one file's diff kept, as GitHub's files API and the JSONL data
# GIT_FLUSH=0: git writes its output in full buffers, not one write per commit as it
# does into a pipe (each write wakes the reader: +10% on `git log`'s time).
_GIT_ENV = {
    "LC_ALL": "C", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "GIT_FLUSH": "0",
    "GIT_NO_LAZY_FETCH": "1",  # git 2.44+: never fetch what a partial clone lacks
}  # fmt: skip
# Set inside git hooks, they would make `git -C PATH` read another repository.
_REPOSITORY_OVERRIDES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
)  # fmt: skip
# Settings that would change what git prints, pinned so a user's config cannot; and no
# transport at all: a partial clone's missing contents are never fetched (git before 2.44
# has no GIT_NO_LAZY_FETCH, so its lazy fetch is refused instead, and fails at once).
_GIT_CONFIG = (
    "-c", "core.quotepath=false", "-c", "log.showSignature=false", "-c", "protocol.allow=never",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class GitFile:
    """One file a commit changed, as git's numstat (or `--raw`) gave it."""

    path: str
    additions: int | None = None  # None: binary, uncounted, or read by blob id
    deletions: int | None = None
    binary: bool = False
    old_path: str | None = None  # set on renames
    patch: str | None = None  # Python files: the diff from its first `@@`
    patch_truncated: bool = False
    blobs: tuple[str, ...] = ()  # --raw: the (old, new) blob ids
    stats_unavailable: bool = False  # a partial clone lacks the contents to count

    def as_record(self) -> dict[str, object]:
        """The record format's file entry: the flags and diff only when set."""
        entry: dict[str, object] = {
            "path": self.path,
            "additions": self.additions,
            "deletions": self.deletions,
        }
        if self.binary:
            entry["binary"] = True
        if self.stats_unavailable:
            entry["stats_unavailable"] = True
        if self.old_path is not None:
            entry["old_path"] = self.old_path
        if self.patch_truncated:
            entry["patch_truncated"] = True
        if self.patch is not None:
            entry["patch"] = self.patch
        return entry


@dataclass(frozen=True, slots=True)
class GitCommit:
    """One first-parent commit with its files: a landed-commit record while it is read."""

    repo: str
    number: int | None
    number_source: str | None
    sha: str
    parents: list[str]
    title: str
    body: str
    author_name: str
    author_email: str
    committer_name: str
    committer_email: str
    committed_at: str  # YYYY-MM-DDTHH:MM:SSZ
    authored_at: str
    files: list[GitFile] = field(default_factory=list)
    trailers: dict[str, list[str]] = field(default_factory=dict)

    def as_record(self) -> dict[str, object]:
        """The record in the format of `../shared/data/README.md` (what the store keeps)."""
        return {
            "repo": self.repo,
            "number": self.number,
            "number_source": self.number_source,
            "sha": self.sha,
            "parents": self.parents,
            "title": self.title,
            "body": self.body,
            "author_name": self.author_name,
            "author_email": self.author_email,
            "committer_name": self.committer_name,
            "committer_email": self.committer_email,
            "committed_at": self.committed_at,
            "authored_at": self.authored_at,
            "files": [f.as_record() for f in self.files],
            "trailers": self.trailers,
        }

    def with_files(self, files: list[GitFile]) -> GitCommit:
        return replace(self, files=files)


def resolve_ref(path: Path, ref: str | None) -> tuple[str, str]:
    """(ref name, head sha) of `ref`, or of the default branch when None: the remote
    HEAD's branch if known (origin, then upstream), else the current branch / HEAD."""
    if ref is None:
        name, sha = _default_ref(path)
        if sha is None:
            raise GitError(
                f"{path}: {_short(name)} has no commits",
                "commit or fetch something first, or pass --ref",
            )
        return name, sha
    _check_clone(path)
    sha = None if ref.startswith("-") else _rev_parse(path, ref)
    if sha is None:
        raise GitError(
            f"{path}: unknown ref {ref!r}",
            "give a branch, tag or commit that exists there (see `git branch -a`)",
        )
    full = _git(path, "rev-parse", "--symbolic-full-name", ref).stdout.strip()
    return (full or ref), sha


def iter_git_records(
    path: Path,
    repo: str,
    *,
    ref: str | None = None,
    since: datetime | None = None,
    after_sha: str | None = None,
    head: str | None = None,
    on_range: Callable[[list[str]], None] | None = None,
) -> Iterator[GitCommit]:
    """First-parent history of `ref` (default branch when None), oldest first, as
    records. `after_sha` is the sync cursor: only later commits are yielded, unless
    it is not an ancestor of the ref any more (a force-push), then all of them.
    `since`: commits committed before it are skipped. `head`: the ref's commit when
    the caller has resolved it already (`resolve_ref`): it is not resolved again.
    `on_range` is told the revisions read (`git rev-list` terms), e.g. to count them."""
    if head is None:
        _name, head = resolve_ref(path, ref)
    exclude: list[str] = []
    if after_sha:
        if after_sha == head:
            return
        if _is_ancestor(path, after_sha, head):
            exclude.append(f"^{after_sha}")
    if since is not None:
        boundary = _newest_before(path, head, since)
        if boundary:
            exclude.append(f"^{boundary}")  # no diffs computed for the old history
    since_ts = since.timestamp() if since is not None else None
    if on_range is not None:
        on_range([head, *exclude])
    with _git_log(path, [head, *exclude]) as (stdout, succeeded):
        cut = _shallow_boundary(path)  # asked while git log starts up
        for record in _parse_stream(_tokens(_chunks(stdout)), repo, succeeded):
            if since_ts is not None and _epoch(record) < since_ts:
                continue
            if record.sha in cut:
                # A shallow clone's oldest commit looks like a root: its diff would be the
                # whole tree, not the PR. Its parents and changes are unknown here.
                record = record.with_files([])
            yield record


# -- the streaming log -----------------------------------------------------------


# What every streaming log asks of git: first-parent diffs, nothing a config could vary.
LOG_OPTIONS = (
    "--first-parent", "-z", "--root", "--diff-merges=first-parent", "--no-mailmap",
    "--no-color", "--no-textconv", "--no-ext-diff", "--no-notes", f"--format={_FORMAT}",
)  # fmt: skip


@contextlib.contextmanager
def _git_log(path: Path, revisions: list[str]) -> Iterator[tuple[IO[bytes], Callable[[], bool]]]:
    """One `git log` process over `revisions`: its output stream, and a call that waits
    for git and says whether it succeeded. Fails if git does (GitLogError)."""
    args = ["log", "--reverse", "--numstat", "--patch", "-U3", "-M", *LOG_OPTIONS, *revisions, "--"]
    with tempfile.TemporaryFile() as stderr:
        process = popen_git(path, args, stderr)
        assert process.stdout is not None
        stopped_early = False
        try:
            yield process.stdout, lambda: process.wait() == 0
        except BaseException:
            if process.poll() is None:
                process.kill()  # the consumer stopped early (or failed)
                stopped_early = True
            raise
        finally:
            # Read to the end: git is done or about to be (one that printed nothing and
            # is still failing must be waited for, not taken for stopped early).
            process.stdout.close()
            code = process.wait()
        if code != 0 and not stopped_early:
            stderr.seek(0)
            raise GitLogError(
                f"{path}: git log failed: {_last_line(stderr.read())}",
                "check the clone with `git fsck`",
            )


def _chunks(stdout: IO[bytes]) -> Iterator[bytes]:
    """git's output as it arrives. Its pipe is enlarged where the OS allows, so git runs
    up to 1 MiB ahead while the consumer parses and writes to the store, instead of
    stalling on a full 64 KiB pipe. Read on the consumer's own thread: a reader thread
    cost more in GIL hand-offs than it saved (docs/benchmarks.md, "sync --git")."""
    fd = stdout.fileno()
    _enlarge_pipe(fd)
    while chunk := os.read(fd, _PIPE_SIZE):
        yield chunk


def _enlarge_pipe(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # not on this platform: git waits on the reader more often
        return
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if set_size is not None:
        with contextlib.suppress(OSError):  # above the system's limit: keep the default
            fcntl.fcntl(fd, set_size, _PIPE_SIZE)


def _tokens(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """NUL-terminated tokens, chunk by chunk."""
    pending = b""
    for chunk in chunks:
        parts = (pending + chunk).split(b"\x00")
        pending = parts.pop()
        yield from parts
    if pending:
        yield pending


def _parse_stream(
    tokens: Iterator[bytes], repo: str, complete: Callable[[], bool] = lambda: True
) -> Iterator[GitCommit]:
    """Records from a log's tokens, with numstat entries, or `--raw` ones (their blob ids
    in `blobs`, no counts). The last record is yielded only if `complete()` says the log
    ended well: a git that died mid-commit leaves it unfinished."""
    from .commit_message import parse_message  # loaded while git log starts up

    header: list[bytes] = []
    files: list[GitFile] = []
    in_header = False
    for token in tokens:
        if in_header:
            header.append(token)
            in_header = len(header) < _HEADER_FIELDS
            continue
        if token.startswith(_DIFF_START):  # the commit's diff, after its numstat
            # git ends a diff with no NUL: the next commit's mark is glued to it
            diff, mark, _ = token.partition(_COMMIT_MARK)
            _add_patches(diff, files)
            if not mark:
                continue
            token = _COMMIT_MARK
        if token == _COMMIT_MARK:
            if header:
                yield _record(repo, header, files, parse_message)
            header, files, in_header = [], [], True
            continue
        fields = token.lstrip(b"\n").split(b"\t", 2)
        if len(fields) != 3:
            if token.lstrip(b"\n").startswith(b":"):  # a --raw entry
                files.append(_raw_change(token.lstrip(b"\n"), tokens))
            continue  # else not an entry (git writes none between commits)
        added, deleted, name = fields
        old_path = None
        if not name:  # a rename: the old and new paths follow as two tokens
            old_path = _text(next(tokens, b""))
            name = next(tokens, b"")
        binary = added == b"-" or deleted == b"-"
        files.append(
            GitFile(
                path=_text(name),
                additions=None if binary else int(added),
                deletions=None if binary else int(deleted),
                binary=binary,
                old_path=old_path,
            )
        )
    if header and complete():
        yield _record(repo, header, files, parse_message)


def _raw_change(entry: bytes, tokens: Iterator[bytes]) -> GitFile:
    """`:MODE MODE OLD NEW STATUS` and its path(s): the change with its blob ids, which
    reading needs no contents for (renames: exact ones only, `-M100%`)."""
    _old_mode, _new_mode, old_blob, new_blob, status = entry[1:].split(b" ")[:5]
    old_path = _text(next(tokens, b"")) if status[:1] in (b"R", b"C") else None
    return GitFile(
        path=_text(next(tokens, b"")),
        old_path=old_path,
        blobs=(old_blob.decode("ascii"), new_blob.decode("ascii")),
    )


def _add_patches(diff: bytes, files: list[GitFile]) -> None:
    """Each Python file's part of a commit's diff, as its `patch`. git writes one part a
    file, in the numstat's order; a part whose header does not name its file stops the
    pairing (no patch rather than another file's)."""
    if not any(f.path.endswith(_PATCHED) for f in files):
        return
    parts = diff.split(b"\n" + _DIFF_START)
    if len(parts) != len(files):
        return
    for i, (change, part) in enumerate(zip(files, parts, strict=True)):
        path = change.path
        if not path.endswith(_PATCHED):
            continue
        header_end = part.find(b"\n")
        if (
            f" b/{path}".encode() not in part[:header_end]
            and path.encode() not in part[:header_end]
        ):
            return
        start = part.find(b"\n@@")
        if start < 0:
            continue  # a mode change or an empty file: no hunk
        patch = part[start + 1 :]
        truncated = len(patch) > _MAX_PATCH
        if truncated:
            patch = patch[: patch.rfind(b"\n", 0, _MAX_PATCH) + 1]
        files[i] = replace(
            change, patch=patch.decode("utf-8", "replace"), patch_truncated=truncated
        )


def _record(
    repo: str,
    header: list[bytes],
    files: list[GitFile],
    parse_message: Callable[[str, str], ParsedMessage],
) -> GitCommit:
    sha, parents, a_name, a_email, a_time, c_name, c_email, c_time, message = (
        header + [b""] * _HEADER_FIELDS
    )[:_HEADER_FIELDS]
    parsed = parse_message(_text(message), repo)
    return GitCommit(
        repo=repo,
        number=parsed.number,
        number_source=parsed.number_source,
        sha=_text(sha).strip(),
        parents=_text(parents).split(),
        title=parsed.title or _NO_TITLE,
        body=parsed.body,
        author_name=_text(a_name),
        author_email=_text(a_email),
        committer_name=_text(c_name),
        committer_email=_text(c_email),
        committed_at=_iso(c_time),
        authored_at=_iso(a_time),
        files=files,
        trailers=parsed.trailers,
    )


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _iso(epoch: bytes) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(epoch or b"0")))


def _epoch(record: GitCommit) -> float:
    return (
        datetime.strptime(record.committed_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
    )


# -- small git calls (a handful per sync, never one per commit) ------------------


def _check_clone(path: Path) -> None:
    _check_directory(path)
    _check_readable(path, _git(path, "rev-parse", "--git-dir", check=False))


def _check_directory(path: Path) -> None:
    if not path.exists():
        raise GitError(f"{path}: no such directory", "give the path of a local git clone")
    if not path.is_dir():
        raise GitError(f"{path} is not a directory", "give the path of a local git clone")


def _check_readable(path: Path, result: subprocess.CompletedProcess[str]) -> None:
    """Fails with git's reason when git could not open the repository (exit code 128)."""
    if result.returncode in (0, 1):
        return
    reason = _last_line(result.stderr.encode())
    if "not a git repository" in reason.lower():
        raise GitError(
            f"{path} is not a git repository", "give the path of a local clone (`git clone URL`)"
        )
    raise GitError(
        f"{path}: git cannot read it: {reason}", "fix the clone (see git's message), then retry"
    )


def _default_ref(path: Path) -> tuple[str, str | None]:
    """(name, sha) of the default branch; sha None when it has no commits yet. Two git
    calls: HEAD's branch (which also checks the clone), then the remote HEADs' branches
    with their commits and that of HEAD's branch."""
    _check_directory(path)
    head = _git(path, "symbolic-ref", "-q", "HEAD", check=False)  # 1: HEAD is detached
    _check_readable(path, head)
    name = head.stdout.strip() if head.returncode == 0 and head.stdout.strip() else "HEAD"
    remote_heads = [f"refs/remotes/{remote}/HEAD" for remote in ("origin", "upstream")]
    refs = _refs(path, [*remote_heads, name] if name != "HEAD" else remote_heads)
    for remote_head in remote_heads:
        target, sha = refs.get(remote_head, ("", None))
        if target and sha:
            return target, sha
    return name, refs[name][1] if name in refs else _rev_parse(path, name)


def _refs(path: Path, names: list[str]) -> dict[str, tuple[str, str | None]]:
    """{ref: (the ref a symbolic one points at, its commit)} of those of `names` that
    exist, in one git call; the commit is None when the ref names no commit."""
    result = _git(
        path, "for-each-ref", "--format=%(refname)%00%(symref)%00%(objectname)%00%(objecttype)",
        *names, check=False,
    )  # fmt: skip
    found: dict[str, tuple[str, str | None]] = {}
    for line in result.stdout.splitlines() if result.returncode == 0 else ():
        refname, symref, sha, kind = (line.split("\0") + ["", "", ""])[:4]
        if refname in names:
            # An annotated tag (or other object) is peeled as `rev-parse REF^{commit}` does.
            commit = sha if kind == "commit" else _rev_parse(path, symref or refname)
            found[refname] = (symref, commit)
    return found


def _rev_parse(path: Path, ref: str) -> str | None:
    result = _git(
        path, "rev-parse", "-q", "--verify", "--end-of-options", f"{ref}^{{commit}}", check=False
    )
    sha = result.stdout.strip()
    return sha if result.returncode == 0 and sha else None


def _is_ancestor(path: Path, maybe_ancestor: str, head: str) -> bool:
    """False too when the commit is gone (a force-push followed by gc)."""
    result = _git(path, "merge-base", "--is-ancestor", maybe_ancestor, head, check=False)
    return result.returncode == 0


def _shallow_boundary(path: Path) -> frozenset[str]:
    """The commits a shallow clone cuts its history at (none for a full clone)."""
    shallow = _git(path, "rev-parse", "--git-path", "shallow").stdout.strip()
    file = Path(shallow) if Path(shallow).is_absolute() else path / shallow
    try:
        return frozenset(file.read_text(encoding="ascii", errors="replace").split())
    except OSError:
        return frozenset()


def _newest_before(path: Path, head: str, since: datetime) -> str | None:
    """The newest first-parent commit committed before `since`: history at and below it
    is left out of the log. (Assumes first-parent committer dates do not go back in time
    across that commit, as on a squash-merging default branch.)"""
    stamp = int(since.timestamp())
    # --until keeps commits with date <= stamp; one second earlier keeps only those before it.
    result = _git(
        path, "rev-list", "--first-parent", "-n1", f"--until=@{stamp - 1}", head, check=False
    )
    sha = result.stdout.strip()
    return sha if result.returncode == 0 and sha else None


def _git(path: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    try:
        result = subprocess.run(
            ["git", "-C", str(path), *_GIT_CONFIG, *args],
            capture_output=True,
            env=_environment(),
            text=True,
            errors="replace",
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed (not found on PATH)", "install git, then retry"
        ) from None
    if check and result.returncode != 0:
        raise GitError(
            f"{path}: git {args[0]} failed: {_last_line(result.stderr.encode())}", "check the clone"
        )
    return result


def popen_git(
    path: Path, args: list[str], stderr: IO[bytes] | int, stdin: IO[bytes] | None = None
) -> subprocess.Popen[bytes]:
    """`git ARGS` in `path`, its stdout a pipe, with this module's environment and settings."""
    try:
        return subprocess.Popen(
            ["git", "-C", str(path), *_GIT_CONFIG, *args],
            stdin=stdin if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=_environment(),
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed (not found on PATH)", "install git, then retry"
        ) from None


def _environment() -> dict[str, str]:
    kept = {key: value for key, value in os.environ.items() if key not in _REPOSITORY_OVERRIDES}
    return {**kept, **_GIT_ENV}


def _short(ref: str) -> str:
    return ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")


def _last_line(stderr: bytes) -> str:
    lines = [
        line.strip() for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()
    ]
    return lines[-1] if lines else "no message"
