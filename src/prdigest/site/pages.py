"""Plan the site: posts + stored reports + settings → a list of pages (path, bytes). Pure.

Nothing here reads the clock, the store or the file system (templates and static files
come from the package), so the same input always gives byte-identical pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2 import TemplateError as JinjaTemplateError

from ..errors import TemplateError
from ..models import Report
from .charts import WeekPoint, chart_rows, repo_charts, weekly_series
from .entries import Entry, build_entries, published_reports, repo_slug
from .feed import atom_feed
from .latest_notable import RepoNews, latest_news
from .posts import Post, slugify
from .site_options import SiteSettings

# No script at all; styles and images only from the site itself (images also from https).
CSP = "default-src 'none'; style-src 'self'; img-src 'self' https:; base-uri 'none'; form-action 'none'"
STATIC_FILES = ("style.css", "favicon.svg")


@dataclass(frozen=True)
class Page:
    path: str  # relative to the output directory, "/"-separated
    body: bytes


@dataclass(frozen=True)
class TopicInfo:
    name: str
    description: str
    path: str
    entries: tuple[Entry, ...]

    @property
    def count(self) -> int:
        return len(self.entries)


@dataclass(frozen=True)
class RepoInfo:
    name: str
    path: str
    digests: tuple[Entry, ...]
    release_notes: tuple[Entry, ...]
    series: list[WeekPoint] = field(default_factory=list)
    from_history: bool = False  # counted from the synced PRs, not from stored digests
    news: RepoNews | None = None  # notable in the newest digest


def longdate(day: date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("prdigest.site", "templates"),
        autoescape=True,  # every template here is HTML, and PR titles are written by strangers
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["longdate"] = longdate
    return env


def root_of(path: str) -> str:
    """The relative prefix from a page back to the site root ("", "../", …)."""
    return "../" * path.count("/")


def plan_site(
    posts: Sequence[Post],
    reports: Iterable[Report],
    settings: SiteSettings,
    assets: Sequence[tuple[str, bytes]] = (),
    histories: Mapping[str, list[WeekPoint]] | None = None,
) -> list[Page]:
    """Every page of the site; `assets` are the posts' images (path under posts/, bytes);
    `histories` each repository's weeks counted from its synced PRs (site/weekly_counts.py)."""
    reports = list(reports)
    entries = build_entries(posts, reports, settings)
    topics = topic_infos(entries, settings)
    topic_paths = {t.name: t.path for t in topics}
    repos = repo_infos(entries, published_reports(reports, settings.repos), histories or {})
    repo_paths = {r.name: r.path for r in repos}
    renderer = _Renderer(settings, topic_paths)

    pages = [
        renderer.page(
            "index.html",
            "index.html.j2",
            section="home",
            recent=entries[: settings.recent],
            total=len(entries),
            topics=topics,
        ),
        renderer.page(
            "archive.html",
            "archive.html.j2",
            section="archive",
            total=len(entries),
            years=_by_year(entries),
        ),
        renderer.page("topics.html", "topics.html.j2", section="topics", topics=topics),
        renderer.page("repos.html", "repos.html.j2", section="repos", repos=repos),
    ]
    for entry, newer, older in _neighbours(entries):
        pages.append(
            renderer.page(
                entry.path,
                "entry.html.j2",
                section="entry",
                entry=entry,
                newer=newer,
                older=older,
                repo_path=repo_paths.get(entry.repo, "repos.html"),
            )
        )
    for topic in topics:
        pages.append(
            renderer.page(
                topic.path, "topic.html.j2", section="topics", topic=topic, entries=topic.entries
            )
        )
    for repo in repos:
        pages.append(
            renderer.page(
                repo.path,
                "repo.html.j2",
                section="repos",
                repo=repo,
                series=repo.series,
                charts=repo_charts(repo.name, repo.series),
                areas=chart_rows(repo.series),
            )
        )
    pages.append(Page("feed.xml", atom_feed(entries, settings)))
    pages += static_pages()
    pages += [Page(f"posts/{path}", body) for path, body in assets]
    return sorted(pages, key=lambda p: p.path)


def _neighbours(entries: list[Entry]) -> list[tuple[Entry, Entry | None, Entry | None]]:
    """Each entry with the next newer and older one of its own series: a digest's are the
    same repository's digests, release notes' its release notes, a post's the posts."""
    series: dict[tuple[str, str], list[Entry]] = {}
    place: list[int] = []
    for entry in entries:  # newest first
        same = series.setdefault((entry.repo, entry.kind), [])
        place.append(len(same))
        same.append(entry)
    out = []
    for entry, i in zip(entries, place, strict=True):
        same = series[(entry.repo, entry.kind)]
        newer = same[i - 1] if i > 0 else None
        out.append((entry, newer, same[i + 1] if i + 1 < len(same) else None))
    return out


def static_pages() -> list[Page]:
    folder = resources.files("prdigest.site").joinpath("static")
    return [Page(f"static/{name}", folder.joinpath(name).read_bytes()) for name in STATIC_FILES]


def topic_infos(entries: Sequence[Entry], settings: SiteSettings) -> list[TopicInfo]:
    """Configured topics first, in their order (even with no post yet), then the rest by name."""
    names = [t.name for t in settings.topics]
    used = sorted({t for e in entries for t in e.topics} - set(names), key=lambda n: (n.lower(), n))
    taken: set[str] = set()
    infos = []
    for name in names + used:
        slug = base = slugify(name)
        n = 2
        while slug in taken:  # "C++" and "C" would collide otherwise
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        infos.append(
            TopicInfo(
                name,
                settings.topic_description(name),
                f"topics/{slug}.html",
                tuple(e for e in entries if name in e.topics),
            )
        )
    return infos


def repo_infos(
    entries: Sequence[Entry],
    reports: Sequence[Report],
    histories: Mapping[str, list[WeekPoint]] | None = None,
) -> list[RepoInfo]:
    """A page per repository with a published report; its charts count every week of the
    synced history, or, for a repository whose PRs are not in the store, its digests' weeks."""
    histories = histories or {}
    names = sorted({r.repo for r in reports})
    return [
        RepoInfo(
            name=name,
            path=f"repos/{repo_slug(name)}.html",
            digests=tuple(e for e in entries if e.repo == name and e.kind == "digest"),
            release_notes=tuple(e for e in entries if e.repo == name and e.kind == "release_notes"),
            series=histories.get(name) or weekly_series(r for r in reports if r.repo == name),
            from_history=bool(histories.get(name)),
            news=latest_news(name, entries, reports),
        )
        for name in names
    ]


def _by_year(entries: Sequence[Entry]) -> list[tuple[int, list[Entry]]]:
    years: dict[int, list[Entry]] = {}
    for entry in entries:
        years.setdefault(entry.date.year, []).append(entry)
    return sorted(years.items(), reverse=True)


class _Renderer:
    def __init__(self, settings: SiteSettings, topic_paths: dict[str, str]) -> None:
        self.settings = settings
        self.topic_paths = topic_paths

    def page(self, path: str, template: str, **context: Any) -> Page:
        try:
            html = (
                environment()
                .get_template(template)
                .render(
                    site=self.settings,
                    root=root_of(path),
                    csp=CSP,
                    topic_paths=self.topic_paths,
                    **context,
                )
            )
        except JinjaTemplateError as exc:
            raise TemplateError(
                f"cannot render {path} from {template}: {exc}",
                "report this as a bug in prdigest's site templates",
            ) from exc
        return Page(path, html.encode("utf-8"))
