"""Render a release-notes context to Markdown with the packaged Jinja2 template."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from ..errors import TemplateError
from .release_context import ReleaseContext

_TEMPLATE = "release_notes.md.j2"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("prdigest.release", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown out; the site escapes when it turns it into HTML
        keep_trailing_newline=True,
        trim_blocks=False,
    )


def render_markdown(context: ReleaseContext) -> str:
    try:
        text = _environment().get_template(_TEMPLATE).render(**context.template_values())
    except jinja2.TemplateError as exc:
        raise TemplateError(
            f"release-notes template failed: {exc}", "report this as a bug"
        ) from exc
    return text.rstrip("\n") + "\n"
