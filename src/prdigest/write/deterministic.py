"""The deterministic writer: a digest context → Markdown, with every citation and figure checked.

It writes only what the context holds: theme names and sentences from the analysis,
figures quoted from the PRs, counts computed from the data. Each `[PR#N](…)` link and
each quoted figure goes through `Ledger`, which refuses a PR outside the window and a
figure that its cited PR does not state; the closing line reports what was checked.
"""

from __future__ import annotations

from ..analyze.context_types import DigestContext
from ..render.markdown import plain, render_template
from .digest_blocks import Ledger, check, closing, empty, people, reverts, trends
from .news import callout
from .sections import MIN_SECTION, citation_budget
from .sections import sections as area_sections
from .takeaways import takeaways

__all__ = ["MIN_SECTION", "citation_budget", "write_digest"]


def write_digest(context: DigestContext) -> str:
    ledger = Ledger(context)
    if context.counts.prs == 0:
        values = empty(context, ledger)
    else:
        # The sections spend the citation budget; the news above them is told beside it.
        sections, table, tail = area_sections(context, ledger)
        values = {
            "title": plain(context.title),
            "takeaways": takeaways(context, ledger),
            "callout": callout(context, ledger),
            "sections": sections,
            "tail": tail,
            "extras": [
                block
                for block in (reverts(context, ledger), trends(context), people(context))
                if block
            ],
            "table": table,
        }
    values.setdefault("callout", None)
    values.setdefault("tail", "")
    values["closing"] = closing(ledger)
    markdown = render_template("digest.md.j2", values)
    check(markdown, context, ledger)
    return markdown
