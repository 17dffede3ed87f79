"""Both HTTP clients, GitHub's and the LLM server's, retry by the one policy (`prdigest.retry`),
against real servers on 127.0.0.1; GitHub's Link pagination is read by httpx."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Response

from fakes.llm_server import FakeLLMServer, Reply
from llm_helpers import free_port
from prdigest.sources.github import rest
from prdigest.sources.github.http import GitHubClient, GitHubUnavailable
from prdigest.write.llm.chat_client import ClientSettings, LLMClient, RequestFailed

MESSAGES = [{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "hi"}]


def github(server: HTTPServer, sleeps: list[float], **kw: Any) -> GitHubClient:
    return GitHubClient(server.url_for("/"), None, sleep=sleeps.append, timeout=5.0, **kw)


def llm(server: FakeLLMServer, sleeps: list[float], **kw: Any) -> LLMClient:
    settings = ClientSettings(server.url, "fake", concurrency=1, **kw)
    return LLMClient(settings, sleep=sleeps.append)


def test_both_clients_back_off_the_same_after_server_errors(httpserver: HTTPServer) -> None:
    for status in (502, 503):
        httpserver.expect_ordered_request("/repos/o/r").respond_with_data("busy", status=status)
    httpserver.expect_ordered_request("/repos/o/r").respond_with_json({"id": 1})
    github_sleeps: list[float] = []
    with github(httpserver, github_sleeps, backoff=0.5) as client:
        assert client.get("/repos/o/r").data == {"id": 1}
    assert client.stats.retries == 2

    llm_sleeps: list[float] = []
    with FakeLLMServer(lambda prompt: '{"ok": true}') as server:
        server.queue += [Reply(status=500, error="boom"), Reply(status=503, error="busy")]
        client2 = llm(server, llm_sleeps, backoff=0.5)
        assert json.loads(client2.complete(MESSAGES, {}).content) == {"ok": True}
    assert server.count == 3 and client2.failed == {"server error": 2}
    assert github_sleeps == llm_sleeps == [0.5, 1.0]  # doubling from the backoff, one policy


def test_the_llm_client_waits_no_longer_than_the_github_client(httpserver: HTTPServer) -> None:
    """One cap for both (60 s): the LLM client's own loop doubled without one (40, 80)."""
    httpserver.expect_request("/repos/o/r").respond_with_data("busy", status=502)
    github_sleeps: list[float] = []
    with github(httpserver, github_sleeps, backoff=40, max_attempts=3) as client:
        with pytest.raises(GitHubUnavailable) as gh:
            client.get("/repos/o/r")
    assert "GET /repos/o/r failed 3 times: GitHub answered 502" in str(gh.value)
    assert sum(github_sleeps) == 100  # 40 + 60, in one-second steps

    llm_sleeps: list[float] = []
    with FakeLLMServer() as server:
        server.always = Reply(status=500, error="boom")
        with pytest.raises(RequestFailed) as failed:
            llm(server, llm_sleeps, backoff=40, max_retries=2).complete(MESSAGES, {})
    assert llm_sleeps == [40, 60] and server.count == 3
    assert f"the LLM server at {server.url}/chat/completions failed 3 times: server error" in str(
        failed.value
    )
    assert failed.value.reason == "server error"


def test_an_llm_server_s_retry_after_is_the_wait() -> None:
    sleeps: list[float] = []
    with FakeLLMServer(lambda prompt: "{}") as server:
        server.queue += [
            Reply(status=429, error="slow down", headers={"Retry-After": "7"}),
            Reply(status=429, error="slow down", headers={"Retry-After": "3600"}),
            Reply(status=429, error="slow down"),
        ]
        client = llm(server, sleeps, backoff=2, max_retries=3)
        assert client.complete(MESSAGES, {}).content == "{}"
    assert sleeps == [7, 60, 8]  # as asked, never over a minute; else the backoff (2, 4, 8)
    assert client.failed == {"rate limited": 3}


def test_a_connection_refused_is_tried_twice_only() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    sleeps: list[float] = []
    client = GitHubClient(url, None, sleep=sleeps.append, backoff=0.5, timeout=2.0)
    with pytest.raises(GitHubUnavailable) as info:
        client.get("/repos/o/r")
    assert "failed 2 times: cannot connect to" in str(info.value)
    assert sleeps == [0.5] and "nothing was fetched" in str(info.value.fix)


def _files(numbers: range) -> list[dict[str, object]]:
    return [
        {"filename": f"f{n}.py", "status": "modified", "additions": 1, "deletions": 0}
        for n in numbers
    ]


@pytest.mark.parametrize(
    "link",
    [
        # a cursor with a comma in the next page's URL: the old parser split the header on it
        '<{url}?cursor=a,b>; rel="next", <{url}?cursor=z,z>; rel="last"',
        '<{url}?cursor=a,b>;rel = "next"',  # spaces around '=': the old parser missed the rel
    ],
)
def test_file_pages_follow_the_link_header_as_httpx_reads_it(
    httpserver: HTTPServer, link: str
) -> None:
    path = "/repos/o/r/pulls/7/files"
    url = httpserver.url_for(path)
    httpserver.expect_request(path, query_string="cursor=a,b").respond_with_json(
        _files(range(3, 5))
    )
    first = Response(json.dumps(_files(range(3))), headers={"Link": link.format(url=url)})
    first.content_type = "application/json"
    httpserver.expect_request(path, query_string="per_page=100").respond_with_response(first)
    with github(httpserver, []) as client:
        files = rest.fetch_files(client, "o/r", 7)
    assert [f.path for f in files] == [f"f{n}.py" for n in range(5)]
