"""Notability and the news (analyze/notability.py, write/news.py, write/takeaways.py): each
PR's reasons, the callout of breaking changes and deprecations, new components named in
their area's section, Key Takeaways opening with what mattered; the same notability in the
release notes' highlight candidates and on the site. Real weeks through the real pipeline."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

from prdigest import pipeline
from prdigest.analyze import DigestContext, build_context
from prdigest.analyze.prior_facts import History
from prdigest.config import Config
from prdigest.models import Classification, FileChange, PullRequest
from prdigest.pipeline import release_notes
from prdigest.site import plan_site, site_settings
from prdigest.store import open_store
from prdigest.timeutil import iso_week_window, parse_datetime
from prdigest.write.deterministic import write_digest
from site_data import REPO, sync_executorch

WEEK = iso_week_window("2026-W07")


def _pr(number: int | None, title: str, files: list[str], *, body: str = "", deletes: int = 0,
        at: str = "2026-02-10T10:00:00Z") -> PullRequest:  # fmt: skip
    return PullRequest(
        repo="o/r",
        number=number,
        title=title,
        body=body,
        sha=f"{number or 0:040d}",
        merged_at=parse_datetime(at),
        author_email=f"a{number}@x",
        files=tuple(FileChange(f, 40, deletes) for f in files),
        source="jsonl",
    )


def _context(prs: list[PullRequest], known: set[str]) -> DigestContext:
    qualcomm = Classification("Backends: Qualcomm", "improvements", "r", "k")
    partitioner = Classification("Partitioner", "performance", "r", "k")
    history = History(known_dirs=frozenset(known), first_landed=WEEK.start - timedelta(weeks=40))
    items = [(pr, partitioner if pr.number == 4 else qualcomm) for pr in prs]
    return build_context("o/r", WEEK, items, [], history=history)


def _dumped(context: DigestContext) -> DigestContext:
    """The context through its JSON form and back, as `--format json` dumps it."""
    return DigestContext.from_dict(json.loads(json.dumps(context.as_dict())))


WINDOW = [
    _pr(1, "Remove the legacy quantizer API", ["backends/qualcomm/quantizer/legacy.py"], deletes=30),
    _pr(2, "Deprecate the old runner", ["backends/qualcomm/runner.py"],
        body="The old runner is deprecated in favor of the new QNN runner, which is faster."),
    _pr(3, "Add QNN recipes", [f"backends/qualcomm/recipes/{n}" for n in ("a.py", "b.py", "c.py")]),
    _pr(4, "Speed up the partitioner", ["backends/qualcomm/partition.py"],
        body="This makes partitioning 3x faster on large graphs."),
    _pr(5, 'Revert "Deprecate the old runner"', ["backends/qualcomm/runner.py"]),
    _pr(6, "Fix a typo", ["backends/qualcomm/README.md"]),
]  # fmt: skip
KNOWN = {"backends", "backends/qualcomm", "backends/qualcomm/quantizer"}


def test_each_pr_gets_its_reasons_and_the_window_its_news() -> None:
    context = _context(WINDOW, KNOWN).as_dict()
    reasons = {
        n: [r["kind"] for r in pr["notability"]["reasons"]] for n, pr in context["prs"].items()
    }
    assert reasons["1"] == ["breaking"]
    assert reasons["2"] == ["deprecation", "revert"]  # reverted this week
    assert reasons["3"] == ["capability", "new_component"]
    assert reasons["4"] == ["measured"]
    assert reasons["5"] == ["revert"]
    assert reasons["6"] == ["internal", "chore"]  # a README typo
    news = context["news"]
    assert [(row["pr"], row["kind"], row["reverted"]) for row in news["breaking"]] == [
        (1, "breaking", False),
        (2, "deprecation", True),
    ]
    assert news["breaking"][1]["hint"].startswith("The old runner is deprecated in favor of")
    assert [(c["path"], c["prs"], c["area"]) for c in news["new_components"]] == [
        ("backends/qualcomm/recipes", [3], "Backends: Qualcomm")
    ]
    # by substance: a new component that adds something, a break, a stated result; never
    # the reverted deprecation, the revert or the typo
    assert news["lead"] == [3, 1, 4]
    assert 5 not in context["notable"] and 2 not in context["notable"]
    assert context["prs"]["1"]["score"] == context["prs"]["1"]["notability"]["score"]


def test_the_digest_leads_with_the_news_and_calls_out_every_announcement() -> None:
    context = _context(WINDOW, KNOWN)
    markdown = write_digest(context)
    takeaways = markdown.split("### Key Takeaways\n", 1)[1].split("\n", 1)[0]
    lead = takeaways.split(" The week saw activity", 1)[0]
    parts = lead.removeprefix("Most notable this week: ").split("; ")
    assert parts[:2] == [
        "QNN recipes added ([PR#3](https://github.com/o/r/pull/3)),"
        " creating `backends/qualcomm/recipes/` (3 files)",
        "the legacy quantizer API removed ([PR#1](https://github.com/o/r/pull/1))",
    ]
    assert parts[2] == (
        "the partitioner sped up, reporting “This makes partitioning 3x faster on large graphs”"
        " ([PR#4](https://github.com/o/r/pull/4))"
    )
    assert parts[3] == "1 more breaking change or deprecation below."
    callout = markdown.split("### Breaking Changes and Deprecations\n", 1)[1].split("\n\n", 1)[0]
    assert callout.splitlines() == [
        "*   **Breaking:** The legacy quantizer API removed ([PR#1](https://github.com/o/r/pull/1)).",
        "*   **Deprecation:** The old runner deprecated ([PR#2](https://github.com/o/r/pull/2)),"
        " reverted this week. In the PR's words: “The old runner is deprecated in favor of the"
        " new QNN runner, which is faster.”",
    ]
    section = markdown.split("### 1. Backends: Qualcomm\n", 1)[1].split("\n### ", 1)[0]
    assert "*   **New `backends/qualcomm/recipes/`:** Adds QNN recipes ([PR#3]" in section
    assert write_digest(_dumped(context)) == markdown


def test_no_news_no_callout_and_takeaways_as_before() -> None:
    quiet = [_pr(6, "Fix a typo", ["backends/qualcomm/README.md"])]
    markdown = write_digest(_context(quiet, KNOWN))
    assert "Most notable" not in markdown and "Breaking Changes" not in markdown
    assert "### Key Takeaways\nThis week's activity centred on" in markdown
    # a directory the history knows is no news either
    known = KNOWN | {"backends/qualcomm/recipes"}
    assert _context(WINDOW, known).news.new_components == ()


def test_executorch_2025_w37_through_the_pipeline(tmp_path: Path, executorch_jsonl: Path) -> None:
    """The week issue 13 names: #14102 (a removed Java API) cited in the callout, the new
    `backends/qualcomm/recipes/` named in the Qualcomm section, Key Takeaways opening with
    them; the repository page shows the same news."""
    store = open_store(str(tmp_path / "x.db"))
    sync_executorch(store, executorch_jsonl)
    result = pipeline.digest(
        store, REPO, iso_week_window("2025-W37"), Config(), writer="deterministic"
    )
    markdown, context = result.report.markdown, result.context.as_dict()
    callout = markdown.split("### Breaking Changes and Deprecations\n", 1)[1].split("\n\n", 1)[0]
    assert "**Breaking:** Java `generateFromPos` API removed ([PR#14102]" in callout
    assert "**Deprecation:** Debug buffer in Module deprecated ([PR#14199]" in callout
    qualcomm = re.search(r"### \d+\. Backends: Qualcomm\n(.*?)\n### ", markdown, re.S)
    assert qualcomm and "**New `backends/qualcomm/recipes/`:**" in qualcomm.group(1)
    # the lead by substance: the new 74-file Samsung backend among the week's top 3; the
    # removed Java API and the deprecation are cited in the callout the lead points to
    takeaways = markdown.split("### Key Takeaways\n", 1)[1].split("\n", 1)[0]
    assert "creating `backends/samsung/` (74 files)" in takeaways
    assert "2 breaking changes and deprecations below." in takeaways
    reasons = context["prs"]["14102"]["notability"]["reasons"]
    assert reasons[0] == {"kind": "breaking", "text": "removes a public API"}
    made = {c["path"]: c for c in context["news"]["new_components"]}
    assert made["backends/samsung"]["files"] == 74 and made["backends/samsung"]["lead"] == 13677
    assert made["backends/qualcomm/recipes"]["push"] == "598ba46"  # a direct push made it
    assert write_digest(_dumped(result.context)) == markdown
    pages = {p.path: p.body.decode() for p in plan_site([], [result.report], site_settings({}))}
    repo = pages["repos/pytorch-executorch.html"]
    assert "Notable in the latest digest" in repo
    assert "Java generateFromPos API removed" in repo and "pull/14102" in repo
    assert "<code>backends/samsung/</code>, 74 files" in repo
    # the lead's PR that neither breaks nor makes a component, as Key Takeaways names it
    assert "<strong>Top:</strong> Implement SDPA with fused ops" in repo and "pull/14139" in repo
    store.close()


def test_release_highlights_rank_by_the_same_notability(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "r.db"))
    prs = [
        _pr(10, "Add a bigger feature", [f"src/feature/{i}.py" for i in range(30)]),
        _pr(11, "Java Remove generateFromPos API", ["extension/android/LlmModule.java"]),
        _pr(12, "Improve the docs", ["docs/a.md"]),
        _pr(13, "Add a small option", ["src/feature/option.py"]),
    ]
    store.upsert_pull_requests("o/r", prs)
    kinds = {10: "new_features", 11: "improvements", 12: "docs", 13: "new_features"}

    def classify(batch: list[PullRequest]) -> list[Classification]:
        return [Classification("Core", kinds[pr.number or 0], "r", "k") for pr in batch]

    result = release_notes(store, "o/r", Config(), window=WEEK, classifier=classify)
    highlights = [h["links"][0]["number"] for h in result.context.as_dict()["highlights"]]
    # a 30-file feature first, then a feature of its own size; docs are none, and the
    # announced break is a Backwards Incompatible change, which the paragraph points to
    # rather than the features' table (issue 22)
    assert highlights == [10, 13]
    assert result.context.as_dict()["headline"]["breaking"] == 1
    store.close()
