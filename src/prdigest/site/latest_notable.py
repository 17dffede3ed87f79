"""A repository page's "notable in the latest digest": the week's most notable PRs (the
digest's Key Takeaways lead, by the same notability), then the breaking changes,
deprecations and new components the newest published digest's analysis found (its stored
context's `news`), each linked to its PR. Digests stored before the analysis had news have
none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..analyze.english import plural
from ..models import Report
from .entries import Entry

SHOWN = 6
_LABELS = {"breaking": "Breaking", "deprecation": "Deprecation"}


@dataclass(frozen=True)
class NewsItem:
    label: str  # Top | Breaking | Deprecation | New
    text: str  # plain text: the template escapes it
    path: str  # a new component's directory, shown as code ('' for the others)
    number: int | None
    url: str


@dataclass(frozen=True)
class RepoNews:
    label: str  # the digest's window, e.g. `2026-W07 (2026-02-09 to 2026-02-15)`
    path: str  # the digest's page
    items: tuple[NewsItem, ...]
    more: int  # items left out


def latest_news(repo: str, entries: Sequence[Entry], reports: Sequence[Report]) -> RepoNews | None:
    """The news of `repo`'s newest published digest (`reports` as published)."""
    digests = [r for r in reports if r.repo == repo and r.kind == "digest"]
    if not digests:
        return None
    report = max(digests, key=lambda r: (r.window_end, r.window_start))
    entry = next(
        (
            e
            for e in entries
            if e.kind == "digest" and e.repo == repo and e.date.isoformat() == report.window_end
        ),
        None,
    )
    items = _items(report.context)
    if entry is None or not items:
        return None
    return RepoNews(
        entry.window_label, entry.path, tuple(items[:SHOWN]), max(0, len(items) - SHOWN)
    )


def _items(context: dict[str, Any]) -> list[NewsItem]:
    news = context.get("news") or {}
    prs = context.get("prs") or {}
    out = []
    announced = {row["pr"] for row in news.get("breaking", []) if row["kind"] in _LABELS}
    made = {c["lead"] for c in news.get("new_components", [])}
    for number in news.get("lead", []):  # told below as what they announce or make
        pr = prs.get(str(number))
        if pr is not None and number not in announced and number not in made:
            out.append(NewsItem("Top", pr["clean_title"].replace("`", ""), "", number, pr["url"]))
    for row in news.get("breaking", []):
        if row["kind"] in _LABELS and str(row["pr"]) in prs:
            text = (row["subject"] or row["sentence"].rstrip(".")).replace("`", "")
            url = prs[str(row["pr"])]["url"]
            out.append(NewsItem(_LABELS[row["kind"]], text, "", row["pr"], url))
    for component in news.get("new_components", []):
        number = component["lead"]
        url = prs[str(number)]["url"] if number is not None and str(number) in prs else ""
        files = plural(component["files"], "file")
        out.append(NewsItem("New", files, component["path"] + "/", number, url))
    return out
