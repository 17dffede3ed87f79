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
    """A headed list of lines: the callout, Reverts and Relands, Week over Week, …"""

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
class TableRow:
    """A row of the Summary Table."""

    category: str
    component: str
    focus: str
    key: str


@dataclass(frozen=True, slots=True)
class Digest:
    """A whole digest, complete when built: Key Takeaways (and the line of news the LLM
    digest puts under it), the callout, the numbered sections, the tail line of lone PRs,
    the closing blocks, the Summary Table and the closing line."""

    title: str
    takeaways: Line
    sections: tuple[Section, ...] = ()
    notable: Line | None = None
    callout: Block | None = None
    tail: Line | None = None
    extras: tuple[Block, ...] = ()
    table: tuple[TableRow, ...] = ()
    closing: str = ""

    def lines(self) -> Iterator[Line]:
        """Every line, those beneath a line after it."""
        tops: list[Line] = [self.takeaways]
        tops += [self.notable] if self.notable else []
        tops += self.callout.lines if self.callout else ()
        tops += [line for section in self.sections for line in section.lines]
        tops += [self.tail] if self.tail else []
        tops += [line for block in self.extras for line in block.lines]
        for line in tops:
            yield line
            yield from line.sub


def to_markdown(digest: Digest) -> str:
    """The digest in Markdown, through the one template both writers share."""
    return render_template("digest.md.j2", {"digest": digest})
