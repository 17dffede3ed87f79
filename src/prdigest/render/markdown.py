"""Markdown rendering: Jinja2 templates (no autoescape) and inline text that PR authors
cannot use to break the page's structure.

PR titles are written by strangers. Inline text therefore never carries a newline, a
leading `#`, an HTML tag, a link (`](`) or emphasis markers of its own (a table cell
escapes its pipes: `table_cell`); code spans the author wrote are kept when balanced,
and code symbols are put in backticks.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import jinja2

from ..analyze.symbols import SYMBOL, is_symbol
from ..errors import TemplateError

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_WS = re.compile(r"\s+")
# What could start Markdown syntax, and only that: a reader of the plain text sees every
# other backslash. An underscore inside a word (`op_name`) and a tilde that opens no
# strikethrough (`~15 tok/s`, `~1.85x`) emphasise nothing, so they stay as written; a pipe
# breaks nothing outside a table (one line makes no table), and a table cell escapes its
# own (`table_cell`).
_ESCAPE = re.compile(
    r"([\\\[\]*<]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|~(?=~)|(?<=~)~|(?<=\S)~(?![\w.~]))"
)
# A line that opens with these is a heading, list item, quote or setext rule.
_BLOCK_START = re.compile(r"#{1,6}(?:\s|$)|[+\-*](?:\s|$)|>|=+$|-+$|\d+[.)]\s")
_BACKTICK_RUN = re.compile(r"`{2,}")


def plain(text: str) -> str:
    """One line of text with Markdown syntax neutralised (no code spans added)."""
    text = _WS.sub(" ", _CONTROL.sub(" ", text)).strip()
    text = _ESCAPE.sub(r"\\\1", text.replace("`", "'"))
    return "\\" + text if _BLOCK_START.match(text) else text


def code(text: str) -> str:
    """A code span that cannot be closed early."""
    inner = _WS.sub(" ", text.replace("`", "'")).strip()
    return f"`{inner}`" if inner else ""


def inline(text: str, symbols: bool = True) -> str:
    """Markdown-safe inline text: the author's balanced code spans kept, symbols in backticks."""
    text = _WS.sub(" ", _CONTROL.sub(" ", text)).strip()
    text = _BACKTICK_RUN.sub("`", text)
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unbalanced backtick: no code spans from the author
        parts = [text.replace("`", "'")]
    out: list[str] = []
    for index, part in enumerate(parts):
        if index % 2 == 1:
            out.append(code(part))
        elif symbols:
            out.append(_with_symbols(part))
        else:
            out.append(_escape(part))
    result = "".join(out)
    if _BLOCK_START.match(result):
        result = "\\" + result
    return result


def _escape(text: str) -> str:
    return _ESCAPE.sub(r"\\\1", text)


def _with_symbols(text: str) -> str:
    out: list[str] = []
    last = 0
    for match in SYMBOL.finditer(text):
        token = match.group(0).rstrip(".-")
        if not is_symbol(token):
            continue
        out.append(_escape(text[last : match.start()]))
        out.append(code(token))
        last = match.start() + len(token)
    out.append(_escape(text[last:]))
    return "".join(out)


def link(label: str, url: str) -> str:
    safe_url = url.replace(" ", "%20").replace(")", "%29").replace("(", "%28")
    return f"[{plain(label)}]({safe_url})"


def table_cell(markdown: str) -> str:
    """A rendered inline fragment made safe for a table cell (pipes escaped once)."""
    return re.sub(r"(?<!\\)\|", r"\\|", markdown)


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("prdigest.render", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown, not HTML: inline() does the neutralising
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_template(name: str, values: dict[str, Any]) -> str:
    try:
        return _environment().get_template(name).render(**values)
    except jinja2.TemplateError as exc:
        raise TemplateError(f"template {name}: {exc}", "report this as a bug in prdigest") from None
