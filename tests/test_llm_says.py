"""What an LLM digest publishes and what it tells (issue 14, failures 5 and 6): nonsense,
debris and copies of the prompt never reach the digest; every warning reaches stderr; the
requests, tokens and time are told on every path; drops are counted by reason in the
warnings and in `--format json`, and in the closing line as counts; the title says "AI Analysis" only when the model
wrote the key takeaway and most sections."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from fakes.llm_server import (
    FakeLLMServer,
    Prompt,
    Reply,
    good_responder,
    name_of,
    parse_prompt,
    refuse_format,
    response_format_of,
    title_of,
)
from llm_helpers import REPO, WEEK, Recorder, assert_truthful, themes_for, write
from prdigest.cli import main
from prdigest.errors import LLMError
from prdigest.write.llm.verify import in_third_person

NONSENSE = (
    "AOC (Cadene) is a high performance computing platform that provides an efficient and "
    "scalable solution for data science."
)


def nonsense_responder(prompt: Prompt) -> str:
    """What SmolLM2-135M and gemma3-270m answered (issue 14): the same sentence three times,
    a stray "{" for a takeaway, the prompt's example copied."""
    if prompt.is_takeaway:
        return json.dumps({"takeaway": '{ "takeaway": "'})
    area = next(iter(prompt.areas))
    first = prompt.areas[area][0][0]
    junk = [
        {"area": area, "name": "{", "summary": '"prs": [', "prs": [first]},
        {"area": area, "name": "NAME", "summary": "SENTENCE", "prs": [123]},
        {"area": area, "name": "Themes", "summary": "Group these PRs into themes now.", "prs": []},
        {
            "area": area,
            "name": "NAME",
            "summary": "Group these PRs into themes of related work.",
            "prs": [first],
        },
        # repeated: the client hears a loop and keeps the whole themes it had
        *[{"area": area, "name": "AOC platform", "summary": NONSENSE, "prs": [first]}] * 3,
    ]
    if area != "Backends: Arm":
        return json.dumps({"themes": junk})
    good = json.loads(good_responder(prompt))["themes"]
    return json.dumps({"themes": good + junk})  # Arm gets good themes too: an LLM digest


def test_nonsense_debris_and_prompt_copies_are_never_published(store, context):
    with FakeLLMServer(nonsense_responder) as server:
        markdown, writer, warnings, _ = write(store, context, server)
    assert writer == "llm"
    for bad in ("AOC", "Cadene", "{", '"prs"', "SENTENCE", "PR#123", "Group these PRs"):
        assert bad not in markdown, bad
    closing = " ".join(warnings)  # the run says why; the digest's closing line counts
    for reason in (
        "name not in the cited PRs",
        "punctuation or JSON debris",
        "cites a PR not in the window",
        "cites no PR",
        "copied from the prompt",
    ):
        assert reason in closing, reason
    # the stray "{" of a takeaway is not a takeaway: the title is not "AI Analysis"
    assert markdown.startswith("# Analysis of Pull Requests for pytorch/executorch")
    # (Key Takeaways then gives the counts, and the analysis' news on a line of its own, cited)
    assert re.search(
        r"### Key Takeaways\nThe window totals \d+ PRs.*\n\nMost notable this week: .*\(\[PR#\d+\]",
        markdown,
    )
    assert "_The model wrote 1 of 9 sections;" in markdown
    assert any("the model wrote only 1 of 9 sections" in w for w in warnings)
    assert_truthful(markdown, store, context)


def test_the_prompts_examples_cannot_be_mistaken_for_data(store, context):
    """Both models copied the old prompt's example `"prs": [123]`: no prompt holds an
    example number now; servers that do not enforce the schema are shown the schema."""
    no = Reply(status=400, error="response_format is not supported")
    with FakeLLMServer() as server:
        for kind in ("json_schema", "json_object+schema", "json_object"):
            server.rules.append(refuse_format(kind, no))
        write(store, context, server)
    for body in server.requests:
        for message in body["messages"]:
            instructions = re.sub(
                r"PR_DATA_BEGIN.*?PR_DATA_END|DIGEST_DATA_BEGIN.*?DIGEST_DATA_END|\{.*\}",
                "",
                message["content"],
                flags=re.S,
            )
            assert not re.search(r"\d{2,}", instructions.replace(context.window.label, ""))
    plain = [b for b in server.requests if response_format_of(b) == "plain"]
    assert plain and all(
        "valid against this JSON schema" in b["messages"][0]["content"] for b in plain
    )


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_every_warning_reaches_stderr_and_the_json_counts_drops_by_reason(
    tmp_path, executorch_jsonl
):
    base = ["--db", str(tmp_path / "cli.db"), "digest", REPO, "--week", WEEK, "--writer", "llm"]
    with FakeLLMServer(nonsense_responder) as server:
        server.routes["GET /props"] = (
            200,
            {"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1},
        )
        md = cli(*base, "--jsonl", str(executorch_jsonl), "--llm-model", "fake",
                 "--llm-base-url", server.url)  # fmt: skip
        as_json = cli(
            *base, "--format", "json", "--llm-model", "fake", "--llm-base-url", server.url
        )
    assert md.exit_code == 0 and as_json.exit_code == 0, md.output
    stderr = md.stderr
    assert "Warning: planned within 3,686 tokens: the server's context is 4,096" in stderr
    assert "Warning: verification: " in stderr and "dropped (" in stderr
    assert "Warning: the model wrote only 1 of 9 sections" in stderr
    assert re.search(r"LLM fake: \d+ requests( \([^)]*\))?, 0 from cache; .*; \d+\.\d s;", stderr)
    facts = json.loads(as_json.stdout)["llm"]
    sections = facts["sections"]
    assert (sections["total"], sections["by_model"]) == (9, 1)
    # why the 8 others are prdigest's: every theme dropped, also in the areas asked again
    # (those of the 4 re-asks, the largest first)
    assert sections["lost"] == {"name not in the cited PRs": 8}
    assert sections["areas_retried"] == 6 and sections["areas_recovered"] == 0
    assert facts["takeaway_by_model"] is False and facts["ai_title"] is False
    assert facts["claims"]["dropped"]["name not in the cited PRs"] >= 3
    assert facts["claims"]["dropped"]["cites no PR"] >= 1
    assert facts["usage"]["cached"] >= 1 and facts["context"] == 3686
    assert facts["context_source"] == "llama-server /props"


def test_after_a_fallback_the_spent_attempts_and_time_are_told(store, context):
    with FakeLLMServer() as server:
        server.always = Reply(status=500, error="boom")
        recorder = Recorder()
        markdown, writer, warnings, notes = write(
            store, context, server, recorder, llm_max_retries=1, llm_concurrency=1
        )
    assert writer == "deterministic" and not markdown.startswith("# AI")
    assert recorder.warnings == warnings
    assert re.fullmatch(
        r"LLM fake: 0 requests \(\d+ server error\), 0 from cache; 0 prompt \+ 0 completion "
        r"tokens \(estimated\); \d+\.\d s",
        notes[0],
    )


def test_strict_fails_on_a_request_that_failed(store, context):
    def fail_arm(body: dict[str, Any]) -> Reply | None:
        return (
            Reply(status=500, error="boom") if "Backends: Arm" in parse_prompt(body).areas else None
        )

    with FakeLLMServer() as server:
        server.rules.append(fail_arm)
        with pytest.raises(LLMError, match="1 requests failed"):
            write(store, context, server, llm_strict=True, llm_max_retries=0)


def test_the_title_says_ai_analysis_only_when_the_model_wrote_most_of_it(store, context):
    def few_sections(prompt: Prompt) -> str:
        if prompt.is_takeaway or set(prompt.areas) & {"Backends: Arm", "Backends: Vulkan"}:
            return good_responder(prompt)
        return json.dumps({"themes": []})

    with FakeLLMServer(few_sections) as server:
        markdown, _, _, _ = write(store, context, server)
    assert markdown.startswith("# Analysis of Pull Requests")  # 2 of 9 sections
    assert "_The model wrote 2 of 9 sections and the key takeaway;" in markdown
    with FakeLLMServer() as server:
        markdown, _, _, _ = write(store, context, server, llm_refresh=True)
    assert markdown.startswith("# AI Analysis of Pull Requests")
    assert "_The model wrote 9 of 9 sections and the key takeaway;" in markdown


CLAUSE = "The addition of the pass in the test passed a bug that"


def clause_named_responder(prompt: Prompt) -> str:
    """SmolLM2 named a Cortex-M theme with a clause cut mid-sentence (2026-W07, issue 14)."""
    answer = json.loads(good_responder(prompt))
    for theme in answer.get("themes", []):
        theme["name"] = CLAUSE
    return json.dumps(answer)


def test_a_clause_is_no_theme_name_and_the_sentence_names_it(store, context):
    with FakeLLMServer(clause_named_responder) as server:
        markdown, writer, _, notes = write(store, context, server)
    assert writer == "llm"
    assert CLAUSE not in markdown
    assert "theme name taken from its sentence" in notes[1]


def copies_the_example(prompt: Prompt) -> str:
    """A small model that copies the prompt's example theme: true, since the example is
    one of the request's own PR titles as a sentence."""
    if prompt.is_takeaway:
        return good_responder(prompt)
    example = re.search(r'^Write what each theme changed .*?, as "(.+?)" says', prompt.user, re.M)
    assert example, "the request shows no example"
    sentence = example.group(1)
    for area, items in prompt.areas.items():
        for number, line in items:
            if sentence.rstrip(".").lower() == title_of(line).rstrip(".").lower():
                theme = {"area": area, "name": name_of(sentence), "summary": sentence}
                return json.dumps({"themes": [{**theme, "prs": [number]}]})
    raise AssertionError(f"{sentence!r} is no title of the request's PRs")


def test_each_area_request_shows_an_example_of_its_own_and_copying_it_is_no_fault(store, context):
    """The 1.5B model paraphrased titles ("unit tests across different devices" for "UTs
    on XPU") and opened with "This pull request …": each request now opens with one of its
    own PR titles as the sentence wanted, before the data, so that it is not an instruction
    a model must not repeat."""
    with FakeLLMServer(copies_the_example) as server:
        markdown, writer, _, notes = write(store, context, server)
    assert writer == "llm" and "copied from the prompt" not in notes[1]
    areas = [p for p in map(parse_prompt, server.requests) if not p.is_takeaway]
    for prompt in areas:
        sentence = re.search(r'as "(.+?)" says what its PR below', prompt.user)
        assert sentence and f"{in_third_person(sentence.group(1)[:-1])} ([PR#" in markdown
        assert prompt.user.index(sentence.group(0)) < prompt.user.index("PR_DATA_BEGIN")
    assert_truthful(markdown, store, context)


CPP = "Reorganizes op_registry.py by C++ implementation file."


def names_cpp(prompt: Prompt) -> str:
    """A good model that names C++, as #17335 does ("Reorganize op_registry.py by C++
    implementation file")."""
    for area, items in prompt.areas.items():
        if any(number == 17335 for number, _ in items):
            theme = {"area": area, "name": "C++ implementation files", "summary": CPP}
            return themes_for(prompt, [{**theme, "prs": [17335]}])
    return good_responder(prompt)


def test_a_one_letter_name_its_pr_writes_is_grounded(store, context):
    """ "C++" and "groups along M" were names no PR could ever write: a one-letter name was
    never looked for, so Qwen's "… in groups along M." was dropped though its PR says it."""
    with FakeLLMServer(names_cpp) as server:
        markdown, writer, _, _ = write(store, context, server)
    assert writer == "llm"
    assert f"{CPP[:-1]} ([PR#17335](" in markdown
    assert_truthful(markdown, store, context)


def opens_with_a_verb_of_its_own(prompt: Prompt) -> str:
    """A good model that says "Harden" where the PR's title says "Fix"."""
    for area, items in prompt.areas.items():
        for number, line in items:
            title = title_of(line)
            if title.startswith("Fix Vulkan texture tensor UBO budget overflow"):
                said = "Harden" + title[len("Fix") :].rstrip(".") + "."
                theme = {"area": area, "name": "UBO budget overflow", "summary": said}
                return themes_for(prompt, [{**theme, "prs": [number]}])
    return good_responder(prompt)


def test_a_verb_of_change_opening_a_sentence_is_a_word_not_a_name(store, context):
    """Asked to open with a title's verb, Qwen wrote "Correct the accuracy error …" and
    "Create …": an opening capital the window never writes in lower case was taken for a
    name no PR writes, and the sentence dropped. A verb of change is a word: checked
    with the sentence's other words, most of which its PRs must use."""
    with FakeLLMServer(opens_with_a_verb_of_its_own) as server:
        markdown, writer, _, _ = write(store, context, server)
    assert writer == "llm"
    assert "Hardens Vulkan texture tensor UBO budget overflow ([PR#" in markdown
    assert_truthful(markdown, store, context)


def title_cases_its_names(prompt: Prompt) -> str:
    """A model that capitalises every word of a theme's name, as qwen-1.5b wrote "Fsdp2
    Float8 …" for FSDP2 and "Moe Training" for MoE."""
    answer = json.loads(good_responder(prompt))
    for theme in answer.get("themes", []):
        theme["name"] = " ".join(w[:1].upper() + w[1:].lower() for w in theme["name"].split())
    return json.dumps(answer)


def test_theme_names_are_spelled_as_the_repository_writes_them(store, context):
    with FakeLLMServer(title_cases_its_names) as server:
        markdown, writer, _, _ = write(store, context, server)
    assert writer == "llm"
    assert "**FP16 Support" in markdown and "Fp16" not in markdown
