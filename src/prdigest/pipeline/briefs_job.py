"""`briefs`: the model's brief of every PR of a window, made ahead of the digest (after a
sync, or by a worker), so that its digest sends no request. Briefs already stored for a
PR's content, model and prompt version are read back, not asked again."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..config import Config
from ..errors import ConfigError, LLMError, SourceError
from ..reporting import Reporter, SilentReporter
from ..store import Store
from ..timeutil import Window
from .digest_job import build_digest_context, check_window, default_window, stored_span


@dataclass(frozen=True)
class BriefsResult:
    repo: str
    window: Window
    writer: str  # model:<name>@<prompt version>
    prs: int  # PRs of the window the model was to write briefs of
    stored: int  # read back: no request
    asked: int  # answered now
    by_model: int  # briefs whose `what` is the model's (verified)
    replaced: int  # sentences verification replaced with prdigest's
    failed: dict[int, str]  # requests that got no answer: asked again next time
    gave_up: str
    notes: list[str]
    seconds: float  # the whole command's: reading the window, analysing it, the briefs

    def summary(self) -> str:
        text = (
            f"briefs of {self.repo} for {self.window.label} by {self.writer}: {self.prs} PRs,"
            f" {self.stored} stored before, {self.asked} written now; {self.by_model} by the"
            f" model, {self.replaced} sentences replaced by prdigest's"
        )
        if self.failed:
            text += f"; {len(self.failed)} failed (asked again next time)"
        return "; ".join([text, *self.notes])


def make_briefs(
    store: Store,
    repo: str,
    window: Window | None,
    config: Config,
    *,
    llm_options: dict[str, Any] | None = None,
    shown_only: bool = False,
    reporter: Reporter | None = None,
) -> BriefsResult:
    """The model's briefs of the window's PRs (`shown_only`: those its digest shows),
    stored; an error when the server was asked nothing it answered."""
    from ..store.llm_cache import StoredReplies
    from ..write import llm
    from ..write.deterministic import deterministic_digest

    started = time.monotonic()
    reporter = reporter or SilentReporter()
    settings = llm.settings_for("llm", config, llm_options or {})
    if settings is None:  # `settings_for("llm", …)` raises instead
        raise ConfigError("no LLM configured", "give --llm-base-url and --llm-model")
    span = stored_span(store, repo)
    window = window or default_window(store, repo, span)
    check_window(store, repo, window, "merged", span)
    loaded = store.window(repo, window, "merged", span)
    context = build_digest_context(store, repo, window, config, loaded=loaded)
    numbers = (
        llm.shown_numbers(deterministic_digest(context)) if shown_only else sorted(context.briefs)
    )
    usage = llm.Usage()
    run, notes = llm.model_briefs(
        context, loaded.merged, numbers, store, StoredReplies(store), settings, reporter, usage
    )
    usage.seconds = time.monotonic() - started
    texts = run.texts.values()
    if run.gave_up and not run.stored and not any(t.what_from == "model" for t in texts):
        raise SourceError(
            f"no brief was written: {run.gave_up}",
            "check the LLM server (--llm-base-url) and run the command again",
        )
    replaced = sum(len(t.replaced.split("; ")) for t in texts if t.replaced)
    if settings.strict and (run.failed or replaced):
        raise LLMError(
            f"{len(run.failed)} requests failed and {replaced} sentences failed verification"
            " (what was written is stored)",
            "run without --strict to accept prdigest's words for them",
        )
    return BriefsResult(
        repo=repo,
        window=window,
        writer=run.writer,
        prs=len(numbers),
        stored=run.stored,
        asked=run.asked,
        by_model=sum(1 for t in texts if t.what_from == "model"),
        replaced=replaced,
        failed=dict(run.failed),
        gave_up=run.gave_up,
        notes=[*notes, usage.summary(settings.model or "")],
        seconds=time.monotonic() - started,
    )
