"""The editorial check (tests/editorial.py) on real data: the facts issue 13 names, every
mutation of a real week that brings a failure back, and every ISO week of executorch and ao
as the product writes them (the issue's "Done when"). Hand-written cases are in
test_editorial_rules.py.

The digest is composed from the window's briefs as the plan lays them out (analyze/
digest_plan.py, write/brief_digest.py): sections by kind of change (a week of up to 60 PRs)
or by component, bullets `**subject:** Sentence ([PR#N](…)).` (a named group: the label, its
changes as sub-bullets), a PR's stated result told as a sentence of its own after what it
does. `check` below reads that layout with the rules of tests/editorial.py; the mutations
poke the context's briefs and plan (`--format json`), as a writer's mistake would leave them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from copy import deepcopy
from dataclasses import replace
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from editorial import RULES, Finding, window_start
from editorial_markdown import (
    Page,
    content_sections,
    names,
    read_digest,
    unique_names,
    unmarked,
    without_code,
)
from editorial_repo import Knowledge, Record, announces_break, new_directories, split_window
from editorial_sweep import by_rule, cli, product_digests, read_records, sync, week_start, weekly

EXECUTORCH, AO = "pytorch/executorch", "pytorch/ao"

# --- helpers ----------------------------------------------------------------------------


def excerpts(found: list[Finding]) -> str:
    return "\n".join(str(f) for f in found)


# --- real data: the facts the issue names -----------------------------------------------


@cache
def _records(path: str) -> list[dict[str, Any]]:
    return read_records(Path(path))


def _window(path: Path, week: str) -> tuple[list[Record], list[Record]]:
    start = week_start(week)
    return split_window(_records(str(path)), start, start + timedelta(days=7))


def test_executorch_2025_w37_creates_qualcomm_recipes_and_removes_an_api(
    executorch_jsonl: Path,
) -> None:
    window, history = _window(executorch_jsonl, "2025-W37")
    created = new_directories(window, Knowledge.from_records(EXECUTORCH, history))
    assert "backends/qualcomm/recipes" in created
    announced = {r["number"] for r in window if announces_break(r["title"], r.get("labels") or ())}
    assert 14102 in announced


# Every PR the title rules catch in the real data, read one by one (see the report of issue 13):
# each announces a deprecation or a break of users' code. A change that widens or narrows the
# rules must be read again, and this list with it.
READ_CATCHES = {
    EXECUTORCH: {
        7968, 8451, 9613, 9621, 11392, 11506, 12170, 12295, 12583, 13070, 13209, 13703, 13913,
        14102, 14199, 14788, 15302, 15750, 17082, 18134, 18425, 18486, 20440,
    },
    AO: {
        1595, 1681, 2628, 2641, 2719, 2720, 2721, 2951, 2976, 2994, 3115, 3294, 3495, 3510, 3511,
        3512, 3513, 3520, 3595, 3612, 3654, 3720, 3723, 3741, 4037, 4074, 4100, 4122, 4126, 4127,
        4143, 4144, 4145, 4146, 4147, 4148, 4149, 4150, 4151, 4153, 4395, 4398, 4399, 4400, 4401,
        4461, 4696, 4718,
    },
}  # fmt: skip


@pytest.mark.whole_history("every title of both repositories")
@pytest.mark.parametrize(("fixture", "repo"), [("executorch_jsonl", EXECUTORCH), ("ao_jsonl", AO)])
def test_breaking_catches_on_real_titles_are_the_ones_we_read(
    fixture: str, repo: str, request: pytest.FixtureRequest
) -> None:
    records = _records(str(request.getfixturevalue(fixture)))
    caught = {r["number"] for r in records if r["number"] and announces_break(r["title"])}
    assert caught == READ_CATCHES[repo]


# --- the composed digest, as the check reads it ------------------------------------------

# Headings the composer gives kinds of change and its closing blocks: they classify what a
# section holds, they name no part of the repository, so the rules on names (non_name,
# house_spelling, repository_named_area) leave them alone; the bullets under them are read
# as under any heading.
KIND_HEADINGS = frozenset(
    {
        "key takeaways", "releases", "breaking changes", "deprecations", "new features",
        "improvements", "performance", "bug fixes", "documentation", "reverts", "contributors",
    }
)  # fmt: skip

# The rules a composed digest is held to. `other_share` and `unsectioned_group` read the PR
# counts the old sections printed (`*30 PRs across …*`, `**NXP** (6 PRs)`): the composed
# digest prints none (what is not told is one closing line), and its "Other changes" holds,
# by construction, only components with a single told change.
# `unnamed_new_component` is retired too: a digest from briefs tells what a change does for
# users, not the folders it creates (DIGEST_STYLE.md: "folders as sections" is what an
# editor strikes); the mutation below keeps the rule itself honest.
SWEPT = tuple(
    rule
    for rule in RULES
    if rule not in ("other_share", "unsectioned_group", "unnamed_new_component")
)


def _a_kind_heading(finding: Finding) -> bool:
    return finding.excerpt.startswith("### ") and finding.excerpt[4:].lower() in KIND_HEADINGS


def repository_named_subject(page: Page) -> list[Finding]:
    """`repository_named_area` for the names bullets go by: a bullet's subject names the
    part of the project its change is about (`**NXP backend:**`, `**quantization:**`), and
    the repository or its package root (`**TorchAO:**` in ao) is no such part. The shared
    rule reads headings and the names in Other; this reads the rest."""
    packages = page.knowledge.package_names()
    out = []
    for name in unique_names(names(page.digest)):
        if name.kind != "theme":
            continue
        if re.sub(r"[^a-z0-9]", "", unmarked(without_code(name.text)).lower()) in packages:
            why = f"{unmarked(name.text)!r} names the repository or its package root, not a part of it"
            out.append(page.finding("repository_named_area", name.line, why))
    return out


_CITATIONS = re.compile(r"\((?:\[PR#\d+\]\([^)\s]*\)(?:,\s*)?)+\)")
_FIRST_CITED = re.compile(r"\[PR#(\d+)\]")
_SENTENCE_END = re.compile(r"(?<=[^\s.])\.\s+")
_BEFORE = re.compile(r"(?i)(?:previously|before this)\b")


def told_results(markdown: str) -> list[tuple[str, int]]:
    """The figures a composed digest tells: a sentence after the change's own, before its
    citation, that carries a number (`Implements SDPA with fused ops. Decode latency
    increases from ~15 tok/s to ~21.5 tok/s ([PR#14139](…))`), with the PR cited first.
    They are the PR's words as quoted figures were, without the quotation marks. The state
    a change ends ("Previously, X was …") is the composer's words, put in the past: no
    quote."""
    out = []
    for section in content_sections(read_digest(markdown)):
        for bullet in section.bullets:
            text, start = bullet.rest if bullet.name else bullet.body, 0
            for cites in _CITATIONS.finditer(text):
                told, start = text[start : cites.start()].strip(" ;"), cites.end()
                number = int(_FIRST_CITED.search(cites.group()).group(1))  # type: ignore[union-attr]
                for sentence in _SENTENCE_END.split(told)[1:]:
                    if re.search(r"\d", sentence) and not _BEFORE.match(sentence):
                        out.append((sentence.strip(), number))
    return out


def _as_the_pr_writes(sentence: str, pr: int, window: Sequence[Record]) -> str:
    """The sentence with its first letter as its PR writes it: the composer capitalises a
    sentence's opening word (`decode latency …` → `Decode latency …`)."""
    lowered = sentence[:1].lower() + sentence[1:]
    if lowered == sentence:
        return sentence
    said = " ".join(
        " ".join(str(r.get(key) or "").replace("**", "").replace("`", "").split())
        for r in window
        if r.get("number") == pr
        for key in ("title", "body")
    )
    plain = " ".join(unmarked(sentence).split())
    return lowered if plain not in said and plain[:1].lower() + plain[1:] in said else sentence


def _results_quoted(page: Page) -> Page:
    """The page with each told result quoted as `quote_shape` reads a figure."""
    quoted = [
        f"*   reporting “{_as_the_pr_writes(text, pr, page.window)}” ([PR#{pr}](u))."
        for text, pr in told_results(page.digest.markdown)
        if "”" not in text
    ]
    markdown = "\n".join([page.digest.markdown, *quoted])
    return replace(page, digest=replace(page.digest, markdown=markdown))


def check(
    markdown: str,
    repo: str,
    window: Sequence[Record],
    knowledge: Knowledge,
    week: str,
    rules: Iterable[str] = SWEPT,
) -> list[Finding]:
    """The findings of the named rules on a composed digest."""
    digest = read_digest(markdown)
    page = Page(digest, repo, week, window_start(digest, window), window, knowledge)
    found: list[Finding] = []
    for rule in rules:
        if rule == "quote_shape":
            found += RULES[rule](_results_quoted(page))
            continue
        found += [f for f in RULES[rule](page) if not _a_kind_heading(f)]
        if rule == "repository_named_area":
            found += repository_named_subject(page)
    return found


def sweep(
    records: Sequence[Record], repo: str, digest_for: Callable[[str], str]
) -> dict[str, list[Finding]]:
    """Findings per ISO week, the history learned week after week."""
    return {
        label: check(digest_for(label), repo, window, knowledge, label)
        for label, _, window, knowledge in weekly(records, repo)
    }


# --- the product: one synced store per session -----------------------------------------


@pytest.fixture(scope="session")
def synced(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, str], Path]:
    stores: dict[tuple[Path, str], Path] = {}

    def store_of(jsonl: Path, repo: str) -> Path:
        if (jsonl, repo) not in stores:
            db = tmp_path_factory.mktemp("editorial") / "store.db"
            sync(db, repo, jsonl)
            stores[(jsonl, repo)] = db
        return stores[(jsonl, repo)]

    return store_of


def _by_rule_report(found: dict[str, list[Finding]]) -> str:
    lines = []
    for rule, hits in sorted(by_rule(found).items()):
        lines.append(f"{rule}: {len(hits)}")
        lines += [f"    {f.week}: {f.excerpt} — {f.why}" for f in hits]
    return "\n".join(lines)


# New components and house spelling are judged against the history before a week: on the
# excerpt's scattered PRs, a directory seen long before looks new.
_PAST = pytest.mark.whole_history("what is new and how names are spelled, from every week before")


@pytest.mark.parametrize(
    ("fixture", "repo", "profile"),
    [
        ("executorch_jsonl", EXECUTORCH, None),
        pytest.param("ao_jsonl", AO, None, marks=_PAST),
        pytest.param("executorch_jsonl", EXECUTORCH, "generic", marks=_PAST),
        pytest.param("ao_jsonl", AO, "generic", marks=_PAST),
    ],
)
def test_every_week_reads_as_an_editor_wants(
    fixture: str,
    repo: str,
    profile: str | None,
    request: pytest.FixtureRequest,
    synced: Callable[[Path, str], Path],
) -> None:
    jsonl = request.getfixturevalue(fixture)
    found = sweep(_records(str(jsonl)), repo, product_digests(synced(jsonl, repo), repo, profile))
    total = sum(len(hits) for hits in found.values())
    allowed = len(found) // 20  # at most 1 finding per 20 weeks
    assert total <= allowed, f"{total} findings in {len(found)} weeks:\n{_by_rule_report(found)}"


# --- mutations: each failure brought back into a real week is caught ----------------------


class Week:
    """A real week written by the product, its analysis context (briefs and plan), and
    the check's inputs."""

    def __init__(self, db: Path, jsonl: Path, repo: str, week: str) -> None:
        config = str(db.with_suffix(".toml"))
        text = cli("--db", str(db), "--config", config, "digest", repo, "--week", week,
                    "--writer", "deterministic", "--format", "json")  # fmt: skip
        self.context: dict[str, Any] = json.loads(text)
        self.repo, self.week = repo, week
        self.window, history = _window(jsonl, week)
        self.knowledge = Knowledge.from_records(repo, history)

    def render(self, context: dict[str, Any] | None = None) -> str:
        """The digest of a (mutated) JSON context, as `--format json` dumps it."""
        from prdigest.analyze import DigestContext
        from prdigest.write.deterministic import write_digest

        return write_digest(DigestContext.from_dict(context or self.context))

    def check(self, markdown: str, rule: str) -> list[Finding]:
        return check(markdown, self.repo, self.window, self.knowledge, self.week, [rule])


def sections(context: dict[str, Any]) -> list[dict[str, Any]]:
    return list(context["plan"]["sections"])


def entries(context: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The plan's bullets, in order."""
    for section in sections(context):
        yield from section["entries"]


def entry_of(context: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in entries(context) if e["name"] == name)


def brief(context: dict[str, Any], pr: int) -> dict[str, Any]:
    return context["briefs"][str(pr)]


def told(context: dict[str, Any]) -> set[int]:
    return {n for e in entries(context) for n in (*e["prs"], *e["cited_with"])}


def untell(context: dict[str, Any], pr: int) -> None:
    """The plan without PR `pr`: no bullet, no lead, counted among the smaller changes."""
    plan = context["plan"]
    for section in plan["sections"]:
        section["entries"] = [e for e in section["entries"] if pr not in e["prs"]]
        for entry in section["entries"]:
            entry["cited_with"] = [n for n in entry["cited_with"] if n != pr]
    plan["sections"] = [s for s in plan["sections"] if s["entries"]]
    plan["lead"] = [n for n in plan["lead"] if n != pr]
    rows = [row for row in plan["untold"] if row[0] == "smaller changes"]
    if not rows:
        rows = [["smaller changes", []]]
        plan["untold"].append(rows[0])
    rows[0][1].append(pr)


def tell(context: dict[str, Any], pr: int) -> None:
    """The plan with PR `pr` told alone, first in its first section."""
    if pr in told(context):
        return
    plan = context["plan"]
    plan["untold"] = [[kind, [n for n in prs if n != pr]] for kind, prs in plan["untold"]]
    plan["untold"] = [row for row in plan["untold"] if row[1]]
    entry = {"name": "", "prs": [pr], "series": False, "cited_with": []}
    plan["sections"][0]["entries"].insert(0, entry)


@pytest.fixture
def w37(executorch_jsonl: Path, synced: Callable[[Path, str], Path]) -> Week:
    return _week(executorch_jsonl, EXECUTORCH, "2025-W37", synced)


@cache
def _week_cached(jsonl: Path, repo: str, week: str, db: Path) -> Week:
    return Week(db, jsonl, repo, week)


def _week(jsonl: Path, repo: str, week: str, synced: Callable[[Path, str], Path]) -> Week:
    return _week_cached(jsonl, repo, week, synced(jsonl, repo))


def _new(before: list[Finding], after: list[Finding]) -> list[Finding]:
    return [f for f in after if f not in before]


def test_mutation_restated_names(w37: Week, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bullet named by its sentence's opening words (`**Removes `generateFromPos`:**
    Removes `generateFromPos` API in Java`): the name says nothing the sentence does not."""
    import prdigest.write.brief_digest as composer

    before = w37.check(w37.render(), "restated_name")
    monkeypatch.setattr(composer, "named", lambda brief, name: bool(name))  # every name shown
    context = deepcopy(w37.context)
    for entry in entries(context):
        if len(entry["prs"]) == 1:
            entry["name"] = " ".join(brief(context, entry["prs"][0])["what"].split()[:2])
    new = _new(before, w37.check(w37.render(context), "restated_name"))
    assert len(new) >= 5, excerpts(new)


def test_mutation_names_that_name_nothing(w37: Week) -> None:
    before = w37.check(w37.render(), "non_name")
    context = deepcopy(w37.context)
    bad = {"ET-VK": "None", "Qualcomm AI Engine Direct": "Configurable",
           "Arm backend": "PR2/N — ETDump rework"}  # fmt: skip
    for old, name in bad.items():
        entry_of(context, old)["name"] = name  # groups: their label is always shown
    next(s for s in sections(context) if s["heading"] == "Samsung")["heading"] = "Misc"
    new = _new(before, w37.check(w37.render(context), "non_name"))
    assert {f.why.split("'")[1] for f in new} == {*bad.values(), "Misc"}, excerpts(new)


def test_mutation_a_group_label_left_without_its_changes(
    w37: Week, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A named group whose changes are lost (`**ET-VK:**` and nothing under it)."""
    import prdigest.write.brief_digest as composer
    from prdigest.write.digest_document import Line

    before = w37.check(w37.render(), "dangling_bullet")

    def without_subs(
        text: str, cites: tuple[int, ...] = (), figures: tuple[Any, ...] = (), sub: Any = ()
    ) -> Line:
        return Line(text, cites, figures)  # the writer drops the lines under a label

    monkeypatch.setattr(composer, "Line", without_subs)
    new = _new(before, w37.check(w37.render(), "dangling_bullet"))
    assert any("colon" in f.why and "**ET-VK:**" in f.excerpt for f in new), excerpts(new)


def test_mutation_title_cased_names(w37: Week) -> None:
    before = w37.check(w37.render(), "house_spelling")
    context = deepcopy(w37.context)
    for entry in entries(context):
        entry["name"] = re.sub(r"`[^`]*`", "", entry["name"]).title()
    for section in sections(context):
        if section["kind"] == "component":
            section["heading"] = section["heading"].title()
    entry_of(context, "Et-Vk")["name"] = "Qwen2 5 export"  # the titles write Qwen2.5
    new = _new(before, w37.check(w37.render(context), "house_spelling"))
    assert any("'Llm'" in f.why and "'LLM'" in f.why for f in new), excerpts(new)
    assert any("'Ios'" in f.why and "'iOS'" in f.why for f in new), excerpts(new)
    assert any("'Qwen2 5'" in f.why and "2.5" in f.why for f in new), excerpts(new)


def test_mutation_an_area_named_after_the_repository(w37: Week) -> None:
    assert w37.check(w37.render(), "repository_named_area") == []
    context = deepcopy(w37.context)  # a component's section
    next(s for s in sections(context) if s["heading"] == "Vulkan")["heading"] = "ExecuTorch"
    found = w37.check(w37.render(context), "repository_named_area")
    assert [f.excerpt for f in found] == ["### ExecuTorch"], excerpts(found)
    context = deepcopy(w37.context)  # a bullet's subject
    entry_of(context, "Arm backend")["name"] = "ExecuTorch"
    found = w37.check(w37.render(context), "repository_named_area")
    assert [f.excerpt for f in found] == ["*   **ExecuTorch:**"], excerpts(found)


def _with_result(context: dict[str, Any], pr: int, text: str) -> dict[str, Any]:
    """The context with every stated result gone but one: `text`, stated by PR `pr` (its
    claims gain it, so the ledger lets it through), told after what the PR does."""
    mutated = deepcopy(context)
    for other in mutated["briefs"].values():
        other["why"], other["why_from"], other["figures"] = "", "", []
    told_brief = brief(mutated, pr)
    told_brief["why"], told_brief["why_from"], told_brief["figures"] = text, "result", [text]
    mutated["prs"][str(pr)]["claims"].append(text)
    tell(mutated, pr)
    return mutated


@pytest.mark.parametrize(
    ("week", "pr", "text", "why"),
    [
        (
            "2025-W37",
            14090,
            "perf to up to a 13x",
            "cut mid-phrase",
        ),  # "… a 13x speedup (measured …"
        ("2025-W23", 10982, "-1339.88 ms  | -5.6%", "table fragment"),
        ("2026-W28", 20746, "threshold from 48500 to", "threshold"),
    ],
)
def test_mutation_quotes_out_of_context(
    week: str,
    pr: int,
    text: str,
    why: str,
    executorch_jsonl: Path,
    synced: Callable[[Path, str], Path],
) -> None:
    real = _week(executorch_jsonl, EXECUTORCH, week, synced)
    markdown = real.render(_with_result(real.context, pr, text))
    assert [n for _, n in told_results(markdown)] == [pr], markdown
    bad = real.check(markdown, "quote_shape")
    assert len(bad) == 1 and why in bad[0].why, excerpts(bad)


def test_a_whole_result_passes(w37: Week) -> None:
    """The product's own: a result told as the PR states it, whole."""
    markdown = w37.render()
    result = "Decode latency increases from ~15 tok/s to ~21.5 tok/s"
    assert (result, 14139) in told_results(markdown), markdown
    assert w37.check(markdown, "quote_shape") == []


def test_mutation_a_breaking_change_left_uncited(w37: Week) -> None:
    fixed = w37.render()  # the product's: Breaking changes cites the removed Java API
    assert "PR#14102" in fixed
    assert not any("#14102" in f.excerpt for f in w37.check(fixed, "uncited_breaking"))
    context = deepcopy(w37.context)  # a plan that leaves it among the untold
    untell(context, 14102)
    found = w37.check(w37.render(context), "uncited_breaking")
    assert any(f.excerpt.startswith("#14102 Java Remove generateFromPos API") for f in found)


def test_mutation_a_new_component_left_unnamed(w37: Week) -> None:
    """`backends/qualcomm/recipes/` (4 files, created by a direct push) is new in the week."""

    def unnamed(markdown: str) -> list[Finding]:
        found = w37.check(markdown, "unnamed_new_component")
        return [f for f in found if f.excerpt == "backends/qualcomm/recipes/"]

    context = deepcopy(w37.context)  # a told change that says it
    brief(context, 14149)["what"] = "Adds QNN fp16 recipes in `backends/qualcomm/recipes/`"
    named = w37.render(context)
    assert not unnamed(named), named
    silent = "\n".join(line for line in named.splitlines() if "recipes" not in line)
    assert unnamed(silent), silent  # the same digest without it
