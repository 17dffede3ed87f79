"""Atomic file output: write beside the target, then rename, so nothing is half-written."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import ConfigError


def write_atomic(path: Path | str, content: str | bytes) -> None:
    target = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    if target.exists() and not target.is_file() and not target.is_dir():
        # A device or pipe (/dev/null, /dev/stdout, a FIFO): renaming over it would
        # replace the device itself, so write into it.
        _write_through(target, data)
        return
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise ConfigError(
            f"cannot write {target}: {exc.strerror}", "choose a writable path for --out"
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ConfigError(
            f"cannot write {target}: {exc.strerror}", "choose a writable path for --out"
        ) from None


def _write_through(target: Path, data: bytes) -> None:
    try:
        with target.open("wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise ConfigError(
            f"cannot write {target}: {exc.strerror}", "choose a writable path for --out"
        ) from None
