"""Markdown to safe HTML: raw HTML off, only http(s) and relative links, plain-text excerpts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

_SCHEME = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9+.\-]*):")
EXCERPT_CHARS = 320


def is_safe_link(url: str) -> bool:
    """http(s) links and relative links (no scheme at all); everything else is refused."""
    if any(ord(c) < 0x20 for c in url):
        return False
    match = _SCHEME.match(url)
    if match is None:
        return not url.strip().startswith("//")  # protocol-relative links could go anywhere
    return match.group(1).lower() in ("http", "https")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.validateLink = is_safe_link  # type: ignore[method-assign]
    for cell in ("th_open", "td_open"):
        md.add_render_rule(cell, _aligned_cell)
    return md


def _aligned_cell(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Table alignment as a class: the CSP allows no inline `style` attribute."""
    token = tokens[idx]
    style = str(token.attrGet("style") or "")
    if style:
        del token.attrs["style"]
        align = style.removeprefix("text-align:").strip()
        if align in ("left", "center", "right"):
            token.attrSet("class", f"align-{align}")
    return str(self.renderToken(tokens, idx, options, env))


def render_markdown(text: str) -> str:
    """HTML for a post body or a stored report; input HTML is shown as text, never run."""
    return render_with_excerpt(text)[0]


def strip_title(markdown: str) -> str:
    """Drop a leading `# heading` line: the page prints the title itself."""
    lines = markdown.lstrip("\n").split("\n")
    if lines and re.match(r"^#\s", lines[0]):
        return "\n".join(lines[1:]).lstrip("\n")
    return markdown


def excerpt(markdown: str, limit: int = EXCERPT_CHARS) -> str:
    """The first paragraph as plain text, cut at a word boundary with an ellipsis."""
    return _first_paragraph(_parser().parse(markdown), limit)


def render_with_excerpt(markdown: str, limit: int = EXCERPT_CHARS) -> tuple[str, str]:
    """HTML and excerpt from one parse (parsing is most of a build's time)."""
    md = _parser()
    env: dict[str, object] = {}  # markdown-it's scratch space for one parse
    tokens = md.parse(markdown, env)
    _outline_from_h2(tokens)
    return md.renderer.render(tokens, md.options, env), _first_paragraph(tokens, limit)


def _outline_from_h2(tokens: Sequence[Token]) -> None:
    """Shift headings so the body's top level is <h2> under the page's <h1> (digests start
    at ###); screen-reader users navigate by this outline, which must not skip levels."""
    levels = [int(t.tag[1]) for t in tokens if t.type == "heading_open"]
    if not levels:
        return
    shift = min(levels) - 2
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{max(2, min(6, int(token.tag[1]) - shift))}"


def _first_paragraph(tokens: Sequence[Token], limit: int) -> str:
    """The first paragraph that says something: a lead-in to a list ("Candidates to
    rewrite as this release's highlights:") is skipped with its list."""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "paragraph_open" and i + 1 < len(tokens):
            text = plain_text(tokens[i + 1].children or [])
            after = i + 3  # paragraph_open, inline, paragraph_close
            if (
                text.endswith(":")
                and after < len(tokens)
                and tokens[after].type.endswith("_list_open")
            ):
                i = _past_block(tokens, after)
                continue
            if text:
                return shorten(text, limit)
        i += 1
    return ""


def _past_block(tokens: Sequence[Token], start: int) -> int:
    """The index just after the block that opens at `start` (its matching close)."""
    depth = 0
    for j in range(start, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j + 1
    return len(tokens)


def plain_text(children: Sequence[Token]) -> str:
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.children:
            parts.append(plain_text(child.children))
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def shorten(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:.—- ")
    return f"{cut} …"
