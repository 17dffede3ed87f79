"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

It is a real HTTP server (http.server in a thread). Replies are scripted:
`rules` answer first (a refusal a real server gives for some requests: the
llama-cpp-python 500 for `json_schema`, a context limit), then `queue` holds
one-off replies (429, 500, malformed JSON, slow, cut off), then `responder`
answers from the request itself. A request with `stream: true` is answered
with server-sent events, a few characters per chunk, the way llama-server
streams (so a client can hang up on a loop); `GET` and `POST` routes serve
what a server says about itself (`/props`, `/v1/models`, `/api/show`).
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

# Verbatim bodies of real servers (docs/llm.md, "Servers tried"; /work/snap/llm-findings.md).
LLAMA_CPP_PYTHON_JSON_SCHEMA_500 = (
    "{\"error\":{\"message\":\"1 validation error:\\n  {'type': 'literal_error', 'loc': "
    "('body', 'response_format', 'type'), 'msg': \\\"Input should be 'text' or 'json_object'\\\", "
    "'input': 'json_schema', 'ctx': {'expected': \\\"'text' or 'json_object'\\\"}}\\n\\n  File "
    '\\"/work/snap/lcp-venv/lib/python3.11/site-packages/llama_cpp/server/app.py\\", line 376, '
    'in create_chat_completion\\n    POST /v1/chat/completions","type":"internal_server_error",'
    '"param":null,"code":null}}'
)
CONTEXT_REFUSALS = {
    # llama-server: the prompt alone over the context (n_ctx per slot)
    "llama-server": (
        '{{"error":{{"code":400,"message":"request ({asked} tokens) exceeds the available context '
        'size ({n_ctx} tokens), try increasing it","type":"exceed_context_size_error",'
        '"n_prompt_tokens":{asked},"n_ctx":{n_ctx}}}}}'
    ),
    # llama-cpp-python (and OpenAI's wording): prompt plus max_tokens
    "llama-cpp-python": (
        '{{"error":{{"message":"This model\'s maximum context length is {n_ctx} tokens. However, '
        "you requested {asked} tokens ({prompt} in the messages, {completion} in the completion). "
        'Please reduce the length of the messages or completion.","type":"invalid_request_error",'
        '"param":"messages","code":"context_length_exceeded"}}}}'
    ),
    "vllm": (
        '{{"error":{{"message":"This model\'s maximum context length is {n_ctx} tokens. However, '
        'your request has {asked} input tokens. Please reduce the length of the input messages.",'
        '"type":"BadRequestError","param":null,"code":400}}}}'
    ),
    "openai": (
        '{{"error":{{"message":"This model\'s maximum context length is {n_ctx} tokens. However, '
        'your messages resulted in {asked} tokens. Please reduce the length of the messages.",'
        '"type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}}}'
    ),
}


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message (200 only)
    error: str | None = None  # error message for non-200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw_body: str | None = None  # sent verbatim instead of a completion
    finish_reason: str = "stop"
    chunk_delay: float = 0.0  # seconds between streamed chunks


@dataclass
class Prompt:
    """A brief request as the responder sees it: the PR's title, description and the
    deterministic draft, parsed from the user message."""

    body: dict[str, Any]
    system: str
    user: str
    title: str
    description: str
    draft_what: str
    draft_why: str

    @property
    def is_takeaway(self) -> bool:
        """The request for Key Takeaways' opening sentence (its data: the leading briefs)."""
        return "DIGEST_DATA_BEGIN" in self.user

    @property
    def leads(self) -> list[str]:
        """The leading briefs a takeaway request shows, one a line."""
        block = self.user.split("DIGEST_DATA_BEGIN\n", 1)[-1].split("DIGEST_DATA_END", 1)[0]
        return [line[2:] for line in block.splitlines() if line.startswith("- ")]


Responder = Callable[[Prompt], str]
Rule = Callable[[dict[str, Any]], "Reply | None"]


def parse_prompt(body: dict[str, Any]) -> Prompt:
    messages = body.get("messages", [])
    system = next((m["content"] for m in messages if m.get("role") == "system"), "")
    user = next((m["content"] for m in messages if m.get("role") == "user"), "")
    title = re.search(r"^Title: (.*)$", user, re.M)
    description = re.search(
        r"^Description:\n(.*?)\n(?:Diff excerpt:|PR_DATA_END)", user, re.S | re.M
    )
    what = re.search(r"^what: (.*)$", user, re.M)
    why = re.search(r"^why: (.*)$", user, re.M)
    draft_why = why.group(1) if why else ""
    return Prompt(
        body,
        system,
        user,
        title.group(1) if title else "",
        description.group(1) if description else "",
        what.group(1) if what else "",
        "" if draft_why == "(none stated)" else draft_why,
    )


def good_responder(prompt: Prompt) -> str:
    """A careful model: the draft's sentences, nothing added (a test that must tell the
    model's words from prdigest's scripts its own responder); as the takeaway, the first
    leading change's sentence."""
    if prompt.is_takeaway:
        first = prompt.leads[0].split(". ")[0].rstrip(".") if prompt.leads else ""
        return json.dumps({"sentence": first})
    what = prompt.draft_what.rstrip(".")
    return json.dumps({"what": f"{what[:1].upper()}{what[1:]}", "why": prompt.draft_why})


class Overlap:
    """A responder that counts the answers being written at once (`most`): counted before
    each is sent, so a client's next request never overlaps its finished one (the
    server's `max_in_flight` counts a handler until it returns, a moment longer). With
    `empty_when_busy`, an answer written while another is, is empty, as
    llama-cpp-python's server streams it."""

    def __init__(
        self,
        responder: Responder | None = None,
        seconds: float = 0.05,
        empty_when_busy: bool = False,
    ) -> None:
        self.responder = responder or good_responder
        self.seconds = seconds
        self.empty_when_busy = empty_when_busy
        self.lock = threading.Lock()
        self.now = self.most = 0

    def __call__(self, prompt: Prompt) -> str:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
            busy = self.now > 1
        time.sleep(self.seconds)
        with self.lock:
            self.now -= 1
        return "" if busy and self.empty_when_busy else self.responder(prompt)


def answer(what: str, why: str = "") -> str:
    return json.dumps({"what": what, "why": why})


def context_limit(n_ctx: int, style: str = "llama-server") -> Rule:
    """Refuse, in `style`'s words, a request over `n_ctx` tokens (llama-cpp-python,
    OpenAI and vLLM count the answer room too)."""

    def rule(body: dict[str, Any]) -> Reply | None:
        prompt = estimate_messages(body.get("messages", []))
        completion = int(body.get("max_tokens") or 0)
        asked = prompt if style == "llama-server" else prompt + completion
        if asked <= n_ctx:
            return None
        text = CONTEXT_REFUSALS[style].format(
            n_ctx=n_ctx, asked=asked, prompt=prompt, completion=completion
        )
        return Reply(status=400, raw_body=text)

    return rule


def refuse_format(kind: str, reply: Reply) -> Rule:
    """Answer every request whose response_format is `kind` ("json_schema",
    "json_object+schema", "json_object") with `reply`."""

    def rule(body: dict[str, Any]) -> Reply | None:
        return reply if response_format_of(body) == kind else None

    return rule


def response_format_of(body: dict[str, Any]) -> str:
    fmt = body.get("response_format")
    if not isinstance(fmt, dict):
        return "plain"
    if fmt.get("type") == "json_object" and "schema" in fmt:
        return "json_object+schema"
    return str(fmt.get("type"))


class FakeLLMServer:
    def __init__(
        self, responder: Responder = good_responder, *, report_usage: bool = False
    ) -> None:
        self.responder = responder
        self.report_usage = report_usage
        self.rules: list[Rule] = []
        self.queue: list[Reply] = []
        self.delay = 0.0  # seconds before every scripted (responder) reply
        self.always: Reply | None = None  # when set, the reply to every request left unscripted
        self.routes: dict[str, tuple[int, Any]] = {}  # "GET /props" → (status, JSON)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.prompt_tokens: list[int] = []
        self.gets: list[str] = []
        self.hung_up = 0  # streams the client closed before the end
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                server.gets.append(self.path)
                server._route(self, f"GET {self.path}")

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    server.gets.append(self.path)
                    server._route(self, f"POST {self.path}")
                    return
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

    def _route(self, handler: BaseHTTPRequestHandler, key: str) -> None:
        status, data = self.routes.get(key, (404, {"error": "not found"}))
        _send_json(handler, status, json.dumps(data), {})

    def _serve(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append(body)
            self.prompt_tokens.append(estimate_messages(body.get("messages", [])))
            reply = next((r for rule in self.rules if (r := rule(body)) is not None), None)
            if reply is None:
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
            with self.lock:
                self.hung_up += 1  # the client gave up (a timeout, a loop cut short)
        finally:
            with self.lock:
                self.in_flight -= 1

    def _send(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], reply: Reply) -> None:
        if reply.raw_body is not None:
            _send_json(handler, reply.status, reply.raw_body, reply.headers)
            return
        if reply.status != 200:
            error = {"error": {"message": reply.error or "error", "type": "invalid_request_error"}}
            _send_json(handler, reply.status, json.dumps(error), reply.headers)
            return
        content = reply.content or ""
        usage = {
            "prompt_tokens": estimate_messages(body.get("messages", [])),
            "completion_tokens": estimate_tokens(content),
        }
        if body.get("stream"):
            self._stream(handler, body, reply, content, usage)
            return
        if reply.chunk_delay:  # the same slow generation, answered at its end
            time.sleep(reply.chunk_delay * (len(content) // 8 + 1))
        data: dict[str, Any] = {
            "id": "fake",
            "object": "chat.completion",
            "model": body.get("model"),
            "choices": [
                {
                    "index": 0,
                    "finish_reason": reply.finish_reason,
                    "message": {"role": "assistant", "content": content},
                }
            ],
        }
        if self.report_usage:
            data["usage"] = usage
        _send_json(handler, 200, json.dumps(data), reply.headers)

    def _stream(
        self,
        handler: BaseHTTPRequestHandler,
        body: dict[str, Any],
        reply: Reply,
        content: str,
        usage: dict[str, int],
    ) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        for key, value in reply.headers.items():
            handler.send_header(key, value)
        handler.end_headers()

        def event(data: dict[str, Any]) -> None:
            handler.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
            handler.wfile.flush()

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return {"object": "chat.completion.chunk", "choices": [choice]}

        event(chunk({"role": "assistant", "content": None}))
        for start in range(0, len(content), 8):
            if reply.chunk_delay:
                time.sleep(reply.chunk_delay)
            event(chunk({"content": content[start : start + 8]}))
        event(chunk({}, reply.finish_reason))
        if self.report_usage and (body.get("stream_options") or {}).get("include_usage"):
            event({"object": "chat.completion.chunk", "choices": [], "usage": usage})
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()


def _send_json(
    handler: BaseHTTPRequestHandler, status: int, payload: str, headers: dict[str, str]
) -> None:
    encoded = payload.encode("utf-8")
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(encoded)))
    for key, value in headers.items():
        handler.send_header(key, value)
    handler.end_headers()
    handler.wfile.write(encoded)
