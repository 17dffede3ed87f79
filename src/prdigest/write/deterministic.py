"""The deterministic writer: a digest context → a `Digest` → Markdown, every citation and
figure checked.

It writes only what the context holds: the window's briefs as the analysis planned them
(`brief_digest`), figures its PRs state, counts computed from the data. Each `[PR#N](…)`
link and each quoted figure goes through `Ledger`, which refuses a PR outside the window
and a figure that its cited PR does not state; the finished document goes through the one
verifier (`digest_verifier`), and an HTML comment reports what was checked.
"""

from __future__ import annotations

from dataclasses import replace

from ..analyze.context_types import DigestContext
from ..errors import TemplateError
from .brief_digest import composed_digest
from .digest_blocks import closing, empty
from .digest_document import Digest, to_markdown
from .digest_verifier import check_digest, own_texts

__all__ = ["deterministic_digest", "write_digest"]


def deterministic_digest(context: DigestContext) -> Digest:
    """The digest of the context, checked by the verifier both writers share."""
    if context.counts.prs == 0:
        digest = empty(context)
    elif context.plan is not None:
        digest = composed_digest(context, context.plan)
    else:
        raise TemplateError(
            "this digest context has no plan: it was made before digests were composed from briefs",
            "write the digest again from the store (prdigest digest REPO --week …)",
        )
    digest = replace(digest, closing=closing(digest, context))
    problems = check_digest(digest, context.repo, context.prs, own_texts(context.prs))
    if problems:
        raise TemplateError(
            f"the digest failed its check: {problems[0]}", "report this as a bug in prdigest"
        )
    return digest


def write_digest(context: DigestContext) -> str:
    return to_markdown(deterministic_digest(context))
