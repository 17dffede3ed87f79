"""Replay landed-commit records (the JSONL format of ../shared/data) into a real git
repository, so the `--git` source can be checked against the records it came from.

Each record becomes one commit on `main` with the recorded author, committer, dates
and message, and file changes whose numstat matches the record: text files are made
of unique lines, so deleting d lines and inserting a new ones shows as exactly
`a d`; renames keep enough lines for git to detect them; binary files hold NUL
bytes. Files the records modify before creating them are put in a root commit
("the tree the history starts from"), sized so every recorded deletion exists.

Also added: a merge commit (a side branch merged with `Merge pull request #N`), so
first-parent history matters, and a commit whose message and path hold non-UTF-8
bytes. `Replay.expected` lists, oldest first, the record git should give back for
every first-parent commit; `Replay.originals` the record each one replays (None for
the synthetic commits).

Left out: records touching a path that is a directory elsewhere in the replayed
span (a folder replaced by a submodule), whose numstat depends on history not
replayed (2 of the 8,151 executorch records).

Usable from tests and benchmarks: `replay(records, dest)`.
"""

from __future__ import annotations

import math
import os
import subprocess
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SEED_AUTHOR = ("Replay Seed", "seed@replay.invalid")
SIDE_AUTHOR = ("Side Contributor", "side@replay.invalid")
MERGE_NUMBER = 900001
NON_UTF8_NUMBER = 900002
_BINARY_SIZE = 2048
REPOSITORY_OVERRIDES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
)  # fmt: skip
_MARGIN = 3  # extra lines in every file put in the root commit


@dataclass
class _File:
    key: tuple[str, int]  # (path where it appeared, record index): stable across both passes
    lines: list[int] = field(default_factory=list)  # serials of unique lines
    binary_version: int | None = None  # set for binary files
    executable: bool = False

    def content(self) -> bytes:
        if self.binary_version is not None:
            # NUL bytes make it binary; only the tail changes, so renames are still found.
            salt = zlib.crc32(self.key[0].encode("utf-8", "surrogateescape"))
            body = bytes((i * 131 + salt) % 256 for i in range(_BINARY_SIZE))
            return b"\x00BIN" + body + f"v{self.binary_version}".encode() * 8
        return "".join(f"line {serial:09d}\n" for serial in self.lines).encode()


@dataclass
class Replay:
    path: Path
    expected: list[dict[str, Any]]
    originals: list[dict[str, Any] | None]
    merge_index: int | None = None
    non_utf8_index: int | None = None


class _Tree(dict[str, _File]):
    """Path -> file, counting the files under every directory to spot file/dir clashes."""

    def __init__(self) -> None:
        super().__init__()
        self.dirs: dict[str, int] = {}

    def __setitem__(self, path: str, file: _File) -> None:
        if path not in self:
            for parent in _parents(path):
                self.dirs[parent] = self.dirs.get(parent, 0) + 1
        super().__setitem__(path, file)

    def __delitem__(self, path: str) -> None:
        super().__delitem__(path)
        for parent in _parents(path):
            self.dirs[parent] -= 1

    def pop(self, path: str) -> _File:  # type: ignore[override]
        file = self[path]
        del self[path]
        return file

    def clashes(self, path: str) -> list[str]:
        """Files that must go for `path` to be a file: a file at a parent, or files below it."""
        found = [parent for parent in _parents(path) if parent in self]
        if self.dirs.get(path):
            found += [other for other in self if other.startswith(path + "/")]
        return found


def _parents(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:n]) for n in range(1, len(parts))]


class _Model:
    """The working tree as lines per file. Run twice: the plan pass finds the lines
    each file needs at the root; the emit pass writes the fast-import stream."""

    def __init__(self, seeds: dict[tuple[str, int], list[Any]] | None) -> None:
        self.planning = seeds is None
        # key -> [lines needed at the root, binary, needed at all]
        self.seeds: dict[tuple[str, int], list[Any]] = {} if seeds is None else seeds
        self.tree = _Tree()
        self.ever: set[str] = set()
        self.serial = 0
        for key, (count, binary, needed) in sorted(self.seeds.items()):
            if needed:
                self.tree[key[0]] = self._new(key, count, binary)
                self.ever.add(key[0])

    def _new(self, key: tuple[str, int], count: int, binary: bool) -> _File:
        made = _File(key, self._fresh(count), 0 if binary else None)
        return made

    def _fresh(self, count: int) -> list[int]:
        start = self.serial
        self.serial += count
        return list(range(start, start + count))

    def _get(self, path: str, index: int, binary: bool, renamed: bool) -> tuple[_File, bool]:
        """(the file at `path`, whether git's tree lacks it so far)."""
        if path in self.tree:
            return self.tree[path], False
        key = (path, index)
        if self.planning and path not in self.ever:
            # seedable: the path was never used before; a rename source must exist
            self.seeds[key] = [0, binary, renamed]
        made = self._new(key, 0, binary)
        self.tree[path] = made
        self.ever.add(path)
        return made, True

    def _grow(self, file: _File, needed: int) -> int:
        """Make `file` hold `needed` lines if it can be seeded; the lines it holds."""
        missing = needed - len(file.lines)
        if missing > 0 and self.planning and file.key in self.seeds:
            seed = self.seeds[file.key]
            if not seed[0]:
                missing += _MARGIN  # so a later deletion-only change does not empty it
            seed[0] += missing
            seed[2] = True
            file.lines[:0] = self._fresh(missing)
        return len(file.lines)

    def apply(
        self, index: int, changes: list[dict[str, Any]]
    ) -> tuple[list[tuple[str, str, bytes]], list[dict[str, Any]]]:
        """(fast-import ops, numstat entries git will report) for one record's files."""
        ops: list[tuple[str, str, bytes]] = []
        report: list[dict[str, Any]] = []
        for change in changes:
            path, old_path = change["path"], change.get("old_path")
            if change.get("binary"):
                report.append(self._binary(index, path, old_path, ops))
            else:
                additions = change.get("additions") or 0
                deletions = change.get("deletions") or 0
                if change.get("additions") is None and change.get("deletions") is None:
                    additions = 1  # stats unavailable: make a small change
                report.append(self._text(index, path, old_path, additions, deletions, ops))
        for op, path, _content in list(ops):
            for other in self.tree.clashes(path) if op == "M" else ():
                gone = self.tree[other]
                del self.tree[other]
                ops.append(("D", other, b""))
                binary = gone.binary_version is not None
                report.append(
                    {
                        "path": other,
                        "additions": None if binary else 0,
                        "deletions": None if binary else len(gone.lines),
                        **({"binary": True} if binary else {}),
                    }
                )
        # deletions first, so a directory can become a file (and back) within one commit
        ops.sort(key=lambda op: op[0] != "D")
        return ops, report

    def _binary(
        self, index: int, path: str, old_path: str | None, ops: list[tuple[str, str, bytes]]
    ) -> dict[str, Any]:
        entry: dict[str, Any] = {"path": path, "additions": None, "deletions": None}
        file, created = self._get(old_path or path, index, True, bool(old_path))
        if created and not self.planning and old_path:
            self.tree[path] = self.tree.pop(old_path)  # not seeded: git sees a new file
            old_path = None
        was_text = file.binary_version is None
        if was_text:
            file.binary_version = 0
        file.binary_version = (file.binary_version or 0) + 1
        entry["binary"] = True
        if old_path:
            del self.tree[old_path]
            ops.append(("D", old_path, b""))
            self.tree[path] = file
            self.ever.add(path)
            entry["old_path"] = old_path
        ops.append(("M", path, file.content()))
        return entry

    def _text(
        self,
        index: int,
        path: str,
        old_path: str | None,
        additions: int,
        deletions: int,
        ops: list[tuple[str, str, bytes]],
    ) -> dict[str, Any]:
        file, created = self._get(old_path or path, index, False, bool(old_path))
        if created and not self.planning and old_path:
            self.tree[path] = self.tree.pop(old_path)  # not seeded: git sees a new file
            old_path = None
        if (
            created
            and self.planning
            and not (additions or deletions or old_path)
            and file.key in self.seeds
        ):
            # 0/0 on a path never seen: an empty file being deleted (or created; same numstat)
            self.seeds[file.key][2] = True
            created = False
        if file.binary_version is not None:  # binary becomes text: git still says binary
            file.binary_version = None
            file.lines = self._fresh(additions)
            ops.append(("M", path, file.content()))
            return {"path": path, "additions": None, "deletions": None, "binary": True}
        if old_path:
            # git finds a rename when at least half the content survives; keep 60 %.
            self._grow(
                file, max(math.ceil(2.5 * deletions), deletions + math.ceil(1.5 * additions)) + 2
            )
        held = self._grow(file, deletions)
        deletions = min(deletions, held)
        middle = held // 2 if deletions == 0 else 0
        start = min(middle, held - deletions)
        file.lines[start : start + deletions] = self._fresh(additions)
        entry: dict[str, Any] = {"path": path, "additions": additions, "deletions": deletions}
        if old_path:
            del self.tree[old_path]
            ops.append(("D", old_path, b""))
            self.tree[path] = file
            self.ever.add(path)
            entry["old_path"] = old_path
        elif not file.lines and additions == 0 and deletions > 0:
            del self.tree[path]  # everything deleted: the file goes
            ops.append(("D", path, b""))
            return entry
        elif additions == 0 and deletions == 0 and not created:
            if not file.lines:  # an empty file touched: it goes
                del self.tree[path]
                ops.append(("D", path, b""))
                return entry
            file.executable = not file.executable  # a 0/0 change to a non-empty file: its mode
        ops.append(("M", path, file.content()))
        return entry

    def seed_ops(self) -> list[tuple[str, str, bytes]]:
        return [("M", path, file.content()) for path, file in sorted(self.tree.items())]

    def mode(self, path: str) -> str:
        file = self.tree.get(path)
        return "100755" if file is not None and file.executable else "100644"


def message_of(record: dict[str, Any]) -> bytes:
    """The commit message that parses back into the record's title, body and number."""
    subject = record["title"]
    if record.get("number_source") == "title":
        subject += f" (#{record['number']})"
    body = record.get("body") or ""
    return (subject + ("\n\n" + body if body else "") + "\n").encode()


def replay(
    records: list[dict[str, Any]], dest: Path, *, merge_at: int | None = None, non_utf8: bool = True
) -> Replay:
    """Write `records` (oldest first) into a new repository at `dest` (branch `main`).
    Records touching a path that is elsewhere a directory (a folder replaced by a
    submodule, say) are left out: their numstat depends on history not replayed."""
    records = without_path_clashes(records)
    planner = _Model(None)
    for index, record in enumerate(records):
        planner.apply(index, record["files"])
    model = _Model(planner.seeds)

    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], check=True, env=git_env())
    stream = _Stream()
    first = _epoch(records[0]["committed_at"]) if records else 1_700_000_000
    root_ops = model.seed_ops()
    stream.commit(
        "main",
        SEED_AUTHOR,
        SEED_AUTHOR,
        first - 86400,
        first - 86400,
        b"Import the tree the replayed history starts from\n",
        None,
        None,
        root_ops,
        model,
    )
    expected: list[dict[str, Any]] = [_expected_root(root_ops, first - 86400)]
    originals: list[dict[str, Any] | None] = [None]
    merge_index = non_utf8_index = None
    for index, record in enumerate(records):
        if merge_at is not None and index == merge_at:
            merge_index = len(expected)
            expected.append(_merge(stream, model, _epoch(record["committed_at"]) - 1))
            originals.append(None)
        ops, files = model.apply(index, record["files"])
        author = (record["author_name"], record["author_email"])
        committer = (record["committer_name"], record["committer_email"])
        stream.commit(
            "main",
            author,
            committer,
            _epoch(record["authored_at"]),
            _epoch(record["committed_at"]),
            message_of(record),
            None,
            None,
            ops,
            model,
        )
        expected.append({**record, "files": files})
        originals.append(record)
    if non_utf8:
        non_utf8_index = len(expected)
        last = _epoch(records[-1]["committed_at"]) + 60 if records else first
        expected.append(_non_utf8(stream, model, last))
        originals.append(None)

    subprocess.run(
        ["git", "-C", str(dest), "fast-import", "--quiet", "--done"],
        input=stream.finish(),
        check=True,
        env=git_env(),
    )
    _fill_shas(dest, expected)
    return Replay(dest, expected, originals, merge_index, non_utf8_index)


def without_path_clashes(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    paths = {
        name
        for record in records
        for f in record["files"]
        for name in (f["path"], f.get("old_path"))
        if name
    }
    dirs = {parent for path in paths for parent in _parents(path)}
    clashing = paths & dirs
    return [
        record
        for record in records
        if not any(f["path"] in clashing or f.get("old_path") in clashing for f in record["files"])
    ]


def _merge(stream: _Stream, model: _Model, when: int) -> dict[str, Any]:
    """A side-branch commit merged into main: first parent main, second the side."""
    path = "side/feature.txt"
    content = "".join(f"side line {n}\n" for n in range(7)).encode()
    stream.commit(
        "side",
        SIDE_AUTHOR,
        SIDE_AUTHOR,
        when - 10,
        when - 10,
        b"Add the side feature\n",
        stream.last_main,
        None,
        [("M", path, content)],
        model,
    )
    side_mark = stream.mark
    stream.commit(
        "main",
        SIDE_AUTHOR,
        ("GitHub", "noreply@github.com"),
        when - 10,
        when,
        f"Merge pull request #{MERGE_NUMBER} from contributor/side-feature\n\nAdd the side feature\n".encode(),
        None,
        side_mark,
        [("M", path, content)],
        model,
    )  # fast-import does not merge trees
    model.ever.add(path)
    return {
        "repo": None, "number": MERGE_NUMBER, "number_source": "merge_subject",
        "title": "Add the side feature", "body": "",
        "author_name": SIDE_AUTHOR[0], "author_email": SIDE_AUTHOR[1],
        "committer_name": "GitHub", "committer_email": "noreply@github.com",
        "committed_at": _iso(when), "authored_at": _iso(when - 10),
        "files": [{"path": path, "additions": 7, "deletions": 0}], "trailers": {},
    }  # fmt: skip


def _non_utf8(stream: _Stream, model: _Model, when: int) -> dict[str, Any]:
    message = f"Handle caf\xe9 in names (#{NON_UTF8_NUMBER})\n\nLatin-1 bytes: na\xefve \xe9t\xe9\n".encode(
        "latin-1"
    )
    path = "docs/caf\udce9.txt"  # written as the raw byte 0xE9
    stream.commit(
        "main",
        SEED_AUTHOR,
        SEED_AUTHOR,
        when,
        when,
        message,
        None,
        None,
        [("M", path, b"one\ntwo\n")],
        model,
    )
    return {
        "repo": None, "number": NON_UTF8_NUMBER, "number_source": "title",
        "title": "Handle caf\ufffd in names", "body": "Latin-1 bytes: na\ufffdve \ufffdt\ufffd",
        "author_name": SEED_AUTHOR[0], "author_email": SEED_AUTHOR[1],
        "committer_name": SEED_AUTHOR[0], "committer_email": SEED_AUTHOR[1],
        "committed_at": _iso(when), "authored_at": _iso(when),
        "files": [{"path": "docs/caf\ufffd.txt", "additions": 2, "deletions": 0}], "trailers": {},
    }  # fmt: skip


def _expected_root(ops: list[tuple[str, str, bytes]], when: int) -> dict[str, Any]:
    files = []
    for _op, path, content in ops:
        if content.startswith(b"\x00BIN"):
            files.append({"path": path, "additions": None, "deletions": None, "binary": True})
        else:
            files.append({"path": path, "additions": content.count(b"\n"), "deletions": 0})
    return {
        "repo": None, "number": None, "number_source": None,
        "title": "Import the tree the replayed history starts from", "body": "",
        "author_name": SEED_AUTHOR[0], "author_email": SEED_AUTHOR[1],
        "committer_name": SEED_AUTHOR[0], "committer_email": SEED_AUTHOR[1],
        "committed_at": _iso(when), "authored_at": _iso(when), "files": files, "trailers": {},
    }  # fmt: skip


class _Stream:
    """A `git fast-import` input stream."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.mark = 0
        self.last_main: int | None = None
        self.last_side: int | None = None

    def commit(
        self,
        branch: str,
        author: tuple[str, str],
        committer: tuple[str, str],
        authored: int,
        committed: int,
        message: bytes,
        from_mark: int | None,
        merge_mark: int | None,
        ops: list[tuple[str, str, bytes]],
        model: _Model,
    ) -> None:
        self.mark += 1
        out = self.parts
        out.append(f"commit refs/heads/{branch}\nmark :{self.mark}\n".encode())
        out.append(b"author " + _ident(author, authored) + b"\n")
        out.append(b"committer " + _ident(committer, committed) + b"\n")
        out.append(b"data %d\n" % len(message) + message + b"\n")
        parent = (
            from_mark
            if from_mark is not None
            else (self.last_main if branch == "main" else self.last_side)
        )
        if parent is not None:
            out.append(b"from :%d\n" % parent)
        if merge_mark is not None:
            out.append(b"merge :%d\n" % merge_mark)
        for op, path, content in ops:
            raw = _path(path)
            if op == "D":
                out.append(b"D " + raw + b"\n")
            else:
                out.append(f"M {model.mode(path)} inline ".encode() + raw + b"\n")
                out.append(b"data %d\n" % len(content) + content + b"\n")
        out.append(b"\n")
        if branch == "main":
            self.last_main = self.mark
        else:
            self.last_side = self.mark

    def finish(self) -> bytes:
        return b"".join(self.parts) + b"done\n"


def _ident(who: tuple[str, str], epoch: int) -> bytes:
    name = "".join(c for c in who[0] if c not in "<>\n") or "unknown"
    email = "".join(c for c in who[1] if c not in "<>\n")
    return f"{name} <{email}> {epoch} +0000".encode()


def _path(path: str) -> bytes:
    raw = path.encode("utf-8", "surrogateescape")
    if raw.startswith(b'"') or b"\n" in raw:
        return (
            b'"' + raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n") + b'"'
        )
    return raw


def _fill_shas(dest: Path, expected: list[dict[str, Any]]) -> None:
    log = subprocess.run(
        ["git", "-C", str(dest), "log", "--first-parent", "--reverse", "--format=%H %P", "main"],
        capture_output=True,
        text=True,
        check=True,
        env=git_env(),
    ).stdout.splitlines()
    assert len(log) == len(expected), (len(log), len(expected))
    for line, record in zip(log, expected, strict=True):
        sha, *parents = line.split()
        record["sha"], record["parents"] = sha, parents


def git_env() -> dict[str, str]:
    """The environment without what would point git at another repository (as inside a
    git hook): a replay must never touch the repository the tests run from."""
    return {key: value for key, value in os.environ.items() if key not in REPOSITORY_OVERRIDES}


def _epoch(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp())


def _iso(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
