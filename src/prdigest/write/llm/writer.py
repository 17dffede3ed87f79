"""The LLM writer: the model writes briefs, not digests.

1. The PRs whose words the digest shows are those the deterministic digest of the same
   context cites (its plan decides; the model never does).
2. Their model briefs are read back from the store (by content, model and prompt
   version), and only the missing ones are asked for, one request per PR, each verified
   against that PR alone (`brief_runner`, `brief_words`, `brief_check`).
3. The digest is the deterministic composer's, run on the same context with the model's
   words in the briefs: selection, grouping, counts and citations are identical, only the
   sentences differ. It is titled "AI Analysis of …" when the model wrote most of them.

A server that cannot be reached, or fails request after request, leaves the deterministic
digest and a warning (an error with `--strict`); a request that fails costs its PR only.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ...analyze.brief_text import brief_text
from ...analyze.brief_types import Status
from ...analyze.context_types import DigestContext
from ...analyze.english import sentence_case
from ...analyze.pr_briefs import worded
from ...analyze.pr_reading import content_key
from ...errors import LLMError, TemplateError
from ...models import BriefText, PullRequest
from ...reading import clean_title
from ...render.markdown import inline
from ...reporting import Reporter
from ..deterministic import deterministic_digest, write_digest
from ..digest_document import Digest, to_markdown
from ..digest_verifier import check_digest, own_texts
from .brief_prompt import BriefPrompts
from .brief_runner import BriefRun, BriefTexts, Server, Wanted, run_briefs
from .cache import ReplyCache
from .llm_settings import LLMSettings
from .server_session import ServerSession
from .takeaway import Takeaway, opening_sentence
from .usage import Usage


@dataclass(frozen=True)
class Written:
    """What the pipeline gets back: the digest, the writer that wrote it, the warnings
    (already told to the reporter), notes for the closing summary, and the facts of
    the LLM run for `--format json` (`context.llm`; empty when no LLM was asked)."""

    markdown: str
    writer: str
    warnings: list[str]
    notes: list[str]
    facts: dict[str, object] = field(default_factory=dict)  # JSON: `--format json`
    context: DigestContext | None = None  # what it was written from: the model's briefs


def write_with_fallback(
    context: DigestContext,
    prs: Sequence[PullRequest],
    kept: BriefTexts,
    cache: ReplyCache,
    settings: LLMSettings,
    reporter: Reporter,
) -> Written:
    """The pipeline's entry point: `prs` are the window's landed PRs, `kept` where briefs
    are stored (the store), `cache` where what was learned of the server is kept."""
    if not context.prs:  # nothing for a model to write about: no failure either
        warning = "the window has no merged PRs, so the deterministic writer wrote this digest"
        reporter.warn(warning)
        return Written(write_digest(context), "deterministic", [warning], [])
    model = settings.model or ""
    usage = Usage()
    started = time.monotonic()
    shown = shown_numbers(deterministic_digest(context))
    try:
        run, notes = model_briefs(context, prs, shown, kept, cache, settings, reporter, usage)
        usage.seconds = time.monotonic() - started
        if run.gave_up and not any(t.what_from == "model" for t in run.texts.values()):
            raise LLMError(f"the LLM server gave up: {run.gave_up}", "check the server")
        worded_context = with_words(context, run)
        digest, facts = _compose(worded_context, run, shown, model)
    except (LLMError, TemplateError) as exc:
        usage.seconds = time.monotonic() - started
        if settings.strict:
            raise
        warning = f"the LLM writer failed, so the deterministic writer wrote this digest: {exc}"
        reporter.warn(warning)
        summary = [usage.summary(model)] if usage.attempted else []
        failed: dict[str, object] = {"model": model, "fallback": str(exc), "usage": usage.facts()}
        return Written(write_digest(context), "deterministic", [warning], summary, failed)
    warnings = notes + _warnings(run, facts)
    if settings.strict and (run.failed or facts["replaced"]):
        raise LLMError(
            f"{len(run.failed)} requests failed and {_replaced_count(run, shown)} sentences"
            " failed verification",
            "run without --strict to publish the digest with prdigest's words for them",
        )
    for warning in warnings:
        reporter.warn(warning)
    facts["usage"] = usage.facts()
    verification = _verification(run, shown)
    return Written(
        to_markdown(digest),
        "llm",
        warnings,
        [usage.summary(model), verification],
        facts,
        worded_context,
    )


def shown_numbers(digest: Digest) -> list[int]:
    """The PRs a digest cites, in order: those whose words it may show."""
    return list(dict.fromkeys(n for line in digest.lines() for n in line.cites))


def model_briefs(
    context: DigestContext,
    prs: Sequence[PullRequest],
    numbers: Sequence[int],
    kept: BriefTexts,
    cache: ReplyCache,
    settings: LLMSettings,
    reporter: Reporter,
    usage: Usage,
) -> tuple[BriefRun, list[str]]:
    """The model's briefs of the PRs `numbers` (a revert's words are never the model's:
    "Reverts X" says it); the notes of what was learned of the server."""
    landed = {pr.number: pr for pr in sorted(prs, key=_landing) if pr.number is not None}
    wanted = []
    for number in numbers:
        brief, pr, facts = context.briefs.get(number), landed.get(number), context.prs.get(number)
        if brief is None or pr is None or facts is None or brief.status is Status.REVERT:
            continue
        fallback = brief_text(pr, clean_title(pr.title, number), facts.claims)
        wanted.append(Wanted(pr, content_key(pr), brief, fallback))
    session = ServerSession(settings, cache)
    prompts = BriefPrompts(context.repo, settings.prompts_dir, settings.temperature)
    server = Server(session.client, session.data_tokens, session.concurrency)
    try:
        run = run_briefs(
            wanted, prompts, settings.model or "", kept, server, usage, reporter,
            refresh=settings.refresh,
        )  # fmt: skip
        if not run.gave_up:
            _opening(context, run, landed, prompts, session, cache, usage)
    finally:
        notes = session.close()
        usage.failed.update(session.failed)
    return run, notes


def _opening(
    context: DigestContext,
    run: BriefRun,
    landed: Mapping[int, PullRequest],
    prompts: BriefPrompts,
    session: ServerSession,
    cache: ReplyCache,
    usage: Usage,
) -> None:
    """Key Takeaways' opening sentence, from the leading briefs in the model's words: kept
    in the reply cache, else asked (a failure costs only the sentence)."""
    plan = context.plan
    if plan is None:
        return
    leads = [
        worded(context.briefs[n], run.texts[n], context.prs[n].claims) if n in run.texts else b
        for n in plan.lead
        if (b := context.briefs.get(n)) is not None
    ]
    where = (session.settings.base_url or "", session.settings.model or "")
    said = opening_sentence(leads, landed, prompts, None, cache, where, usage)
    if said.why_not == "not asked":
        try:
            said = opening_sentence(leads, landed, prompts, session.client(), cache, where, usage)
        except LLMError as exc:
            said = Takeaway("", f"its request failed: {exc}")
    run.opening, run.opening_why_not = said.sentence, said.why_not


def _landing(pr: PullRequest) -> str:
    return pr.merged_at.isoformat() if pr.merged_at else ""


def with_words(context: DigestContext, run: BriefRun) -> DigestContext:
    """The context with the model's words in its briefs; its plan and facts unchanged."""
    briefs = dict(context.briefs)
    for number, text in run.texts.items():
        briefs[number] = worded(briefs[number], text, context.prs[number].claims)
    return replace(context, briefs=briefs)


def _compose(
    context: DigestContext, run: BriefRun, shown: Sequence[int], model: str
) -> tuple[Digest, dict[str, object]]:
    """The deterministic composer's digest of the context with the model's words, and what
    the run did."""
    digest = deterministic_digest(context)
    by_model = [n for n in shown if run.texts.get(n, _NONE).what_from == "model"]
    ai = len(by_model) * 2 > len(shown)
    title = f"AI {digest.title}" if ai else digest.title
    if run.opening:  # the model's sentence opens the composer's paragraph
        opened = f"{inline(sentence_case(run.opening))}. {digest.takeaways.text}"
        digest = replace(digest, takeaways=replace(digest.takeaways, text=opened))
        texts = {n: (*own, *context.briefs[n].figures) for n, own in own_texts(context.prs).items()}
        problems = check_digest(digest, context.repo, context.prs, texts)
        if problems:
            raise TemplateError(f"the LLM digest failed its check: {problems[0]}", "report this")
    note = (
        f"<!-- {model} wrote the sentences of {len(by_model)} of the {len(shown)} PRs cited,"
        " each checked against its PR; the rest are prdigest's. -->"
    )
    digest = replace(digest, title=title, closing=f"{digest.closing}\n{note}")
    replaced = {str(n): t.replaced for n, t in sorted(run.texts.items()) if t.replaced}
    facts: dict[str, object] = {
        "model": model,
        "writer": run.writer,
        "briefs": {
            "shown": len(shown),
            "by_model": len(by_model),
            "from_store": run.stored,
            "asked": run.asked,
            "failed": {str(n): why for n, why in sorted(run.failed.items())},
            "not_asked": run.not_asked,
        },
        "replaced": replaced,
        "takeaway_by_model": bool(run.opening),
        "takeaway_replaced": run.opening_why_not,
        "ai_title": ai,
    }
    return digest, facts


_NONE = BriefText("")


def _replaced_count(run: BriefRun, shown: Sequence[int]) -> int:
    return sum(
        len(run.texts[n].replaced.split("; ")) for n in shown if run.texts.get(n, _NONE).replaced
    )


def _warnings(run: BriefRun, facts: Mapping[str, object]) -> list[str]:
    warnings = [
        f"the brief of #{number} was not written by the model ({why}); its words are prdigest's"
        for number, why in sorted(run.failed.items())
    ]
    if run.gave_up:
        warnings.append(f"the LLM server was asked no more ({run.gave_up})")
    if not facts["ai_title"]:
        briefs = facts["briefs"]
        assert isinstance(briefs, dict)
        warnings.append(
            f"the model wrote the sentences of {briefs['by_model']} of {briefs['shown']} PRs"
            " cited, so the digest is not titled AI Analysis"
        )
    return warnings


_CATEGORIES = {"names": "a name not in its PR", "gives": "a figure not in its PR",
               "claims": "a claim not in its PR", "words": "words not in its PR"}  # fmt: skip


def _category(reason: str) -> str:
    """A reason without its particulars: "names 'Foo', which …" → a name not in its PR."""
    first = reason.split(" ", 1)[0]
    return _CATEGORIES.get(first, reason.split(" (")[0])


def _verification(run: BriefRun, shown: Sequence[int]) -> str:
    reasons: Counter[str] = Counter()
    for number in shown:
        text = run.texts.get(number)
        for part in text.replaced.split("; ") if text and text.replaced else ():
            reasons[_category(part.split(": ", 1)[-1])] += 1
    total = sum(reasons.values())
    said = ", ".join(f"{n} {why}" for why, n in reasons.most_common())
    checked = sum(1 for n in shown if n in run.texts)
    return f"verification: the model's words of {checked} PRs checked against each PR, " + (
        f"{total} sentences replaced by prdigest's ({said})" if total else "none replaced"
    )
