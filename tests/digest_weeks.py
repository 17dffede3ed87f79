"""Real weeks of the shared data as `build_context` inputs (for test_analyze, test_writer and
the digest benchmark). Records are parsed once per file and kept for the session."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from prdigest.analyze.people import People
from prdigest.analyze.prior_facts import History, ancestor_dirs
from prdigest.models import Classification, PullRequest
from prdigest.reading.spelling import TitleWords
from prdigest.sources.jsonl import read_jsonl
from prdigest.sources.records import parse_record
from prdigest.timeutil import Window, iso_week_window, to_iso

Classify = Callable[[Sequence[PullRequest]], list[Classification]]


@lru_cache(maxsize=4)
def load(path: str, repo: str) -> tuple[PullRequest, ...]:
    records = [
        parse_record(raw, repo, "jsonl", f"{path}:{line}") for line, raw in read_jsonl(Path(path))
    ]
    return tuple(sorted(records, key=lambda pr: (pr.merged_at, pr.sha or "")))


def iso_weeks(prs: Sequence[PullRequest]) -> list[str]:
    return sorted(
        {
            f"{pr.merged_at.isocalendar()[0]}-W{pr.merged_at.isocalendar()[1]:02d}"
            for pr in prs
            if pr.merged_at
        }
    )


_STANDIN_AREAS = [
    (
        re.compile(
            r"^backends/(arm|vulkan|qualcomm|xnnpack|cadence|apple|mediatek|nxp|samsung|openvino|cortex_m|cuda)/"
        ),
        None,
    ),
    (re.compile(r"^(extension/llm|examples/models/llama)"), "LLM"),
    (re.compile(r"^exir/"), "EXIR / Export"),
    (re.compile(r"^kernels/"), "Kernels"),
    (re.compile(r"^devtools/"), "Devtools"),
    (re.compile(r"^runtime/"), "Runtime"),
    (re.compile(r"^(\.github|\.ci|tools|scripts)/"), "Build/CI"),
    (re.compile(r"^docs/"), "Docs"),
    (re.compile(r"^torchao/prototype/(\w+)"), None),
    (re.compile(r"^torchao/(\w+)"), None),
    (re.compile(r"^test/(\w+)"), None),
]


def standin_classify(prs: Sequence[PullRequest]) -> list[Classification]:
    """A fixed path-vote classifier: the golden digests must not move when the real
    classifier's rules change, so they are made with this one."""
    out = []
    for pr in prs:
        votes: dict[str, int] = {}
        for f in pr.files:
            for pattern, name in _STANDIN_AREAS:
                match = pattern.match(f.path)
                if match:
                    area = name or (
                        "Backends: " + match.group(1).replace("_", "-").title()
                        if f.path.startswith("backends/")
                        else match.group(1).replace("_", " ").title()
                    )
                    votes[area] = votes.get(area, 0) + 1
                    break
        area = max(sorted(votes), key=lambda a: votes[a]) if votes else "Other"
        kind = "bug_fixes" if re.search(r"(?i)\bfix", pr.title) else "improvements"
        out.append(Classification(area, kind, "standin:path", "standin:title"))
    return out


def real_classifier(repo: str) -> Classify | None:
    """The product's classifier for `repo`, when that part of the package is importable."""
    try:
        from prdigest.classify.profiles import profile_for
        from prdigest.config import Config

        profile = profile_for(repo, Config())
    except Exception:  # another helper's work in progress: fall back to the stand-in
        return None
    return profile.classify_all


def week_inputs(prs: Sequence[PullRequest], window: Window, classify: Classify) -> dict[str, Any]:
    """Keyword arguments for `build_context` for one window, from the loaded records."""
    return classified_inputs(list(zip(prs, classify(prs), strict=True)), window)


@lru_cache(maxsize=8)
def classified(path: str, repo: str, real: bool) -> tuple[tuple[PullRequest, Classification], ...]:
    """Every record of a file with its classification (the real classifier when asked and
    importable, else the stand-in), computed once per session."""
    prs = load(path, repo)
    classify = (real_classifier(repo) if real else None) or standin_classify
    return tuple(zip(prs, classify(prs), strict=True))


def classified_inputs(
    pairs: Sequence[tuple[PullRequest, Classification]], window: Window
) -> dict[str, Any]:
    start, end = window.start, window.end
    prev = window.previous()
    current = [(pr, c) for pr, c in pairs if start <= pr.merged_at < end]
    before = [(pr, c) for pr, c in pairs if prev.start <= pr.merged_at < prev.end]
    earlier = {pr.author_email for pr, _ in pairs if pr.merged_at < start}
    known = {pr.author_email for pr, _ in current if pr.author_email in earlier}
    return {
        "window": window,
        "items": current,
        "previous": before,
        "history": history_of(pairs, [pr for pr, _ in current], window, known),
    }


_FIRST_SEEN: dict[int, tuple[Sequence[Any], dict[str, Any]]] = {}


def history_of(
    pairs: Sequence[tuple[PullRequest, Classification]],
    window_prs: list[PullRequest],
    window: Window,
    known_authors: set[str],
) -> History:
    """What the store would know before the window, from the loaded records: when each
    directory was first touched (a path or a rename's old path under it), indexed once,
    and which of the window's authors' addresses landed before."""
    key = id(pairs)
    if key not in _FIRST_SEEN or _FIRST_SEEN[key][0] is not pairs:
        first: dict[str, Any] = {}
        for pr, _ in pairs:  # oldest first
            paths = [p for f in pr.files for p in (f.path, f.old_path) if p]
            for directory in ancestor_dirs(paths):
                first.setdefault(directory, pr.merged_at)
        _FIRST_SEEN[key] = (pairs, first)
    first = _FIRST_SEEN[key][1]
    paths = [p for pr in window_prs for f in pr.files for p in (f.path, f.old_path) if p]
    known = {d for d in ancestor_dirs(paths) if d in first and first[d] < window.start}
    oldest = pairs[0][0].merged_at if pairs else None
    return History(
        known_dirs=frozenset(known),
        first_landed=oldest if oldest is not None and oldest < window.start else None,
        people=People.from_emails(known_authors),
        spelling=title_words(pairs).spelling(to_iso(window.end)),
    )


_TITLE_WORDS: dict[int, tuple[Sequence[Any], TitleWords]] = {}


def title_words(pairs: Sequence[tuple[PullRequest, Classification]]) -> TitleWords:
    """Every title of the records, read once per session (as the pipeline reads the
    store's); kept by the identity of the records (`classified` keeps them too)."""
    cached = _TITLE_WORDS.get(id(pairs))
    if cached is None or cached[0] is not pairs:
        words = TitleWords((to_iso(pr.merged_at), pr.title) for pr, _ in pairs if pr.merged_at)
        cached = _TITLE_WORDS[id(pairs)] = (pairs, words)
    return cached[1]


def week(text: str) -> Window:
    return iso_week_window(text)


def window_of(first: date, days: int) -> Window:
    return Window(first, first + timedelta(days=days - 1))
