"""Notability and the news (analyze/notability.py, analyze/digest_plan.py,
write/brief_digest.py): each PR's reasons; breaking changes and deprecations called out in
sections of their own, a change reverted in its window never told as news but in Reverts;
new components recorded where they land; Key Takeaways opening with the week's highlights;
the same notability in the release notes' highlight candidates and on the site. Real
weeks through the real pipeline."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

from prdigest import pipeline
from prdigest.analyze import DigestContext, build_context
from prdigest.analyze.brief_types import AnnouncementKind, Status
from prdigest.analyze.digest_plan import Untold
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


_CITED = re.compile(r"\[PR#(\d+)\]")


def _cited(text: str) -> list[int]:
    return [int(n) for n in _CITED.findall(text)]


def _takeaways(markdown: str) -> str:
    return markdown.split("### Key Takeaways\n", 1)[1].split("\n", 1)[0]


def _sections(markdown: str) -> dict[str, str]:
    """The numbered sections' bullets by heading (the digest's `### N. heading` blocks)."""
    out: dict[str, str] = {}
    for block in markdown.split("\n### ")[1:]:
        heading, _, body = block.partition("\n")
        if re.match(r"\d+\. ", heading):
            bullets = [line for line in body.splitlines() if line.startswith(("*   ", "    *"))]
            out[heading.split(". ", 1)[1]] = "\n".join(bullets)
    return out


def _block(markdown: str, heading: str) -> str:
    return markdown.split(f"### {heading}\n", 1)[1].split("\n\n", 1)[0]


def test_each_pr_gets_its_reasons_and_the_window_its_news() -> None:
    built = _context(WINDOW, KNOWN)
    context = built.as_dict()
    reasons = {
        n: [r["kind"] for r in pr["notability"]["reasons"]] for n, pr in context["prs"].items()
    }
    assert reasons["1"] == ["breaking"]
    assert reasons["2"] == ["deprecation", "revert"]  # reverted this week
    assert reasons["3"] == ["capability", "new_component"]
    assert reasons["4"] == ["measured"]
    assert reasons["5"] == ["revert"]
    assert reasons["6"] == ["internal", "chore"]  # a README typo
    briefs = built.briefs
    # what each PR announces, and what became of it in the window
    announced = [(n, b.announced, b.status) for n, b in briefs.items() if b.announced]
    assert announced == [
        (1, AnnouncementKind.BREAKING, Status.LANDED),
        (2, AnnouncementKind.DEPRECATION, Status.REVERTED),
    ]
    assert briefs[2].migration.startswith("The old runner is deprecated in favor of")
    assert (briefs[5].status, briefs[5].status_of) == (Status.REVERT, 2)
    assert briefs[4].figures == ("This makes partitioning 3x faster on large graphs",)
    # the new directory, filed under the area its PR lands in; the PR that made it says so
    components = {a.name: a.components for a in built.areas}
    assert components["Backends: Qualcomm"] == ("backends/qualcomm/recipes",)
    made = [r["text"] for r in context["prs"]["3"]["notability"]["reasons"]]
    assert made[1] == "creates backends/qualcomm/recipes/ (3 files)"
    # the lead by substance: a new component that adds something, a break, a stated result;
    # never the reverted deprecation, the revert or the typo, which are not told as news
    plan = built.plan
    assert plan is not None and plan.lead == (3, 1, 4)
    assert context["plan"]["lead"] == [3, 1, 4]
    assert not {2, 5, 6} & set(plan.told)
    assert dict(plan.untold) == {Untold.REVERTS: (2, 5), Untold.DOCS: (6,)}
    assert context["prs"]["1"]["score"] == context["prs"]["1"]["notability"]["score"]
    assert context["prs"]["1"]["score"] == briefs[1].score


def test_the_digest_leads_with_the_news_and_calls_out_every_announcement() -> None:
    context = _context(WINDOW, KNOWN)
    markdown = write_digest(context)
    takeaways = _takeaways(markdown)
    assert takeaways.startswith("Highlights: ")
    assert _cited(takeaways) == [3, 1, 4]  # the news by substance; nothing reverted
    assert takeaways.endswith(" 6 PRs landed.")
    sections = _sections(markdown)
    # what users must act on is called out first, in a section of its own
    assert next(iter(sections)) == "Breaking changes"
    assert sections["Breaking changes"].splitlines() == [
        "*   Removes the legacy quantizer API ([PR#1](https://github.com/o/r/pull/1)).",
    ]
    # the deprecation was reverted within the week: no news, no Deprecations section; the
    # Reverts block tells what was taken back
    assert "Deprecations" not in sections
    assert not {2, 5} & {n for body in sections.values() for n in _cited(body)}
    assert _block(markdown, "Reverts").splitlines() == [
        "*   The change that deprecates the old runner ([PR#2](https://github.com/o/r/pull/2))"
        " was reverted ([PR#5](https://github.com/o/r/pull/5)).",
    ]
    # a stated result is told with its PR, in its words
    faster = next(line for body in sections.values() for line in body.splitlines()
                  if "[PR#4]" in line)  # fmt: skip
    assert "This makes partitioning 3x faster on large graphs" in faster
    assert "[PR#3](https://github.com/o/r/pull/3)" in "".join(sections.values())
    # the typo and the revert pair are counted, never listed
    assert "*3 more PRs also landed: reverts and docs.*" in markdown
    assert "[PR#6]" not in markdown
    assert write_digest(_dumped(context)) == markdown


def test_no_news_no_highlights_and_takeaways_count_the_week() -> None:
    quiet = [_pr(6, "Fix a typo", ["backends/qualcomm/README.md"])]
    context = _context(quiet, KNOWN)
    markdown = write_digest(context)
    assert context.plan is not None and context.plan.lead == () and context.plan.sections == ()
    assert "Highlights" not in markdown and "Breaking changes" not in markdown
    assert "### Key Takeaways\n1 PR landed.\n" in markdown
    assert "*One more PR landed: docs.*" in markdown
    # a directory the history knows is no news either
    known = _context(WINDOW, KNOWN | {"backends/qualcomm/recipes"})
    assert all(a.components == () for a in known.areas)
    made = [r.kind for r in known.prs[3].notability.reasons]
    assert "new_component" not in made


def test_executorch_2025_w37_through_the_pipeline(tmp_path: Path, executorch_jsonl: Path) -> None:
    """The week issue 13 names: #14102 (a removed Java API) called out first in Breaking
    changes, #14199 in Deprecations, the new 74-file Samsung backend (#13677) leading Key
    Takeaways; `backends/qualcomm/recipes/` recorded as new, made by a direct push; the
    repository page shows the same news."""
    store = open_store(str(tmp_path / "x.db"))
    sync_executorch(store, executorch_jsonl)
    result = pipeline.digest(
        store, REPO, iso_week_window("2025-W37"), Config(), writer="deterministic"
    )
    markdown, context = result.report.markdown, result.context
    sections = _sections(markdown)
    assert next(iter(sections)) == "Breaking changes"
    assert _cited(sections["Breaking changes"]) == [14102]
    assert "Removes `generateFromPos` API in Java ([PR#14102]" in sections["Breaking changes"]
    assert _cited(sections["Deprecations"]) == [14199]
    assert "Deprecates debug buffer in Module ([PR#14199]" in sections["Deprecations"]
    briefs = context.briefs
    assert briefs[14102].announced is AnnouncementKind.BREAKING
    assert briefs[14199].announced is AnnouncementKind.DEPRECATION
    reasons = context.as_dict()["prs"]["14102"]["notability"]["reasons"]
    assert reasons[0] == {"kind": "breaking", "text": "removes a public API"}
    # the lead by substance: the new 74-file Samsung backend first among the week's top 3
    assert context.plan is not None and context.plan.lead[0] == 13677
    assert _cited(_takeaways(markdown))[0] == 13677
    assert "Exynos backend" in _takeaways(markdown)
    samsung = [r.text for r in context.prs[13677].notability.reasons if r.kind == "new_component"]
    assert samsung == ["creates backends/samsung/ (74 files)"]
    # a direct push made `backends/qualcomm/recipes/`: new in its area, no PR's news
    qualcomm = {a.name: a.components for a in context.areas}["Backends: Qualcomm"]
    assert "backends/qualcomm/recipes" in qualcomm
    assert not any(
        "recipes" in r.text for pr in context.prs.values() for r in pr.notability.reasons
    )
    assert write_digest(_dumped(result.context)) == markdown
    pages = {p.path: p.body.decode() for p in plan_site([], [result.report], site_settings({}))}
    repo = pages["repos/pytorch-executorch.html"]
    assert "Notable in the latest digest" in repo
    assert "<strong>Breaking:</strong> Removes generateFromPos API in Java" in repo
    assert "pull/14102" in repo
    assert "<strong>Deprecation:</strong> Deprecates debug buffer in Module" in repo
    assert "<strong>Top:</strong> Adds Exynos backend" in repo and "pull/13677" in repo
    # a lead that neither breaks nor makes a component, as Key Takeaways names it
    assert "<strong>Top:</strong> Implements SDPA with fused ops" in repo and "pull/14139" in repo
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
