"""The deterministic writer: a digest context → a `Digest` → Markdown, every citation and
figure checked.

It writes only what the context holds: theme names and sentences from the analysis,
figures quoted from the PRs, counts computed from the data. Each `[PR#N](…)` link and
each quoted figure goes through `Ledger`, which refuses a PR outside the window and a
figure that its cited PR does not state; the finished document goes through the one
verifier (`digest_verifier`), and the closing line reports what was checked.
"""

from __future__ import annotations

from dataclasses import replace

from ..analyze.context_types import DigestContext
from ..errors import TemplateError
from ..render.markdown import plain
from .brief_digest import composed_digest
from .digest_blocks import Ledger, closing, empty, people, reverts, trends
from .digest_document import Digest, to_markdown
from .digest_verifier import check_digest, own_texts
from .news import callout
from .sections import MIN_SECTION, citation_budget, shown_plan
from .sections import sections as area_sections
from .takeaways import takeaways

__all__ = ["MIN_SECTION", "citation_budget", "deterministic_digest", "write_digest"]


def deterministic_digest(context: DigestContext) -> Digest:
    """The digest of the context, checked by the verifier both writers share."""
    if context.counts.prs == 0:
        digest = empty(context)
    elif context.plan is not None:
        digest = composed_digest(context, context.plan)
    else:
        ledger = Ledger(context)
        # The sections spend the citation budget; the news above them is told beside it.
        sections, table, tail = area_sections(context, ledger)
        # an area with its own section says its movement in the section's intro
        told = {e.areas[0] for e in shown_plan(context)[0] if e.kind == "area"}
        digest = Digest(
            title=plain(context.title),
            takeaways=takeaways(context, ledger),
            callout=callout(context, ledger),
            sections=tuple(sections),
            tail=tail,
            extras=tuple(
                block
                for block in (reverts(context, ledger), trends(context, told), people(context))
                if block
            ),
            table=tuple(table),
        )
    digest = replace(digest, closing=closing(digest, context))
    texts = {
        n: (*own, *context.briefs[n].figures) if n in context.briefs else own
        for n, own in own_texts(context.prs).items()
    }
    problems = check_digest(digest, context.repo, context.prs, texts)
    if problems:
        raise TemplateError(
            f"the digest failed its check: {problems[0]}", "report this as a bug in prdigest"
        )
    return digest


def write_digest(context: DigestContext) -> str:
    return to_markdown(deterministic_digest(context))
