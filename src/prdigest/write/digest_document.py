"""The digest as a document: what either writer fills, the verifier checks and the one
template (`digest.md.j2`) renders.

Every line carries its Markdown and, as data, the PRs it cites and the figures it quotes
(the `Ledger` records them as the writer issues them), so the verifier checks what the
writer meant, not what a regex reads back.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..render.markdown import render_template


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure a line quotes, and the PR that states it (None: any PR the line cites,
    for a model's sentence, whose figures its cited PRs state between them)."""

    text: str
    pr: int | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the digest (a bullet, a paragraph), with the lines beneath it."""

    text: str
    cites: tuple[int, ...] = ()
    figures: tuple[Figure, ...] = ()
    sub: tuple[Line, ...] = ()


@dataclass(frozen=True, slots=True)
class Block:
    """A headed list of lines after the sections: Reverts, Contributors."""

    heading: str
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Section:
    """A numbered section. `intro`: the emphasised lines under its heading, each followed
    by a blank line (an empty one is the blank line alone)."""

    index: int
    heading: str
    intro: tuple[str, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Digest:
    """A whole digest, complete when built: Key Takeaways, the numbered sections, the line
    of what was counted and not told, the closing blocks and the closing comment."""

    title: str
    takeaways: Line
    sections: tuple[Section, ...] = ()
    tail: Line | None = None
    extras: tuple[Block, ...] = ()
    closing: str = ""

    def lines(self) -> Iterator[Line]:
        """Every line, those beneath a line after it."""
        tops: list[Line] = [self.takeaways]
        tops += [line for section in self.sections for line in section.lines]
        tops += [self.tail] if self.tail else []
        tops += [line for block in self.extras for line in block.lines]
        for line in tops:
            yield line
            yield from line.sub


def to_markdown(digest: Digest) -> str:
    """The digest in Markdown, through the one template both writers share."""
    return render_template("digest.md.j2", {"digest": digest})
