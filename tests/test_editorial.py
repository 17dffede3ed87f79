"""The editorial check (tests/editorial.py) on real data: the facts issue 13 names, every
mutation of a real week that brings a failure back, and every ISO week of executorch and ao
as the product writes them (the issue's "Done when"). Hand-written cases are in
test_editorial_rules.py."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from copy import deepcopy
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from editorial import Finding, check_digest
from editorial_repo import Knowledge, Record, announces_break, new_directories, split_window
from editorial_sweep import by_rule, cli, product_digests, read_records, sweep, sync, week_start
from prdigest.analyze.context_types import Area

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
    """A real week written by the product, its analysis context, and the check's inputs."""

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
        return check_digest(
            markdown, self.repo, self.window, knowledge=self.knowledge, rules=[rule], week=self.week
        )

    def themes(self, context: dict[str, Any]) -> Iterator[dict[str, Any]]:
        for area in context["areas"]:
            yield from area["themes"]


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


def test_mutation_restated_names(w37: Week) -> None:
    before = w37.check(w37.render(), "restated_name")
    context = deepcopy(w37.context)
    for theme in w37.themes(context):
        theme["sentence"] = f"{theme['name']} lands this week."
        theme["points"] = []
    new = _new(before, w37.check(w37.render(context), "restated_name"))
    assert len(new) >= 5, excerpts(new)


def test_mutation_names_that_name_nothing(w37: Week) -> None:
    before = w37.check(w37.render(), "non_name")
    context = deepcopy(w37.context)
    for area, name in zip(
        context["areas"], ("None", "Configurable", "PR2/N — ETDump rework"), strict=False
    ):
        area["themes"][0]["name"] = name
    new = _new(before, w37.check(w37.render(context), "non_name"))
    assert {f.why.split("'")[1] for f in new} == {"None", "Configurable", "PR2/N — ETDump rework"}


def test_mutation_bare_counts_and_empty_colons(
    ao_jsonl: Path, synced: Callable[[Path, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import prdigest.write.sections as sections
    from prdigest.write.digest_document import Line

    week = _week(ao_jsonl, AO, "2026-W07", synced)  # its Other Areas lines say what changed
    before = week.check(week.render(), "dangling_bullet")

    def bare(area: Area, label: str, ledger: Any, budget: int) -> Line:
        return Line(f"**{label}** ({area.count} PR{'s' if area.count != 1 else ''}).")

    monkeypatch.setattr(sections, "_member_line", bare)  # the writer's lines lose what they say
    context = deepcopy(week.context)
    first = context["areas"][0]["themes"][0]
    first["points"] = [{"text": "Gone.", "pr": 1}]  # no point left to tell: `**Name:**` alone
    new = _new(before, week.check(week.render(context), "dangling_bullet"))
    assert any("only a name and a count" in f.why for f in new), excerpts(new)
    assert any("colon" in f.why and first["name"].split()[0] in f.excerpt for f in new), excerpts(
        new
    )


def test_mutation_other_areas_swallowing_sections(
    w37: Week, monkeypatch: pytest.MonkeyPatch
) -> None:
    import prdigest.analyze.families as families

    share, groups = (
        w37.check(w37.render(), "other_share"),
        w37.check(w37.render(), "unsectioned_group"),
    )
    # the analysis plans no section and lets Other Areas hold everything
    monkeypatch.setattr(families, "MIN_SECTION", 10**6)
    monkeypatch.setattr(families, "OTHER_SHARE", 1.0)
    context = deepcopy(w37.context)
    del context["sections"]  # the writer plans them as the analysis would
    markdown = w37.render(context)
    assert _new(share, w37.check(markdown, "other_share")), markdown
    new_groups = _new(groups, w37.check(markdown, "unsectioned_group"))
    assert any("**LLM** (12 PRs)" in f.excerpt for f in new_groups), excerpts(new_groups)


def test_mutation_title_cased_names(w37: Week) -> None:
    before = w37.check(w37.render(), "house_spelling")
    context = deepcopy(w37.context)
    for theme in w37.themes(context):
        theme["name"] = re.sub(r"`[^`]*`", "", theme["name"]).title()
    qualcomm = next(a for a in context["areas"] if a["name"] == "Backends: Qualcomm")
    qualcomm["themes"][0]["name"] = "Qwen2 5 export"  # the titles write Qwen2.5
    new = _new(before, w37.check(w37.render(context), "house_spelling"))
    assert any("'Tosa'" in f.why for f in new), excerpts(new)
    assert any("'Qwen2 5'" in f.why and "2.5" in f.why for f in new), excerpts(new)


def test_mutation_an_area_named_after_the_repository(w37: Week) -> None:
    assert w37.check(w37.render(), "repository_named_area") == []
    context = deepcopy(w37.context)
    runtime = next(a for a in context["areas"] if a["name"] == "Runtime")
    runtime["name"] = "ExecuTorch"
    for section in context["sections"]:  # the plan names its areas
        section["areas"] = ["ExecuTorch" if n == "Runtime" else n for n in section["areas"]]
        section["heading"] = "ExecuTorch" if section["heading"] == "Runtime" else section["heading"]
    found = w37.check(w37.render(context), "repository_named_area")
    assert found and all("ExecuTorch" in f.excerpt for f in found), excerpts(found)


def _with_quote(context: dict[str, Any], pr: int, text: str) -> dict[str, Any]:
    """The context with every figure gone but one: `text` quoted from PR `pr` by the first
    theme of the first area (the PR's stated claims gain it, so the ledger lets it through)."""
    mutated = deepcopy(context)
    for area in mutated["areas"]:
        for theme in area["themes"]:
            theme["figures"] = []
    theme = mutated["areas"][0]["themes"][0]
    theme["figures"], theme["points"] = [{"text": text, "pr": pr}], []
    theme["prs"] = [n for n in theme["prs"] if n != pr]
    mutated["prs"][str(pr)]["claims"].append(text)
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
    bad = real.check(real.render(_with_quote(real.context, pr, text)), "quote_shape")
    assert len(bad) == 1 and why in bad[0].why, excerpts(bad)


def test_mutation_a_whole_quote_passes(w37: Week) -> None:
    good = "decode latency increases from ~15 tok/s to ~21.5 tok/s"
    markdown = w37.render(_with_quote(w37.context, 14139, good))
    assert "“decode latency" in markdown
    assert w37.check(markdown, "quote_shape") == []


def test_mutation_a_breaking_change_left_uncited(w37: Week) -> None:
    fixed = w37.render()  # the product's: the callout cites the removed Java API
    assert "PR#14102" in fixed
    assert not any("#14102" in f.excerpt for f in w37.check(fixed, "uncited_breaking"))
    context = deepcopy(w37.context)  # the writer without the news: the citation dropped
    news = context["news"]
    news["breaking"] = [row for row in news["breaking"] if row["pr"] != 14102]
    news["lead"] = [n for n in news["lead"] if n != 14102]
    for theme in w37.themes(context):
        theme["prs"] = [n for n in theme["prs"] if n != 14102]
        theme["points"] = [p for p in theme["points"] if p["pr"] != 14102]
    found = w37.check(w37.render(context), "uncited_breaking")
    assert any(f.excerpt.startswith("#14102 Java Remove generateFromPos API") for f in found)


def test_mutation_a_new_component_left_unnamed(w37: Week) -> None:
    fixed = w37.check(w37.render(), "unnamed_new_component")  # the product's: named
    assert not any("qualcomm/recipes" in f.excerpt for f in fixed), excerpts(fixed)
    context = deepcopy(w37.context)  # the writer without the news: named nowhere
    news = context["news"]
    news["new_components"] = [
        c for c in news["new_components"] if c["path"] != "backends/qualcomm/recipes"
    ]
    found = w37.check(w37.render(context), "unnamed_new_component")
    assert any(f.excerpt == "backends/qualcomm/recipes/" for f in found), excerpts(found)
