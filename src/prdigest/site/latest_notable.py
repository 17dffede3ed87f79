"""A repository page's "notable in the latest digest": the week's most notable PRs (the
digest's Key Takeaways lead, by the same notability), then the breaking changes,
deprecations and new components the newest published digest's analysis found (its stored
context's `news`), each linked to its PR. Digests stored before the analysis had news have
none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from ..analyze.english import plural
from ..errors import StoreError
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
    url: str | None  # None: a repository without GitHub links (cited as PR#N)


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
    items = _items(report)
    if entry is None or not items:
        return None
    return RepoNews(
        entry.window_label, entry.path, tuple(items[:SHOWN]), max(0, len(items) - SHOWN)
    )


# What this page reads of a stored digest's context (the analysis, as the store keeps it).
class _Breaking(msgspec.Struct, frozen=True):
    pr: int
    kind: str  # breaking | deprecation | …
    sentence: str
    subject: str | None = None


class _Component(msgspec.Struct, frozen=True):
    lead: int | None
    files: int
    path: str


class _News(msgspec.Struct, frozen=True):
    lead: list[int] = []
    breaking: list[_Breaking] = []
    new_components: list[_Component] = []


class _Cited(msgspec.Struct, frozen=True):
    clean_title: str
    url: str | None


class _StoredNews(msgspec.Struct, frozen=True):
    news: _News | None = None  # None: stored before the analysis had news
    prs: dict[str, _Cited] | None = None


def _items(report: Report) -> list[NewsItem]:
    try:
        stored = msgspec.convert(report.context, _StoredNews)
    except msgspec.ValidationError as exc:
        raise StoreError(
            f"the stored digest of {report.repo} for {report.window_start}..{report.window_end}"
            f" cannot be read ({exc})",
            "write that digest again with `prdigest digest`",
        ) from None
    news, prs = stored.news or _News(), stored.prs or {}
    out = []
    announced = {row.pr for row in news.breaking if row.kind in _LABELS}
    made = {c.lead for c in news.new_components}
    for number in news.lead:  # told below as what they announce or make
        pr = prs.get(str(number))
        if pr is not None and number not in announced and number not in made:
            out.append(NewsItem("Top", pr.clean_title.replace("`", ""), "", number, pr.url))
    for row in news.breaking:
        if row.kind in _LABELS and str(row.pr) in prs:
            text = (row.subject or row.sentence.rstrip(".")).replace("`", "")
            out.append(NewsItem(_LABELS[row.kind], text, "", row.pr, prs[str(row.pr)].url))
    for component in news.new_components:
        lead = component.lead
        url = prs[str(lead)].url if lead is not None and str(lead) in prs else ""
        files = plural(component.files, "file")
        out.append(NewsItem("New", files, component.path + "/", lead, url))
    return out
