"""`site build`: read the posts and the stored reports, count every published
repository's weeks from its synced PRs, plan the pages (site/pages.py) and write what
changed (site/publish.py)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from pathlib import Path

from ..analyze.people import People
from ..classify import Profile, profile_for
from ..classify.weekly import AREA_BASIS, classify_as_digests, week_of
from ..config import Config
from ..models import PullRequest
from ..reading.spelling import Spelling
from ..site import BuildResult, plan_site, write_pages
from ..site.charts import WeekPoint
from ..site.entries import published_reports
from ..site.posts import load_assets, load_posts
from ..site.publish import check_out_dir
from ..site.site_options import site_settings
from ..site.weekly_counts import weekly_points
from ..store import Store
from ..store.landed_history import Landed
from ..timeutil import Window


def build_site(
    store: Store, config: Config, out: Path, posts_dir: Path | None = None, *, force: bool = False
) -> BuildResult:
    """`prdigest site build`: read posts and stored reports, plan, write what changed."""
    settings = site_settings(config.section("site"))
    posts = load_posts(posts_dir) if posts_dir is not None else []
    assets = load_assets(posts_dir) if posts_dir is not None else []
    reports = store.reports()
    published = {report.repo for report in published_reports(reports, settings.repos)}
    check_out_dir(out)
    histories = {repo: weekly_history(store, config, repo) for repo in sorted(published)}
    return write_pages(out, plan_site(posts, reports, settings, assets, histories), force=force)


def weekly_history(store: Store, config: Config, repo: str) -> list[WeekPoint]:
    """One point per ISO week of the repository's stored history. A PR's area is the one
    its digest stored, else the profile's rules decide now (in memory: building the site
    writes nothing to the store)."""
    profile = profile_for(repo, config)
    landed = store.landed_history(repo, profile.name)
    if not landed:
        return []
    areas = _areas(store, repo, landed, profile)
    people = People(mailmap=store.mailmap_of(repo, {row.author_email for row in landed}))
    return weekly_points(landed, areas, people)


def _areas(store: Store, repo: str, landed: Sequence[Landed], profile: Profile) -> dict[str, str]:
    """sha → area: stored where a digest classified it; the rest classified as their
    weeks' digests would (classify/weekly.py), so a chart never files a PR under an area
    its digest does not."""
    found = {row.sha: row.area for row in landed if row.area is not None}
    missing = [row for row in landed if row.area is None]
    if not missing:
        return found
    wanted = {row.sha for row in missing}
    # Loaded once: the missing PRs' weeks and the area basis before the first (its
    # previous week and the quarter the generic profile derives its areas from).
    start = week_of(missing[0].merged_at).end - AREA_BASIS
    every = store.merged_between(repo, start, week_of(missing[-1].merged_at).end)
    prs = [pr for pr in every if pr.sha in wanted]
    moments = [pr.merged_at or start for pr in every]  # merged_between: all have landed

    def landed_in(week: Window) -> list[PullRequest]:
        return every[bisect_left(moments, week.start) : bisect_left(moments, week.end)]

    def spelling_of(week: Window) -> Spelling:
        return store.title_spelling(repo, week)

    for pr, decided in zip(
        prs, classify_as_digests(profile, prs, landed_in, spelling_of), strict=True
    ):
        found[pr.sha or ""] = decided.area
    return found
