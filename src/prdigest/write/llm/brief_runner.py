"""The model's briefs of a list of PRs: those stored for their content, model and prompt
version read back; the rest asked, one request per PR, `concurrency` at a time (never
more than the server's slots), verified against that PR alone and stored as they come.

A request is bounded: its timeout follows the server's measured speed (or
`--llm-timeout`), and it is retried by the one retry policy. What fails costs only its
PR, which keeps its deterministic words (not stored: the next run asks again). A server
that cannot be reached, or that fails `GIVE_UP_AFTER` requests in a row, is asked
nothing more: the caller writes the deterministic digest and says why. An answer the
model would give again (not the JSON asked for twice, cut off, looping) is stored with
the deterministic words and the reason, so it is not asked again either.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...analyze.brief_types import Brief
from ...errors import LLMError
from ...models import BriefText, PullRequest
from ...reporting import Reporter
from .brief_prompt import BriefPrompts, Guide
from .brief_words import verified_text
from .chat_client import ContextLengthError, InvalidReply, LLMClient, LLMUnreachable, RequestFailed
from .pr_input import PRInput, pr_input, smaller
from .replies import parse_json_object
from .usage import Usage

GIVE_UP_AFTER = 3  # requests failed in a row, none answered between: the server is down
WARMER = 0.5  # an answer that is not the JSON asked for is asked again this much warmer


class BriefTexts(Protocol):
    """Where briefs' words are kept by content key and writer (the store implements it)."""

    def brief_texts(self, keys: Sequence[str], writer: str) -> dict[str, BriefText]: ...

    def save_brief_texts(self, texts: Mapping[str, BriefText]) -> None: ...


@dataclass(frozen=True)
class Wanted:
    """A PR whose brief the model is asked for, and its deterministic brief: the model's
    guide, and its words where the model's fail."""

    pr: PullRequest
    key: str  # its content key (`analyze.pr_reading.content_key`)
    brief: Brief
    fallback: BriefText  # the deterministic words, as `analyze.brief_text` makes them

    @property
    def number(self) -> int:
        return self.brief.number


@dataclass(frozen=True)
class _Asked:
    wanted: Wanted
    shown: PRInput  # what the request shows of it


@dataclass
class BriefRun:
    """What the model's briefs came to, by PR number."""

    writer: str
    texts: dict[int, BriefText] = field(default_factory=dict)  # stored or made now
    stored: int = 0  # read back, no request
    asked: int = 0  # answered now (and stored)
    failed: dict[int, str] = field(default_factory=dict)  # requests that got no answer
    gave_up: str = ""  # why the rest was not asked: the server is unreachable or failing
    not_asked: int = 0
    opening: str = ""  # Key Takeaways' opening sentence by the model, verified, or ""
    opening_why_not: str = ""  # why there is none


ClientFactory = Callable[[], LLMClient]


@dataclass(frozen=True)
class Server:
    """How to reach the server, opened only when a brief is missing: `client()` gives the
    one client (opening it, and learning the server, the first time); `data_tokens()` the
    room for a PR's description and diff; `concurrency()` the requests in flight."""

    client: ClientFactory
    data_tokens: Callable[[], int]
    concurrency: Callable[[], int]


def run_briefs(
    wanted: Sequence[Wanted],
    prompts: BriefPrompts,
    model: str,
    kept: BriefTexts,
    server: Server,
    usage: Usage,
    reporter: Reporter,
    *,
    refresh: bool = False,
) -> BriefRun:
    """The model's words for each wanted PR (its brief's stored words first)."""
    writer = prompts.writer(model)
    run = BriefRun(writer)
    unique = list({w.key: w for w in wanted}.values())
    stored = {} if refresh else kept.brief_texts([w.key for w in unique], writer)
    missing = [w for w in unique if w.key not in stored]
    run.stored = len(unique) - len(missing)
    usage.cached += run.stored
    by_key = dict(stored)
    if missing:
        budget = server.data_tokens()
        asked = [_Asked(w, pr_input(w.pr, w.key, budget)) for w in missing]
        _ask_all(asked, prompts, writer, kept, server, usage, reporter, run, by_key)
    for item in wanted:
        text = by_key.get(item.key)
        if text is not None:
            run.texts[item.number] = text
    return run


def _ask_all(
    missing: list[_Asked],
    prompts: BriefPrompts,
    writer: str,
    kept: BriefTexts,
    server: Server,
    usage: Usage,
    reporter: Reporter,
    run: BriefRun,
    by_key: dict[str, BriefText],
) -> None:
    """Ask for every missing brief, storing each as it comes; stop at a dead server."""
    stop = threading.Event()
    in_a_row = 0
    done = 0
    width = max(1, server.concurrency())
    pool = ThreadPoolExecutor(max_workers=width)
    try:
        futures: dict[Future[BriefText], _Asked] = {}
        queue = list(missing)
        while queue or futures:
            while queue and len(futures) < width and not stop.is_set():
                item = queue.pop(0)
                task = pool.submit(_ask, item, prompts, writer, server.client, usage, stop)
                futures[task] = item
            if not futures:
                break
            finished, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in finished:
                item = futures.pop(future)
                done += 1
                reporter.progress(done, len(missing), "LLM briefs")
                try:
                    text = future.result()
                except LLMUnreachable as exc:
                    stop.set()
                    run.gave_up = str(exc)
                    run.failed[item.wanted.number] = "unreachable"
                    continue
                except (RequestFailed, ContextLengthError) as exc:
                    reason = getattr(exc, "reason", "refused as too long")
                    run.failed[item.wanted.number] = reason
                    usage.lost(f"the brief of #{item.wanted.number}", reason)
                    in_a_row += 1
                    if in_a_row >= GIVE_UP_AFTER and not stop.is_set():
                        stop.set()
                        run.gave_up = f"{in_a_row} requests in a row failed ({reason})"
                    continue
                in_a_row = 0
                run.asked += 1
                by_key[item.wanted.key] = text
                kept.save_brief_texts({item.wanted.key: text})
        run.not_asked = len(queue)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ask(
    item: _Asked,
    prompts: BriefPrompts,
    writer: str,
    client: ClientFactory,
    usage: Usage,
    stop: threading.Event,
) -> BriefText:
    """One PR's brief from the model, verified; the deterministic words where the model
    gave none it would not give again."""
    if stop.is_set():
        raise RequestFailed("not sent: the server failed before", "", "not sent")
    guide = Guide.of(item.wanted.brief)
    pr = item.shown
    try:
        answer, problem = _answer_for(prompts.messages(pr, guide), prompts.params(), client, usage)
    except ContextLengthError:
        pr = smaller(pr)  # a server of a small context: the PR's data halved, once
        answer, problem = _answer_for(prompts.messages(pr, guide), prompts.params(), client, usage)
    return verified_text(answer, item.shown, item.wanted.fallback, writer, problem)


def _answer_for(
    messages: list[dict[str, str]], params: dict[str, Any], client: ClientFactory, usage: Usage
) -> tuple[Mapping[str, object] | None, str]:
    """The model's answer, asked once more (warmer) when it is not the JSON asked for;
    None and why when there is none it would not give again."""
    problem = "no usable answer"
    for attempt in range(2):
        completion = client().complete(messages, params)
        usage.sent(completion)
        if completion.finish_reason in ("length", "loop"):
            return None, "cut off" if completion.finish_reason == "length" else "looped"
        try:
            return _answer(parse_json_object(completion.content)), ""
        except (InvalidReply, LLMError):
            problem = "not the JSON asked for"
            if attempt == 0:
                params = {**params, "temperature": float(params.get("temperature") or 0) + WARMER}
    return None, problem


def _answer(data: Mapping[str, Any]) -> Mapping[str, object]:
    if not isinstance(data.get("what"), str) or not isinstance(data.get("why", ""), str):
        raise LLMError("the answer has no `what` sentence", "")
    return data
