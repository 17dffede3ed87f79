"""The DevLog read in headless Chromium (issue 23, item 9): chart tooltips count in good
English, the y axis has round ticks, the x axis names months that do not collide, the
pager stays within one repository's series, and a digest's heading fits a phone."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from functools import partial
from http.server import ThreadingHTTPServer
from typing import Any

import pytest

from helpers import run_cli
from test_site_browser import CHROMIUM, LAUNCH_ARGS, Watch, _Quiet

pytestmark = pytest.mark.browser

EXECUTORCH, AO = "pytorch/executorch", "pytorch/ao"
WEEKS = ("2026-W01", "2026-W06", "2026-W07")
TOOLTIP = re.compile(r"^week of \d{4}-\d{2}-\d{2}: (\d+) (.+)$")
UNITS = {
    "chart-total": "PRs merged",
    "chart-reverts": "reverts",
    "chart-contributors": "contributors",
}


def _unit(count: int, plural: str) -> str:
    """What a bar's tooltip must say after the count: `1 PR merged`, `2 PRs merged`,
    `1 revert`, `1 Docs PR`."""
    if count != 1:
        return plural
    return "PR merged" if plural == "PRs merged" else plural.removesuffix("s")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (install Debian's chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright for Python is not installed")
    from conftest import real_data

    root = tmp_path_factory.mktemp("reading")
    db = root / "store.db"
    for repo, folder in ((EXECUTORCH, "pytorch__executorch"), (AO, "pytorch__ao")):
        jsonl = real_data(f"{folder}/prs.jsonl.gz")
        assert run_cli("sync", repo, "--jsonl", str(jsonl), db=db).exit_code == 0
        for week in WEEKS:  # the two repositories' digests interleave by date
            assert run_cli("digest", repo, "--week", week, db=db).exit_code == 0
    notes = ("release-notes", AO, "--since", "2026-01-01", "--until", "2026-01-31")
    assert run_cli(*notes, db=db).exit_code == 0
    assert run_cli("site", "build", "--out", str(root / "www" / "devlog"), db=db).exit_code == 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root / "www")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/devlog/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def chromium(site: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.mark.parametrize("width", [1000, 375])
def test_chart_tooltips_ticks_and_month_labels(chromium: Any, site: str, width: int) -> None:
    page = chromium.new_page(viewport={"width": width, "height": 900})
    watch = Watch(page)
    page.goto(site + "repos/pytorch-executorch.html")
    charts = page.locator("svg.chart")
    assert charts.count() >= 4
    ones = 0
    for i in range(charts.count()):
        chart = charts.nth(i)
        chart_id = chart.get_attribute("id") or ""
        title = chart.locator("title").first.text_content() or ""
        plural = UNITS.get(chart_id) or title.removesuffix(": PRs per week") + " PRs"
        tips = [TOOLTIP.match(t) for t in chart.locator("rect title").all_text_contents()]
        assert tips and all(tips), chart_id
        for tip in tips:
            assert tip is not None
            count, unit = int(tip.group(1)), tip.group(2)
            assert unit == _unit(count, plural), f"{chart_id}: '{count} {unit}'"
            ones += count == 1
        labels = chart.locator("text.axis[text-anchor=end]").all_text_contents()
        ticks = [int(t) for t in labels if t.isdigit()]
        step = ticks[1] - ticks[0]
        assert ticks[0] == 0 and ticks == list(range(0, ticks[-1] + 1, step)), ticks
        assert re.fullmatch(r"[125]0*", str(step)), f"{chart_id}: step {step} is not round"
        assert len(ticks) <= 5 and ticks[-1] >= max(int(t.group(1)) for t in tips if t)  # type: ignore[union-attr]
        assert ticks[-1] < 2 * max(1, *(int(t.group(1)) for t in tips if t))  # type: ignore[union-attr]
        months = chart.locator("text.month")
        names = months.all_text_contents()
        assert len(names) >= 5, f"{chart_id}: {names} for 86 weeks"  # 20 months of history
        assert names[0] == "Jan 2025" and "Jan 2026" in names
        boxes = [months.nth(j).bounding_box() for j in range(months.count())]
        frame = chart.bounding_box()
        for left, right in zip(boxes, boxes[1:], strict=False):
            assert left["x"] + left["width"] < right["x"], f"{chart_id}: {names} overlap"  # type: ignore[index]
        assert boxes[-1]["x"] + boxes[-1]["width"] <= frame["x"] + frame["width"] + 0.5  # type: ignore[index]
    assert ones > 0  # some week has exactly one revert, contributor or area PR
    assert watch.problems == []
    page.close()


def test_older_and_newer_stay_within_a_repository(chromium: Any, site: str) -> None:
    page = chromium.new_page(viewport={"width": 1000, "height": 900})
    for repo in ("pytorch-executorch", "pytorch-ao"):
        page.goto(site + f"digests/{repo}-2026-02-02-2026-02-08.html")
        links = page.locator("nav.pager a")
        hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
        assert len(hrefs) == 2, hrefs  # W06 has W07 newer and W01 older, of its own repository
        assert f"digests/{repo}-2026-02-09-2026-02-15.html" in hrefs[0]
        assert f"digests/{repo}-2025-12-29-2026-01-04.html" in hrefs[1]
        page.goto(site + f"digests/{repo}-2025-12-29-2026-01-04.html")  # the oldest: no Older
        assert page.locator("nav.pager li.older").count() == 0
    page.close()


def test_a_digest_heading_fits_a_phone(chromium: Any, site: str) -> None:
    phone = chromium.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    page = phone.new_page()
    page.goto(site + "digests/pytorch-executorch-2026-02-09-2026-02-15.html")
    heading = page.locator("article header h1")
    assert heading.inner_text() == "executorch · week of 2026-02-09"
    line = float(
        page.evaluate("parseFloat(getComputedStyle(document.querySelector('h1')).lineHeight)")
    )
    assert heading.bounding_box()["height"] <= 2 * line + 1  # type: ignore[index]
    full = page.locator("article header .full-title").inner_text()
    assert "pytorch/executorch" in full and "20260209-20260215" in full
    page.goto(site + "release-notes/pytorch-ao-2026-01-01-2026-01-31.html")
    assert (
        page.locator("article header h1").inner_text()
        == "ao · release notes 2026-01-01..2026-01-31"
    )
    phone.close()
