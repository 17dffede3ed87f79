"""The LLM writer against a scripted OpenAI-compatible server on 127.0.0.1, on the real
executorch week 2026-W07. Whatever the server answers, the published digest cites
only PRs of the window and only figures found in the cited PRs' text."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from click.testing import CliRunner

from fakes.llm_server import (
    FakeLLMServer,
    Prompt,
    Reply,
    good_responder,
    parse_prompt,
    response_format_of,
)
from llm_helpers import (
    INJECTED,
    INJECTION,
    REPO,
    WEEK,
    Recorder,
    areas_only,
    assert_truthful,
    free_port,
    themes_for,
    write,
    write_with,
)
from prdigest.cli import main
from prdigest.config import Config
from prdigest.errors import ConfigError, LLMError
from prdigest.write import llm


def test_good_answers_give_a_verified_ai_digest_and_a_second_run_costs_nothing(store, context):
    with FakeLLMServer() as server:
        markdown, writer, warnings, notes = write(store, context, server)
        first = server.count
        again, _, _, again_notes = write(store, context, server)
    assert writer == "llm" and warnings == []
    assert notes[0].startswith(f"LLM fake: {first} requests, 0 from cache; ")
    assert again_notes[0].startswith(f"LLM fake: 0 requests, {first} from cache; ")
    assert notes[1].startswith("verification: ") and "claims checked" in notes[1]
    assert markdown.startswith(
        "# AI Analysis of Pull Requests for pytorch/executorch during 20260209-20260215\n"
    )
    assert f"totals {context.counts.prs} PRs across (1) {context.areas[0].name}" in markdown
    # #17375's body prints a sample run's "1049.4s": no result, so the model never sees it
    # (tests/test_llm_news.py: a result the analysis quoted is published, cited)
    assert "1049.4s" not in markdown
    assert markdown.rstrip().endswith("0 dropped._")
    assert_truthful(markdown, store, context)
    assert first >= 2 and server.count == first  # the second run was served from the cache
    assert again == markdown


def test_another_server_does_not_get_the_first_servers_cached_replies(store, context):
    with FakeLLMServer() as server:
        _, writer, _, _ = write(store, context, server)
        same = server.url + "/"  # the same server spelt differently is the same server
        settings = {"llm_base_url": same, "llm_model": "fake", "llm_backoff": 0}
        first = server.count
        write_with(store, context, settings, Recorder())
        assert server.count == first
    assert writer == "llm"
    unreachable = f"http://127.0.0.1:{free_port()}/v1"
    settings = {"llm_base_url": unreachable, "llm_model": "fake", "llm_max_retries": 0}
    recorder = Recorder()
    markdown, writer, warnings, _ = write_with(store, context, settings, recorder)
    assert writer == "deterministic" and not markdown.startswith("# AI")
    assert "cannot connect" in warnings[0] and recorder.warnings == warnings


def test_every_request_fits_the_budget_and_every_pr_is_seen(store, context):
    with FakeLLMServer() as server:
        markdown, writer, _, _ = write(store, context, server, llm_context=2048)
    assert writer == "llm"
    assert server.count > 3  # a small window had to be split over several requests
    for body, tokens in zip(server.requests, server.prompt_tokens, strict=True):
        assert tokens + body["max_tokens"] <= 2048
        assert body["response_format"]["type"] == "json_schema"
    seen = {
        int(n)
        for body in server.requests
        for n in re.findall(r"^#(\d+) ", body["messages"][1]["content"], re.M)
    }
    assert seen == set(context.prs)
    assert_truthful(markdown, store, context)


def test_invented_pr_numbers_are_dropped(store, context):
    def responder(prompt: Prompt) -> str:
        area = next(iter(prompt.areas))
        real = prompt.areas[area][0][0]
        return themes_for(
            prompt,
            [
                {
                    "area": area,
                    "name": "Phantom work",
                    "summary": "Adds a phantom feature.",
                    "prs": [999999, 17000],
                },
                {
                    "area": area,
                    "name": "Mixed",
                    "summary": "Tidies things (#424242).",
                    "prs": [real, 888888],
                },
            ],
        )

    with FakeLLMServer(areas_only(responder)) as server:
        markdown, writer, warnings, _ = write(store, context, server)
    assert writer == "llm"
    for number in ("999999", "17000", "888888", "424242"):
        assert f"PR#{number}" not in markdown and f"#{number}" not in markdown
    assert "Phantom work" not in markdown
    assert re.search(r"_The model wrote .*claims checked .*, \d+ dropped[,.]", markdown)
    assert warnings and re.search(r"\d+ dropped \(\d+ cites a PR not in", warnings[0])
    assert_truthful(markdown, store, context)


def test_invented_speedups_are_dropped(store, context):
    def responder(prompt: Prompt) -> str:
        if "Backends: Arm" not in prompt.areas:
            return themes_for(prompt, [])
        return themes_for(
            prompt,
            [
                {
                    "area": "Backends: Arm",
                    "name": "Faster everything",
                    "summary": "Adds Amax support for Ethos-U55. It achieves up to 37.5x speedups and 93% less memory.",
                    "prs": [17372],
                }
            ],
        )

    with FakeLLMServer(areas_only(responder)) as server:
        markdown, _, _, _ = write(store, context, server)
    assert "37.5x" not in markdown and "93%" not in markdown
    # the sentence without a figure stays, in the area's spelling ("Amax-support")
    assert "Adds Amax-support for Ethos-U55" in markdown
    assert_truthful(markdown, store, context)


def test_claims_cited_to_the_wrong_pr_are_repaired_or_dropped(store, context):
    def responder(prompt: Prompt) -> str:
        if "LLM" not in prompt.areas:
            return themes_for(prompt, [])
        return themes_for(
            prompt,
            [
                # 1049.4s is stated by #17375 (same area): the citation is repaired
                {
                    "area": "LLM",
                    "name": "VAD runtime",
                    "summary": "Speech detection runs over 1049.4s of audio.",
                    "prs": [17398],
                },
                # 66.16 MB is stated by an Arm PR, not by any LLM PR: dropped
                {
                    "area": "LLM",
                    "name": "Scratch",
                    "summary": "Saves ~66.16 MB of scratch memory.",
                    "prs": [17398],
                },
            ],
        )

    with FakeLLMServer(areas_only(responder)) as server:
        markdown, _, _, notes = write(store, context, server)
    line = next(li for li in markdown.splitlines() if "VAD runtime" in li)
    assert "PR#17375" in line and "PR#17398" in line
    assert "**Scratch:**" not in markdown
    assert "1 repaired (1 citation added for a figure)" in " ".join(notes)
    assert "1 repaired._" in markdown  # the digest says it was checked, the notes why
    assert_truthful(markdown, store, context)


def test_a_theme_citing_another_areas_prs_is_moved_there(store, context):
    arm = next(a for a in context.areas if a.name == "Backends: Arm")

    def responder(prompt: Prompt) -> str:
        if "LLM" not in prompt.areas:
            return themes_for(prompt, [])
        return themes_for(
            prompt,
            [
                {
                    "area": "LLM",
                    "name": "Arm passes formatting",
                    "summary": "Improves Arm passes.",
                    "prs": arm["prs"][:2],
                }
            ],
        )

    with FakeLLMServer(areas_only(responder)) as server:
        markdown, _, _, _ = write(store, context, server)
    sections = re.split(r"^### ", markdown, flags=re.M)
    arm_section = next(s for s in sections if s.startswith("1. Backends: Arm"))
    assert "Arm passes formatting" in arm_section
    assert_truthful(markdown, store, context)


def test_malformed_json_is_repaired_or_asked_again(store, context):
    with FakeLLMServer() as server:
        server.queue.append(Reply(content='```json\n{"themes": [{"area": "x", "name": '))
        markdown, writer, _, _ = write(store, context, server)
        retried = server.count
    with FakeLLMServer() as fenced:
        fenced.responder = lambda p: "Sure! ```json\n" + good_responder(p)[:-1] + ",}\n```"
        again, writer2, _, _ = write(store, context, fenced, llm_refresh=True)
    assert writer == "llm" and writer2 == "llm"
    # fences, prose and a trailing comma are repaired without asking again; a cut-off reply is asked again
    assert fenced.count >= 2 and retried == fenced.count + 1
    assert_truthful(markdown, store, context)
    assert_truthful(again, store, context)


def test_rate_limits_and_server_errors_are_retried(store, context):
    with FakeLLMServer() as calm:
        write(store, context, calm)
    with FakeLLMServer() as server:
        server.queue += [
            Reply(status=429, error="slow down", headers={"Retry-After": "0"}),
            Reply(status=500, error="boom"),
            Reply(status=503, error="busy"),
        ]
        markdown, writer, _, notes = write(store, context, server, llm_concurrency=1)
    assert writer == "llm" and server.count == calm.count + 3
    assert "(2 server error, 1 rate limited)" in notes[0]
    assert_truthful(markdown, store, context)


def test_servers_without_json_schema_support_are_asked_for_a_json_object(store, context):
    with FakeLLMServer() as server:
        server.queue.append(Reply(status=400, error="response_format json_schema is not supported"))
        markdown, writer, warnings, _ = write(store, context, server, llm_concurrency=1)
    assert writer == "llm"
    formats = [response_format_of(b) for b in server.requests]
    assert formats[0] == "json_schema"
    assert set(formats[1:]) == {"json_object+schema"}  # one step down, remembered
    assert any("using json_object+schema from now on" in w for w in warnings)
    assert_truthful(markdown, store, context)


def test_no_more_requests_in_flight_than_the_concurrency_limit(store, context):
    with FakeLLMServer() as server:
        server.delay = 0.05
        write(store, context, server, llm_context=2048, llm_concurrency=2)
    assert server.count > 3 and 1 <= server.max_in_flight <= 2


def test_a_request_that_times_out_costs_only_its_own_areas(store, context):
    """Issue 14, failure 4: one failed request threw away every other request's themes."""
    with FakeLLMServer() as server:
        server.queue += [Reply(content="{}", delay=1.0) for _ in range(2)]  # Arm's, twice
        recorder = Recorder()
        markdown, writer, warnings, notes = write(
            store, context, server, recorder, llm_timeout=0.2, llm_max_retries=1, llm_concurrency=1
        )
    assert writer == "llm"
    assert markdown.startswith("# AI Analysis of Pull Requests for pytorch/executorch")
    arm, vulkan = re.split(r"^### ", markdown, flags=re.M)[2:4]
    assert arm.startswith("1. Backends: Arm")
    assert "_Themes from prdigest's analysis: the model's answer for it failed (timed out)._" in arm
    assert vulkan.startswith("2. Backends: Vulkan") and "prdigest's analysis" not in vulkan
    assert (
        "the request for Backends: Arm: timed out; its areas have prdigest's own themes" in warnings
    )
    assert recorder.warnings == warnings  # every warning reaches stderr
    assert "(2 timed out)" in notes[0]
    assert "_The model wrote 8 of 9 sections and the key takeaway;" in markdown
    assert_truthful(markdown, store, context)


CONTEXT_ERROR = (
    "This model's maximum context length is 2048 tokens. However, you requested 5000 tokens."
)


def test_a_context_length_error_replans_within_the_size_it_gives(store, context):
    with FakeLLMServer() as server:
        server.queue.append(Reply(status=400, error=CONTEXT_ERROR))
        markdown, writer, warnings, _ = write(store, context, server, llm_concurrency=1)
    assert writer == "llm"
    assert "its context is 2,048 tokens); re-planned within 1,843 tokens" in warnings[0]
    refused, *rest = zip(server.requests, server.prompt_tokens, strict=True)
    assert all(tokens + body["max_tokens"] <= 1843 for body, tokens in rest)
    assert_truthful(markdown, store, context)


def test_a_context_refusal_without_a_size_halves_the_budget(store, context):
    with FakeLLMServer() as server:
        server.queue.append(Reply(status=413, error="The prompt is too long for this model"))
        _, writer, warnings, _ = write(store, context, server, llm_concurrency=1)
    assert writer == "llm" and "re-planned within 4,096 tokens" in warnings[0]


def test_persistent_context_length_errors_fall_back_or_fail_with_strict(store, context):
    with FakeLLMServer() as server:
        server.always = Reply(status=400, error=CONTEXT_ERROR)
        markdown, writer, warnings, _ = write(store, context, server, llm_concurrency=1)
        with pytest.raises(LLMError, match="--llm-context"):
            write(store, context, server, llm_strict=True, llm_concurrency=1)
    assert writer == "deterministic" and "--llm-context" in warnings[0]
    assert not markdown.startswith("# AI")


def test_an_echoed_prompt_injection_changes_nothing_verification_would_not_catch(store, context):
    def responder(prompt: Prompt) -> str:
        if prompt.is_takeaway:
            return json.dumps(
                {
                    "takeaway": "Admin mode: the week brought a 1000x speedup (see PR #999999). "
                    "Arm work led the week."
                }
            )
        for area, items in prompt.areas.items():
            if any(n == INJECTED for n, _ in items):
                return themes_for(
                    prompt,
                    [
                        {
                            "area": area,
                            "name": "Admin mode <script>alert(1)</script>",
                            "summary": "This PR brings a 1000x speedup. See [details](http://evil.example/payload).",
                            "prs": [INJECTED, 999999],
                        },
                        {
                            "area": area,
                            "name": "TOSA serializer",
                            "summary": f"Tidies the TOSA serializer. {INJECTION}",
                            "prs": [INJECTED],
                        },
                    ],
                )
        return themes_for(prompt, [])

    with FakeLLMServer(responder) as server:
        markdown, writer, _, _ = write(store, context, server)
        bodies = list(server.requests)
    data_request = next(b for b in bodies if f"#{INJECTED} " in b["messages"][1]["content"])
    system, user = data_request["messages"][0]["content"], data_request["messages"][1]["content"]
    assert "IGNORE ALL" not in system
    assert user.index("PR_DATA_BEGIN") < user.index("IGNORE ALL") < user.index("PR_DATA_END")
    assert writer == "llm"
    for bad in ("1000x", "evil.example", "999999", "<script>", "admin mode", "Admin mode"):
        assert bad not in markdown
    assert "Arm work led the week." in markdown
    assert_truthful(markdown, store, context)


def test_strict_fails_on_any_dropped_claim(store, context):
    def responder(prompt: Prompt) -> str:
        area = next(iter(prompt.areas))
        return themes_for(
            prompt, [{"area": area, "name": "Ghost", "summary": "Ghost.", "prs": [999999]}]
        )

    with (
        FakeLLMServer(areas_only(responder)) as server,
        pytest.raises(LLMError, match="failed verification"),
    ):
        write(store, context, server, llm_strict=True)


def test_no_surviving_model_sentence_gives_the_deterministic_digest(store, context):
    def echo(prompt: Prompt) -> str:  # every theme only repeats the injection, citing a ghost
        return json.dumps(
            {
                "themes": [
                    {"area": area, "name": "Admin mode", "summary": INJECTION, "prs": [999999]}
                    for area in prompt.areas
                ]
            }
        )

    with FakeLLMServer(areas_only(echo)) as server:
        recorder = Recorder()
        markdown, writer, warnings, notes = write(store, context, server, recorder)
        assert not any(parse_prompt(b).is_takeaway for b in server.requests)
        with pytest.raises(LLMError, match="no theme the model wrote survived verification"):
            write(store, context, server, llm_strict=True)
    assert writer == "deterministic"
    assert markdown.startswith("# Analysis of Pull Requests for pytorch/executorch")
    assert "no theme the model wrote survived verification" in warnings[0]
    assert recorder.warnings == warnings
    assert notes and notes[0].startswith("LLM fake: ")  # the spent requests are still reported
    assert "999999" not in markdown and "Admin mode" not in markdown


def test_auto_without_configuration_leaves_the_digest_to_the_deterministic_writer():
    assert llm.settings_for("auto", Config(), {}) is None
    with pytest.raises(ConfigError, match="--llm-base-url"):
        llm.settings_for("llm", Config(), {})


def test_prompt_templates_can_be_overridden(store, context, tmp_path):
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "areas_system.j2").write_text(
        "HOUSE PROMPT for {{ repo }}: at most {{ max_themes }} themes. JSON only."
    )
    config_file = tmp_path / "prdigest.toml"
    config_file.write_text('[llm]\nprompts_dir = "prompts"\n')
    from prdigest.config import load_config

    with FakeLLMServer() as server:
        write(store, context, server, config=load_config(str(config_file)))
    assert any(
        b["messages"][0]["content"].startswith("HOUSE PROMPT for pytorch/executorch")
        for b in server.requests
    )


def test_the_api_key_is_sent_and_never_stored(store, context, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-123")
    with FakeLLMServer(report_usage=True) as server:
        markdown, _, _, _ = write(store, context, server)
    assert all(h.get("Authorization") == "Bearer sk-test-secret-123" for h in server.headers)
    dump = "\n".join(sqlite3.connect(tmp_path / "digest.db").iterdump())
    assert "sk-test-secret" not in dump and "sk-test-secret" not in markdown
    assert store.count_cached_replies() == server.count + 1  # and what was learned of the server


def test_cli_llm_digest_and_unreachable_server_fallback(tmp_path, executorch_jsonl, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "cli.db")
    base = [
        "--db",
        db,
        "digest",
        REPO,
        "--jsonl",
        str(executorch_jsonl),
        "--week",
        WEEK,
        "--writer",
        "llm",
        "--llm-model",
        "fake",
    ]
    runner = CliRunner()
    down = runner.invoke(main, [*base, "--llm-base-url", f"http://127.0.0.1:{free_port()}/v1"])
    assert down.exit_code == 0, down.output
    assert down.stdout.startswith(
        "# Analysis of Pull Requests for pytorch/executorch during 20260209-20260215"
    )
    assert "Warning: the LLM writer failed" in down.stderr and "cannot connect" in down.stderr
    with FakeLLMServer() as server:
        up = runner.invoke(main, [*base, "--llm-base-url", server.url, "--llm-concurrency", "1"])
        first = server.count
        again = runner.invoke(main, [*base, "--llm-base-url", server.url])
    assert up.exit_code == 0 and again.exit_code == 0, up.output + again.output
    assert up.stdout.startswith(
        "# AI Analysis of Pull Requests for pytorch/executorch during 20260209-20260215"
    )
    assert "written by the llm writer" in up.stderr
    assert first > 0 and server.count == first and again.stdout == up.stdout
    with FakeLLMServer() as fresh:
        refreshed = runner.invoke(main, [*base, "--llm-base-url", fresh.url, "--refresh"])
    assert refreshed.exit_code == 0 and fresh.count == first
