"""The site built by `prdigest site build` from synced PRs, in headless Chromium (issue 15):
the repository page charts every week of the history, not only the weeks with a digest,
and a release note's excerpt on the home page is its first real line."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from datetime import date, timedelta
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from helpers import run_cli
from test_site_browser import CHROMIUM, LAUNCH_ARGS, Watch, _Quiet, assert_contrast

pytestmark = pytest.mark.browser

REPO = "pytorch/executorch"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (install Debian's chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright for Python is not installed")
    from conftest import ET_RECORDS, real_data

    jsonl = real_data(ET_RECORDS)
    root = tmp_path_factory.mktemp("history")
    db = root / "store.db"
    # Two digests and one release note only: the charts must not depend on them.
    assert (
        run_cli("digest", REPO, "--jsonl", str(jsonl), "--week", "2026-W07", db=db).exit_code == 0
    )
    assert run_cli("digest", REPO, "--week", "2025-W20", db=db).exit_code == 0
    notes = ["release-notes", REPO, "--since", "2026-01-01", "--until", "2026-03-31"]
    assert run_cli(*notes, db=db).exit_code == 0
    assert run_cli("site", "build", "--out", str(root / "www" / "devlog"), db=db).exit_code == 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root / "www")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/devlog/", jsonl
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def chromium(built: tuple[str, Path]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


def _prs_per_week(jsonl: Path) -> dict[str, int]:
    """Monday → PRs, for every week from the first record's to the last's (0 for a week
    with none: the excerpt of the data has gaps, the shared data none)."""
    weeks: dict[date, int] = {}
    with gzip.open(jsonl, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            day = date.fromisoformat(record["committed_at"][:10])
            monday = day - timedelta(days=day.weekday())
            weeks[monday] = weeks.get(monday, 0) + (record["number"] is not None)
    first, last = min(weeks), max(weeks)
    every = [first + timedelta(weeks=i) for i in range((last - first).days // 7 + 1)]
    return {monday.isoformat(): weeks.get(monday, 0) for monday in every}


def test_repository_charts_cover_every_week_of_the_synced_history(
    chromium: Any, built: tuple[str, Path]
) -> None:
    url, jsonl = built
    page = chromium.new_page(viewport={"width": 1000, "height": 900})
    watch = Watch(page)
    page.goto(url + "repos/pytorch-executorch.html")
    expected = _prs_per_week(jsonl)
    assert len(expected) == 86  # 2024-12-30 … 2026-08-17, in the excerpt of the data too
    for chart in ("chart-total", "chart-reverts", "chart-contributors", "chart-area-1"):
        svg = page.locator(f"svg#{chart}")
        assert svg.count() == 1, chart
        assert svg.locator("rect").count() == 86, f"{chart}: a bar slot for every week"
    bars = page.locator("svg#chart-total rect title").all_text_contents()
    assert (
        dict(
            (text.split(": ")[0].removeprefix("week of "), int(text.split(": ")[1].split()[0]))
            for text in bars
        )
        == expected
    )
    page.locator("details summary").click()
    rows = page.locator("table tbody tr")
    assert rows.count() == 86
    header = page.locator("table thead th").all_text_contents()
    assert header[:4] == ["Week", "All PRs", "Reverts", "Contributors"]
    assert "whether or not a digest was written" in page.locator("#charts-heading + p").inner_text()
    assert_contrast(page)
    assert watch.problems == []
    page.close()


def test_home_page_release_notes_excerpt_is_their_first_real_line(
    chromium: Any, built: tuple[str, Path]
) -> None:
    url, _ = built
    page = chromium.new_page()
    page.goto(url)
    entry = page.locator("#recent li", has_text="Release notes")
    excerpt = entry.locator(".excerpt").inner_text()
    # the drafted Highlights paragraph, never the to-do line it replaced
    assert excerpt.startswith("This release features "), excerpt
    assert "Candidates" not in page.locator("#recent").inner_text()
    page.close()
