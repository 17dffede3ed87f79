"""The LLM digest is complete whatever the model writes (issue 20), through the real entry
point (`prdigest digest --writer llm --llm-base-url …`) against a scripted server.

pytorch/ao 2025-W51 is the week the issue tried with a capable model: 11 PRs, a
Quantization section of 5 PRs holding the week's breaking change (#3495, the old
SmoothQuant implementation deleted) and a deprecation (#3510). The model wrote one
theme for the section; the other PRs, the breaking change among them, were nowhere.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fakes.llm_server import FakeLLMServer, Prompt, good_responder
from prdigest.cli import main

REPO = "pytorch/ao"
WEEK = "2025-W51"
QUANTIZATION = [3491, 3495, 3492, 3489, 3510]
BREAKING, DEPRECATION = 3495, 3510


def digest(tmp_path: Path, ao_jsonl: Path, server: FakeLLMServer, fmt: str = "md") -> Any:
    args = ["--db", str(tmp_path / "ao.db"), "digest", REPO, "--week", WEEK, "--writer", "llm"]
    args += ["--jsonl", str(ao_jsonl), "--llm-model", "fake", "--llm-base-url", server.url]
    args += ["--llm-concurrency", "1", "--format", fmt]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result


def section(markdown: str, heading: str) -> str:
    """The Markdown of `### N. heading` up to the next heading."""
    return re.split(rf"^### \d+\. {re.escape(heading)}\n", markdown, flags=re.M)[1].split(
        "\n### ", 1
    )[0]


def cited(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\[PR#(\d+)\]\(", text)}


def one_theme(prompt: Prompt, summary: str = "", name: str = "") -> str:
    """A capable model that sums a whole area up in one theme citing its first PR."""
    if prompt.is_takeaway:
        return good_responder(prompt)
    themes = []
    for area, items in prompt.areas.items():
        number, line = items[0]
        title = line.split(" | ")[0].split(" ", 1)[1]
        themes.append(
            {
                "area": area,
                "name": name or title.split(" ", 1)[-1][:40].strip(),
                "summary": summary or f"{title[0].upper()}{title[1:]}.",
                "prs": [number],
            }
        )
    return json.dumps({"themes": themes})


def test_a_model_that_writes_one_theme_for_a_five_pr_section_leaves_no_pr_out(tmp_path, ao_jsonl):
    with FakeLLMServer(one_theme) as server:
        markdown = digest(tmp_path, ao_jsonl, server).stdout
        context = json.loads(digest(tmp_path, ao_jsonl, server, "json").stdout)
        asked = next(b for b in server.requests if "PRs of the area Quantization:" in str(b))
    assert context["llm"]["sections"]["by_model"] == context["llm"]["sections"]["total"]
    # the model is asked a theme per two PRs of a section: three for five
    schema = asked["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["themes"]["maxItems"] == 3
    # and it reads each PR's own words, not ghstack's "* Update"s or a "Summary:" lead-in
    shown = asked["messages"][-1]["content"]
    assert "* Update" not in shown and "Summary:" not in shown
    assert "| `FqnToConfig` does not handle module swap" in shown
    quantization = section(markdown, "Quantization")
    assert cited(quantization) >= set(QUANTIZATION), quantization
    assert "*   **Also:** " in quantization  # prdigest's own line for what the model left
    # the weightiest told as the deterministic digest's lines tell them ("Deletes X", never
    # "Delete X"), the rest cited and counted: selecting, not listing
    also = quantization.split("*   **Also:** ", 1)[1]
    assert also.startswith("Deletes old smoothquant implementation ([PR#3495]"), also
    assert re.search(r"; and 3 more PRs \(\[PR#\d+\]\([^)]*\), \[PR#", also), also
    # every PR the analysis places is cited: an area's in its section, a lone PR's in the
    # closing "Also, one PR each in …" line, as the deterministic digest shows them
    areas = {a["name"]: a for a in context["areas"]}
    body = markdown.split("\n---\n", 1)[1]
    for entry in context["sections"]:
        placed = {int(n) for name in entry["areas"] for n in areas[name]["prs"]}
        assert placed <= cited(body), (entry["heading"], placed - cited(body))
        heading = re.search(rf"^### \d+\. {re.escape(entry['heading'])}$", markdown, re.M)
        if entry["kind"] == "area" and heading:
            text = markdown[heading.end() :].split("\n### ", 1)[0]
            assert placed <= cited(text), (entry["heading"], placed - cited(text))
    lone = {int(n) for a in areas.values() if a["count"] == 1 for n in a["prs"]}
    tail = next(line for line in markdown.splitlines() if line.startswith("**Also, one PR"))
    assert lone <= cited(tail) | cited(body.split(tail, 1)[0]), lone - cited(tail)


def test_a_sentence_that_says_nothing_is_dropped_and_counted(tmp_path, ao_jsonl):
    vacuous = "These changes are part of PRs (PR#3491, PR#3492)."

    def responder(prompt: Prompt) -> str:
        if "Quantization" in prompt.areas:
            return one_theme(prompt, summary=vacuous, name="Quantization work")
        return good_responder(prompt)

    with FakeLLMServer(responder) as server:
        markdown = digest(tmp_path, ao_jsonl, server).stdout
        facts = json.loads(digest(tmp_path, ao_jsonl, server, "json").stdout)["llm"]
    assert "These changes are part of" not in markdown
    assert facts["claims"]["dropped"]["vacuous"] >= 1
    assert re.search(r"\d+ dropped", markdown.rstrip().splitlines()[-1])  # counted
    # the section still cites its PRs, in prdigest's words: a lone PR's theme named by the
    # analysis' topic, not by the opening words of its sentence ("Deletes old smoothquant")
    quantization = section(markdown, "Quantization")
    assert cited(quantization) >= set(QUANTIZATION)
    assert "*   **Old SmoothQuant implementation removal:** Deletes old smoothquant" in quantization


def test_a_heading_with_markup_left_open_is_never_published(tmp_path, ao_jsonl):
    """The issue's "**Use `torch.distributed…set_model_state:**": a lone backtick."""
    open_name = "Use `FqnToConfig module swap"  # every word of it in #3492

    def responder(prompt: Prompt) -> str:
        if "Quantization" not in prompt.areas:
            return good_responder(prompt)
        summary = "Make FqnToConfig handle module swap configs."
        return json.dumps({"themes": [{"name": open_name, "summary": summary, "prs": [3492]}]})

    with FakeLLMServer(responder) as server:
        markdown = digest(tmp_path, ao_jsonl, server).stdout
        facts = json.loads(digest(tmp_path, ao_jsonl, server, "json").stdout)["llm"]
    bullets = [line for line in markdown.splitlines() if line.lstrip().startswith(("*", "#"))]
    assert bullets
    for line in bullets:
        prose = re.sub(r"\]\([^)]*\)", "]", line)  # links' URLs aside
        assert prose.count("`") % 2 == 0, line
        assert prose.count("**") % 2 == 0, line
        assert prose.count("(") == prose.count(")") and prose.count("[") == prose.count("]"), line
    assert f"**{open_name}:**" not in markdown
    assert "*   **Use FqnToConfig module swap:** Makes FqnToConfig handle" in markdown  # closed
    assert facts["claims"]["repaired"]["unbalanced markup closed"] >= 1


def takeaway_without_the_news(prompt: Prompt) -> str:
    """A fluent takeaway that never mentions the breaking change; for the breaking change
    the "why" Qwen2.5-Coder-1.5B wrote (it calls the deleted code deprecated: a word #3495
    never uses), for the deprecation one its PR supports, each in the place of its item
    under "Most notable" (the analysis decides their order). The second only restates its
    item, as the 1.5B model's "why" often does."""
    if not prompt.is_takeaway:
        return good_responder(prompt)
    notable = prompt.user.split("Most notable:\n", 1)[1].split("\n== ", 1)[0]
    whys = {
        "smoothquant": "Breaking changes were made to old smoothquant implementations, which"
        " are now deprecated.",
        "Float8WeightOnlyConfig": "Deprecates v1 of Float8WeightOnlyConfig and"
        " Float8DynamicActivationFloat8WeightConfig.",
    }
    said = [
        next((why for key, why in whys.items() if key in line), "")
        for line in notable.splitlines()
        if line.startswith("- ")
    ]
    return json.dumps({"takeaway": "Quantization work in pytorch/ao led the week.", "why": said})


@pytest.mark.parametrize("responder", [takeaway_without_the_news, good_responder])
def test_the_news_is_in_key_takeaways_and_the_callout_whatever_the_model_wrote(
    tmp_path, ao_jsonl, responder
):
    with FakeLLMServer(responder) as server:
        markdown = digest(tmp_path, ao_jsonl, server).stdout
        prompts = [json.dumps(body["messages"]) for body in server.requests]
    takeaways = markdown.split("### Key Takeaways\n", 1)[1].split("\n### ", 1)[0]
    assert {BREAKING, DEPRECATION} <= cited(takeaways), takeaways
    callout = markdown.split("### Breaking Changes and Deprecations\n", 1)[1].split("\n\n")[0]
    assert {BREAKING, DEPRECATION} <= cited(callout)
    asked = next(p for p in prompts if "Most notable" in p)
    assert "old smoothquant implementation deleted" in asked and '\\"why\\"' in asked
    notable = next(line for line in takeaways.splitlines() if line.startswith("Most notable"))
    # the analysis says why the break matters: the model's sentence is not what #3495 says
    assert "deleted ([PR#3495](https://github.com/pytorch/ao/pull/3495)) — code using it" in notable
    assert "now deprecated" not in markdown
    if responder is takeaway_without_the_news:  # the model's takeaway is kept (it may
        # name the repository as any sentence may); its "why" for #3510 only restates the
        # item ("deprecated — deprecates v1 of …"), so the analysis says why instead
        assert takeaways.startswith("Quantization work in pytorch/ao led the week. The window")
        assert "— deprecates v1 of `Float8WeightOnlyConfig`" not in notable
    assert "users should move off it" in notable


@pytest.mark.whole_history("ao's records with their diffs")
def test_two_breaks_in_the_lead_share_one_consequence(tmp_path):
    """With the diffs read, #3510 deletes what it deprecates: two breaking changes lead
    2025-W51. "— code using it must change" after each was the same clause
    twice; it is said once, for both."""
    from conftest import real_data

    patches = real_data("pytorch__ao/prs-2025Q4-2026Q1-patches.jsonl.gz")
    with FakeLLMServer(good_responder) as server:
        markdown = digest(tmp_path, patches, server).stdout
    notable = next(line for line in markdown.splitlines() if line.startswith("Most notable"))
    assert notable.count("must change") == 1, notable
    both = re.search(
        r"\(\[PR#3495\][^;]* and [^;]*\(\[PR#3510\][^;]*\)\) — code using them must change", notable
    )
    assert both, notable


def test_key_takeaways_cite_the_lead_as_the_deterministic_digest_does(tmp_path, ao_jsonl):
    """2026-W01 leads with a three-PR series (#3546, told with #3556 and #3561): the LLM
    digest's news line cites all three, as the deterministic one does (it cited #3546
    alone, and lead@3 lost the gold's top PRs among the others)."""
    base = ["--db", str(tmp_path / "ao.db"), "digest", REPO, "--week", "2026-W01"]
    base += ["--jsonl", str(ao_jsonl)]
    plain = CliRunner().invoke(main, [*base, "--writer", "deterministic"])
    with FakeLLMServer() as server:
        args = [*base, "--writer", "llm", "--llm-model", "fake", "--llm-base-url", server.url]
        llm = CliRunner().invoke(main, args)
    assert plain.exit_code == 0 and llm.exit_code == 0, llm.output

    def lead(markdown: str) -> set[int]:
        takeaways = markdown.split("### Key Takeaways\n", 1)[1].split("\n### ", 1)[0]
        return cited(next(s for s in takeaways.splitlines() if s.startswith("Most notable")))

    assert {3546, 3556, 3561} <= lead(plain.stdout)
    assert lead(llm.stdout) == lead(plain.stdout)


@pytest.mark.parametrize(
    "cut",
    [
        ", as well as introduction of .",
        ",.",
        ", verifying that the models can be serialized in.",
        ", replacing the old reference kernels with the more",
    ],
)
def test_a_takeaway_cut_off_by_its_length_cap_loses_the_clause_it_did_not_finish(
    tmp_path, ao_jsonl, cut
):
    """What Qwen2.5-Coder-1.5B wrote, stopped by the schema's 400-character cap:
    "…, as well as introduction of ." and "…, unified LLaMa model,." were published."""
    said = (
        "The week saw significant progress in quantization, including deletion of old "
        f"smoothquant implementation{cut}"
    )

    def responder(prompt: Prompt) -> str:
        if not prompt.is_takeaway:
            return good_responder(prompt)
        return json.dumps({"takeaway": said, "why": []})

    with FakeLLMServer(responder) as server:
        markdown = digest(tmp_path, ao_jsonl, server).stdout
        facts = json.loads(digest(tmp_path, ao_jsonl, server, "json").stdout)["llm"]
    takeaways = markdown.split("### Key Takeaways\n", 1)[1].split("\n### ", 1)[0]
    assert "introduction of" not in markdown and ",." not in markdown
    assert "serialized in" not in markdown
    assert "with the more" not in markdown
    assert takeaways.startswith(
        "The week saw significant progress in quantization, including deletion of old "
        "smoothquant implementation. The window totals 11 PRs"
    ), takeaways
    assert facts["claims"]["repaired"]["clause cut off taken out"] == 1


def test_the_news_line_never_speaks_of_a_series_it_does_not_cite_whole(tmp_path, ao_jsonl):
    """2025-W48 leads with #3261, half of a two-part series (#3397 the other half). When
    the model gives no "why", the analysis' own words say it: the theme's sentence without
    "A two-part series" (the line cites #3261 among other news, not the series)."""
    base = ["--db", str(tmp_path / "ao.db"), "digest", REPO, "--week", "2025-W48"]
    base += ["--jsonl", str(ao_jsonl), "--writer", "llm", "--llm-model", "fake"]
    with FakeLLMServer() as server:  # its takeaway gives no "why"
        result = CliRunner().invoke(main, [*base, "--llm-base-url", server.url])
    assert result.exit_code == 0, result.output
    takeaways = result.stdout.split("### Key Takeaways\n", 1)[1].split("\n### ", 1)[0]
    notable = next(s for s in takeaways.splitlines() if s.startswith("Most notable"))
    assert 3261 in cited(notable) and 3397 not in cited(notable)
    assert "series" not in notable
    # each PR by its own change, as the deterministic digest's lead names it (not by its
    # theme's name, which two PRs may share), and no "why" that only says it again
    assert "fusion passes of float8 qconv for `X86Inductor` backend added ([PR#3261]" in notable
    assert "/pull/3261)) — adds Inductor fusion passes" not in notable, notable
    assert "conv2d support for `IntxUnpackedToInt8Tensor` added ([PR#3371]" in notable, notable


def test_a_theme_name_cut_mid_word_by_its_pattern_loses_the_cut_word(tmp_path, ao_jsonl):
    """The name pattern stops a name at 60 characters: Qwen2.5-Coder-1.5B's "NPU (Ascend)
    backend support for INT4 weight-only quantizati" was published as a heading."""
    cut = "FqnToConfig module swap configs handling for quantized modul"
    assert len(cut) == 60

    def responder(prompt: Prompt) -> str:
        if "Quantization" not in prompt.areas:
            return good_responder(prompt)
        summary = "Make FqnToConfig handle module swap configs."
        return json.dumps({"themes": [{"name": cut, "summary": summary, "prs": [3492]}]})

    with FakeLLMServer(responder) as server:
        markdown = digest(tmp_path, ao_jsonl, server).stdout
    assert "modul:" not in markdown and "quantized modul" not in markdown
    quantization = section(markdown, "Quantization")
    assert "*   **FqnToConfig module swap configs handling for quantized:** Make" in quantization


def test_a_sentence_whose_sentence_before_was_dropped_does_not_lean_on_it(tmp_path, ao_jsonl):
    """Qwen2.5-Coder-1.5B's "… table of contents … Additionally, outdated content in the
    `README` is removed.": the first sentence dropped, the second was published with its
    "Additionally,"."""
    summary = (
        "Gives the quantization APIs a gleaming ergonomic overhaul for delighted researchers. "
        "Additionally, FqnToConfig handles module swap configs."
    )

    def responder(prompt: Prompt) -> str:
        if "Quantization" not in prompt.areas:
            return good_responder(prompt)
        theme = {"name": "FqnToConfig module swap", "summary": summary, "prs": [3492]}
        return json.dumps({"themes": [theme]})

    with FakeLLMServer(responder) as server:
        markdown = digest(tmp_path, ao_jsonl, server).stdout
    quantization = section(markdown, "Quantization")
    assert "gleaming" not in markdown and "Additionally" not in markdown
    assert "*   **FqnToConfig module swap:** FqnToConfig handles module swap configs (" in (
        quantization
    )
