"""Pure parsing of GitHub's shapes, and the HTTP client's rules, without a server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from fakes.github_server import _graphql_node, github_pulls, load_records
from prdigest.errors import GitHubError, RateLimitError
from prdigest.sources.github.http import GitHubClient
from prdigest.sources.github.parse import (
    GraphQLPull,
    RestFile,
    RestPull,
    decode,
    parse_graphql_pull,
    parse_rest_file,
    parse_rest_pull,
)

TOKEN = "ghp_unitTestToken0000000000000000000000"


@pytest.fixture(scope="module")
def executorch_pulls() -> list[dict[str, Any]]:
    from conftest import ET_RECORDS, real_data

    path = real_data(ET_RECORDS)
    return github_pulls(load_records(path), "pytorch/executorch")


def test_rest_pulls_parse_with_state_sha_labels_and_files(
    executorch_pulls: list[dict[str, Any]],
) -> None:
    assert len(executorch_pulls) > 800  # over 7,000 from the shared data, 1,098 from the excerpt
    states = set()
    renames = 0
    for raw in executorch_pulls:
        files = [parse_rest_file(_rest_file(f)) for f in raw["_files"]]
        pr = parse_rest_pull(_rest_pull(raw), "pytorch/executorch", files)
        states.add(pr.state)
        assert pr.source == "github" and pr.number == raw["number"]
        assert (pr.sha is not None) == (
            pr.state == "merged"
        )  # an unmerged PR's test merge is no landing
        assert pr.state == ("merged" if raw["merged_at"] else raw["state"])
        assert pr.labels == tuple(label["name"] for label in raw["labels"])
        assert pr.updated_at is not None and pr.created_at is not None
        assert pr.created_at <= pr.updated_at
        assert pr.author_login == raw["user"]["login"]
        assert [f.path for f in pr.files] == [f["filename"] for f in raw["_files"]]
        renames += sum(f.old_path is not None for f in pr.files)
        assert pr.raw is not None and set(pr.raw) >= {"number", "updated_at", "labels", "user"}
        assert "url" not in pr.raw  # only what we read is kept
    assert states == {"merged", "open", "closed"}
    assert renames > 50  # many more from the shared data than from its excerpt


def test_graphql_nodes_parse_like_rest(executorch_pulls: list[dict[str, Any]]) -> None:
    for raw in executorch_pulls[::25]:
        rest = parse_rest_pull(
            _rest_pull(raw),
            "pytorch/executorch",
            [parse_rest_file(_rest_file(f)) for f in raw["_files"]],
        )
        node = decode(_graphql_node(raw), GraphQLPull, "a node", "-")
        graph, complete = parse_graphql_pull(node, "pytorch/executorch")
        assert complete == (len(raw["_files"]) <= 100)
        assert (graph.number, graph.state, graph.sha, graph.labels, graph.draft) == (
            rest.number, rest.state, rest.sha, rest.labels, rest.draft,
        )  # fmt: skip
        assert (graph.created_at, graph.merged_at, graph.updated_at) == (
            rest.created_at,
            rest.merged_at,
            rest.updated_at,
        )
        assert [f.path for f in graph.files] == [f.path for f in rest.files][:100]


def _rest_pull(raw: dict[str, Any]) -> RestPull:
    return decode({k: v for k, v in raw.items() if k != "_files"}, RestPull, "a pull", "-")


def _rest_file(raw: dict[str, Any]) -> RestFile:
    return decode(raw, RestFile, "a file", "-")


def test_a_pull_without_updated_at_is_one_clear_error() -> None:
    with pytest.raises(GitHubError) as info:
        parse_rest_pull(_rest_pull({"number": 3, "title": "x", "state": "open"}), "o/r")
    assert "cannot read" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(GitHubError) as info:
        _rest_pull({"number": "3", "updated_at": "2026-01-01T00:00:00Z"})
    assert "cannot read (Expected `int`, got `str` - at `$.number`)" in str(info.value)


def _client(handler: Any, **kw: Any) -> tuple[GitHubClient, list[float]]:
    sleeps: list[float] = []
    client = GitHubClient(
        "https://ghe.example.com/api/v3", TOKEN, transport=httpx.MockTransport(handler),
        sleep=sleeps.append, backoff=0.5, **kw,
    )  # fmt: skip
    return client, sleeps


def test_token_goes_only_into_the_authorization_header() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(401, json={"message": "Bad credentials"})

    client, _ = _client(handler)
    with pytest.raises(GitHubError) as info:
        client.get("/repos/o/r/pulls", {"state": "all"})
    assert seen[0].headers["Authorization"] == f"Bearer {TOKEN}"
    assert TOKEN not in str(seen[0].url)
    assert TOKEN not in str(info.value) and "401 (Bad credentials)" in str(info.value)
    assert client.graphql_url == "https://ghe.example.com/api/graphql"  # GitHub Enterprise


def test_retries_back_off_then_succeed() -> None:
    answers = [
        httpx.Response(502),
        httpx.Response(200, content=b"[{"),
        httpx.Response(200, json=[1]),
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return answers.pop(0)

    client, sleeps = _client(handler)
    assert client.get("/x").data == [1]
    assert sleeps == [0.5, 1.0] and client.stats.retries == 2


def test_secondary_limit_waits_as_told_and_primary_no_wait_raises() -> None:
    answers = [
        httpx.Response(429, headers={"Retry-After": "3"}, json={"message": "secondary rate limit"}),
        httpx.Response(
            200, json=[], headers={"X-RateLimit-Remaining": "4999", "X-RateLimit-Limit": "5000"}
        ),
    ]
    client, sleeps = _client(lambda request: answers.pop(0))
    assert client.get("/x").data == []
    assert sum(sleeps) == 3 and client.remaining == 4999

    limited = httpx.Response(
        403, json={"message": "API rate limit exceeded"},
        headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "4102444800"},
    )  # fmt: skip
    client, sleeps = _client(lambda request: limited, no_wait=True)
    with pytest.raises(RateLimitError) as info:
        client.get("/x")
    assert "until 2100-01-01 00:00 UTC" in str(info.value) and not sleeps


def test_bad_base_url_is_a_clear_error() -> None:
    with pytest.raises(GitHubError) as info:
        GitHubClient("api.github.com", None)
    assert "--github-api-url" in str(info.value)


def test_fake_data_is_real(ao_jsonl: Path) -> None:
    """The fake serves the records of ../shared/data: titles and shas match the file."""
    records = {r["sha"]: r for r in load_records(ao_jsonl)}
    for pull in github_pulls(records.values(), "pytorch/ao")[::50]:
        assert records[pull["merge_commit_sha"]]["title"] == pull["title"]


def test_secondary_limit_without_retry_after_waits_a_minute() -> None:
    answers = [
        httpx.Response(403, json={"message": "You have exceeded a secondary rate limit."}),
        httpx.Response(200, json=[]),
    ]
    client, sleeps = _client(lambda request: answers.pop(0))
    assert client.get("/x").data == []
    assert sum(sleeps) == 60


def test_a_plain_403_is_not_mistaken_for_a_rate_limit() -> None:
    client, sleeps = _client(
        lambda request: httpx.Response(
            403, json={"message": "Resource not accessible by integration"}
        )
    )
    with pytest.raises(GitHubError) as info:
        client.get("/repos/o/r/pulls")
    assert "403 (Resource not accessible by integration)" in str(info.value) and not sleeps


@pytest.mark.parametrize(
    "env,expected",
    [({"GITHUB_TOKEN": "a", "GH_TOKEN": "b"}, "a"), ({"GITHUB_TOKEN": "", "GH_TOKEN": "b"}, "b"),
     ({"GITHUB_TOKEN": " ", "GH_TOKEN": ""}, None), ({}, None)],
)  # fmt: skip
def test_token_from_github_token_then_gh_token(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str | None
) -> None:
    from prdigest.sources.github import github_token

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert github_token() == expected
