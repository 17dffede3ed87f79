"""What the repository itself says, read from its real records (never from prdigest's
analysis): how its titles write words, its package roots, which directories already
existed, and which titles or labels announce a breaking change or a deprecation."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

Record = Mapping[str, Any]

WARM_UP = timedelta(
    weeks=8
)  # history shorter than this cannot tell a new directory from a dormant one


def landed(record: Record) -> datetime:
    return datetime.fromisoformat(str(record["committed_at"]).replace("Z", "+00:00"))


def split_window(
    records: Sequence[Record], start: datetime, end: datetime
) -> tuple[list[Record], list[Record]]:
    """(the records landed in [start, end), every record landed before start)."""
    window = [r for r in records if start <= landed(r) < end]
    history = [r for r in records if landed(r) < start]
    return window, history


# --- words as the titles write them -----------------------------------------------------

_TRAILING_REF = re.compile(r"\s*\(#\d+\)\s*$")
_CODE = re.compile(r"`[^`]*`")
_EDGE = "[](){}\"'“”‘’:,;!?*"
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# `aten.add.Tensor`, `backends/arm`, `foo_bar`, `f()`, `README.md`: code and file names
_CODE_LIKE = re.compile(r"[/_=<>@#()\\]|::|[A-Za-z]\.[A-Za-z]")
# `GPT-OSS`, `Qwen3.5`, `Kimi-K2.7`: one name written with inner separators (a dot only
# next to a digit, so `torch.compile` is code, not a name)
_COMPOUND = re.compile(r"^[A-Za-z0-9]+(?:(?:-|(?<=\d)\.|\.(?=\d))[A-Za-z0-9]+)+$")


def title_chunks(title: str) -> list[str]:
    """A title's whitespace-separated chunks, code spans and the trailing `(#N)` dropped,
    edge punctuation stripped; paths and identifiers (`/`, `_`) are code, not words."""
    text = _CODE.sub(" ", _TRAILING_REF.sub("", title))
    chunks = []
    for raw in text.split():
        chunk = raw.strip(_EDGE).rstrip(".")
        chunks.append("" if _CODE_LIKE.search(chunk) else chunk)
    return chunks


def compound_parts(chunk: str) -> tuple[str, ...] | None:
    if not _COMPOUND.match(chunk):
        return None
    return tuple(p.lower() for p in re.split(r"[-.]", chunk))


class Knowledge:
    """Facts learned from the history (records before the window), extended week by week
    in a sweep so that no week re-reads the whole history."""

    def __init__(self, repo: str) -> None:
        self.repo = repo
        self.forms: dict[str, Counter[str]] = defaultdict(Counter)  # word → written forms
        self.joined: Counter[tuple[str, str]] = Counter()  # (a, b) written `a-b` / `a.b`
        self.joined_as: dict[tuple[str, str], str] = {}  # how, the first time
        self.spaced: Counter[tuple[str, str]] = Counter()  # (a, b) written `a b`
        self.dirs: set[str] = set()
        self.python_files: Counter[str] = Counter()  # top-level dir (or src/<x>) → .py touches
        self.first: datetime | None = None

    @classmethod
    def from_records(cls, repo: str, history: Iterable[Record]) -> Knowledge:
        knowledge = cls(repo)
        knowledge.extend(history)
        return knowledge

    def extend(self, records: Iterable[Record]) -> None:
        for record in records:
            when = landed(record)
            self.first = when if self.first is None else min(self.first, when)
            learn_title(
                str(record.get("title") or ""), self.forms, self.joined, self.spaced, self.joined_as
            )
            for entry in record.get("files") or ():
                for path in (entry.get("path"), entry.get("old_path")):
                    if path:
                        self._learn_path(str(path))

    def _learn_path(self, path: str) -> None:
        parts = path.split("/")
        for depth in range(1, len(parts)):
            self.dirs.add("/".join(parts[:depth]))
        if path.endswith(".py") and len(parts) > 1:
            root = f"src/{parts[1]}" if parts[0] == "src" and len(parts) > 2 else parts[0]
            self.python_files[root] += 1

    def package_names(self) -> set[str]:
        """The repository's own name and its package roots: any `src/<name>/` holding
        Python, and a top-level Python directory named like the repository (`torchao/`
        in ao). Not the directory with the most Python: in executorch that is `backends/`."""
        own = _squash(self.repo.split("/")[-1])
        names = {own}
        for root in self.python_files:
            squashed = _squash(root.removeprefix("src/"))
            if squashed and (
                root.startswith("src/")
                or own in squashed
                or (len(squashed) >= 3 and squashed in own)
            ):
                names.add(squashed)
        return {n for n in names if n}

    def history_spans(self, start: datetime) -> bool:
        return self.first is not None and start - self.first >= WARM_UP


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def learn_title(
    title: str,
    forms: dict[str, Counter[str]],
    joined: Counter[tuple[str, str]],
    spaced: Counter[tuple[str, str]],
    joined_as: dict[tuple[str, str], str] | None = None,
) -> None:
    chunks = title_chunks(title)
    previous = ""
    for index, chunk in enumerate(chunks):
        parts = compound_parts(chunk)
        if parts:
            for a, b in zip(parts, parts[1:], strict=False):
                joined[(a, b)] += 1
                if joined_as is not None:
                    joined_as.setdefault((a, b), chunk)
        if index > 0:  # the first word is capitalised by position, not by the repository
            for word in _WORD.findall(chunk):
                forms[word.lower()][word] += 1
        simple = chunk if chunk and _WORD.fullmatch(chunk) or chunk.isdigit() else ""
        if previous and simple:
            spaced[(previous.lower(), simple.lower())] += 1
        previous = simple


# --- breaking changes and deprecations, announced by a title or a label -------------------

BREAKING_LABELS = frozenset(
    {
        "bc breaking",
        "topic: bc breaking",
        "module: bc breaking",
        "breaking",
        "breaking change",
        "deprecation",
        "deprecated",
        "module: deprecation",
        "topic: deprecation",
    }
)
_REVERT = re.compile(r"(?i)^\s*(?:\[[^\]]*\]\s*)*(?:revert|back\s*out|backout|unland)\b")
# test, CI and benchmark infrastructure breaks no user: `[Benchmark]Deprecate v2`
_INFRA_TAG = re.compile(r"(?i)^\s*\[(?:benchmark\w*|minibench|ci|tests?|testing|infra)\]")
_FIX = re.compile(r"(?i)\bfix\w*\b")
_TITLE_RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "a BC-breaking tag",
        re.compile(
            r"(?i)\bbc[-_ ]?breaking\b|\bbackwards?[-_ ]incompatible\b|\bbreaking[-_ ]change\b"
        ),
    ),
    ("a deprecation", re.compile(r"(?i)\bdeprecat(?:e|es|ing)\b|\bphas(?:e|es|ed|ing) out\b")),
    (
        "a deprecation warning",
        re.compile(r"(?i)\badd(?:s|ed|ing)?\b.{0,40}\bdeprecation (?:warning|message|notice)s?\b"),
    ),
    ("an API marked deprecated", re.compile(r"(?i)\bmark(?:s|ed|ing)?\b.{0,60}\bas deprecated\b")),
    ("a deprecation series", re.compile(r"(?i)\bdeprecation\s+(?:part|pt\.?)\s*\d")),
    (
        "a removed API or support",
        re.compile(
            r"(?i)\b(?:remov|delet|drop)\w*\b(?:(?!\bfrom\b)[^,;])*?\b(?:apis?|support)\b"
            r"(?=\s*$|\s*[,;:(]|\s+(?:for|in|from|of|on|to|and|with)\b)"
        ),
    ),
    (
        "a removal from the public API",
        re.compile(r"(?i)\b(?:remov|delet|drop)\w*\b.*\bfrom (?:the )?public api"),
    ),
    (
        "a dropped platform or Python version",
        re.compile(
            r"(?i)\bdrop\w*\s+(?:support\s+(?:for\s+)?)?(?:python|py|pytorch|torch|cuda|rocm|"
            r"macos|ios|android|windows|linux|gcc|clang|numpy|java|jdk|ndk|xcode)\s*[<>=]*\s*v?\d"
        ),
    ),
    (
        "a raised minimum version",
        re.compile(r"(?i)\brequire[sd]?\s+(?:python|pytorch|torch)\s*(?:>=?\s*)?\d"),
    ),
    ("a renamed API", re.compile(r"(?i)\brenam\w*\b.*\b(?:public )?apis?\b")),
    (
        "an old flow removed",
        re.compile(
            r"(?i)\b(?:remov|delet|drop)\w*\s+(?:the\s+)?old\s+(?:\S+\s+){0,2}?"
            r"(?:flows?|workflows?|apis?|implementations?)\b"
        ),
    ),
    ("a dropped version", re.compile(r"(?i)\bdrop\w*\s+unsupported\s+v?\d")),
]
_REMOVED_DEPRECATED = re.compile(
    r"(?i)\b(?:remov\w*|delet\w*)\s+(?:the\s+)?(?:old\s+)?deprecated\s+(?P<what>[^,;]*)"
)
_NOT_AN_API = re.compile(
    r"(?i)\b(tests?|ci|build|config|repository|workflows?|warnings?|usages?)\b"
)


def announces_break(title: str, labels: Iterable[str] = ()) -> str:
    """Why a PR's title or labels announce a breaking change or deprecation ('' if not).
    Conservative: using, fixing or replacing something deprecated announces nothing;
    neither does removing something unused, or something from a test, CI or build file."""
    for label in labels:
        if re.sub(r"[-_]", " ", str(label).lower()).strip() in BREAKING_LABELS:
            return f"the label {label!r}"
    text = _TRAILING_REF.sub("", title)
    if (
        _REVERT.search(text)
        or _INFRA_TAG.search(text)
        or re.search(r"(?i)\b(unused|no longer used)\b", text)
    ):
        return ""
    removed = _REMOVED_DEPRECATED.search(text)
    if removed and not _FIX.search(text[: removed.start()]):
        what = re.split(r"(?i)\s+(?:and|from)\s+", removed.group("what"))[0]
        if not re.search(r"(?i)\bfrom\b", removed.group("what")) and not _NOT_AN_API.search(what):
            return "a removed deprecated API"
    if re.search(r"(?i)\bci\b", text) and not re.search(r"(?i)deprecat|bc[-_ ]?breaking", text):
        return ""  # dropping versions from the CI matrix breaks no user
    for reason, pattern in _TITLE_RULES:
        match = pattern.search(text)
        if match and not _FIX.search(text[: match.start()]):
            return reason  # `fix … BC-breaking change` repairs someone else's break
    return ""


# --- directories first created in the window ---------------------------------------------

# Not components: tests, docs, CI and tooling dot-dirs, benchmarks, data, assets, configuration
# files, vendored code.
_NOT_COMPONENT = frozenset({
    "test", "tests", "testing", "test_data", "testdata", "fixtures", "docs", "doc",
    "benchmark", "benchmarks", "third-party", "third_party", "thirdparty", "vendor",
    "vendored", "generated", "__pycache__", "assets", "res", "resources", "images", "img",
    "static", "_static", "config", "configs",
})  # fmt: skip
_TEST_NAME = re.compile(r"(?i)^(?:tests?|testing)(?:[_-]|$)|[_-]tests?$")


def _not_component(parts: Sequence[str]) -> bool:
    return any(
        p.lower() in _NOT_COMPONENT or p.startswith(".") or _TEST_NAME.search(p) for p in parts
    )


def new_directories(
    window: Sequence[Record], knowledge: Knowledge, least: int = 3
) -> dict[str, int]:
    """Top-most directories the window creates (no history path under them, their parent
    known or the root), with `least` or more component files, each added by its first
    touch in the window (a file whose first touch deletes lines existed before: the
    directory was only dormant in the history we hold). Directory → files."""
    first_touch: dict[str, Mapping[str, Any]] = {}
    for record in sorted(window, key=landed):
        for entry in record.get("files") or ():
            first_touch.setdefault(str(entry["path"]), entry)
    under: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for path, entry in first_touch.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):
            directory = "/".join(parts[:depth])
            if directory in knowledge.dirs:
                continue
            # the first unknown level is the new directory; its subdirectories are not counted
            if not _not_component(parts[:depth]) and not _not_component(parts[depth:-1]):
                under[directory].append(entry)
            break
    found = {}
    for directory, entries in under.items():
        added = all(
            (e.get("deletions") or 0) == 0 or e.get("old_path") or e.get("binary") for e in entries
        )
        if len(entries) >= least and added:
            found[directory] = len(entries)
    return dict(sorted(found.items()))
