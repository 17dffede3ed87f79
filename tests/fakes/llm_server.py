"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

It is a real HTTP server (http.server in a thread). Replies are scripted:
`queue` holds one-off replies served first (429, 500, malformed JSON, slow,
context-length errors), then `responder` answers from the request itself.
It counts requests and prompt tokens with the writer's own estimator.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from prdigest.write.llm.tokens import estimate_messages, estimate_tokens


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message (200 only)
    error: str | None = None  # error message for non-200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw_body: str | None = None  # sent verbatim instead of a completion


@dataclass
class Prompt:
    """A request as the responder sees it: areas and PR lines parsed from the data block."""

    body: dict[str, Any]
    system: str
    user: str
    areas: dict[str, list[tuple[int, str]]]  # area → [(number, data line)]

    @property
    def is_takeaway(self) -> bool:
        return "DIGEST_DATA_BEGIN" in self.user


Responder = Callable[[Prompt], str]
_AREA = re.compile(r"^== area: (.+) \(\d+ of \d+ PRs\)$")
_ITEM = re.compile(r"^#(\d+) ")


def parse_prompt(body: dict[str, Any]) -> Prompt:
    messages = body.get("messages", [])
    system = next((m["content"] for m in messages if m.get("role") == "system"), "")
    user = next((m["content"] for m in messages if m.get("role") == "user"), "")
    areas: dict[str, list[tuple[int, str]]] = {}
    current = None
    for line in user.splitlines():
        match = _AREA.match(line)
        if match:
            current = match.group(1)
            areas.setdefault(current, [])
            continue
        item = _ITEM.match(line)
        if item and current is not None:
            areas[current].append((int(item.group(1)), line))
    return Prompt(body, system, user, areas)


def good_responder(prompt: Prompt) -> str:
    """A well-behaved model: themes from the data, figures only from a PR's own claim."""
    if prompt.is_takeaway:
        return json.dumps(
            {"takeaway": "Backend work dominated the week, with steady runtime and CI upkeep."}
        )
    themes = []
    for area, items in prompt.areas.items():
        numbers = [n for n, _ in items]
        for start in range(0, min(len(numbers), 6), 3):
            group = numbers[start : start + 3]
            themes.append(
                {
                    "area": area,
                    "name": f"{area.split(':')[-1].strip()} work",
                    "summary": f"Changes to `{area}` land across {len(group) > 1 and 'several' or 'one'} PRs.",
                    "prs": group,
                }
            )
        for number, line in items:  # quote a stated figure, as a good model would
            claim = re.search(r"claim: .*?(\d+(?:\.\d+)?\s?(?:x|%|s|MB))\b", line)
            if claim:
                themes.append(
                    {
                        "area": area,
                        "name": "Measured impact",
                        "summary": f"The change reports {claim.group(1)} in its own measurements.",
                        "prs": [number],
                    }
                )
                break
    return json.dumps({"themes": themes})


class FakeLLMServer:
    def __init__(
        self, responder: Responder = good_responder, *, report_usage: bool = False
    ) -> None:
        self.responder = responder
        self.report_usage = report_usage
        self.queue: list[Reply] = []
        self.delay = 0.0  # seconds before every scripted (responder) reply
        self.always: Reply | None = None  # when set, the reply to every request left unscripted
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.prompt_tokens: list[int] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.headers.append(dict(self.headers.items()))
                server._serve(self, body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @property
    def count(self) -> int:
        return len(self.requests)

    def __enter__(self) -> FakeLLMServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _serve(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append(body)
            self.prompt_tokens.append(estimate_messages(body.get("messages", [])))
            reply = self.queue.pop(0) if self.queue else self.always
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if reply is None:
                reply = Reply(content=self.responder(parse_prompt(body)), delay=self.delay)
            if reply.delay:
                time.sleep(reply.delay)
            self._send(handler, body, reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)
        finally:
            with self.lock:
                self.in_flight -= 1

    def _send(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], reply: Reply) -> None:
        if reply.raw_body is not None:
            payload = reply.raw_body
        elif reply.status != 200:
            payload = json.dumps(
                {"error": {"message": reply.error or "error", "type": "invalid_request_error"}}
            )
        else:
            data: dict[str, Any] = {
                "id": "fake",
                "object": "chat.completion",
                "model": body.get("model"),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": reply.content},
                    }
                ],
            }
            if self.report_usage:
                data["usage"] = {
                    "prompt_tokens": estimate_messages(body.get("messages", [])),
                    "completion_tokens": estimate_tokens(reply.content or ""),
                }
            payload = json.dumps(data)
        encoded = payload.encode("utf-8")
        handler.send_response(reply.status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(encoded)))
        for key, value in reply.headers.items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(encoded)
