"""Reverts and relands in the digest: flags on the items and rows for the context.

The pairing is `reading.pair_all` (the one reading, shared with classification and
release notes), over the window after the window before it; this module only presents
it. A revert of a revert is listed as the reland it amounts to, and a target outside
both windows is still named ("reverted #N").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ..models import PullRequest
from ..reading import clean_title, pair_all, quoted_title
from ..reading.wrappers import read_wrapper
from .context_types import Reland, Revert
from .items import Item


def pair_reverts(
    built: list[Item], previous: Sequence[PullRequest], ambiguous_shas: Collection[str] = ()
) -> tuple[list[Revert], list[Reland]]:
    """Mark reverts, relands and reverted PRs on the items (the window's, in landing
    order); return the context's revert and reland rows. `ambiguous_shas`: see
    `reading.pair_all`."""
    prs = [*previous, *(it.pr for it in built)]
    in_window = {it.number: it for it in built if it.number is not None}
    landed: dict[int, PullRequest] = {}
    for pr in prs[len(previous) :] + prs[: len(previous)]:  # the window's first
        if pr.number is not None:
            landed.setdefault(pr.number, pr)
    reverts: list[tuple[Item, int | None]] = []
    relands: list[tuple[Item, int | None]] = []
    for pairing in pair_all(prs, start=len(previous), ambiguous=ambiguous_shas):
        it = built[pairing.position - len(previous)]
        number = pairing.original
        if pairing.relands or pairing.nested:
            it.is_reland, it.reland_of = True, number
            relands.append((it, number))
            continue
        it.is_revert, it.revert_of = True, number
        reverts.append((it, number))
        for target in pairing.targets:  # `Revert #13526 and #13640`: both are out
            if target >= len(previous):
                built[target - len(previous)].reverted = True

    landing = {id(it): i for i, it in enumerate(built)}

    def relanded_by(revert: Item, number: int | None) -> int | None:
        """The first reland of `number` to land after `revert` (one before it is no answer)."""
        after = [r for r, n in relands if n == number and landing[id(r)] > landing[id(revert)]]
        return after[0].number if number is not None and after else None

    def target_title(it: Item, number: int | None) -> str:
        pr = landed.get(number) if number is not None else None
        title = pr.title if pr is not None else quoted_title(it.pr.title)
        return clean_title(title).text if title else ""

    revert_rows = [
        Revert(
            revert=it.number,
            sha=it.pr.sha or "",
            reverted=number,
            reverted_in_window=number in in_window,
            title=target_title(it, number) or _wrapped_subject(it, "revert"),
            revert_title=it.pr.title,
            relanded_by=relanded_by(it, number),
        )
        for it, number in reverts
    ]
    reland_rows = [
        Reland(
            reland=it.number,
            sha=it.pr.sha or "",
            relanded=number,
            relanded_in_window=number in in_window,
            title=target_title(it, number) or _wrapped_subject(it, "reland"),
            reland_title=it.pr.title,
        )
        for it, number in relands
    ]
    return revert_rows, reland_rows


def _wrapped_subject(it: Item, kind: str) -> str:
    """What a revert or reland with an unknown target undoes or redoes, from its own title
    (`[Reland] X` → X, `Revert X` → X)."""
    wrapper = read_wrapper(it.clean.text)
    if not (wrapper and wrapper.kind == kind and wrapper.plain):
        return "" if kind == "revert" else it.clean.text.strip().strip('"')
    text = wrapper.rest
    text = text.strip().strip('"')
    return "" if not text or re.fullmatch(r"#?\d+", text) else text
