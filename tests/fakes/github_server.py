"""A fake GitHub API on 127.0.0.1 serving the real records of ../shared/data.

Each landed record becomes a pull object in GitHub's REST shape (and GraphQL
node shape): number, title, body, user.login, labels, state, draft,
created_at (the commit's authored_at), merged_at (its committed_at),
updated_at, merge_commit_sha and its changed files. GitHub knows things git
does not, so a few deterministic decorations stand in for them: every 13th
number is a PR closed without merging, every 29th is still open (drafts among
them), and labels come from the top directory of the first file.

The server speaks real HTTP (threaded http.server): `Link` pagination, ETags
with `If-None-Match` → 304, rate-limit headers, bearer tokens (revoked ones get
401, repositories a token cannot see get 404), latency, and injectable faults:
502, timeout, connection reset, truncated body, malformed JSON, primary and
secondary rate limits, 401, 404, GraphQL RATE_LIMITED.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

FAULTS = (
    "502", "timeout", "reset", "truncated", "malformed", "primary", "secondary", "429",
    "401", "404", "graphql_rate_limited",
)  # fmt: skip


def load_records(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        return [json.loads(line) for line in handle if line.strip()]


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def github_pulls(records: Iterable[dict[str, Any]], repo: str) -> list[dict[str, Any]]:
    """Landed-commit records → GitHub pull objects (with a private `_files` list)."""
    by_number: dict[int, dict[str, Any]] = {}
    for rec in records:
        if rec.get("number") is None:
            continue  # a direct push has no PR
        by_number[int(rec["number"])] = rec  # relands: the last landing wins
    pulls = []
    for number, rec in sorted(by_number.items()):
        landed = _parse(rec["committed_at"])
        created = min(_parse(rec.get("authored_at") or rec["committed_at"]), landed)
        updated = landed + timedelta(minutes=number % 37)
        state, merged = "closed", True
        if number % 29 == 0:
            state, merged = "open", False
        elif number % 13 == 0:
            merged = False
        files = rec.get("files") or []
        top = files[0]["path"].split("/")[0] if files else ""
        labels = [{"name": f"module: {top}"}] if top else []
        if rec["title"].lower().startswith("fix"):
            labels.append({"name": "bug"})
        login = (rec.get("author_email") or "ghost@x").split("@")[0].split("+")[-1] or "ghost"
        pulls.append(
            {
                "url": f"https://api.github.com/repos/{repo}/pulls/{number}",
                "number": number,
                "state": state,
                "title": rec["title"],
                "body": rec.get("body") or None,
                "user": {"login": login, "type": "User"},
                "labels": labels,
                "draft": state == "open" and number % 2 == 0,
                "created_at": _iso(created),
                "updated_at": _iso(updated),
                "closed_at": _iso(landed) if state == "closed" else None,
                "merged_at": _iso(landed) if merged else None,
                "merge_commit_sha": rec["sha"],
                "_files": [_rest_file(f) for f in files],
            }
        )
    return pulls


def _rest_file(f: dict[str, Any]) -> dict[str, Any]:
    additions, deletions = f.get("additions") or 0, f.get("deletions") or 0
    out = {
        "filename": f["path"],
        "status": "renamed" if f.get("old_path") else "modified",
        "additions": additions,
        "deletions": deletions,
        "changes": additions + deletions,
    }
    if f.get("old_path"):
        out["previous_filename"] = f["old_path"]
    return out


@dataclass
class Fault:
    kind: str
    path: str = ""  # fires on requests whose path contains this
    times: int = 1
    after: int = 0  # let this many matching requests through first
    retry_after: int = 1
    reset_in: int = 2


@dataclass
class Logged:
    method: str
    path: str
    query: dict[str, str]
    status: int
    body: str = ""


@dataclass
class FakeGitHub:
    repos: dict[str, list[dict[str, Any]]]
    tokens: set[str] = field(default_factory=set)  # accepted tokens (empty: any)
    revoked: set[str] = field(default_factory=set)
    hidden: dict[str, set[str]] = field(default_factory=dict)  # token → repos it cannot see
    latency: float = 0.0
    timeout_delay: float = 3.0
    rate_limit: int = 100_000
    reset_in: float = 3600.0  # seconds until the rate-limit window resets (then a fresh one)
    enforce_rate_limit: bool = False  # answer 403 once a token has used up its window
    faults: list[Fault] = field(default_factory=list)
    log: list[Logged] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._used: dict[str, int] = {}
        self._reset = int(time.time() + self.reset_in)
        self._server: ThreadingHTTPServer | None = None

    # -- lifecycle ----------------------------------------------------------------
    def start(self) -> FakeGitHub:
        fake = self

        class Handler(_Handler):
            server_fake = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # -- test controls ------------------------------------------------------------
    def inject(
        self, kind: str, *, path: str = "", times: int = 1, after: int = 0, **kw: int
    ) -> None:
        assert kind in FAULTS, kind
        with self._lock:
            self.faults.append(Fault(kind, path, times, after, **kw))

    def touch(self, repo: str, number: int, **changes: Any) -> dict[str, Any]:
        """Update a PR the way activity does: it moves to the top of the listing."""
        with self._lock:
            pulls = self.repos[repo]
            newest = max(_parse(p["updated_at"]) for p in pulls)
            pull = next(p for p in pulls if p["number"] == number)
            pull.update(changes)
            pull["updated_at"] = _iso(newest + timedelta(minutes=1))
            return pull

    def requests(self, path: str = "", method: str | None = None) -> list[Logged]:
        with self._lock:
            return [
                r for r in self.log if path in r.path and (method is None or r.method == method)
            ]

    def clear_log(self) -> None:
        with self._lock:
            self.log.clear()

    # -- used by the handler --------------------------------------------------------
    def take_fault(self, path: str) -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if fault.path in path and fault.times > 0:
                    if fault.after > 0:
                        fault.after -= 1
                        continue
                    fault.times -= 1
                    return fault
        return None

    def over_rate_limit(self, who: str) -> bool:
        """With `enforce_rate_limit`: has this token used up the current window?"""
        if not self.enforce_rate_limit:
            return False
        with self._lock:
            self._roll_window()
            return self._used.get(who, 0) >= self.rate_limit

    def _roll_window(self) -> None:
        now = time.time()
        if now >= self._reset:  # the window is over: every token starts afresh
            self._used.clear()
            self._reset = int(now + self.reset_in)

    def rate_headers(self, who: str, resource: str, count: bool) -> dict[str, str]:
        with self._lock:
            self._roll_window()
            if count:
                self._used[who] = self._used.get(who, 0) + 1
            used = self._used.get(who, 0)
        return {
            "X-RateLimit-Limit": str(self.rate_limit),
            "X-RateLimit-Remaining": str(max(0, self.rate_limit - used)),
            "X-RateLimit-Reset": str(self._reset),
            "X-RateLimit-Used": str(used),
            "X-RateLimit-Resource": resource,
        }

    def sorted_pulls(self, repo: str) -> list[dict[str, Any]]:
        with self._lock:
            return sorted(
                self.repos[repo], key=lambda p: (p["updated_at"], p["number"]), reverse=True
            )


class _Handler(BaseHTTPRequestHandler):
    server_fake: FakeGitHub
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms stalls

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    # -- dispatch -------------------------------------------------------------------
    def _serve(self, method: str) -> None:
        fake = self.server_fake
        split = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(split.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if fake.latency:
            time.sleep(fake.latency)
        token = self._token()
        resource = "graphql" if split.path == "/graphql" else "core"
        self._entry: Logged | None = Logged(
            method, split.path, query, 0, body.decode("utf-8", "replace")
        )
        fault = fake.take_fault(split.path)
        status = self._fault(fault, token, resource) if fault else 0
        if not status and fake.over_rate_limit(token):  # remaining 0 until the window's reset
            message = json.dumps({"message": "API rate limit exceeded for user ID 1."}).encode()
            status = self._raw(403, message, fake.rate_headers(token, resource, False))
        if not status:
            status = self._route(method, split.path, query, body, token, resource)
        self._log(status)

    def _log(self, status: int) -> None:
        """Log before answering, so a client never sees an answer the log lacks."""
        entry, self._entry = self._entry, None
        if entry is not None:
            entry.status = status
            with self.server_fake._lock:
                self.server_fake.log.append(entry)

    def _token(self) -> str:
        auth = self.headers.get("Authorization", "")
        return auth.split(" ", 1)[1] if " " in auth else ""

    def _route(
        self, method: str, path: str, query: dict[str, str], body: bytes, token: str, resource: str
    ) -> int:
        fake = self.server_fake
        if token and (token in fake.revoked or (fake.tokens and token not in fake.tokens)):
            return self._json(401, {"message": "Bad credentials"}, token, resource)
        if path == "/graphql" and method == "POST":
            if not token:
                return self._json(
                    401,
                    {"message": "This endpoint requires you to be authenticated."},
                    token,
                    resource,
                )
            return self._graphql(json.loads(body or b"{}"), token)
        parts = path.strip("/").split("/")
        if method != "GET" or len(parts) < 4 or parts[0] != "repos" or parts[3] != "pulls":
            return self._json(404, {"message": "Not Found"}, token, resource)
        repo = f"{parts[1]}/{parts[2]}"
        if repo not in fake.repos or repo in fake.hidden.get(token, set()):
            return self._json(404, {"message": "Not Found"}, token, resource)
        per_page = min(int(query.get("per_page", 30)), 100)
        page = int(query.get("page", 1))
        if len(parts) == 4:
            items = [{k: v for k, v in p.items() if k != "_files"} for p in fake.sorted_pulls(repo)]
        elif len(parts) == 6 and parts[5] == "files":
            pull = next((p for p in fake.repos[repo] if str(p["number"]) == parts[4]), None)
            if pull is None:
                return self._json(404, {"message": "Not Found"}, token, resource)
            items = pull["_files"]
        else:
            return self._json(404, {"message": "Not Found"}, token, resource)
        chunk = items[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(items) // per_page))
        links = []
        for rel, number in (("next", page + 1), ("last", last), ("prev", page - 1), ("first", 1)):
            if (rel in ("next", "last") and page < last) or (rel in ("prev", "first") and page > 1):
                link_query = urlencode({**query, "page": number})
                links.append(f'<{fake.url}{path}?{link_query}>; rel="{rel}"')
        headers = {"Link": ", ".join(links)} if links else {}
        return self._json(200, chunk, token, resource, headers, etag=True)

    def _graphql(self, request: dict[str, Any], token: str) -> int:
        fake = self.server_fake
        v = request.get("variables") or {}
        repo = f"{v.get('owner')}/{v.get('name')}"
        if repo not in fake.repos or repo in fake.hidden.get(token, set()):
            answer: dict[str, Any] = {
                "data": {"repository": None},
                "errors": [{"type": "NOT_FOUND", "path": ["repository"],
                            "message": f"Could not resolve to a Repository with the name '{repo}'."}],
            }  # fmt: skip
            return self._json(200, answer, token, "graphql")
        if "pullRequest(number:" in request.get("query", ""):
            return self._graphql_files(request, repo, token)
        pulls = fake.sorted_pulls(repo)
        start = 0
        if v.get("after"):
            key = base64.b64decode(v["after"]).decode().split("|")
            start = next(
                (
                    i
                    for i, p in enumerate(pulls)
                    if (p["updated_at"], p["number"]) < (key[0], int(key[1]))
                ),
                len(pulls),
            )
        first = min(int(v.get("first", 100)), 100)
        chunk = pulls[start : start + first]
        end = _cursor(chunk[-1]) if chunk else None
        answer = {
            "data": {
                "rateLimit": {"cost": 1, "remaining": 4999, "resetAt": _iso(datetime.now(UTC))},
                "repository": {
                    "pullRequests": {
                        "totalCount": len(pulls),
                        "pageInfo": {"hasNextPage": start + first < len(pulls), "endCursor": end},
                        "nodes": [_graphql_node(p) for p in chunk],
                    }
                },
            }
        }
        return self._json(200, answer, token, "graphql")

    def _graphql_files(self, request: dict[str, Any], repo: str, token: str) -> int:
        """Our follow-up query: `pN: pullRequest(number: X) { files(first: 100, after: $cN) … }`."""
        v = request.get("variables") or {}
        by_number = {p["number"]: p for p in self.server_fake.repos[repo]}
        found = {}
        for alias, number, var in re.findall(
            r"(\w+): pullRequest\(number: (\d+)\) \{ files\(first: (?:100), after: \$(\w+)\)",
            request["query"],
        ):
            pull = by_number.get(int(number))
            offset = int(base64.b64decode(v[var]).decode().split(":")[1]) if v.get(var) else 0
            found[alias] = {"files": _files_connection(pull["_files"], offset)} if pull else None
        return self._json(200, {"data": {"repository": found}}, token, "graphql")

    # -- faults ---------------------------------------------------------------------
    def _fault(self, fault: Fault, token: str, resource: str) -> int:
        fake = self.server_fake
        kind = fault.kind
        if kind == "502":
            return self._raw(502, b"<html>502 Bad Gateway</html>", {"Content-Type": "text/html"})
        if kind == "timeout":
            time.sleep(fake.timeout_delay)  # longer than the client's timeout
            self.close_connection = True
            return 598
        if kind == "reset":
            self.close_connection = True
            return 599
        if kind == "truncated":
            return self._route_truncated(token, resource)
        if kind == "malformed":
            return self._raw(
                200, b'[{"number": 1, "title": "tr', {"Content-Type": "application/json"}
            )
        if kind == "primary":
            headers = fake.rate_headers(token, resource, False)
            headers.update(
                {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": str(int(time.time()) + fault.reset_in),
                }
            )
            message = {"message": "API rate limit exceeded for user ID 1."}
            return self._raw(403, json.dumps(message).encode(), headers)
        if kind in ("secondary", "429"):
            headers = fake.rate_headers(token, resource, False)
            headers["Retry-After"] = str(fault.retry_after)
            message = {
                "message": "You have exceeded a secondary rate limit. Please wait a few minutes."
            }
            return self._raw(
                403 if kind == "secondary" else 429, json.dumps(message).encode(), headers
            )
        if kind == "401":
            return self._json(401, {"message": "Bad credentials"}, token, resource)
        if kind == "404":
            return self._json(404, {"message": "Not Found"}, token, resource)
        if kind == "graphql_rate_limited":
            headers = fake.rate_headers(token, resource, False)
            headers.update(
                {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": str(int(time.time()) + fault.reset_in),
                }
            )
            answer = {"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]}
            return self._raw(200, json.dumps(answer).encode(), headers)
        raise AssertionError(kind)

    def _route_truncated(self, token: str, resource: str) -> int:
        self._log(200)
        payload = json.dumps([{"number": n, "padding": "x" * 200} for n in range(20)]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload[: len(payload) // 2])
        self.wfile.flush()
        self.close_connection = True
        return 200

    # -- writing --------------------------------------------------------------------
    def _json(
        self,
        status: int,
        data: Any,
        token: str,
        resource: str,
        headers: dict[str, str] | None = None,
        etag: bool = False,
    ) -> int:
        payload = json.dumps(data).encode()
        extra = dict(headers or {})
        if etag and status == 200:
            tag = f'W/"{hashlib.sha1(payload).hexdigest()}"'
            extra["ETag"] = tag
            if self.headers.get("If-None-Match") == tag:
                extra.update(self.server_fake.rate_headers(token, resource, False))
                return self._raw(304, b"", extra)
        extra.update(self.server_fake.rate_headers(token, resource, status == 200))
        extra["Content-Type"] = "application/json; charset=utf-8"
        return self._raw(status, payload, extra)

    def _raw(self, status: int, payload: bytes, headers: dict[str, str]) -> int:
        self._log(status)
        try:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            if status != 304:
                self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if status != 304:
                self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        return status


def _cursor(pull: dict[str, Any]) -> str:
    return base64.b64encode(f"{pull['updated_at']}|{pull['number']}".encode()).decode()


def _graphql_node(p: dict[str, Any]) -> dict[str, Any]:
    files = p["_files"]
    merged = p["merged_at"] is not None
    return {
        "number": p["number"],
        "title": p["title"],
        "body": p["body"] or "",
        "state": "MERGED" if merged else p["state"].upper(),
        "isDraft": p["draft"],
        "createdAt": p["created_at"],
        "updatedAt": p["updated_at"],
        "mergedAt": p["merged_at"],
        "author": {"login": p["user"]["login"]},
        "mergeCommit": {"oid": p["merge_commit_sha"]} if merged else None,
        "labels": {"nodes": [{"name": label["name"]} for label in p["labels"]]},
        "files": _files_connection(files, 0),
    }


def _files_connection(files: list[dict[str, Any]], offset: int) -> dict[str, Any]:
    chunk = files[offset : offset + 100]
    more = offset + 100 < len(files)
    return {
        "pageInfo": {
            "hasNextPage": more,
            "endCursor": base64.b64encode(f"files:{offset + 100}".encode()).decode()
            if more
            else None,
        },
        "nodes": [
            {"path": f["filename"], "additions": f["additions"], "deletions": f["deletions"]}
            for f in chunk
        ],
    }
