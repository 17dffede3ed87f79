"""The editorial check: a digest read the way a maintainer's editor reads it (issue 13).

`check_digest(markdown, repo, window, history)` takes the digest's Markdown and the real
records (dicts as in ../shared/data/README.md) of the window and of everything before it,
and returns `Finding`s, one rule each:

restated_name, non_name, dangling_bullet, other_share, unsectioned_group, house_spelling,
repository_named_area, quote_shape, uncited_breaking, unnamed_new_component.

What a digest should say is decided here from the records (titles, labels, paths, bodies),
never by asking prdigest's analysis: a check that asks the product what to expect cannot
fail. See "The editorial check" in docs/digest.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime

from editorial_layout import (
    dangling_bullet,
    non_name,
    other_share,
    restated_name,
    unsectioned_group,
)
from editorial_markdown import Digest, Finding, Page, read_digest
from editorial_repo import Knowledge, Record, landed
from editorial_sources import (
    house_spelling,
    quote_shape,
    repository_named_area,
    uncited_breaking,
    unnamed_new_component,
)

__all__ = ["RULES", "Finding", "Knowledge", "check_digest"]

Rule = Callable[[Page], list[Finding]]

RULES: dict[str, Rule] = {
    rule.__name__: rule
    for rule in (
        restated_name,
        non_name,
        dangling_bullet,
        other_share,
        unsectioned_group,
        house_spelling,
        repository_named_area,
        quote_shape,
        uncited_breaking,
        unnamed_new_component,
    )
}


def window_start(digest: Digest, window: Sequence[Record]) -> datetime | None:
    match = re.search(r"during (\d{8})-\d{8}", digest.title)
    if match:
        return datetime.strptime(match.group(1), "%Y%m%d").replace(tzinfo=UTC)
    return min((landed(r) for r in window), default=None)


def check_digest(
    markdown: str,
    repo: str,
    window: Sequence[Record],
    history: Iterable[Record] = (),
    *,
    week: str = "",
    knowledge: Knowledge | None = None,
    rules: Iterable[str] | None = None,
) -> list[Finding]:
    """Every finding of the named rules (all by default). `knowledge` stands for the
    history when a sweep has already learned it week by week."""
    digest = read_digest(markdown)
    known = knowledge if knowledge is not None else Knowledge.from_records(repo, history)
    during = re.search(r"during (\S+)", digest.title)
    label = week or (during.group(1) if during else "")
    page = Page(digest, repo, label, window_start(digest, window), window, known)
    return [f for name in (rules or RULES) for f in RULES[name](page)]
