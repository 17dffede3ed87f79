"""The LLM writer against what real servers do (issue 14), scripted on the fake server with
the real servers' verbatim answers: the llama-cpp-python 500 for `json_schema`, the
context refusals of llama-server, llama-cpp-python, vLLM and OpenAI, where each server
says its context, answers cut off by `max_tokens`, looping answers, slow CPU servers."""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

from fakes.llm_server import (
    LLAMA_CPP_PYTHON_JSON_SCHEMA_500,
    FakeLLMServer,
    Reply,
    context_limit,
    parse_prompt,
    refuse_format,
    response_format_of,
)
from llm_helpers import REPO, Recorder, assert_truthful, write, write_full
from prdigest import pipeline
from prdigest.cli import main
from prdigest.config import Config
from prdigest.timeutil import window_between
from prdigest.write import llm
from prdigest.write.llm.profile import ServerProfile
from prdigest.write.llm.refusals import classify


def bodies_of(server: FakeLLMServer) -> list[dict[str, Any]]:
    return [b for b in server.requests if not parse_prompt(b).is_takeaway]


# -- 1. the response_format ladder -----------------------------------------------------


def test_the_llama_cpp_python_500_steps_down_the_ladder_in_one_request_and_is_remembered(
    store, context
):
    lcp_500 = Reply(status=500, raw_body=LLAMA_CPP_PYTHON_JSON_SCHEMA_500)
    with FakeLLMServer() as server:
        server.rules.append(refuse_format("json_schema", lcp_500))
        markdown, writer, warnings, _ = write(store, context, server, llm_concurrency=1)
        first = [response_format_of(b) for b in server.requests]
        server.requests.clear()
        write(store, context, server, llm_refresh=True)  # asks everything again
        again = {response_format_of(b) for b in server.requests}
    assert writer == "llm" and markdown.startswith("# AI Analysis")
    assert first[0] == "json_schema" and first.count("json_schema") == 1  # no retries of the 500
    assert set(first[1:]) == {"json_object+schema"}
    assert any("refused response_format json_schema" in w for w in warnings)
    assert again == {"json_object+schema"}  # the next run starts on the right rung
    assert_truthful(markdown, store, context)


def test_the_ladder_goes_down_to_plain_instructions(store, context):
    no = Reply(status=400, error="response_format is not supported by this server")
    with FakeLLMServer() as server:
        for kind in ("json_schema", "json_object+schema", "json_object"):
            server.rules.append(refuse_format(kind, no))
        markdown, writer, _, _ = write(store, context, server, llm_concurrency=1)
    formats = [response_format_of(b) for b in server.requests]
    assert formats[:4] == ["json_schema", "json_object+schema", "json_object", "plain"]
    assert set(formats[4:]) == {"plain"} and writer == "llm"
    assert_truthful(markdown, store, context)


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (500, LLAMA_CPP_PYTHON_JSON_SCHEMA_500, "format"),
        (
            400,
            '{"error":{"code":400,"message":"response_format type must be one of \\"text\\" or '
            '\\"json_object\\", but got: bogus","type":"invalid_request_error"}}',
            "format",
        ),
        (
            400,
            '{"error":{"code":400,"message":"Unable to generate parser for this template. '
            "Automatic parser generation failed: JSON schema error at #: unrecognized type "
            'nonsense","type":"invalid_request_error"}}',
            "format",
        ),
        (
            503,
            '{"error":{"message":"Loading model","type":"unavailable_error","code":503}}',
            "retry",
        ),
        (429, '{"error":{"message":"Too many tokens in the last minute, slow down"}}', "rate"),
        (
            404,
            '{"error":{"message":"The model `gpt-9` does not exist","code":"model_not_found"}}',
            "fatal",
        ),
        (400, '{"error":{"message":"\'messages\' is required"}}', "fatal"),
    ],
)
def test_error_answers_are_told_apart(status, body, kind):
    assert classify(status, body, sent_format=True, sent_stream=True).kind == kind


# -- 2. context refusals and the server's own context ----------------------------------

REFUSALS = {
    "llama-server": (
        '{"error":{"code":400,"message":"request (3901 tokens) exceeds the available context size '
        '(2048 tokens), try increasing it","type":"exceed_context_size_error",'
        '"n_prompt_tokens":3901,"n_ctx":2048}}',
        2048,
        3901,
    ),
    "llama-cpp-python": (
        '{"error":{"message":"This model\'s maximum context length is 2048 tokens. However, you '
        "requested 2889 tokens (2289 in the messages, 600 in the completion). Please reduce the "
        'length of the messages or completion.","type":"invalid_request_error","param":"messages",'
        '"code":"context_length_exceeded"}}',
        2048,
        2889,
    ),
    "vllm": (
        '{"error":{"message":"This model\'s maximum context length is 4096 tokens. However, your '
        'request has 5000 input tokens. Please reduce the length of the input messages.",'
        '"type":"BadRequestError","param":null,"code":400}}',
        4096,
        5000,
    ),
    "vllm max_tokens": (
        '{"error":{"message":"\'max_tokens\' or \'max_completion_tokens\' is too large: 8000. This '
        "model's maximum context length is 4096 tokens and your request has 2778 input tokens "
        '(8000 > 4096 - 2778). None","type":"BadRequestError","param":null,"code":400}}',
        4096,
        2778,
    ),
    # Ollama cuts a long prompt silently, unless asked not to truncate (its embeddings, or
    # chat with "truncate": false): then it says so, without a size
    "ollama": ('{"error":"the input length exceeds the context length"}', None, None),
    "openai": (
        '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your '
        'messages resulted in 10000 tokens. Please reduce the length of the messages.",'
        '"type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
        8192,
        10000,
    ),
}


@pytest.mark.parametrize("server_name", sorted(REFUSALS))
def test_every_servers_context_refusal_is_read_with_its_size(server_name):
    body, size, asked = REFUSALS[server_name]
    refusal = classify(400, body, sent_format=True, sent_stream=True)
    assert (refusal.kind, refusal.context, refusal.asked) == ("context", size, asked)


MONTH = window_between("2026-01-26", "2026-02-26")  # 510 PRs: requests of 3,000+ tokens


@pytest.mark.parametrize(
    "style",
    [
        "llama-server",
        "llama-cpp-python",
        "vllm",
        "openai",
    ],
)
def test_a_context_refusal_replans_within_the_size_the_server_gives(store, style):
    """Issue 14, failure 2: llama-server's refusal fell back to the deterministic writer
    with the hint "check --llm-model"."""
    month = pipeline.build_digest_context(store, REPO, MONTH, Config())
    options = {"llm_base_url": "", "llm_model": "fake", "llm_backoff": 0, "llm_concurrency": 1}
    with FakeLLMServer() as server:
        server.rules.append(context_limit(2048, style))
        written = write_full(
            store, month, {**options, "llm_base_url": server.url}, Recorder(), window=MONTH
        )
    assert written.writer == "llm", written.warnings
    assert any(
        "its context is 2,048 tokens); re-planned within 1,843 tokens" in w
        for w in written.warnings
    )
    assert not any("check --llm-model" in w for w in written.warnings)
    sizes = [
        tokens + (body["max_tokens"] if style != "llama-server" else 0)
        for body, tokens in zip(server.requests, server.prompt_tokens, strict=True)
    ]
    assert sum(s > 2048 for s in sizes) == 1  # one refusal, then everything fits


PROPS_2048 = {"default_generation_settings": {"n_ctx": 2048}, "total_slots": 1}


@pytest.mark.parametrize(
    ("route", "answer", "source"),
    [
        ("GET /props", PROPS_2048, "llama-server /props"),
        (
            "GET /v1/models",
            {"object": "list", "data": [{"id": "fake", "max_model_len": 2048}]},
            "/v1/models max_model_len",
        ),
        (
            "GET /v1/models",
            {"data": [{"id": "smollm2", "meta": {"n_ctx": 2048, "n_ctx_train": 8192}}]},
            "llama-server /v1/models",
        ),
        (
            "POST /api/show",
            {"parameters": "num_ctx                        2048\ntemperature 0.2"},
            "Ollama /api/show num_ctx",
        ),
        (
            "POST /api/show",
            {"parameters": "", "model_info": {"llama.context_length": 131072}},
            "Ollama /api/show (default num_ctx)",
        ),
    ],
)
def test_the_servers_context_is_read_before_planning(store, context, route, answer, source):
    with FakeLLMServer() as server:
        server.routes[route] = (200, answer)
        server.rules.append(context_limit(2048 if "131072" not in str(answer) else 4096))
        markdown, writer, warnings, _ = write(store, context, server, llm_concurrency=2)
    budget = 1843 if "131072" not in str(answer) else 3686
    assert writer == "llm"
    assert any(f"planned within {budget:,} tokens" in w and source in w for w in warnings)
    assert all(
        tokens + body["max_tokens"] <= budget
        for body, tokens in zip(server.requests, server.prompt_tokens, strict=True)
    )
    if route == "GET /props":  # one slot: never two requests at once
        assert server.max_in_flight == 1
    assert_truthful(markdown, store, context)


def test_a_fully_cached_run_asks_the_server_nothing_not_even_its_context(store, context):
    with FakeLLMServer() as server:
        server.routes["GET /props"] = (200, PROPS_2048)
        first, _, _, _ = write(store, context, server)
        asked, probed = server.count, len(server.gets)
        again, _, _, notes = write(store, context, server)
    assert probed >= 1 and server.count == asked and len(server.gets) == probed
    assert again == first and ", 0 from cache" not in notes[0]


# -- 3. cut-off answers, loops, slow servers -------------------------------------------

CUT = '{\n  "themes": [\n    {\n      "name": "Arm passes",\n      "summary": "Formats Arm'


def test_a_cut_off_answer_is_split_and_never_asked_again_as_it_was(store, context):
    def cut_when_large(body: dict[str, Any]) -> Reply | None:
        prompt = parse_prompt(body)
        shown = sum(len(items) for items in prompt.areas.values())
        return Reply(content=CUT, finish_reason="length") if shown > 6 else None

    with FakeLLMServer() as server:
        server.rules.append(cut_when_large)
        markdown, writer, _, notes = write(store, context, server, llm_concurrency=1)
        sent = [str(b["messages"]) for b in server.requests]
        second = server.count
        write(store, context, server)
    assert writer == "llm"
    assert len(sent) == len(set(sent))  # no request was sent twice
    assert "cut off" in notes[0]
    seen = {
        n for b in server.requests for items in parse_prompt(b).areas.values() for n, _ in items
    }
    assert seen == set(context.prs)  # the halves still show every PR
    assert server.count == second  # the halves' answers are cached under the whole request
    assert_truthful(markdown, store, context)


def test_the_whole_themes_of_a_cut_off_answer_are_kept(store, context):
    whole = (
        '{"themes": [{"name": "Arm passes", "summary": "Format Arm passes (group 3).", '
        '"prs": [17331, 17332]}, {"name": "FP16", "summary": "Add FP16 sup'
    )

    def cut_arm(body: dict[str, Any]) -> Reply | None:
        return (
            Reply(content=whole, finish_reason="length")
            if "Backends: Arm" in parse_prompt(body).areas
            else None
        )

    with FakeLLMServer() as server:
        server.rules.append(cut_arm)
        markdown, _, _, _ = write(store, context, server, llm_concurrency=1)
    assert "**Arm passes:** Formats Arm passes (group 3)" in markdown
    assert sum("Backends: Arm" in parse_prompt(b).areas for b in server.requests) == 1


def test_a_looping_answer_is_cut_early_and_counted(store, context):
    loop = '{"themes": [{"name": "Arm", "summary": "' + "the PRs that change the data, " * 3000

    def loop_on_arm(body: dict[str, Any]) -> Reply | None:
        areas = parse_prompt(body).areas
        if "Backends: Arm" in areas and len(areas["Backends: Arm"]) > 10:
            return Reply(content=loop, chunk_delay=0.002)
        return None

    with FakeLLMServer() as server:
        server.rules.append(loop_on_arm)
        markdown, writer, _, notes = write(store, context, server, llm_concurrency=1)
    # the whole loop would stream for ~23 s; the client hangs up after a few hundred characters
    assert server.hung_up >= 1
    assert "1 looped" in notes[0]
    assert writer == "llm" and "the PRs that change the data" not in markdown
    assert_truthful(markdown, store, context)


def test_a_slow_but_steady_answer_is_not_cut_by_the_timeout(store, context):
    """A CPU server writes a few tokens a second: the wait that counts is the silence."""
    with FakeLLMServer() as server:
        server.rules.append(
            lambda body: (
                Reply(content=_good_arm_answer(), chunk_delay=0.05)
                if "Backends: Arm" in parse_prompt(body).areas
                else None
            )
        )
        markdown, writer, warnings, notes = write(
            store, context, server, llm_timeout=0.5, llm_max_retries=0, llm_concurrency=1
        )
    assert writer == "llm" and "timed out" not in notes[0], warnings
    assert "**Arm passes:**" in markdown


def _good_arm_answer() -> str:
    return (
        '{"themes": [{"name": "Arm passes", "summary": "Format Arm passes in groups, with '
        'docformatter applied to the next set of passes.", "prs": [17331, 17332, 17363, 17364]}]}'
    )


def test_timeouts_follow_the_measured_speed():
    profile = ServerProfile()
    # nothing measured yet: a slow CPU is assumed, never a fixed 120 s
    assert profile.timeout(3901, 300) > 120
    profile.measured(56.0, 1.5)  # a busy 2-core machine (docs/llm.md)
    slow = profile.timeout(3901, 300)
    assert slow > 3 * (3901 / 56 + 300 / 1.5)
    profile.measured(2000.0, 400.0)  # a GPU server
    assert profile.timeout(1000, 300) < slow / 4


def test_the_timeout_is_a_flag_and_a_config_key(tmp_path):
    assert llm.resolve_settings(Config(), {}).timeout is None  # from the server's speed
    assert llm.resolve_settings(Config(), {"llm_timeout": 300}).timeout == 300
    from prdigest.config import load_config

    config_file = tmp_path / "prdigest.toml"
    config_file.write_text("[llm]\ntimeout = 450\n")
    assert llm.resolve_settings(load_config(str(config_file)), {}).timeout == 450
    result = CliRunner().invoke(main, ["digest", "--help"])
    assert "--llm-timeout SECONDS" in result.output


def test_an_unusable_answer_is_asked_again_warmer_never_as_it_was(store, context):
    with FakeLLMServer() as server:
        server.queue.append(Reply(content="Sure! Here are the themes you asked for."))
        _, writer, _, _ = write(store, context, server, llm_concurrency=1)
    first, second = server.requests[:2]
    assert first["messages"] == second["messages"]
    assert second["temperature"] > first["temperature"]
    assert writer == "llm"


def test_a_request_that_never_answers_as_asked_is_named_in_the_warning(store, context):
    def never_for_arm(body: dict[str, Any]) -> Reply | None:
        return (
            Reply(content="I cannot do that.")
            if "Backends: Arm" in parse_prompt(body).areas
            else None
        )

    with FakeLLMServer() as server:
        server.rules.append(never_for_arm)
        markdown, writer, warnings, _ = write(store, context, server)
        again, _, again_warnings, _ = write(store, context, server)
    assert writer == "llm"
    assert (
        "the request for Backends: Arm: no usable JSON; its areas have prdigest's own themes"
        in warnings
    )
    assert again == markdown  # the model would answer the same: its failure is cached, and told
    assert (
        "the request for Backends: Arm: no usable JSON (cached); its areas have prdigest's own "
        "themes" in again_warnings
    )
    assert re.search(r"### 1\. Backends: Arm\n.*\n\n_Themes from prdigest's analysis", markdown)


def test_a_server_that_answers_a_second_request_empty_is_asked_one_at_a_time(store, context):
    """llama-cpp-python's server, asked twice at once, streams the second answer empty."""
    with FakeLLMServer() as server:
        server.delay = 0.1
        server.rules.append(lambda body: Reply(content="") if server.in_flight else None)
        markdown, writer, warnings, notes = write(store, context, server, llm_concurrency=2)
        server.max_in_flight = 0
        write(store, context, server, llm_concurrency=2, llm_refresh=True)
    assert writer == "llm" and "failed" not in " ".join(warnings)
    assert "the server answered empty while busy; asking one at a time" in warnings
    assert server.max_in_flight == 1  # the next run knows
    assert_truthful(markdown, store, context)
