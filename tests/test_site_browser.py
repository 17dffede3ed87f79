"""Drive the built DevLog in headless Chromium: home page, links, counts, safety, screenshots.

The site is served from a sub-path (`/devlog/`) to prove every link is relative.
Screenshots go to tests/artifacts/ (gitignored).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from datetime import date
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from prdigest.site import load_posts, plan_site, write_pages
from prdigest.store import open_store
from site_data import REPO, store_weekly_digests, sync_executorch
from test_site import EVIL, SETTINGS, sample_reports, write_posts

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("PRDIGEST_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).parent / "artifacts"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
EXECUTORCH = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "pytorch__executorch" / "prs.jsonl.gz"
)


class _Quiet(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".xml": "application/atom+xml"}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"Chromium not found at {CHROMIUM} (install Debian's chromium or set PRDIGEST_CHROMIUM)"
        )
    pytest.importorskip("playwright.sync_api", reason="playwright for Python is not installed")
    root = tmp_path_factory.mktemp("browser")
    write_posts(root / "posts", 12)
    (root / "posts" / "evil.md").write_text(
        f"---\ntitle: '{EVIL} in a title'\ndate: 2026-03-20\ntopics: ['{EVIL}', Dispatcher]\n---\n"
        f"Raw {EVIL} and [bad](javascript:alert(1)).\n",
        encoding="utf-8",
    )
    reports = sample_reports()
    if EXECUTORCH.exists():  # real weeks too, for the charts; the test stands without them
        store = open_store(str(root / "x.db"))
        sync_executorch(store, EXECUTORCH)
        made = store_weekly_digests(store, REPO, limit=10, before=date(2026, 2, 8))
        assert len(made) == 10 and all(r.writer == "deterministic" for r in made)
        reports += store.reports()
        store.close()
    write_pages(root / "www" / "devlog", plan_site(load_posts(root / "posts"), reports, SETTINGS))
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root / "www")))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/devlog/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(site_url: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


class Watch:
    """Console errors, page errors and failed requests of one page."""

    def __init__(self, page: Any) -> None:
        self.problems: list[str] = []
        page.on(
            "console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}")
        )
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", self._failed)
        page.on(
            "response", lambda r: r.status >= 400 and self.problems.append(f"{r.status}: {r.url}")
        )

    def _failed(self, request: Any) -> None:
        # A fast crawl leaves the page before its favicon loads; Chromium reports that as
        # ERR_ABORTED. Every such URL is still fetched and checked by the crawl itself.
        if "ERR_ABORTED" not in (request.failure or ""):
            self.problems.append(f"failed: {request.url} ({request.failure})")


_COLOURS_JS = """els => els.map(el => {
  let bg = el, colour = getComputedStyle(el).backgroundColor;
  while (bg && (colour === 'rgba(0, 0, 0, 0)' || colour === 'transparent')) {
    bg = bg.parentElement;
    colour = bg ? getComputedStyle(bg).backgroundColor : 'rgb(255, 255, 255)';
  }
  const style = getComputedStyle(el);
  return [el.tagName + '.' + el.className, el.namespaceURI.endsWith('svg') ? style.fill : style.color, colour];
})"""
CHECKED = "body, .tagline, .meta, .kind, .count, a, .tags a, .disclosure, figcaption, .chart .axis, .chart .bar"


def _luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def assert_contrast(page: Any) -> None:
    """WCAG AA: 4.5:1 for text, 3:1 for the chart's bars (graphics)."""
    colours = page.eval_on_selector_all(CHECKED, _COLOURS_JS)
    assert len(colours) > 10
    for name, fg, bg in colours:
        light, dark = sorted((_luminance(fg), _luminance(bg)), reverse=True)
        ratio = (light + 0.05) / (dark + 0.05)
        assert ratio >= (3 if "bar" in name else 4.5), f"{name}: {fg} on {bg} is {ratio:.2f}:1"


def test_home_page_recent_ten_and_topic_counts(browser: Any, site_url: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    watch = Watch(page)
    page.goto(site_url + "index.html")
    assert page.title() == "Test DevLog"
    items = page.locator("#recent > li")
    assert items.count() == 10
    assert items.nth(0).locator("h3").inner_text() == f"{EVIL} in a title"
    dates = page.eval_on_selector_all(
        "#recent time", "els => els.map(e => e.getAttribute('datetime'))"
    )
    assert dates == sorted(dates, reverse=True)
    assert page.locator("#recent").get_by_text("Read more →").count() == 10
    topics = page.locator(".topic-list li").all_inner_texts()
    assert "Dynamic Shapes — Symbolic shapes, unbacked symbols · 12 posts" in topics
    assert "Dispatcher — Dispatch keys & operator registry · 5 posts" in topics
    assert "Distributed — FSDP, DTensor, c10d · 0 posts" in topics
    assert f"{EVIL} · 1 post" in topics
    assert page.evaluate("document.querySelectorAll('script').length") == 0
    assert_contrast(page)
    page.screenshot(path=str(ARTIFACTS / "site-home.png"), full_page=True)

    items.nth(0).get_by_text("Read more →").click()
    page.wait_for_load_state()
    assert page.url == site_url + "posts/evil.html"
    assert page.locator("h1").inner_text() == f"{EVIL} in a title"
    assert page.get_by_text(f"Raw {EVIL} and [bad](javascript:alert(1)).").count() == 1
    assert page.evaluate("document.querySelectorAll('script').length") == 0
    page.screenshot(path=str(ARTIFACTS / "site-post-with-script-title.png"), full_page=True)

    page.get_by_role("link", name="Dispatcher").first.click()
    page.wait_for_load_state()
    assert page.url == site_url + "topics/dispatcher.html"
    assert page.locator("main .entries > li").count() == 5
    assert watch.problems == []
    page.close()


def test_every_link_works_and_no_console_error(browser: Any, site_url: str) -> None:
    page = browser.new_page()
    watch = Watch(page)
    seen: set[str] = set()
    queue = [site_url + "index.html"]
    non_html = []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        if not url.endswith(".html"):
            non_html.append(url)
            continue
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        for link in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
            target = link.split("#", 1)[0]
            if target.startswith("http://127.0.0.1"):
                assert target.startswith(site_url), (
                    f"{url} links outside the site's sub-path: {link}"
                )
                queue.append(target)
        for src in page.eval_on_selector_all("link[href]", "els => els.map(e => e.href)"):
            if src.startswith(site_url):
                queue.append(src)
    for url in non_html:
        assert page.request.get(url).status == 200, url
    assert watch.problems == []
    assert (
        len(seen) > 25 and site_url + "feed.xml" in seen and site_url + "static/style.css" in seen
    )
    page.close()


def test_repository_charts_phone_and_dark_mode(browser: Any, site_url: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    watch = Watch(page)
    page.goto(site_url + "repos/pytorch-executorch.html")
    charts = page.locator("svg[role=img]")
    assert charts.count() >= 3
    for i in range(charts.count()):
        labelled = charts.nth(i).get_attribute("aria-labelledby") or ""
        assert all(page.locator(f"[id='{part}']").count() == 1 for part in labelled.split()), (
            labelled
        )
        assert charts.nth(i).bounding_box()["width"] > 300  # type: ignore[index]
    assert_contrast(page)
    page.screenshot(path=str(ARTIFACTS / "site-repo-charts.png"), full_page=True)
    page.close()

    phone = browser.new_context(
        viewport={"width": 375, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme="dark",
    )
    mobile = phone.new_page()
    mobile_watch = Watch(mobile)
    for path, shot in (
        ("index.html", "site-home-phone-dark.png"),
        ("digests/pytorch-executorch-2026-03-02-2026-03-08.html", "site-digest-phone-dark.png"),
        ("repos/pytorch-executorch.html", "site-repo-phone-dark.png"),
    ):
        mobile.goto(site_url + path)
        overflow = mobile.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{path} scrolls sideways on a phone"
        background = mobile.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(20, 18, 22)"  # the dark palette applies
        assert_contrast(mobile)
        mobile.screenshot(path=str(ARTIFACTS / shot), full_page=True)
    assert watch.problems == [] and mobile_watch.problems == []
    phone.close()
