"""The DevLog site: posts, safe Markdown, planning, feed, incremental build, CLI."""

from __future__ import annotations

import random
import re
import threading
import urllib.request
import xml.etree.ElementTree as ET
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import urldefrag, urlsplit

import pytest
from click.testing import CliRunner

from prdigest.cli import main
from prdigest.errors import ConfigError, SourceError
from prdigest.models import Report
from prdigest.site import load_posts, parse_post, plan_site, site_settings, write_pages
from prdigest.site.charts import area_counts, weekly_series
from prdigest.site.markup import excerpt, is_safe_link, render_markdown
from prdigest.site.pages import CSP, Page
from prdigest.site.posts import slugify
from prdigest.site.serve import make_server, site_url
from prdigest.store import open_store
from site_data import REPO, store_weekly_digests, sync_executorch

ATOM = "{http://www.w3.org/2005/Atom}"
EVIL = '<script>alert("x")</script>'

SETTINGS = site_settings(
    {
        "title": "Test DevLog",
        "tagline": "What we build & why",
        "base_url": "https://example.org/devlog",
        "topics": [
            {"name": "Dynamic Shapes", "description": "Symbolic shapes, unbacked symbols"},
            {"name": "Dispatcher", "description": "Dispatch keys & operator registry"},
            {"name": "Distributed", "description": "FSDP, DTensor, c10d"},
        ],
    }
)


def post_text(
    title: str, day: str, topics: str = "[Dynamic Shapes]", body: str = "First paragraph.\n"
) -> str:
    return f"---\ntitle: {title}\ndate: {day}\nauthor: Jane Doe\ntopics: {topics}\n---\n{body}"


def write_posts(directory: Path, count: int) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        topics = "[Dynamic Shapes, Dispatcher]" if i % 3 == 0 else "[Dynamic Shapes]"
        (directory / f"post-{i:02d}.md").write_text(
            post_text(
                f"Post number {i}",
                f"2026-03-{i + 1:02d}",
                topics,
                f"Body of post {i} with a [link](https://pytorch.org).\n\nSecond paragraph.\n",
            ),
            encoding="utf-8",
        )


def digest_report(week_start: str, week_end: str, title: str = "", prs: int = 7) -> Report:
    return Report(
        REPO,
        "digest",
        week_start,
        week_end,
        "deterministic",
        title or f"Analysis of Pull Requests for {REPO} during {week_start}",
        f"# {title or 'Digest'}\n\n### Key Takeaways\n\n{prs} PRs landed in Arm and XNNPACK.\n\n"
        f"### 1. Arm\n\n*   {EVIL} fixed ([PR#1](https://github.com/{REPO}/pull/1))\n",
        {
            "counts": {"prs": prs},
            "areas": [{"name": "Arm", "count": prs - 2}, {"name": "XNNPACK", "count": 2}],
        },
        datetime(2026, 4, 1, tzinfo=UTC),
    )


def sample_reports() -> list[Report]:
    return [
        digest_report("2026-02-09", "2026-02-15", f"Week with {EVIL}", 9),
        digest_report("2026-02-16", "2026-02-22", prs=4),
        digest_report("2026-03-02", "2026-03-08", prs=12),  # the week of 02-23 has no digest
    ]


@pytest.fixture
def posts(tmp_path: Path) -> list:
    directory = tmp_path / "posts"
    write_posts(directory, 12)
    (directory / "evil.md").write_text(
        post_text(
            f"'{EVIL} in a title'",
            "2026-03-20",
            f"['{EVIL}']",
            f"Raw {EVIL} and <img src=x onerror=alert(1)> and [bad](javascript:alert(1)).\n\n"
            "| left | right |\n|:--|--:|\n| a | 1 |\n",
        ),
        encoding="utf-8",
    )
    return load_posts(directory)


def pages_by_path(pages: list[Page]) -> dict[str, str]:
    return {p.path: p.body.decode("utf-8") for p in pages}


class LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            self.attrs.append((tag, name, value or ""))
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if name == "id" and value:
                self.ids.add(value)


def parse_html(text: str) -> LinkParser:
    parser = LinkParser()
    parser.feed(text)
    return parser


# -- posts and Markdown ----------------------------------------------------------


def test_post_front_matter_is_parsed() -> None:
    post = parse_post(
        "---\ntitle: How Does the Dispatcher Work?\ndate: 2026-03-04\nauthor: Jane Doe\n"
        "topics: [Dispatcher, Dynamic Shapes]\nsummary: The short version.\n"
        "disclosure: Drafted with help.\n---\nBody *here*.\n",
        "p.md",
        "p",
    )
    assert post is not None
    assert (post.title, post.date, post.author) == (
        "How Does the Dispatcher Work?",
        date(2026, 3, 4),
        "Jane Doe",
    )
    assert post.topics == ("Dispatcher", "Dynamic Shapes")
    assert (post.summary, post.disclosure, post.body) == (
        "The short version.",
        "Drafted with help.",
        "Body *here*.\n",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no front matter\n", "p.md:1: a post must start with '---'"),
        ("---\ntitle: x\n", "p.md:1: the front matter is not closed"),
        ("---\ndate: 2026-01-01\n---\n", "p.md: front matter has no title"),
        (
            "---\ntitle: x\ndate: someday\n---\n",
            "p.md:3: front matter date 'someday' is not a real date",
        ),
        (
            "---\ntitle: x\ndate: 2026-01-01\ntopics: [a, [b]]\n---\n",
            "topics must be a list of names",
        ),
        ("---\ntitle: x\ndate: 2026-01-01\ntags: [a]\n---\n", "unknown front matter key(s) tags"),
        ("---\ntitle: x\ndate: 2026-01-01\nauthor: [unclosed\n---\n", "p.md:4: invalid YAML"),
    ],
)
def test_bad_posts_name_file_and_fix(text: str, message: str) -> None:
    with pytest.raises(SourceError) as info:
        parse_post(text, "p.md", "p")
    assert message in str(info.value)
    assert " — " in str(info.value)


def test_drafts_are_skipped_and_duplicate_slugs_refused(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(
        "---\ntitle: A\ndate: 2026-01-01\ndraft: true\n---\nx\n", encoding="utf-8"
    )
    assert load_posts(tmp_path) == []
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.md").write_text(post_text("B", "2026-01-02"), encoding="utf-8")
    (tmp_path / "b.md").write_text(post_text("C", "2026-01-03"), encoding="utf-8")
    (tmp_path / "sub" / "b.md").write_text(post_text("D", "2026-01-04"), encoding="utf-8")
    with pytest.raises(SourceError, match="both make the page posts/b.html"):
        load_posts(tmp_path)


def test_markdown_escapes_raw_html_and_refuses_unsafe_links() -> None:
    html = render_markdown(
        f"{EVIL}\n\n[a](javascript:alert(1)) [b](https://ok.example/x) [c](../posts/x.html) "
        "[d](data:text/html,hi) [e](//evil.example) ![i](JaVaScRiPt:alert(1)) <https://auto.example>\n"
    )
    assert "<script" not in html and "&lt;script&gt;" in html
    assert 'href="https://ok.example/x"' in html and 'href="../posts/x.html"' in html
    assert 'href="https://auto.example"' in html
    for bad in ("javascript:", "data:", "//evil", "JaVaScRiPt"):
        assert f'href="{bad}' not in html and f'src="{bad}' not in html
    assert is_safe_link("mailto:x@y") is False and is_safe_link("#section") is True


def test_excerpt_is_the_first_paragraph_as_text() -> None:
    assert (
        excerpt("# Title\n\n### Key\n\nThe **first** `code` para\ngraph.\n\nSecond.")
        == "The first code para graph."
    )
    long = excerpt("word " * 200)
    assert len(long) < 330 and long.endswith(" …")


def test_settings_are_checked() -> None:
    with pytest.raises(ConfigError) as info:
        site_settings({"base_url": "ftp://x", "recent": 0, "topics": [{"description": "no name"}]})
    message = str(info.value)
    assert "base_url" in message and "recent" in message and "topics[0]" in message
    table = site_settings({"topics": {"CI": "Continuous integration"}, "base_url": "https://a.b/c"})
    assert (
        table.topics[0].description == "Continuous integration"
        and table.base_url == "https://a.b/c/"
    )


# -- the planned site ------------------------------------------------------------------


def test_home_page_lists_most_recent_ten_newest_first(posts: list) -> None:
    pages = pages_by_path(plan_site(posts, sample_reports(), SETTINGS))
    home = pages["index.html"]
    recent = home.split('id="recent"', 1)[1].split("</ol>", 1)[0]
    titles = re.findall(r'<h3><a href="([^"]+)">', recent)
    assert len(titles) == 10
    dates = re.findall(r'<time datetime="([\d-]+)"', recent)
    assert dates == sorted(dates, reverse=True) and dates[0] == "2026-03-20"
    assert titles[0] == "posts/evil.html"
    assert (
        "digests/pytorch-executorch-2026-03-02-2026-03-08.html" in titles
    )  # digests sit among posts
    assert recent.count("Read more →") == 10
    assert "<h1>Test DevLog</h1>" in home and "What we build &amp; why" in home


def test_topics_show_description_and_count_including_empty_ones(posts: list) -> None:
    home = pages_by_path(plan_site(posts, sample_reports(), SETTINGS))["index.html"]
    topics = home.split('id="topics-heading"', 1)[1]
    text = re.sub(r"<[^>]+>", "", topics)
    assert "Dynamic Shapes — Symbolic shapes, unbacked symbols · 12 posts" in text
    assert "Dispatcher — Dispatch keys &amp; operator registry · 4 posts" in text
    assert "Distributed — FSDP, DTensor, c10d · 0 posts" in text
    assert "Weekly Digests · 3 posts" in text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; · 1 post" in text


def test_script_in_titles_and_bodies_is_text_everywhere(posts: list) -> None:
    pages = plan_site(posts, sample_reports(), SETTINGS)
    for page in pages:
        if page.path.endswith(".html"):
            body = page.body.decode("utf-8")
            parsed = parse_html(body)
            assert "script" not in parsed.tags, page.path
            assert not any(name.startswith("on") for _, name, _ in parsed.attrs), page.path
            assert not any(name == "style" for _, name, _ in parsed.attrs), page.path
            assert ("meta", "content", CSP) in parsed.attrs, page.path
    html = pages_by_path(pages)
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; in a title" in html["posts/evil.html"]
    assert "&lt;img src=x onerror=alert(1)&gt;" in html["posts/evil.html"]
    links = parse_html(html["posts/evil.html"]).links
    assert links and not any("javascript" in link.lower() for link in links)
    assert "Week with &lt;script&gt;" in html["archive.html"]


def test_every_link_is_relative_and_resolves(posts: list) -> None:
    pages = plan_site(posts, sample_reports(), SETTINGS)
    paths = {p.path for p in pages}
    ids = {
        p.path: parse_html(p.body.decode("utf-8")).ids for p in pages if p.path.endswith(".html")
    }
    checked = 0
    for page in pages:
        if not page.path.endswith(".html"):
            continue
        for link in parse_html(page.body.decode("utf-8")).links:
            if urlsplit(link).scheme in ("http", "https"):
                continue
            assert not link.startswith("/"), f"{page.path}: {link} is not relative"
            target, fragment = urldefrag(link)
            resolved = str(PurePosixPath(page.path).parent / target) if target else page.path
            resolved = _normalise(resolved)
            assert resolved in paths, f"{page.path}: broken link {link}"
            if fragment:
                assert fragment in ids[resolved], f"{page.path}: no #{fragment} in {resolved}"
            checked += 1
    assert checked > 200


def _normalise(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def test_feed_is_atom_with_required_elements(posts: list) -> None:
    pages = pages_by_path(plan_site(posts, sample_reports(), SETTINGS))
    root = ET.fromstring(pages["feed.xml"].encode("utf-8"))
    assert root.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert root.find(f"{ATOM}{name}") is not None and root.findtext(f"{ATOM}{name}")
    assert (
        root.find(f"{ATOM}link[@rel='self']").get("href") == "https://example.org/devlog/feed.xml"
    )  # type: ignore[union-attr]
    assert root.findtext(f"{ATOM}updated") == "2026-03-20T00:00:00Z"
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 16  # 13 posts + 3 digests, under the default limit of 20
    ids = set()
    for entry in entries:
        for name in ("id", "title", "updated"):
            assert entry.findtext(f"{ATOM}{name}"), name
        assert (
            entry.find(f"{ATOM}link[@rel='alternate']")
            .get("href")
            .startswith("https://example.org/devlog/")
        )  # type: ignore[union-attr]
        assert entry.find(f"{ATOM}content").get("type") == "html"  # type: ignore[union-attr]
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT00:00:00Z", entry.findtext(f"{ATOM}updated") or "")
        ids.add(entry.findtext(f"{ATOM}id"))
    assert len(ids) == len(entries)
    evil = next(e for e in entries if "in a title" in (e.findtext(f"{ATOM}title") or ""))
    assert (
        evil.findtext(f"{ATOM}title") == f"{EVIL} in a title"
    )  # XML escaping round-trips the text
    assert "&lt;script&gt;" in (evil.findtext(f"{ATOM}content") or "")


def test_output_is_deterministic(posts: list) -> None:
    first = plan_site(posts, sample_reports(), SETTINGS)
    shuffled = sample_reports()
    random.Random(7).shuffle(shuffled)
    second = plan_site(list(reversed(posts)), shuffled, SETTINGS)
    assert first == second
    assert not any(b"2026-04-01" in p.body for p in first)  # the reports' created_at never shows


def test_repo_page_has_accessible_charts(posts: list) -> None:
    pages = pages_by_path(plan_site(posts, sample_reports(), SETTINGS))
    repo = pages["repos/pytorch-executorch.html"]
    assert repo.count('role="img"') == 5  # all PRs, reverts, contributors, Arm, XNNPACK
    assert 'aria-labelledby="chart-total-title chart-total-desc"' in repo
    assert "25 in total over 3 weeks, at most 12 (week of 2026-03-02)" in repo
    assert "1 week without a stored digest" in repo
    assert repo.count("<rect") == 15
    assert "<caption>PRs merged per week in pytorch/executorch</caption>" in repo


def test_area_counts_accept_list_or_table() -> None:
    assert area_counts({"areas": [{"name": "Arm", "count": 3}, {"name": "Arm", "count": 1}]}) == {
        "Arm": 4
    }
    assert area_counts({"areas": {"Arm": 2}}) == {"Arm": 2}
    assert area_counts({}) == {}


def test_one_entry_per_window_preferring_the_llm_writer() -> None:
    base = digest_report("2026-02-09", "2026-02-15", "deterministic one")
    llm = Report(
        **{
            **{f: getattr(base, f) for f in base.__dataclass_fields__},
            "writer": "llm",
            "title": "AI one",
        }
    )
    pages = pages_by_path(plan_site([], [base, llm], SETTINGS))
    page = pages["digests/pytorch-executorch-2026-02-09-2026-02-15.html"]
    assert "AI one" in page and "deterministic one" not in pages["index.html"]
    assert "checked against the PRs" in page


# -- build ------------------------------------------------------------------------------


def test_rebuild_rewrites_only_what_changed(tmp_path: Path) -> None:
    posts_dir = tmp_path / "posts"
    write_posts(posts_dir, 12)
    out = tmp_path / "public"
    out.mkdir()
    (out / "CNAME").write_text("devlog.example.org\n", encoding="utf-8")  # not ours: must survive
    first = write_pages(out, plan_site(load_posts(posts_dir), sample_reports(), SETTINGS))
    assert first.unchanged == [] and "index.html" in first.written
    again = write_pages(out, plan_site(load_posts(posts_dir), sample_reports(), SETTINGS))
    assert again.written == [] and again.removed == [] and len(again.unchanged) == first.pages
    before = (out / "digests/pytorch-executorch-2026-02-16-2026-02-22.html").stat().st_mtime_ns

    (posts_dir / "new.md").write_text(
        post_text("A new post", "2026-02-01", "[Distributed]"), encoding="utf-8"
    )
    third = write_pages(out, plan_site(load_posts(posts_dir), sample_reports(), SETTINGS))
    assert "posts/new.html" in third.written and "index.html" in third.written
    assert sorted(third.written) == [
        "archive.html",
        "feed.xml",
        "index.html",
        "posts/new.html",
        "posts/post-00.html",  # its pager now links the new post (posts page through posts)
        "topics.html",
        "topics/distributed.html",
    ]
    assert (
        out / "digests/pytorch-executorch-2026-02-16-2026-02-22.html"
    ).stat().st_mtime_ns == before

    (posts_dir / "new.md").unlink()
    fourth = write_pages(out, plan_site(load_posts(posts_dir), sample_reports(), SETTINGS))
    assert fourth.removed == ["posts/new.html"] and not (out / "posts/new.html").exists()
    assert (out / "CNAME").read_text(encoding="utf-8") == "devlog.example.org\n"


def test_real_executorch_digests_build_into_charts(tmp_path: Path, executorch_jsonl: Path) -> None:
    store = open_store(str(tmp_path / "x.db"))
    sync_executorch(store, executorch_jsonl)
    # the five complete weeks of its first six (2025-01-06 … 2025-02-09)
    made = store_weekly_digests(store, REPO, before=date(2025, 2, 10))
    reports = store.reports(REPO, "digest")
    assert len(reports) == len(made) == 5
    # Pipeline-made digests, not stand-ins: the deterministic writer's checked closing line.
    assert all(
        r.writer == "deterministic" and "checked against the PRs" in r.markdown for r in reports
    )
    series = weekly_series(reports)
    expected_total = sum(
        len([p for p in store.merged_between(REPO, *_bounds(r)) if p.number]) for r in reports
    )
    assert sum(point.total for point in series) == expected_total
    pages = pages_by_path(plan_site([], reports, SETTINGS))
    repo = pages["repos/pytorch-executorch.html"]
    assert f"{expected_total} in total over 5 weeks" in repo
    assert len([p for p in pages if p.startswith("digests/")]) == 5
    for page in pages.values():
        assert "<script" not in page


def _bounds(report: Report) -> tuple[datetime, datetime]:
    from prdigest.timeutil import window_between

    window = window_between(report.window_start, report.window_end)
    return window.start, window.end


# -- command line and server ------------------------------------------------------------------


def test_cli_post_new_and_site_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "cli.db")
    store = open_store(db)
    for report in sample_reports():
        store.save_report(report)
    store.close()
    (tmp_path / "prdigest.toml").write_text(
        '[site]\ntitle = "CLI DevLog"\ntopics = [{name = "Dynamic Shapes", description = "Shapes"}]\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    made = runner.invoke(
        main,
        [
            "post",
            "new",
            f"Hello {EVIL}: yes",
            "--topic",
            "Dynamic Shapes",
            "--date",
            "2026-03-10",
            "--author",
            "Jane",
        ],
    )
    assert made.exit_code == 0, made.output
    path = Path(made.stdout.strip())
    assert path == Path("posts") / f"2026-03-10-{slugify('Hello ' + EVIL + ': yes')}.md"
    post = parse_post(path.read_text(encoding="utf-8"), str(path), "x")
    assert (
        post is not None
        and post.title == f"Hello {EVIL}: yes"
        and post.topics == ("Dynamic Shapes",)
    )
    again = runner.invoke(main, ["post", "new", f"Hello {EVIL}: yes", "--date", "2026-03-10"])
    assert again.exit_code == 1 and "already exists" in again.output

    built = runner.invoke(main, ["--db", db, "site", "build", "--out", "public"])
    assert built.exit_code == 0, built.output
    # index, archive, topics, repos, feed, 2 static, 1 post, 3 digests, 2 topics, 1 repository
    assert "built public: 14 files, 14 written, 0 unchanged, 0 removed" in built.output
    home = (tmp_path / "public" / "index.html").read_text(encoding="utf-8")
    assert (
        "CLI DevLog" in home
        and "Hello &lt;script&gt;" in home
        and "Dynamic Shapes</a> — Shapes · " in home
    )
    rebuilt = runner.invoke(main, ["--db", db, "site", "build", "--out", "public"])
    assert ", 0 written," in rebuilt.output


def test_cli_reports_bad_post_as_one_line(tmp_path: Path) -> None:
    (tmp_path / "posts").mkdir()
    (tmp_path / "posts" / "bad.md").write_text("---\ntitle: x\n---\n", encoding="utf-8")
    open_store(str(tmp_path / "d.db")).close()  # site build reads a store that exists
    result = CliRunner().invoke(
        main,
        [
            "--db",
            str(tmp_path / "d.db"),
            "site",
            "build",
            "--out",
            str(tmp_path / "o"),
            "--posts",
            str(tmp_path / "posts"),
        ],
    )
    assert result.exit_code == 1
    assert (
        result.output.startswith("Error: ")
        and "bad.md" in result.output
        and "YYYY-MM-DD" in result.output
    )


def test_serve_binds_loopback_and_serves_the_site(tmp_path: Path) -> None:
    write_pages(tmp_path, plan_site([], sample_reports(), SETTINGS))
    server = make_server(tmp_path, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert server.server_address[0] == "127.0.0.1"
        with urllib.request.urlopen(site_url(server) + "index.html", timeout=10) as response:
            assert b'id="recent"' in response.read()
        with urllib.request.urlopen(site_url(server) + "feed.xml", timeout=10) as response:
            assert response.headers["Content-Type"].startswith("application/atom+xml")
    finally:
        server.shutdown()
        server.server_close()
    with pytest.raises(ConfigError, match="no built site"):
        make_server(tmp_path / "empty", 0)


def test_release_notes_and_post_images_are_published(tmp_path: Path) -> None:
    notes = Report(
        REPO, "release_notes", "2026-01-01", "2026-03-31", "deterministic",
        "ExecuTorch 1.2 release notes",
        "# ExecuTorch 1.2 release notes\n\n## Highlights\n\nFaster Arm lowering.\n\n"
        f"## Bug fixes\n\n### Arm\n\n- {EVIL} no longer crashes ([#5](https://github.com/{REPO}/pull/5))\n",
        {"counts": {"prs": 3}}, datetime(2026, 4, 1, tzinfo=UTC),
    )  # fmt: skip
    posts_dir = tmp_path / "posts"
    posts_dir.mkdir()
    (posts_dir / "images").mkdir()
    (posts_dir / "images" / "plot.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    (posts_dir / "images" / "evil.svg").write_text("<svg onload=alert(1)/>", encoding="utf-8")
    (posts_dir / "p.md").write_text(
        post_text("With a plot", "2026-04-02", body="![The plot](images/plot.png)\n"),
        encoding="utf-8",
    )
    store = open_store(str(tmp_path / "n.db"))
    store.save_report(notes)
    from prdigest.config import Config
    from prdigest.pipeline import build_site

    out = tmp_path / "public"
    build_site(store, Config({"site": {"title": "N"}}), out, posts_dir)
    page = (out / "release-notes/pytorch-executorch-2026-01-01-2026-03-31.html").read_text(
        encoding="utf-8"
    )
    assert "<h2>Highlights</h2>" in page and "&lt;script&gt;" in page and "<script" not in page
    assert "Faster Arm lowering." in (out / "index.html").read_text(encoding="utf-8")
    assert 'Release Notes</a> · <span class="count">1 post</span>' in (
        out / "index.html"
    ).read_text(encoding="utf-8")
    repo_page = (out / "repos/pytorch-executorch.html").read_text(encoding="utf-8")
    assert "<h2>Release notes</h2>" in repo_page and "2026-01-01 to 2026-03-31" in repo_page
    assert 'role="img"' not in repo_page  # no weekly digest: no chart
    assert (out / "posts/images/plot.png").read_bytes().startswith(b"\x89PNG")
    assert not (out / "posts/images/evil.svg").exists()
    assert '<img src="images/plot.png" alt="The plot"' in (out / "posts/p.html").read_text(
        encoding="utf-8"
    )


def test_site_serve_command_serves_until_stopped(tmp_path: Path) -> None:
    import subprocess
    import sys

    write_pages(tmp_path / "public", plan_site([], sample_reports(), SETTINGS))
    process = subprocess.Popen(
        [sys.executable, "-c", "from prdigest.cli import main; main()", "site", "serve", "--out", str(tmp_path / "public"),
         "--port", "0"],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+/) ", line)
        assert match, line
        with urllib.request.urlopen(match.group(1) + "repos.html", timeout=10) as response:
            assert b"pytorch/executorch" in response.read()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_publishing_workflow_example_is_valid_yaml_with_every_step() -> None:
    import yaml

    path = Path(__file__).resolve().parents[1] / "docs" / "examples" / "devlog-weekly.yml"
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert workflow[True]["schedule"][0]["cron"]  # YAML 1.1 reads the key `on` as True
    text = path.read_text(encoding="utf-8")
    for step in ("prdigest sync", "prdigest digest", "prdigest site build --out public",
                 "actions/deploy-pages", "pages: write"):  # fmt: skip
        assert step in text, step


def test_headings_form_an_outline_and_repos_setting_filters() -> None:
    other = Report(**{**{f: getattr(sample_reports()[0], f) for f in Report.__dataclass_fields__},
                      "repo": "pytorch/ao"})  # fmt: skip
    only_executorch = site_settings({"repos": [REPO]})
    pages = pages_by_path(plan_site([], [*sample_reports(), other], only_executorch))
    assert "repos/pytorch-ao.html" not in pages and "repos/pytorch-executorch.html" in pages
    assert not any("pytorch-ao" in path for path in pages)
    digest = pages["digests/pytorch-executorch-2026-02-09-2026-02-15.html"]
    levels = [int(level) for level in re.findall(r"<h([1-6])[ >]", digest)]
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False))
    assert "<h2>Key Takeaways</h2>" in digest  # `### Key Takeaways` under the page's <h1>


def test_a_build_stopped_partway_is_finished_by_the_next_without_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills after a few pages: the next build must take the pages the stopped
    one wrote for its own (they are listed before they are written), not for someone else's."""
    db = str(tmp_path / "cli.db")
    store = open_store(db)
    for report in sample_reports():
        store.save_report(report)
    store.close()
    import prdigest.site.publish as build

    written: list[Path] = []
    real_write = build.write_atomic

    def fill_the_disk(target: Path, body: str | bytes) -> None:
        if len(written) == 4:
            raise OSError(28, "No space left on device")
        real_write(target, body)
        if target.name != build.MANIFEST:
            written.append(target)

    monkeypatch.setattr(build, "write_atomic", fill_the_disk)
    out = tmp_path / "public"
    stopped = CliRunner().invoke(main, ["--db", db, "site", "build", "--out", str(out)])
    assert stopped.exit_code == 1 and "No space left on device" in stopped.output
    assert len(written) == 4

    monkeypatch.setattr(build, "write_atomic", real_write)
    again = CliRunner().invoke(main, ["--db", db, "site", "build", "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert "12 files, 8 written, 4 unchanged, 0 removed" in again.output
