"""Replies to a list of requests: from the cache first; what is missing goes to the server,
`concurrency` at a time, asked again while the reply is not the JSON asked for."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from typing import Any

from ...models import CachedReply
from .cache import ReplyCache, request_key
from .client import ClientSettings, Completion, InvalidReply, LLMClient, parse_json_object
from .plan import Request
from .settings import LLMSettings
from .usage import Usage

JSON_ATTEMPTS = 3  # a reply that is not the JSON asked for is asked for again, this often

ClientFactory = Callable[[LLMSettings], LLMClient]


def open_client(settings: LLMSettings) -> LLMClient:
    assert settings.base_url and settings.model
    return LLMClient(
        ClientSettings(
            base_url=settings.base_url,
            model=settings.model,
            api_key=settings.api_key,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            backoff=settings.backoff,
            concurrency=settings.concurrency,
        )
    )


class Runner:
    """Reads of the cache are skipped with `settings.refresh`; writes always happen
    (a refresh updates). A fully cached run opens no connection at all."""

    def __init__(
        self,
        settings: LLMSettings,
        cache: ReplyCache,
        factory: ClientFactory,
        usage: Usage,
    ) -> None:
        self.settings = settings
        self.cache = cache
        self.factory = factory
        self.usage = usage
        self._client: LLMClient | None = None

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def run(
        self, requests: list[Request], valid: Callable[[dict[str, Any]], bool]
    ) -> list[dict[str, Any]]:
        model = self.settings.model or ""
        server = self.settings.base_url or ""
        keys = [request_key(server, model, r.messages, r.params) for r in requests]
        results: list[dict[str, Any] | None] = [None] * len(requests)
        for index, key in enumerate(keys):
            hit = None if self.settings.refresh else self.cache.get(key)
            if hit is not None:
                results[index] = parse_json_object(hit.content)
                self.usage.cached += 1
                self.usage.saved_tokens += hit.prompt_tokens + hit.completion_tokens
        missing = [i for i, r in enumerate(results) if r is None]
        if missing:
            if self._client is None:
                self._client = self.factory(self.settings)
            pool = ThreadPoolExecutor(max_workers=max(1, self.settings.concurrency))
            try:
                futures: dict[Future[tuple[Completion, dict[str, Any]]], int] = {
                    pool.submit(self._fetch, requests[i], valid): i for i in missing
                }
                for future in as_completed(futures):
                    index = futures[future]
                    completion, data = future.result()
                    self.cache.put(
                        CachedReply(
                            keys[index],
                            model,
                            _dump(data),
                            completion.prompt_tokens,
                            completion.completion_tokens,
                            completion.exact_usage,
                        )
                    )
                    results[index] = data
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
        return [r for r in results if r is not None]

    def _fetch(
        self, request: Request, valid: Callable[[dict[str, Any]], bool]
    ) -> tuple[Completion, dict[str, Any]]:
        assert self._client is not None
        for _attempt in range(JSON_ATTEMPTS):
            completion = self._client.complete(request.messages, request.params)
            self.usage.sent(completion, request.prompt_tokens)
            try:
                data = parse_json_object(completion.content)
            except InvalidReply:
                continue
            if valid(data):
                return completion, data
        raise InvalidReply(
            f"the model answered a {request.purpose} request {JSON_ATTEMPTS} times without the JSON asked for",
            "use a model that follows JSON schemas, or --writer deterministic",
        )


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)
