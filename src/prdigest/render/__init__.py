"""Rendering: Markdown templates and Markdown-safe inline text."""

from .markdown import code, inline, link, plain, render_template, table_cell

__all__ = ["code", "inline", "link", "plain", "render_template", "table_cell"]
