"""One list of entries for the site: hand-written posts and stored digests / release notes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from ..models import Report
from .markup import render_with_excerpt, shorten, strip_title
from .posts import Post, slugify
from .site_options import SiteSettings

_KIND_DIR = {"post": "posts", "digest": "digests", "release_notes": "release-notes"}
_KIND_LABEL = {"post": "Post", "digest": "Weekly digest", "release_notes": "Release notes"}
_WRITER_PREFERENCE = {
    "llm": 0,
    "deterministic": 1,
}  # one entry per window: the verified LLM prose first

Day = date  # `Entry.date` shadows the type name inside the class body


@dataclass(frozen=True)
class Entry:
    kind: str  # post | digest | release_notes
    path: str  # site-relative, e.g. posts/how-the-dispatcher-works.html
    title: str
    date: date
    topics: tuple[str, ...]
    author: str
    excerpt: str
    html: str  # the body, already safe (Markdown rendered with raw HTML off)
    disclosure: str = ""
    repo: str = ""
    window_start: Day | None = None  # reports only; the entry's date is the window's last day

    @property
    def window_label(self) -> str:
        """`2026-W07 (2026-02-09 to 2026-02-15)`, or the two dates for other windows."""
        if self.window_start is None:
            return self.title
        span = f"{self.window_start.isoformat()} to {self.date.isoformat()}"
        year, week, weekday = self.window_start.isocalendar()
        if weekday == 1 and (self.date - self.window_start).days == 6:
            return f"{year}-W{week:02d} ({span})"
        return span

    @property
    def short_title(self) -> str:
        """A heading that fits a phone's line or two: `executorch · week of 2026-02-09`,
        `ao · release notes 2026-01-01..2026-03-31`; a post keeps its own title. The full
        title (a digest's seed format) is shown below it."""
        if not self.repo or self.window_start is None:
            return self.title
        name = self.repo.rsplit("/", 1)[-1]
        span = f"{self.window_start.isoformat()}..{self.date.isoformat()}"
        if self.kind == "release_notes":
            return f"{name} · release notes {span}"
        if self.window_start.weekday() == 0 and (self.date - self.window_start).days == 6:
            return f"{name} · week of {self.window_start.isoformat()}"
        return f"{name} · {span}"

    @property
    def kind_label(self) -> str:
        return _KIND_LABEL[self.kind]

    @property
    def sort_key(self) -> tuple[str, str, str]:
        """Newest first, ties broken by kind and path so the order never wobbles."""
        return (self.date.isoformat(), self.kind, self.path)


def repo_slug(repo: str) -> str:
    return slugify(repo.replace("/", "-"))


def entry_from_post(post: Post) -> Entry:
    html, first_paragraph = render_with_excerpt(post.body)
    return Entry(
        kind="post",
        path=f"{_KIND_DIR['post']}/{post.slug}.html",
        title=post.title,
        date=post.date,
        topics=post.topics,
        author=post.author,
        excerpt=shorten(post.summary) if post.summary else first_paragraph,
        html=html,
        disclosure=post.disclosure,
    )


def entry_from_report(report: Report, settings: SiteSettings) -> Entry:
    html, first_paragraph = render_with_excerpt(strip_title(report.markdown))
    topic = settings.digest_topic if report.kind == "digest" else settings.release_notes_topic
    if report.writer == "llm":
        disclosure = (
            "Drafted by a language model from numbers prdigest computed; "
            "every citation and figure was checked against the PRs."
        )
    else:
        disclosure = "Written by prdigest's deterministic writer from the merged PRs; every number is computed."
    return Entry(
        kind=report.kind,
        path=f"{_KIND_DIR[report.kind]}/{repo_slug(report.repo)}-{report.window_start}-{report.window_end}.html",
        title=report.title or f"{report.repo} {report.window_start} to {report.window_end}",
        date=date.fromisoformat(report.window_end),
        topics=(topic,),
        author=f"prdigest ({report.writer} writer)",
        excerpt=first_paragraph,  # the key takeaway
        html=html,
        disclosure=disclosure,
        repo=report.repo,
        window_start=date.fromisoformat(report.window_start),
    )


# The quickstart's name for a clone with no GitHub origin (`quickstart/<folder>`): a
# try-out, never published unless `[site] repos` names it.
TRY_OUT_OWNER = "quickstart/"


def published_reports(reports: Iterable[Report], repos: tuple[str, ...] | None) -> list[Report]:
    """One report per (repository, kind, window), for the chosen repositories."""
    best: dict[tuple[str, str, str, str], Report] = {}
    for report in reports:
        if report.kind not in ("digest", "release_notes"):
            continue
        if repos is not None and report.repo not in repos:
            continue
        if repos is None and report.repo.startswith(TRY_OUT_OWNER):
            continue
        key = (report.repo, report.kind, report.window_start, report.window_end)
        current = best.get(key)
        if current is None or _rank(report) < _rank(current):
            best[key] = report
    return [best[k] for k in sorted(best)]


def _rank(report: Report) -> tuple[int, str]:
    return (_WRITER_PREFERENCE.get(report.writer, 2), report.writer)


def build_entries(
    posts: Iterable[Post], reports: Iterable[Report], settings: SiteSettings
) -> list[Entry]:
    entries = [entry_from_post(p) for p in posts]
    entries += [entry_from_report(r, settings) for r in published_reports(reports, settings.repos)]
    return sorted(entries, key=lambda e: e.sort_key, reverse=True)
