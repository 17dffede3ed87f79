"""The code a title names: an index from the names a source tree defines to the
directories that define them, so that a model reads `GetLivenessMap` as
`torch/csrc/jit/runtime/static` and `type_parser` as `torch/csrc/jit/mobile`.

Titles name code (functions, classes, files) far more often than they name areas. A model
trained on a few thousand labelled titles has seen few of those names, but the directory
that defines a name says where the change is, and a directory generalises to names the
labels never contained. (PyTorch's own classifier read the changed files; a worksheet
without files still names the code.)

What counts as a definition — regular expressions, no parsing, so any tree indexes in
seconds: Python `def`/`class` and module-level assignments; C/C++ `class`/`struct`/`enum`/
`namespace`/`using` names and declarations that start a line (`Type name(`); file stems
and, for `__init__.py`, the package's name.

Only identifier-shaped names are kept and looked up: a `_` or an inner capital
(`type_parser`, `GetLivenessMap`). A plain word in a title (`parser`, `fix`) is English more
often than code: indexing plain words made the model worse on PyTorch's worksheet. A name
defined in more than `MAX_DIRECTORIES` directories says little and is dropped.

Sources: a directory (a clone; hidden directories, `third_party`, `build` and
`node_modules` are skipped), or a package archive (.whl, .zip, .tar.gz, .tgz, .tar), whose
headers installed under `<package>/include/` are indexed at their include path
(`torch/include/torch/csrc/jit/ir/ir.h` → `torch/csrc/jit/ir/ir.h`). `prdigest classify
index` writes an index once to a .npz file (arrays only, read without unpickling), which a
profile can name (`code_index`; the `pytorch` profile ships PyTorch's) or `--code` can take.
"""

from __future__ import annotations

import io
import os
import re
import tarfile
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..fileio import write_atomic
from ..reading.patterns import PHAB_ID, PR_REF

MAX_DIRECTORIES = 20  # a name defined in more places than this is too common to place a change
MAX_BYTES = 2_000_000  # larger sources are generated tables, not code people name
DEPTHS = (2, 3, 4)  # directory prefixes a name contributes (`torch/csrc`, `torch/csrc/jit`, …)

PYTHON = {".py", ".pyi"}
NATIVE = {".h", ".hh", ".hpp", ".cuh", ".c", ".cc", ".cpp", ".cu", ".mm", ".m"}
SKIPPED_DIRS = {"third_party", "build", "node_modules", "__pycache__"}

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_SHAPED = re.compile(r"_|[a-z][A-Z]")
_PYTHON_DEF = re.compile(
    r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)|^([A-Za-z_]\w*)[ \t]*[:=]", re.M
)
_NATIVE_DEF = re.compile(
    r"\b(?:class|struct|enum(?:[ \t]+class)?|namespace|using)[ \t]+(?:[A-Z0-9_]+_API[ \t]+)?"
    r"([A-Za-z_]\w*)"
    r"|^[A-Za-z_][\w:<>,*& \t]*?\b([A-Za-z_]\w*)[ \t]*\(",
    re.M,
)
_INCLUDE = re.compile(r"^[^/]+/include/")

Reader = Callable[[], bytes]
INDEX_SUFFIX = ".npz"  # an index file written by `prdigest classify index`
ERROR_HINT = (
    "give a source tree (a clone), a package archive (.whl, .zip, .tar.gz) or an index file (.npz)"
)


def is_code_name(word: str) -> bool:
    """Identifier-shaped: `type_parser`, `GetLivenessMap`; not `parser`, `Fix`."""
    return bool(_SHAPED.search(word.strip("_")))


def definitions(path: str, text: str) -> set[str]:
    """The identifier-shaped names a source file defines, its stem included."""
    pure = PurePosixPath(path)
    names = {pure.stem}
    if pure.stem == "__init__" and pure.parent.name:
        names.add(pure.parent.name)
    if pure.suffix in PYTHON:
        pattern = _PYTHON_DEF
    elif pure.suffix in NATIVE:
        pattern = _NATIVE_DEF
    else:
        return set()
    for first, second in pattern.findall(text):
        names.add(first or second)
    return {name for name in names if len(name) >= 4 and is_code_name(name)}


class CodeIndex:
    """Names → directories, held as arrays: the directories of `names[i]` are
    `directories[places[offsets[i]:offsets[i + 1]]]` (a model file stores the arrays as they are)."""

    def __init__(
        self,
        source: str,
        directories: Sequence[str],
        names: Sequence[str],
        offsets: np.ndarray,
        places: np.ndarray,
    ) -> None:
        if len(offsets) != len(names) + 1 or offsets[-1] != len(places):
            raise ValueError("code index offsets do not match its names")
        if len(places) and (places.min() < 0 or places.max() >= len(directories)):
            raise ValueError("code index refers to a directory it does not list")
        self.source = source  # the name of what it was built from (a folder, an archive)
        self.directories = tuple(directories)
        self.names = tuple(names)
        self.offsets = offsets
        self.places = places
        self._row = {name: i for i, name in enumerate(self.names)}

    def __len__(self) -> int:
        return len(self.names)

    def where(self, name: str) -> tuple[str, ...]:
        """The directories that define `name` (empty when none, or not a code name)."""
        row = self._row.get(name)
        if row is None:
            return ()
        ids = self.places[self.offsets[row] : self.offsets[row + 1]]
        return tuple(self.directories[i] for i in ids)

    def lookup(self, title: str) -> list[tuple[str, tuple[str, ...]]]:
        """Each code name in the title that the index knows, with its directories."""
        found: dict[str, tuple[str, ...]] = {}
        for word in _NAME.findall(PHAB_ID.sub(" ", PR_REF.sub(" ", title))):
            if word not in found and word in self._row:
                found[word] = self.where(word)
        return list(found.items())

    def tokens(self, title: str) -> list[str]:
        """`__code_<directory prefix>` for the directories defining the title's names."""
        tokens: dict[str, None] = {}
        for _name, directories in self.lookup(title):
            for directory in directories:
                parts = directory.split("/")
                for depth in DEPTHS:
                    if len(parts) >= depth:
                        tokens["__code_" + "/".join(parts[:depth])] = None
        return list(tokens)

    # -- as arrays: in a model file (prefix `code_`) or an index file of its own ----------
    def arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        """Strings as newline-joined UTF-8 bytes, numbers as int arrays: nothing to unpickle."""
        return {
            prefix + "source": _text_array([self.source]),
            prefix + "directories": _text_array(self.directories),
            prefix + "names": _text_array(self.names),
            prefix + "offsets": self.offsets.astype(np.int64),
            prefix + "places": self.places.astype(np.int32),
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], prefix: str = "") -> CodeIndex:
        """The inverse of `arrays`; ValueError/KeyError when they do not fit together."""
        return cls(
            _texts(arrays[prefix + "source"])[0],
            _texts(arrays[prefix + "directories"]),
            _texts(arrays[prefix + "names"]),
            np.asarray(arrays[prefix + "offsets"], dtype=np.int64),
            np.asarray(arrays[prefix + "places"], dtype=np.int32),
        )

    def save(self, path: Path | str) -> None:
        """An index file (`classify index`): a NumPy .npz archive of `arrays()`."""
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **self.arrays())  # type: ignore[arg-type]
        write_atomic(path, buffer.getvalue())


def _text_array(items: Sequence[str]) -> np.ndarray:
    return np.frombuffer("\n".join(items).encode("utf-8"), dtype=np.uint8)


def _texts(array: np.ndarray) -> list[str]:
    return np.asarray(array, dtype=np.uint8).tobytes().decode("utf-8").split("\n")


def load_code_index(path: Path | str) -> CodeIndex:
    """Read an index file written by `CodeIndex.save` (never unpickles)."""
    source = Path(path)
    try:
        with np.load(source, allow_pickle=False) as archive:
            return CodeIndex.from_arrays({key: archive[key] for key in archive.files})
    except FileNotFoundError:
        raise ConfigError(f"code index {source} not found", ERROR_HINT) from None
    except (OSError, KeyError, ValueError, UnicodeDecodeError, zipfile.BadZipFile) as exc:
        raise ConfigError(
            f"{source} is not a readable code index ({type(exc).__name__})",
            "write it again with `prdigest classify index --code SOURCE --out FILE`",
        ) from None


def build_code_index(source: Path | str, max_directories: int = MAX_DIRECTORIES) -> CodeIndex:
    """Index a source tree or a package archive, or read an index file (.npz) written
    before; one clear error when it holds no code."""
    root = Path(source)
    if not root.exists():
        raise ConfigError(f"code source {root} not found", ERROR_HINT)
    if root.is_file() and root.name.endswith(INDEX_SUFFIX):
        return load_code_index(root)
    if root.is_dir():
        files = _tree_files(root)
    elif root.name.endswith((".whl", ".zip")):
        files = _zip_files(root)
    elif root.name.endswith((".tar.gz", ".tgz", ".tar")):
        files = _tar_files(root)
    else:
        raise ConfigError(f"code source {root} is neither a directory nor an archive", ERROR_HINT)
    defined: dict[str, set[str]] = defaultdict(set)
    try:
        for path, read in files:
            directory = path.rpartition("/")[0]
            for name in definitions(path, read().decode("utf-8", "replace")):
                defined[name].add(directory)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise ConfigError(f"cannot read code source {root}: {exc}", ERROR_HINT) from None
    kept = {name: dirs for name, dirs in defined.items() if len(dirs) <= max_directories}
    if not kept:
        raise ConfigError(f"found no Python or C/C++ definitions in {root}", ERROR_HINT)
    directories = sorted({d for dirs in kept.values() for d in dirs})
    position = {directory: i for i, directory in enumerate(directories)}
    names = sorted(kept)
    places = [sorted(position[d] for d in kept[name]) for name in names]
    offsets = np.cumsum([0] + [len(p) for p in places], dtype=np.int64)
    flat = np.fromiter((i for p in places for i in p), dtype=np.int32, count=int(offsets[-1]))
    return CodeIndex(root.resolve().name, directories, names, offsets, flat)


def _wanted(path: str) -> bool:
    return PurePosixPath(path).suffix in PYTHON | NATIVE


def _tree_files(root: Path) -> Iterator[tuple[str, Reader]]:
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        for name in sorted(files):
            full = Path(directory, name)
            path = full.relative_to(root).as_posix()
            if _wanted(path) and full.is_file() and full.stat().st_size <= MAX_BYTES:
                yield path, full.read_bytes


def _zip_files(archive: Path) -> Iterator[tuple[str, Reader]]:
    with zipfile.ZipFile(archive) as opened:
        for info in opened.infolist():
            if _wanted(info.filename) and not info.is_dir() and info.file_size <= MAX_BYTES:
                yield _INCLUDE.sub("", info.filename), _reader(opened.read, info)


def _tar_files(archive: Path) -> Iterator[tuple[str, Reader]]:
    with tarfile.open(archive) as opened:
        for member in opened:
            if member.isfile() and _wanted(member.name) and member.size <= MAX_BYTES:
                # sdists wrap everything in `name-version/`: drop it like the include prefix
                path = member.name.split("/", 1)[-1]
                yield _INCLUDE.sub("", path), _reader(_extracted(opened), member)


def _reader(read: Callable[[Any], bytes], item: Any) -> Reader:
    return lambda: read(item)


def _extracted(opened: tarfile.TarFile) -> Callable[[tarfile.TarInfo], bytes]:
    def read(member: tarfile.TarInfo) -> bytes:
        handle = opened.extractfile(member)
        return handle.read() if handle is not None else b""

    return read
