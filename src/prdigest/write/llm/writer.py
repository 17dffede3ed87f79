"""The LLM writer: map-reduce inside a token budget, verified, cached, with a fallback.

1. Map: each area's PRs (cleaned title, kind, main path, opening words, stated
   claims) go to the model, packed into requests that fit `--llm-context`; it
   answers with themes and their PR numbers (a JSON schema).
2. Verify: every citation and figure is checked against the PRs of the window
   (`verify.py`); what fails is dropped or its citation repaired.
3. Reduce: the key takeaway is written from the statistics and the verified
   themes; counts and top areas are added from the context, never the model.

Replies are cached by a hash of the request and the server, in the cache the
caller hands over (the pipeline's lives in the store). Any LLM failure, or a
digest in which no sentence of the model survived verification, gives the
deterministic digest and a warning (an error with `--strict`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import LLMError
from ...reporting import Reporter
from ..deterministic import write_digest
from .cache import ReplyCache
from .client import ContextLengthError
from .inputs import PRText
from .plan import AreaPlanner, Request, takeaway_request, template_env
from .render import render_digest
from .runner import ClientFactory, Runner, open_client
from .settings import MIN_CONTEXT, LLMSettings
from .usage import Usage
from .verify import Theme, Verifier, audit_markdown

TAKEAWAY_AREAS = 6  # the takeaway is written from the largest areas' two leading themes


def write_with_fallback(
    context: dict[str, Any],
    texts: Mapping[int, PRText],
    cache: ReplyCache,
    settings: LLMSettings,
    reporter: Reporter,
) -> tuple[str, str, list[str], list[str]]:
    """The pipeline's entry point: (markdown, the writer that wrote it, warnings, notes
    for the closing summary). `texts` are the window's PRs as `inputs.pr_texts` reads them."""
    if not _context_prs(context):  # nothing for a model to write about: no failure either
        warning = "the window has no merged PRs, so the deterministic writer wrote this digest"
        reporter.warn(warning)
        return write_digest(context), "deterministic", [warning], []
    usage = Usage()  # ours, so a failed attempt's requests still reach the summary
    try:
        result = write_llm_digest(context, texts, cache, settings, usage=usage)
    except LLMError as exc:
        if settings.strict:
            raise
        warning = f"the LLM writer failed, so the deterministic writer wrote this digest: {exc}"
        reporter.warn(warning)
        spent = [usage.summary(settings.model or "")] if usage.requests or usage.cached else []
        return write_digest(context), "deterministic", [warning], spent
    for problem in result.problems:
        reporter.info(f"verification: {problem}")
    notes = [usage.summary(settings.model or ""), f"verification: {result.verification}"]
    return result.markdown, "llm", result.warnings, notes


@dataclass
class LLMDigest:
    markdown: str
    usage: Usage
    warnings: list[str]
    problems: list[str]
    requests: list[Request]
    verification: str  # e.g. "41 claims checked against the PRs of the window (…), 2 dropped"


def write_llm_digest(
    context: dict[str, Any],
    texts: Mapping[int, PRText],
    cache: ReplyCache,
    settings: LLMSettings,
    *,
    client_factory: ClientFactory | None = None,
    usage: Usage | None = None,
) -> LLMDigest:
    full = _verification_texts(context, texts)
    areas = {n: str(info.get("area", "")) for n, info in _context_prs(context).items() if n in full}
    env = template_env(settings.prompts_dir)
    runner = Runner(settings, cache, client_factory or open_client, usage or Usage())
    try:
        budget, notes = settings.context_tokens, []
        while True:
            planned = AreaPlanner(context, texts, env, budget, settings.temperature).plan()
            try:
                replies = runner.run(planned, _valid_themes)
                break
            except ContextLengthError:
                # The model's real context is smaller than the budget: halve it and re-plan.
                if budget // 2 < MIN_CONTEXT:
                    raise
                budget //= 2
                notes.append(
                    f"the LLM server refused a request as too long; re-planned within "
                    f"{budget} tokens (set --llm-context {budget} to skip this)"
                )
        verifier = Verifier(full, areas)
        themes, from_model = _verified_themes(context, planned, replies, verifier)
        if planned and not from_model:
            # Only the analysis' own themes are left: that is not an AI analysis.
            tally = verifier.tally
            raise LLMError(
                f"no theme the model wrote survived verification ({tally.dropped} claims "
                f"dropped: {'; '.join(tally.problems[:2]) or 'nothing usable in the replies'})",
                "try another model, check custom prompts, or use --writer deterministic",
            )
        summaries = [
            _takeaway_area(a, themes)
            for a in context.get("areas", [])
            if themes.get(str(a["name"]))
        ][:TAKEAWAY_AREAS]
        takeaway_req = takeaway_request(context, summaries, env, budget, settings.temperature)
        if planned:
            (takeaway_reply,) = runner.run([takeaway_req], _valid_takeaway)
        else:  # an empty window: nothing to ask
            takeaway_reply = {"takeaway": ""}
    finally:
        runner.close()
    sources = [f"{t.name} {t.summary}" for ts in themes.values() for t in ts]
    sources.append(" ".join(str(v) for v in context.get("counts", {}).values()))
    takeaway = verifier.check_free_text(
        str(takeaway_reply.get("takeaway", "")), sources, "key takeaway"
    )
    markdown = render_digest(context, themes, takeaway, full, verifier.tally)
    leftover = audit_markdown(markdown, context["repo"], full)
    if leftover:  # verification should make this impossible: never publish it
        raise LLMError(
            f"the LLM digest failed its final audit: {leftover[0]}", "report this as a bug"
        )
    tally = verifier.tally
    if settings.strict and (tally.dropped or tally.repaired):
        raise LLMError(
            f"{tally.dropped + tally.repaired} claims failed verification ({'; '.join(tally.problems[:3])})",
            "run without --strict to publish the digest with them dropped or repaired",
        )
    warnings = notes + (
        [f"{tally.dropped} claims dropped and {tally.repaired} citations repaired by verification"]
        if tally.dropped or tally.repaired
        else []
    )
    return LLMDigest(
        markdown,
        runner.usage,
        warnings,
        tally.problems,
        [*planned, takeaway_req],
        tally.summary(),
    )


def _valid_themes(data: dict[str, Any]) -> bool:
    themes = data.get("themes")
    return isinstance(themes, list) and all(
        isinstance(t, dict)
        and isinstance(t.get("name"), str)
        and isinstance(t.get("summary"), str)
        and isinstance(t.get("prs"), list)
        for t in themes
    )


def _valid_takeaway(data: dict[str, Any]) -> bool:
    return isinstance(data.get("takeaway"), str)


def _verified_themes(
    context: dict[str, Any],
    planned: list[Request],
    replies: list[dict[str, Any]],
    verifier: Verifier,
) -> tuple[dict[str, list[Theme]], int]:
    """Verified themes per area (an area with none of the model's gets the analysis' own)
    and how many of them the model wrote."""
    found: dict[str, list[Theme]] = {}
    split = {p.name for r in planned for p in r.areas if p.shown < p.count}
    for request, reply in zip(planned, replies, strict=True):
        names = [p.name for p in request.areas]
        for raw in reply.get("themes", []):
            claimed = str(raw.get("area", ""))
            theme = Theme(
                claimed if claimed in names else names[0],
                str(raw.get("name", "")),
                str(raw.get("summary", "")),
                list(raw.get("prs", [])),
            )
            checked = verifier.check_theme(theme)
            if checked is not None:
                found.setdefault(checked.area, []).append(checked)
    from_model = sum(len(ts) for ts in found.values())
    for name in split:  # parts were themed apart: the broadest themes first
        found[name] = sorted(found.get(name, []), key=lambda t: -len(t.prs))
    for area in context.get("areas", []):
        name = str(area["name"])
        if found.get(name):
            continue
        for raw in area.get("themes", []) or []:
            theme = Theme(
                name,
                str(raw.get("name", "")),
                str(raw.get("sentence", "")),
                list(raw.get("prs", [])),
            )
            checked = verifier.check_theme(theme) if theme.summary else None
            if checked is not None and checked.area == name:
                found.setdefault(name, []).append(checked)
    return found, from_model


def _takeaway_area(area: dict[str, Any], themes: dict[str, list[Theme]]) -> dict[str, Any]:
    delta = area.get("delta") if area.get("previous_count") is not None else None
    return {
        "name": area["name"],
        "count": area.get("count", 0),
        "delta": delta,
        "themes": [{"name": t.name, "summary": t.summary} for t in themes[str(area["name"])][:2]],
    }


def _context_prs(context: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(k): v for k, v in context.get("prs", {}).items() if str(k).isdigit()}


def _verification_texts(context: dict[str, Any], texts: Mapping[int, PRText]) -> dict[int, str]:
    """Everything each PR of the window says: title, full body, the claims analysis found."""
    out = {}
    for number, info in _context_prs(context).items():
        text = texts.get(number)
        parts = [str(info.get("title", "")), str(info.get("clean_title", ""))]
        if text is not None:
            parts += [text.title, text.raw_body]
        parts += [str(c) for c in info.get("claims") or []]
        out[number] = "\n".join(p for p in parts if p)
    return out
