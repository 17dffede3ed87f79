"""The DevLog static site: posts, digests and release notes as HTML pages and an Atom feed.

`plan_site` (pure) turns posts, stored reports and settings into pages; `write_pages`
writes only what changed; the pipeline reads the store for them (`prdigest.pipeline.build_site`).
"""

from .pages import Page, plan_site
from .posts import Post, load_posts, parse_post
from .publish import BuildResult, write_pages
from .site_options import SiteSettings, Topic, site_settings

__all__ = [
    "BuildResult",
    "Page",
    "Post",
    "SiteSettings",
    "Topic",
    "load_posts",
    "parse_post",
    "plan_site",
    "site_settings",
    "write_pages",
]
