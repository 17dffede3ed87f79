"""A repository page's "notable in the latest digest": the newest published digest's lead
(what its Key Takeaways name: releases, breaks, the strongest changes), then the other
breaking changes and deprecations it tells, each in its brief's words and linked to its
PR. Digests stored before digests were planned from briefs have none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from ..errors import StoreError
from ..models import Report
from .entries import Entry

SHOWN = 6
_LABELS = {"breaking": "Breaking", "deprecation": "Deprecation"}


@dataclass(frozen=True)
class NewsItem:
    label: str  # Top | Release | Breaking | Deprecation
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
class _Brief(msgspec.Struct, frozen=True):
    what: str
    announced: str = ""  # breaking | deprecation | default | ""
    release: str = ""


class _Plan(msgspec.Struct, frozen=True):
    lead: list[int] = []


class _Cited(msgspec.Struct, frozen=True):
    url: str | None


class _Stored(msgspec.Struct, frozen=True):
    plan: _Plan | None = None  # None: stored before digests were planned from briefs
    briefs: dict[str, _Brief] = {}
    prs: dict[str, _Cited] = {}


def _items(report: Report) -> list[NewsItem]:
    """The digest's lead, then the rest of what it announces, each by its brief's words."""
    try:
        stored = msgspec.convert(report.context, _Stored)
    except msgspec.ValidationError as exc:
        raise StoreError(
            f"the stored digest of {report.repo} for {report.window_start}..{report.window_end}"
            f" cannot be read ({exc})",
            "write that digest again with `prdigest digest`",
        ) from None
    if stored.plan is None:
        return []
    announced = [n for n, b in stored.briefs.items() if b.announced in _LABELS]
    order = [str(n) for n in stored.plan.lead]
    order += [n for n in announced if n not in order]
    out = []
    for number in order:
        brief, pr = stored.briefs.get(number), stored.prs.get(number)
        if brief is None or pr is None:
            continue
        label = _LABELS.get(brief.announced) or ("Release" if brief.release else "Top")
        out.append(NewsItem(label, brief.what.replace("`", ""), "", int(number), pr.url))
    return out
