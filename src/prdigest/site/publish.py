"""Write a planned site to a directory, touching only files whose bytes changed (the
pipeline plans it from the store: pipeline/site_job.py).

A manifest (`.prdigest-site.json`) lists the files the last build wrote, so pages that
disappear (a deleted post) are removed, and nothing else in the directory is ever deleted.
It also says which files are prdigest's: a file at a page's path that the last build did
not write is someone's own, and a build overwrites it only when told to (`force`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import ConfigError
from ..fileio import write_atomic
from .pages import Page

MANIFEST = ".prdigest-site.json"


@dataclass
class BuildResult:
    out: Path
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return len(self.written) + len(self.unchanged)

    def summary(self) -> str:
        return (
            f"built {self.out}: {self.pages} files, {len(self.written)} written, "
            f"{len(self.unchanged)} unchanged, {len(self.removed)} removed"
        )


def check_out_dir(out: Path) -> None:
    """Refuse, before any work, an --out that is a file."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file", "give a directory for the site")


NAME_MAX = 255  # bytes in one file name, on every common file system


def _check_names(pages: Sequence[Page]) -> None:
    """Refuse, before writing anything, a page no file system can name (a store from
    before repository names were checked may hold a 300-character one)."""
    for page in pages:
        long = [part for part in _safe_relative(page.path).parts if len(part.encode()) > NAME_MAX]
        if long:
            raise ConfigError(
                f"cannot publish {page.path[:60]}…: its file name is {len(long[0].encode())}"
                f" bytes long, more than {NAME_MAX}",
                "delete that report (prdigest reports list, prdigest reports delete ID)",
            )


def _check_not_theirs(out: Path, pages: Sequence[Page], previous: dict[str, str]) -> None:
    """Refuse, before writing anything, to overwrite a file the last build did not write."""
    theirs = [
        page.path
        for page in pages
        if page.path not in previous and (out / _safe_relative(page.path)).exists()
    ]
    if theirs:
        more = f" and {len(theirs) - 1} more" if len(theirs) > 1 else ""
        raise ConfigError(
            f"--out {out} already holds {theirs[0]}{more}, which prdigest did not write",
            "choose an empty or new directory, or add --force to overwrite them"
            " (files the site does not write are kept either way)",
        )


def write_pages(out: Path, pages: Sequence[Page], *, force: bool = False) -> BuildResult:
    check_out_dir(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"cannot create {out}: {exc.strerror}", "choose a writable --out directory"
        ) from None
    result = BuildResult(out)
    previous = _read_manifest(out)
    _check_names(pages)
    if not force:
        _check_not_theirs(out, pages, previous)
    _claim(out, previous, pages)
    manifest: dict[str, str] = {}
    for page in pages:
        target = out / _safe_relative(page.path)
        manifest[page.path] = hashlib.sha256(page.body).hexdigest()
        if _same_bytes(target, page.body):
            result.unchanged.append(page.path)
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, page.body)
        except OSError as exc:
            raise ConfigError(
                f"cannot write {target}: {exc.strerror}", "choose a writable --out directory"
            ) from None
        result.written.append(page.path)
    for stale in sorted(set(previous) - set(manifest)):
        target = out / _safe_relative(stale)
        if target.is_file():
            target.unlink()
            result.removed.append(stale)
    _write_manifest(out, manifest)
    return result


def _claim(out: Path, previous: dict[str, str], pages: Sequence[Page]) -> None:
    """Before writing a page the last build did not write, list it in the manifest (with
    no hash yet): a build that stops partway then leaves no file the next build would take
    for someone else's."""
    new = {page.path: "" for page in pages if page.path not in previous}
    if new:
        _write_manifest(out, {**previous, **new})


def _write_manifest(out: Path, files: dict[str, str]) -> None:
    text = json.dumps({"generator": "prdigest", "files": files}, indent=1, sort_keys=True) + "\n"
    if not _same_bytes(out / MANIFEST, text.encode("utf-8")):
        write_atomic(out / MANIFEST, text)


def _same_bytes(target: Path, body: bytes) -> bool:
    try:
        if target.stat().st_size != len(body):
            return False
        return target.read_bytes() == body
    except OSError:
        return False


def _safe_relative(path: str) -> Path:
    """Pages come from slugs, but a manifest could be edited: never leave the output directory."""
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise ConfigError(
            f"refusing to write outside the site directory: {path}", "report this as a bug"
        )
    return Path(*pure.parts)


def _read_manifest(out: Path) -> dict[str, str]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}
