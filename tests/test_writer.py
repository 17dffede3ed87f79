"""The deterministic writer: every real week, golden digests, Markdown that PR text cannot break."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from digest_weeks import classified, classified_inputs, iso_weeks, week
from prdigest.analyze import DigestContext, build_context
from prdigest.analyze.claims import normalize
from prdigest.analyze.digest_plan import OVERHEAD, word_budget
from prdigest.models import Classification, FileChange, PullRequest
from prdigest.write.deterministic import deterministic_digest, write_digest

ET = "pytorch/executorch"
AO = "pytorch/ao"
GOLDEN = Path(__file__).parent / "golden"
_LINK = re.compile(r"\[PR#(\d+)\]\((https://github\.com/[^)]+)\)")
_SECTION = re.compile(r"^### (\d+)\. (.+)$", re.M)
_CLOSING = re.compile(
    r"<!-- All (\d+) citations? and (\d+) figures? checked against the PRs of the window\. -->\n$"
)


def _unescape(markdown: str) -> str:
    return re.sub(r"\\([\\\[\]*|<_~`#+\-=>!.])", r"\1", markdown)


def _prose_words(markdown: str) -> int:
    """Words a reader reads: links as their text, the HTML comment not at all."""
    text = re.sub(r"<!--.*?-->", "", _LINK.sub("PR", markdown), flags=re.S)
    return len(re.findall(r"[A-Za-z0-9][\w'’.-]*", text))


def _check_week(repo: str, iso: str, pairs: tuple, raw_by_number: dict[int, PullRequest]) -> str:
    window = week(iso)
    inputs = classified_inputs(pairs, window)
    built = build_context(repo, **inputs)
    digest = deterministic_digest(built)
    markdown = write_digest(built)
    context = built.as_dict()
    in_window = [pr for pr, _ in inputs["items"]]
    numbers = {pr.number for pr in in_window if pr.number is not None}

    # the count is the data's
    expected = sum(1 for pr in in_window if pr.number is not None)
    assert context["counts"]["prs"] == expected, iso
    if expected:
        assert re.search(rf"\b{expected} PRs? landed\b", markdown), iso
    # every cited PR is in the window, and the closing comment counts the links
    links = _LINK.findall(markdown)
    for number, url in links:
        assert int(number) in numbers, (iso, number)
        assert url == f"https://github.com/{repo}/pull/{number}"
    closing = _CLOSING.search(markdown)
    assert closing, markdown[-300:]
    assert int(closing.group(1)) == len(links), iso
    # every figure is said by the PR it is quoted from, and the comment counts them
    figures = [f for line in digest.lines() for f in line.figures]
    assert int(closing.group(2)) == len(figures), iso
    for figure in figures:
        assert figure.pr is not None, (iso, figure)
        pr = raw_by_number[figure.pr]
        said = normalize(_unescape(figure.text))
        assert said in normalize(pr.title) or said in normalize(pr.body), (iso, figure)
    plan = built.plan
    if expected:
        # every PR is told or counted as untold, never both, never twice
        assert plan is not None
        told = plan.told
        untold = [n for _, prs in plan.untold for n in prs]
        assert len(set(told)) == len(told), (iso, told)
        assert not set(told) & set(untold), iso
        assert set(told) | set(untold) == numbers, iso  # (a number landed twice counts twice)
        # the sections are the plan's, numbered in order, and each cites what it tells
        headings = [(int(m.group(1)), m.group(2)) for m in _SECTION.finditer(markdown)]
        assert [i for i, _ in headings] == list(range(1, len(headings) + 1)), (iso, headings)
        planned = [s.heading for s in plan.sections if s.entries]
        assert [_unescape(h) for _, h in headings] == [_unescape(h) for h in planned], iso
        cited = {int(n) for n, _ in links}
        assert set(told) <= cited, (iso, set(told) - cited)
        # short: within the words the plan spent on the window's size
        assert _prose_words(markdown) <= 1.4 * (word_budget(expected) + OVERHEAD) + 40, iso
    # the same input gives the same bytes, also from the JSON form of the context, as
    # `--format json` writes it (keys sorted)
    dumped = json.loads(json.dumps(context, sort_keys=True))
    assert write_digest(DigestContext.from_dict(dumped)) == markdown
    return markdown


@pytest.mark.whole_history("80 weeks or more")
@pytest.mark.parametrize(("repo", "fixture"), [(ET, "executorch_jsonl"), (AO, "ao_jsonl")])
def test_every_iso_week_of_the_real_data(
    repo: str, fixture: str, request: pytest.FixtureRequest
) -> None:
    path = request.getfixturevalue(fixture)
    pairs = classified(str(path), repo, True)
    raw = {pr.number: pr for pr, _ in pairs if pr.number is not None}
    weeks = iso_weeks([pr for pr, _ in pairs])
    assert len(weeks) >= 80
    for index, iso in enumerate(weeks):
        markdown = _check_week(repo, iso, pairs, raw)
        if index % 10 == 0:  # a fresh analysis gives the same bytes too
            assert (
                write_digest(build_context(repo, **classified_inputs(pairs, week(iso)))) == markdown
            )


@pytest.mark.parametrize(
    "iso",
    [
        "2026-W07",
        pytest.param("2025-W37", marks=pytest.mark.whole_history("its trends and first-timers")),
    ],
)
def test_golden_executorch_weeks(iso: str, executorch_jsonl: Path) -> None:
    """Made with the fixed stand-in classifier, so only analysis and writing move them.
    Rewrite on purpose with PRDIGEST_UPDATE_GOLDEN=1 and review the diff."""
    context = build_context(
        ET, **classified_inputs(classified(str(executorch_jsonl), ET, False), week(iso))
    )
    markdown = write_digest(context)
    golden = GOLDEN / f"executorch-{iso}.md"
    if os.environ.get("PRDIGEST_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(markdown, encoding="utf-8")
    assert golden.is_file(), f"{golden} is missing: run with PRDIGEST_UPDATE_GOLDEN=1 to create it"
    assert markdown == golden.read_text(encoding="utf-8")


def test_digest_reads_like_the_references(executorch_jsonl: Path) -> None:
    """The shape DIGEST_STYLE.md asks for, checked on a real week."""
    context = build_context(
        ET, **classified_inputs(classified(str(executorch_jsonl), ET, False), week("2026-W07"))
    )
    markdown = write_digest(context)
    assert markdown.startswith(
        "# Analysis of Pull Requests for pytorch/executorch during 20260209-20260215\n\n"
        "### Key Takeaways\nHighlights: "
    )
    takeaways = markdown.split("\n---\n", 1)[0]
    assert "84 PRs landed, down from 110 the week before, most of the work in (1) " in takeaways
    assert "Voxtral Realtime" in takeaways  # the week's news leads
    # bullets say what each change does, with a verb, not a pasted title
    bullets = re.findall(r"^ *\*   (?:\*\*[^*]+:\*\* )?(.+)$", markdown, re.M)
    told = [b for b in bullets if "[PR#" in b]
    assert len(told) >= 12
    verbs = ("Adds ", "Fixes ", "Makes ", "Supports ", "Enables ", "Introduces ", "Ports ")
    assert sum(b.startswith(verbs) for b in told) >= len(told) // 2, told
    assert "`q8ta_im2col`" in markdown
    assert "### Reverts\n" in markdown and "was reverted ([PR#17385]" in markdown
    assert re.search(r"\n\*\d+ more PRs also landed: [^*]+\.\*\n", markdown)
    assert "### Contributors\n*   4 first-time contributors: " in markdown
    cited = {int(n) for n, _ in _LINK.findall(markdown)}
    assert 15 <= len(cited) <= 45  # selective, not a list of every PR
    assert _prose_words(markdown) <= word_budget(84) + OVERHEAD + 60


# --- Markdown safety ------------------------------------------------------------------

_EVIL_TITLES = [
    "# Heading injection\nsecond line",
    "<script>alert(1)</script> and <img src=x onerror=alert(1)>",
    "Click [here](https://evil.example/x) or ![img](https://evil.example/i.png)",
    "``` fenced ``` and `unbalanced code",
    "| a | b | table | *bold* _em_ ~~strike~~",
    "1. numbered\n- bullet\n> quote",
]


def _evil_context() -> DigestContext:
    moment = datetime(2026, 2, 10, 12, tzinfo=UTC)
    items = []
    for i, title in enumerate(_EVIL_TITLES * 2):
        pr = PullRequest(
            repo="o/r",
            number=100 + i,
            title=title,
            body=title,
            sha=f"{i:040x}",
            author_email=f"a{i}@x",
            author_name=f"A{i}",
            merged_at=moment,
            files=(FileChange(f"src/mod{i % 2}/file{i}.py", 10 * i, 1),),
        )
        items.append((pr, Classification("Area <b>", "improvements", "t", "t")))
    push = PullRequest(
        repo="o/r",
        number=None,
        title="# pushed <i>x</i> [y](z)",
        sha="f" * 40,
        author_email="p@x",
        author_name="P",
        merged_at=moment,
    )
    items.append((push, Classification("Area <b>", "improvements", "t", "t")))
    return build_context("o/r", week("2026-W07"), items, [])


def test_pr_text_cannot_break_the_markdown() -> None:
    markdown = write_digest(_evil_context())
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    headings = [t for t in tokens if t.type == "heading_open"]
    expected_headings = len(re.findall(r"^#{1,3} ", markdown, re.M))
    assert len(headings) == expected_headings
    assert [t.tag for t in headings][0] == "h1" and all(t.tag == "h3" for t in headings[1:])
    *body, closing = tokens
    assert closing.type == "html_block" and closing.content.startswith("<!-- All ")
    assert not [
        t
        for t in body
        if t.type in ("html_block", "fence", "code_block", "blockquote_open", "ordered_list_open")
    ]
    for token in tokens:
        ours = re.match(r"^\*\d+ PRs?\b[^*]*\*$", token.content)  # our italic section intro
        for child in token.children or []:
            assert child.type not in ("html_inline", "image", "s_open"), child
            assert child.type != "em_open" or ours, token.content
            if child.type == "link_open":
                assert str(child.attrGet("href")).startswith("https://github.com/o/r/pull/")
    assert "evil.example" not in "".join(
        str(child.attrGet("href"))
        for t in tokens
        for child in (t.children or [])
        if child.type == "link_open"
    )


@pytest.mark.parametrize("title", ["(#5)", "[BE] (#5)", "[BE][ez]", "  (#5)  "])
def test_a_title_that_cleans_to_nothing_still_gives_a_readable_bullet(title: str) -> None:
    moment = datetime(2026, 2, 10, 12, tzinfo=UTC)
    pr = PullRequest(
        repo="o/r",
        number=101,
        title=title,
        sha="a" * 40,
        author_email="a@x",
        author_name="A",
        merged_at=moment,
        files=(FileChange("src/m/f.py", 500, 1),),
    )
    other = PullRequest(
        repo="o/r",
        number=102,
        title="Fix the exporter crash on empty graphs",
        sha="b" * 40,
        author_email="b@x",
        author_name="B",
        merged_at=moment,
        files=(FileChange("src/m/g.py", 5, 1),),
    )
    c = Classification("Area", "improvements", "t", "t")
    context = build_context("o/r", week("2026-W07"), [(pr, c), (other, c)], [])
    shown = context.prs[101].clean_title
    assert shown == ("PR #101" if title.strip() == "(#5)" else title.replace("(#5)", "").strip())
    markdown = write_digest(context)
    bullet = next(line for line in markdown.splitlines() if "pull/101" in line)
    assert re.search(r"[^\s*:(] \(\[PR#101\]", bullet), bullet
    assert _unescape(shown) in _unescape(bullet)
    assert "**:**" not in markdown and "()" not in markdown and " and )" not in markdown


def test_empty_window_gives_a_short_valid_digest() -> None:
    context = build_context("o/r", week("2026-W07"), [], [])
    markdown = write_digest(context)
    assert markdown == (
        "# Analysis of Pull Requests for o/r during 20260209-20260215\n\n"
        "### Key Takeaways\nNo pull requests landed in o/r during 20260209-20260215.\n\n---\n\n"
        "<!-- All 0 citations and 0 figures checked against the PRs of the window. -->\n"
    )


def _copies(items: list, times: int) -> list:
    """The week's PRs `times` over, each copy with its own numbers and shas."""
    out = []
    for c in range(times):
        for pr, classification in items:
            if c:
                number = None if pr.number is None else pr.number + 100_000 * c
                pr = dataclasses.replace(pr, number=number, sha=f"{c:x}{(pr.sha or '0' * 40)[1:]}")
            out.append((pr, classification))
    return out


def _calls_to_write(inputs: dict) -> int:
    """Python function calls made analysing and writing one digest: an operation count."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        write_digest(build_context(ET, **inputs))
    finally:
        sys.setprofile(None)
    return calls


def test_digest_work_grows_linearly_with_the_week(executorch_jsonl: Path) -> None:
    """No timing: doubling the week's PRs must not quadruple the work (function calls).
    Each size runs twice and counts the second run, so warm caches do not skew the ratio.
    Measured: 2 → 4 → 8 copies of 2026-W07 cost ×1.7 and ×1.8 the calls."""
    inputs = classified_inputs(classified(str(executorch_jsonl), ET, False), week("2026-W07"))
    calls = []
    for times in (2, 4, 8):
        sized = {**inputs, "items": _copies(inputs["items"], times)}
        _calls_to_write(sized)
        calls.append(_calls_to_write(sized))
    assert calls[1] < 3 * calls[0] and calls[2] < 3 * calls[1], calls


def _landed(number: int, title: str, body: str = "") -> tuple[PullRequest, Classification]:
    pr = PullRequest(
        repo="o/r",
        number=number,
        title=title,
        body=body,
        sha=f"{number:040x}",
        author_email="a@x",
        author_name="A",
        merged_at=datetime(2026, 2, 10, 12, tzinfo=UTC),
        files=(FileChange(f"src/store/f{number}.py", 40, 2),),
    )
    return pr, Classification("Store", "improvements", "t", "t")


def test_reverts_are_told_those_still_out_first_the_rest_cited_in_a_line() -> None:
    changes = [_landed(n, f"Add the index of table {n}") for n in range(1, 6)]
    reverts = [_landed(n + 100, f'Revert "Add the index of table {n}"') for n in range(1, 6)]
    again = [_landed(201, "Add the index of table 1"), _landed(202, "Add the index of table 2")]
    context = build_context("o/r", week("2026-W07"), [*changes, *reverts, *again], [])
    markdown = write_digest(context)
    block = markdown.split("### Reverts\n", 1)[1].split("\n### ", 1)[0].split("\n---", 1)[0]
    lines = [line for line in block.splitlines() if line.startswith("*   ")]
    assert len(lines) == 4, block  # three told, the rest in one line
    assert all("landed again" not in line for line in lines[:3]), "those still out come first"
    assert lines[3].startswith("*   2 more reverts ("), lines[3]
    assert block.count("was reverted ([PR#") == 3


def test_a_window_of_direct_pushes_only_is_told_by_area() -> None:
    """A repository that lands commits directly (no `(#N)` anywhere) still gets a digest of
    its work: each push by its title and short sha, area by area, and no PR link."""
    moment = datetime(2026, 2, 10, 12, tzinfo=UTC)

    def push(i: int, title: str, area: str) -> tuple[PullRequest, Classification]:
        pr = PullRequest(
            repo="o/r",
            number=None,
            title=title,
            sha=f"{i:x}" * 40,
            author_email="a@x",
            author_name="A",
            merged_at=moment,
        )
        return pr, Classification(area, "improvements", "t", "t")

    items = [push(1, "Add the store", "Store"), push(2, "Index paths", "Store")]
    items += [push(3 + i, f"Tidy module {i}", f"Area {i}") for i in range(7)]
    markdown = write_digest(build_context("o/r", week("2026-W07"), items, []))
    assert "9 direct pushes did, by area below." in markdown
    store = markdown.split("### 1. Store\n", 1)[1].split("\n### ", 1)[0]
    assert "*   Add the store (`1111111`)." in store and "*   Index paths (`2222222`)." in store
    other = markdown.split("### 2. Other Areas\n", 1)[1].split("\n### ", 1)[0]
    assert "*7 direct pushes across 7 smaller areas*" in other
    assert "*   **Area 0:** Tidy module 0 (`3333333`)." in other
    assert "[PR#" not in markdown and "0 citations" in markdown


def test_merges_git_names_itself_are_counted_not_listed() -> None:
    """Issue 30: a repository that merges branches (`Merge branch 'x'`, git's own subject)
    had those merges listed as its work. They are counted; a merge with a subject of its
    own (`Merge llm20: …`) says what it brings and is told like any push (its prefix
    peeled as any title's)."""
    moment = datetime(2026, 2, 10, 12, tzinfo=UTC)

    def landed(i: int, title: str, number: int | None = None) -> tuple[PullRequest, Classification]:
        pr = PullRequest(
            repo="o/r",
            number=number,
            title=title,
            sha=f"{i:x}" * 40,
            author_email="a@x",
            author_name="A",
            merged_at=moment,
        )
        return pr, Classification("Store", "improvements", "t", "t")

    pushes = [
        landed(1, "Add the store"),
        landed(2, "Merge branch 'store21'"),
        landed(3, "Merge remote-tracking branch 'origin/main' into store21"),
        landed(4, "Merge llm20: the LLM writer's re-ask"),
    ]
    markdown = write_digest(build_context("o/r", week("2026-W07"), pushes, []))
    assert (
        "4 direct pushes did (2 merges of branches among them, not listed), by area below."
        in markdown
    )
    assert "*2 direct pushes*" in markdown, "the section counts the pushes it tells"
    assert "The LLM writer's re-ask (`4444444`)" in markdown and "Add the store" in markdown
    assert "store21" not in markdown and "origin/main" not in markdown

    with_prs = [landed(5, "Fix the exporter crash", number=7), *pushes]
    markdown = write_digest(build_context("o/r", week("2026-W07"), with_prs, []))
    [line] = [line for line in markdown.splitlines() if "commits without a PR" in line]
    assert line == (
        "*   4 direct pushes (commits without a PR) also landed"
        " (2 merges of branches among them, not listed)."
    ), line
