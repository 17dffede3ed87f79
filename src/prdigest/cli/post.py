"""`prdigest post new "Title" --topic NAME [--dir posts/]`: scaffold a post to edit."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import ConfigError
from ..fileio import write_atomic
from ..site.posts import post_skeleton, slugify
from ..timeutil import now


@click.group("post")
def post_group() -> None:
    """Write DevLog posts (Markdown with YAML front matter)."""


@post_group.command("new")
@click.argument("title")
@click.option("--topic", "topics", multiple=True, help="A topic (repeat for several).")
@click.option("--author", default="", help="Author name.")
@click.option(
    "--date", "day_text", metavar="YYYY-MM-DD", help="Date of the post (default: today, UTC)."
)
@click.option(
    "--dir",
    "directory",
    type=click.Path(path_type=Path),
    default=Path("posts"),
    show_default=True,
    help="Directory of posts.",
)
def new_command(
    title: str, topics: tuple[str, ...], author: str, day_text: str | None, directory: Path
) -> None:
    """Create DIR/YYYY-MM-DD-title.md and print its path."""
    from ..timeutil import parse_date

    if not title.strip():
        raise ConfigError("the title is empty", 'give one: prdigest post new "My Title"')
    day = parse_date(day_text, "--date") if day_text else now().date()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{day.isoformat()}-{slugify(title)}.md"
    if path.exists():
        raise ConfigError(f"{path} already exists", "pick another title or edit that file")
    write_atomic(path, post_skeleton(" ".join(title.split()), day, author, list(topics)))
    click.echo(str(path))
