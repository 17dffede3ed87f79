"""Each PR's section is its brief's kind (`analyze.kind_judge`, through the one reading
of `analyze.range_briefs`): the release notes file every PR as the digest does, and a
question about a PR is answered once. The classifier's area stays the row's category.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..analyze.brief_types import Brief
from ..models import Classification, PullRequest


def filed(
    prs: Sequence[PullRequest], decided: Sequence[Classification], briefs: Mapping[str, Brief]
) -> list[Classification]:
    """The classifications with each PR's kind as its brief judged it (the rule names the
    brief's evidence where it differs from the classifier's wording)."""
    out = []
    for pr, c in zip(prs, decided, strict=True):
        brief = briefs.get(pr.sha or "") if pr.number is not None else None
        if brief is not None and brief.kind != c.kind:
            judged = brief.kind_evidence
            c = replace(c, kind=brief.kind, kind_rule=f"brief/{judged.evidence}: {judged.why}")
        out.append(c)
    return out
