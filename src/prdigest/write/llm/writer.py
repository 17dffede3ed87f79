"""The LLM writer: map-reduce inside the server's context, verified, cached, with a fallback.

0. Learn the server: the profile kept from earlier runs (the `response_format`
   rung it takes, its context, slots and speed), else what it says of its
   context (`probe.py`). The budget is the smaller of `--llm-context` and that.
1. Map: each area's PRs go to the model, packed into requests that fit the
   budget; it answers with themes and their PR numbers (a JSON schema). A
   context refusal re-plans within the size the server gave.
2. Verify: citations, figures and named things are checked against the cited
   PRs (`verify.py`, `grounding.py`); what fails is dropped or repaired.
3. Reduce: the key takeaway is written from the statistics and the verified
   themes; counts and top areas are added from the context, never the model.
4. Assemble: the themes fill a `Digest` (`assemble.py`), which passes the verifier the
   deterministic digest passes (`digest_verifier.py`) and renders through its template.

A request that fails costs only its own areas: they get prdigest's own themes,
and the digest says so. When no theme of the model survives at all, the
deterministic writer writes the digest, with a warning (an error with
`--strict`). Replies are cached in the cache the caller hands over.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import astuple, dataclass, field

import jinja2

from ...analyze.context_types import Area, DigestContext
from ...errors import LLMError
from ...reporting import Reporter, SilentReporter
from ..deterministic import write_digest
from ..digest_document import to_markdown
from ..digest_verifier import check_digest
from .assemble import Assembled, Authorship, assemble_digest, section_by_model
from .cache import ReplyCache
from .chat_client import ContextLengthError
from .inputs import PRText, evidence_texts, figure_texts, lower_case_words
from .llm_settings import MIN_CONTEXT, LLMSettings
from .profile import ServerProfile, load_profile, save_profile
from .repair import Record, Rejected, Retry, model_themes, retry_requests
from .request_plan import (
    AreaPlanner,
    Request,
    TakeawayArea,
    ThemeSummary,
    news_items,
    section_plan,
    takeaway_request,
    template_env,
)
from .runner import ClientFactory, Outcome, Runner, open_client
from .usage import Usage
from .verify import Theme, Verifier

TAKEAWAY_AREAS = 6  # the takeaway is written from the largest areas' two leading themes
CONTEXT_MARGIN = 0.9  # of a server's context: our token estimate is not its tokenizer


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


def write_with_fallback(
    context: DigestContext,
    texts: Mapping[int, PRText],
    cache: ReplyCache,
    settings: LLMSettings,
    reporter: Reporter,
) -> Written:
    """The pipeline's entry point. `texts` are the window's PRs as `inputs.pr_texts`
    reads them."""
    if not context.prs:  # nothing for a model to write about: no failure either
        warning = "the window has no merged PRs, so the deterministic writer wrote this digest"
        reporter.warn(warning)
        return Written(write_digest(context), "deterministic", [warning], [])
    usage = Usage()  # ours, so a failed attempt's requests still reach the summary
    model = settings.model or ""
    try:
        result = write_llm_digest(context, texts, cache, settings, usage=usage, reporter=reporter)
    except LLMError as exc:
        if settings.strict:
            raise
        warning = f"the LLM writer failed, so the deterministic writer wrote this digest: {exc}"
        reporter.warn(warning)
        notes = [usage.summary(model)] if usage.attempted else []
        facts: dict[str, object] = {"model": model, "fallback": str(exc), "usage": usage.facts()}
        return Written(write_digest(context), "deterministic", [warning], notes, facts)
    for warning in result.warnings:
        reporter.warn(warning)
    for problem in result.problems:
        reporter.info(f"verification: {problem}")
    notes = [usage.summary(model), f"verification: {result.verification}"]
    return Written(result.markdown, "llm", result.warnings, notes, result.facts)


@dataclass
class LLMDigest:
    markdown: str
    usage: Usage
    warnings: list[str]
    problems: list[str]
    requests: list[Request]
    verification: str  # e.g. "41 claims checked against the PRs of the window (…), 2 dropped"
    facts: dict[str, object] = field(default_factory=dict)


def write_llm_digest(
    context: DigestContext,
    texts: Mapping[int, PRText],
    cache: ReplyCache,
    settings: LLMSettings,
    *,
    client_factory: ClientFactory | None = None,
    usage: Usage | None = None,
    reporter: Reporter | None = None,
) -> LLMDigest:
    started = time.monotonic()
    usage = usage if usage is not None else Usage()
    base_url, model = settings.base_url or "", settings.model or ""
    known = load_profile(cache, base_url, model)  # kept through --refresh: the server is the same
    profile = known or ServerProfile()
    runner = Runner(
        settings, cache, client_factory or open_client, usage, profile, reporter or SilentReporter()
    )
    notes: list[str] = []
    try:
        if known is None or settings.refresh:  # its context may have changed since
            said = runner.client.probe()
            profile.context, profile.slots, profile.context_source = (
                said.context,
                said.slots,
                said.source,
            )
        budget = _budget(settings, profile, notes)
        env = template_env(settings.prompts_dir)
        planned, outcomes, planner = _map(context, texts, env, budget, settings, runner, notes)
        budget = planner.budget
        full = figure_texts(context, texts)
        evidence = evidence_texts(context, texts)
        instructions = planner.system + "\n" + _instructions(planned)
        verifier = Verifier(
            full,
            {n: i.area for n, i in context.prs.items() if n in full},
            evidence,
            instructions,
            lower_case_words(evidence.values()),
            context.repo,
        )

        def retry(answered: list[Outcome], rejected: dict[str, Rejected]) -> list[Outcome]:
            asked = retry_requests(planner, env, answered, rejected)
            return runner.run(asked, _valid_themes, lambda _: None) if asked else []

        record = Record()
        themes, authored, why_not = _verified_themes(context, outcomes, verifier, retry, record)
        if planned and not authored:
            tally = verifier.tally
            lost = "; ".join(usage.lost_requests[:2])
            raise LLMError(
                f"no theme the model wrote survived verification ({tally.dropped_count} claims "
                f"dropped: {'; '.join(tally.problems[:2]) or lost or 'nothing usable in the replies'})",
                "try another model, check custom prompts, or use --writer deterministic",
            )
        takeaway, why, takeaway_req = _takeaway(
            context, texts, themes, env, budget, settings, runner, verifier
        )
    finally:
        runner.close()
        usage.seconds = time.monotonic() - started
        if runner.opened and (usage.requests or profile.context):  # learned something
            save_profile(cache, base_url, model, profile)
    if runner.opened:
        notes += runner.client_notes
    assembled = assemble_digest(
        context,
        themes,
        takeaway,
        full,
        verifier.tally,
        Authorship(frozenset(authored), why_not, bool(takeaway)),
        why,
    )
    # the check the deterministic digest passes too; verification should make a failure
    # impossible: never publish one
    stated = {n: (text,) for n, text in full.items()}
    leftover = check_digest(assembled.digest, context.repo, context.prs, stated)
    if leftover:
        raise LLMError(
            f"the LLM digest failed its final audit: {leftover[0]}", "report this as a bug"
        )
    tally = verifier.tally
    if settings.strict and (tally.dropped_count or tally.repaired_count or usage.lost_requests):
        failed = [*usage.lost_requests, *tally.problems]
        raise LLMError(
            f"{tally.dropped_count + tally.repaired_count} claims failed verification and "
            f"{len(usage.lost_requests)} requests failed ({'; '.join(failed[:3])})",
            "run without --strict to publish the digest with them dropped, repaired or replaced",
        )
    warnings = notes + _outcome_warnings(
        usage, tally.summary() if tally.problems else "", assembled
    )
    facts = {
        "model": model,
        "format": profile.format_name,
        "context": budget,
        "context_source": profile.context_source or "--llm-context",
        "usage": usage.facts(),
        "claims": tally.facts(),
        "sections": {
            "total": assembled.sections,
            "by_model": assembled.model_sections,
            **_lost_sections(context, Authorship(frozenset(authored), why_not), record),
        },
        "takeaway_by_model": bool(takeaway),
        "ai_title": assembled.ai,
    }
    return LLMDigest(
        to_markdown(assembled.digest),
        usage,
        warnings,
        tally.problems,
        [*planned, takeaway_req],
        tally.summary(),
        facts,
    )


def _budget(settings: LLMSettings, profile: ServerProfile, notes: list[str]) -> int:
    budget = settings.context_tokens
    if profile.context and profile.context < budget:
        notes.append(
            f"planned within {int(profile.context * CONTEXT_MARGIN):,} tokens: the server's "
            f"context is {profile.context:,} ({profile.context_source}), less than "
            f"--llm-context {budget:,}"
        )
    if profile.context:
        budget = min(budget, int(profile.context * CONTEXT_MARGIN))
    return max(budget, MIN_CONTEXT)


def _map(
    context: DigestContext,
    texts: Mapping[int, PRText],
    env: jinja2.Environment,
    budget: int,
    settings: LLMSettings,
    runner: Runner,
    notes: list[str],
) -> tuple[list[Request], list[Outcome], AreaPlanner]:
    """The area requests and their outcomes, re-planned within the context a refusal gives."""
    while True:
        planner = AreaPlanner(context, texts, env, budget, settings.temperature)
        planned = planner.plan()
        try:
            return planned, runner.run(planned, _valid_themes, planner.split), planner
        except ContextLengthError as exc:
            smaller = int(exc.context * CONTEXT_MARGIN) if exc.context else budget // 2
            smaller = min(smaller, budget // 2 if smaller >= budget else smaller)
            if smaller < MIN_CONTEXT:
                raise
            if exc.context:
                runner.profile.context, runner.profile.context_source = exc.context, "a refusal"
            notes.append(
                f"the LLM server refused a request as too long "
                f"({exc.context and f'its context is {exc.context:,} tokens' or 'no size given'}); "
                f"re-planned within {smaller:,} tokens"
            )
            budget = smaller


def _takeaway(
    context: DigestContext,
    texts: Mapping[int, PRText],
    themes: dict[str, list[Theme]],
    env: jinja2.Environment,
    budget: int,
    settings: LLMSettings,
    runner: Runner,
    verifier: Verifier,
) -> tuple[str, dict[int, str], Request]:
    """The model's key takeaway and its "why it matters" sentence for each of the week's
    most notable PRs, verified (what fails is left to the analysis' own words)."""
    summaries = [_takeaway_area(a, themes) for a in context.areas if themes.get(a.name)][
        :TAKEAWAY_AREAS
    ]
    request = takeaway_request(context, summaries, env, budget, settings.temperature, texts)
    (outcome,) = runner.run([request], _valid_takeaway, lambda _: None)
    if outcome.reply is None:
        return "", {}, request
    news = news_items(context, texts)
    sources = [f"{t.area} {t.name} {t.summary}" for ts in themes.values() for t in ts]
    sources.append(" ".join(str(v) for v in astuple(context.counts) if v is not None))
    sources += [f"{item.line} {item.data}" for item in news]  # the takeaway may open with it
    system, user = request.messages[0]["content"], request.messages[-1]["content"]
    verifier.prompt += f"\n{system}\n{user.rsplit('DIGEST_DATA_END', 1)[-1]}"
    text = verifier.check_free_text(str(outcome.reply.get("takeaway", "")), sources, "key takeaway")
    said = outcome.reply.get("why")
    why: dict[int, str] = {}
    for item, clause in zip(news, said if isinstance(said, list) else [], strict=False):
        checked = verifier.check_clause(str(clause), item.number, f"why #{item.number} matters")
        if checked:
            why[item.number] = checked
    return text, why, request


def _outcome_warnings(usage: Usage, verification: str, rendered: Assembled) -> list[str]:
    warnings = [
        f"{lost}; the key takeaway gives the counts alone"
        if lost.startswith("the key-takeaway")
        else f"{lost}; its areas have prdigest's own themes"
        for lost in usage.lost_requests
    ]
    if verification:
        warnings.append(f"verification: {verification}")
    if not rendered.ai:
        warnings.append(
            f"the model wrote {rendered.model_sections} of {rendered.sections} sections"
            " and the key takeaway is not all its own, so the digest is not titled AI Analysis"
            if rendered.model_sections * 2 > rendered.sections
            else f"the model wrote only {rendered.model_sections} of {rendered.sections} "
            "sections, so the digest is not titled AI Analysis"
        )
    return warnings


def _instructions(planned: list[Request]) -> str:
    """The words of the prompt around the data: a model must not hand them back."""
    if not planned:
        return ""
    return planned[0].messages[-1]["content"].rsplit("PR_DATA_END", 1)[-1]


def _valid_themes(data: Mapping[str, object]) -> bool:
    themes = data.get("themes")
    return isinstance(themes, list) and all(
        isinstance(t, dict)
        and isinstance(t.get("name"), str)
        and isinstance(t.get("summary"), str)
        and isinstance(t.get("prs"), list)
        for t in themes
    )


def _valid_takeaway(data: Mapping[str, object]) -> bool:
    return isinstance(data.get("takeaway"), str)


def _verified_themes(
    context: DigestContext,
    outcomes: list[Outcome],
    verifier: Verifier,
    retry: Retry | None = None,
    record: Record | None = None,
) -> tuple[dict[str, list[Theme]], set[str], dict[str, str]]:
    """Verified themes per area, the areas the model wrote, and why the others got the
    analysis' own themes. With `retry`, an area whose every theme was dropped is asked
    once more, told why (`repair.py`); `record` keeps what was lost and re-asked."""
    record = record if record is not None else Record()
    found, why_not, rejected = model_themes(outcomes, verifier)
    if rejected and retry is not None:
        again, _, still = model_themes(retry(outcomes, rejected), verifier)
        record.retried.update(still.keys() | again.keys())
        for name, ts in again.items():
            found.setdefault(name, []).extend(ts)
        rejected = {name: still.get(name, r) for name, r in rejected.items() if not found.get(name)}
    for name, rejection in rejected.items():
        if rejection.why():  # what the digest tells its reader (a drop's why is a warning)
            why_not.setdefault(name, rejection.why())
        record.lost.setdefault(name, rejection.reason)
    for name, why in why_not.items():
        record.lost.setdefault(name, why)
    record.recovered.update(n for n in record.retried if found.get(n))
    authored = {name for name, ts in found.items() if ts}
    split = {p.name for o in outcomes for p in o.request.areas if p.shown < p.count}
    for name in split & authored:  # parts were themed apart: the broadest themes first
        found[name] = sorted(found[name], key=lambda t: -len(t.prs))
    # prdigest's own themes are checked too, but they are not the model's claims
    own = Verifier(
        verifier.texts, verifier.areas, verifier.evidence, "", verifier.vocabulary, verifier.repo
    )
    for area in context.areas:
        name = area.name
        if name in authored:
            continue
        for raw in area.themes:
            theme = Theme(
                name,
                raw.name or raw.topic,  # a lone PR's theme: its topic
                raw.sentence,
                list(raw.prs),
            )
            checked = own.check_theme(theme) if theme.summary else None
            if checked is not None and checked.area == name:
                found.setdefault(name, []).append(checked)
    return found, authored, why_not


def _takeaway_area(area: Area, themes: dict[str, list[Theme]]) -> TakeawayArea:
    """An area as the takeaway prompt shows it."""
    shown = tuple(ThemeSummary(t.name, t.summary) for t in themes[area.name][:2])
    return TakeawayArea(area.name, area.count, area.delta, shown)


def _lost_sections(
    context: DigestContext, authorship: Authorship, record: Record
) -> dict[str, object]:
    """Why the sections the model did not write are prdigest's (each counted under the
    reason of its first area the model lost), and how many areas a re-ask won back."""
    lost: Counter[str] = Counter()
    counts = {a.name: a.count for a in context.areas}
    for entry in section_plan(context):
        if not any(counts.get(n) for n in entry.areas) or section_by_model(entry, authorship):
            continue  # a section the digest does not show, or the model's
        reasons = [record.lost[n] for n in entry.areas if n in record.lost]
        lost[reasons[0] if reasons else "no answer for its areas"] += 1
    return {
        "lost": dict(lost.most_common()),
        "areas_retried": len(record.retried),
        "areas_recovered": len(record.recovered),
    }
