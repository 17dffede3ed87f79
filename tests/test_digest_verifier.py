"""The one verifier of a finished digest (`write/digest_verifier.py`), which both writers'
documents pass before they become Markdown: a PR outside the window, a link elsewhere, a
figure its cited PR does not state, a citation the line does not record and markup left
open are refused. On the real executorch week 2026-W07 (tests/llm_helpers.py)."""

from __future__ import annotations

import dataclasses

import pytest

from llm_helpers import REPO
from prdigest.analyze.context_types import DigestContext
from prdigest.errors import TemplateError
from prdigest.write.deterministic import deterministic_digest, write_digest
from prdigest.write.digest_document import Digest, Figure, Line
from prdigest.write.digest_verifier import check_digest


def _claimed(context: DigestContext) -> tuple[int, str]:
    number = next(n for n, pr in sorted(context.prs.items()) if pr.claims)
    return number, context.prs[number].claims[0]


def test_the_verifier_refuses_what_a_digest_must_never_say(context: DigestContext) -> None:
    number, claim = _claimed(context)
    other = next(n for n in sorted(context.prs) if n != number)
    url, other_url = context.prs[number].url, context.prs[other].url
    cited = f"[PR#{number}]({url})"

    def problems(line: Line) -> list[str]:
        return check_digest(Digest("T", Line("Key Takeaways.")), REPO, context.prs) + (
            check_digest(Digest("T", Line("Key Takeaways."), tail=line), REPO, context.prs)
        )

    good = Line(f"It reports “{claim}” ({cited}).", (number,), (Figure(claim, number),))
    assert problems(good) == []
    outside = problems(Line("Adds X ([PR#999999](https://github.com/a/b/pull/999999)).", (999999,)))
    assert any("PR #999999, which is not in the window" in p for p in outside)
    elsewhere = problems(Line(f"Adds X ([PR#{number}](https://evil.example/{number})).", (number,)))
    assert any("https://evil.example" in p for p in elsewhere)
    invented = problems(Line(f"37.5x faster ({cited}).", (number,), (Figure("37.5x", number),)))
    assert invented and "'37.5x' is stated by none of the PRs it cites" in invented[0]
    model_said = problems(Line(f"37.5x faster ({cited}).", (number,), (Figure("37.5x"),)))
    assert model_said and "37.5x" in model_said[0]
    uncited = problems(Line(f"It reports “{claim}”.", (), (Figure(claim, number),)))
    assert uncited and "uncited" in uncited[0]
    unrecorded = problems(Line(f"X ({cited}, [PR#{other}]({other_url})).", (number,)))
    assert unrecorded and "but cites" in unrecorded[0]
    assert problems(Line(f"Adds `foo ({cited}).", (number,)))
    assert problems(Line(f"Adds **foo ({cited}).", (number,)))


def test_the_deterministic_writer_passes_its_document_through_the_verifier(
    context: DigestContext,
) -> None:
    """Every figure a told brief quotes is stated by its PR, and the closing comment counts
    the checks; a brief whose figure its PR does not state (a brief's words gone wrong)
    is refused before the digest becomes Markdown."""
    digest = deterministic_digest(context)
    quoted = [f for line in digest.lines() for f in line.figures]
    cited = [n for line in digest.lines() for n in line.cites]
    assert cited and set(cited) <= set(context.prs)
    assert digest.closing == (
        f"<!-- All {len(cited)} citations and {len(quoted)} figure"
        f"{'' if len(quoted) == 1 else 's'} checked against the PRs of the window. -->"
    )
    assert context.plan is not None
    told = context.plan.lead[0]
    brief = context.briefs[told]
    invented = dataclasses.replace(
        context,
        briefs={
            **context.briefs,
            told: dataclasses.replace(
                brief,
                why="37.5x faster inference",
                why_from="result",
                figures=("37.5x faster inference",),
            ),
        },
    )
    with pytest.raises(TemplateError, match="37.5x faster inference"):
        write_digest(invented)
