"""What a file is to its project, decided in one place for every stage: library code
users run, an example or a developer's tool, a test, documentation, CI, a benchmark,
the build, vendored or generated code, or data. Whether a PR touches library code, which
of its names are public, how many of its lines reach users: all of it is read from
`file_role`, so the digest, the release notes and classification cannot disagree.

Rules, first match wins, on the path's directories and its file name:
vendored or generated (`third_party/`, `vendor/`, `*_pb2.py`) → CI (`.github/`, `ci/`)
→ tests (`tests/`, `unittests/`, `test_*.py`, `*_test.go`) → benchmarks → examples
(`examples/`, `demos/`, `samples/`) → tools (`scripts/` at any depth; a top-level
`tools/`, which in a nested package is library code: `langchain/tools/`; a Python file at
the root) → docs → build
(lockfiles, `setup.py`, `CMakeLists.txt`, `Dockerfile`) → data (`.json`, `.png`, …) →
library code.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache


class FileRole(StrEnum):
    LIBRARY = "code"
    EXAMPLE = "example"
    TOOL = "tool"
    TEST = "test"
    DOCS = "docs"
    CI = "ci"
    BENCH = "bench"
    BUILD = "build"
    VENDORED = "vendored"
    DATA = "data"


_TEST_PART = re.compile(
    r"(?i)^(?:tests?|testing|unittests?|test_?data|fixtures|__tests__|androidTest|"
    r"test_utils?|testsuite)$|[_-]tests?$|^tests?[_-]|[_-]tests?[_-]"
)
_TEST_FILE = re.compile(
    r"(?i)^(?:test_.+|.+_tests?\.\w+|conftest\.py|.+Tests?\.(?:java|kt|swift|mm?|cpp)|"
    r".+\.(?:test|spec)\.\w+)$"
)
_DOCS_PART = frozenset("docs doc documentation tutorials _static".split())
_DOCS_FILE = re.compile(r"(?i)\.(?:md|rst|ipynb|adoc|mdx)$|^(?:readme|changelog|license|notice)")
_CI_PART = frozenset(".github .ci .circleci .jenkins ci .buildkite .gitlab .devcontainer".split())
_BENCH_PART = re.compile(r"(?i)^(?:benchmarks?|benches|bench|microbenchmarks?|perf_tests?)$")
_BENCH_FILE = re.compile(r"(?i)^bench(?:mark)?_.+")
_EXAMPLE_PART = frozenset("examples example demos demo samples sample apps".split())
_TOOL_PART = frozenset("scripts build_tools devtools dev_tools".split())
_TOP_TOOL_PART = frozenset("tools tool utils dev".split())  # only at the top: `pkg/tools/` is code
_BUILD_PART = frozenset("docker".split())
_BUILD_FILE = re.compile(
    r"(?i)^(?:setup\.py|setup\.cfg|pyproject\.toml|cmakelists\.txt|makefile|buck|targets|"
    r"build(?:\.bazel)?|workspace|module\.bazel|dockerfile|\.gitignore|\.gitattributes|"
    r"\.pre-commit-config\.yaml|requirements.*\.txt|.+\.cmake|.+\.bzl|.+\.sh|manifest\.in|"
    r"\.clang-format|\.flake8|tox\.ini|noxfile\.py|mypy\.ini|\.lintrunner\.toml|cargo\.toml|"
    r"go\.mod|package\.json|rust-toolchain(?:\.toml)?|\.editorconfig|codeowners|"
    r"\.?typos\.toml|deny\.toml|clippy\.toml|rustfmt\.toml|\.readthedocs\.ya?ml)$"
)
_LOCK_FILE = re.compile(
    r"(?i)(?:\.lock|-lock\.json|\.sum|lock\.ya?ml)$|^(?:poetry|uv|cargo|yarn|pnpm)-?\.?lock"
)
_VENDORED_PART = frozenset(
    "third-party third_party thirdparty vendor vendored external generated _generated typeshed".split()
)
_GENERATED_FILE = re.compile(
    r"(?i)(?:_pb2\.pyi?|\.pb\.(?:go|h|cc)|\.min\.(?:js|css)|_generated\.\w+|\.snap)$"
)
_DATA_FILE = re.compile(
    r"(?i)\.(?:json|csv|tsv|pkl|pickle|pt|pth|pte|bin|npy|npz|onnx|png|jpe?g|gif|svg|ico|"
    r"wav|mp3|mp4|zip|gz|tar|whl|so|a|dylib|safetensors|tflite|txt)$"
)
_PUBLIC_ENTRY = frozenset({"__init__.py", "__init__.pyi", "__main__.py"})


@lru_cache(maxsize=65536)
def file_role(path: str) -> FileRole:
    """What a file is to the project (see the module's rules)."""
    parts = path.split("/")
    name, dirs = parts[-1], parts[:-1]
    lowered = [d.lower() for d in dirs]
    if any(d in _VENDORED_PART for d in lowered) or _GENERATED_FILE.search(name):
        return FileRole.VENDORED
    if any(d in _CI_PART for d in lowered):
        return FileRole.CI
    if any(_TEST_PART.search(d) for d in dirs) or _TEST_FILE.match(name):
        return FileRole.TEST
    if any(_BENCH_PART.match(d) for d in dirs) or _BENCH_FILE.match(name):
        return FileRole.BENCH
    if any(d in _EXAMPLE_PART for d in lowered):
        return FileRole.EXAMPLE
    if any(d in _TOOL_PART for d in lowered) or (lowered and lowered[0] in _TOP_TOOL_PART):
        return FileRole.TOOL
    if not dirs and name.endswith(".py") and name not in _PUBLIC_ENTRY:
        return FileRole.TOOL  # a Python library lives in a package; a file at the root is a script
    if any(d in _DOCS_PART for d in lowered) or _DOCS_FILE.search(name):
        return FileRole.DOCS
    if _LOCK_FILE.search(name) or any(d in _BUILD_PART for d in lowered) or _BUILD_FILE.match(name):
        return FileRole.BUILD
    if _DATA_FILE.search(name):
        return FileRole.DATA
    return FileRole.LIBRARY


def is_library(path: str) -> bool:
    return file_role(path) is FileRole.LIBRARY


def is_public(path: str, *, examples: bool = False) -> bool:
    """Whether users reach what the file holds: library code (or, with `examples`, an
    example users run, whose command-line flags they type) and no private part on its
    path (`_impl/`, `_utils.py`; `__init__.py` is the package itself)."""
    role = file_role(path)
    if role is not FileRole.LIBRARY and not (examples and role is FileRole.EXAMPLE):
        return False
    parts = path.split("/")
    return not any(p.startswith("_") and p not in _PUBLIC_ENTRY for p in parts)
