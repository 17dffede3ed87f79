"""Hand-written posts: Markdown files with YAML front matter (see docs/site.md)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

import yaml

from ..errors import SourceError

_FENCE = "---"


class _FrontMatterLoader(yaml.SafeLoader):
    """Safe YAML that leaves dates as text: an impossible one (`date: 2026-02-30`) is then
    this module's one-line error naming the line, not PyYAML's ValueError."""


_FrontMatterLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_ALLOWED_KEYS = {"title", "date", "author", "topics", "summary", "disclosure", "draft"}


@dataclass(frozen=True)
class Post:
    slug: str
    title: str
    date: date
    body: str  # Markdown
    author: str = ""
    topics: tuple[str, ...] = ()
    summary: str = ""
    disclosure: str = ""
    source: str = ""  # the file it came from, for messages


def slugify(text: str) -> str:
    """Lower-case ASCII words joined by dashes: safe in any URL and file system."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug or "untitled"


def parse_post(text: str, source: str, slug: str) -> Post | None:
    """One post from its file's text; None for a draft. Errors name the file and line."""
    text = text.lstrip("\ufeff")
    lines = text.split("\n")
    if not lines or lines[0].strip() != _FENCE:
        raise SourceError(
            f"{source}:1: a post must start with '---' (YAML front matter)",
            "add front matter with at least title and date (see docs/site.md)",
        )
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == _FENCE)
    except StopIteration:
        raise SourceError(
            f"{source}:1: the front matter is not closed", "end it with a line holding only '---'"
        ) from None
    try:
        meta = yaml.load("\n".join(lines[1:end]), Loader=_FrontMatterLoader) or {}  # noqa: S506
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        raise SourceError(
            f"{source}:{line}: invalid YAML front matter: {getattr(exc, 'problem', exc)}",
            "fix the front matter",
        ) from None
    if not isinstance(meta, dict):
        raise SourceError(
            f"{source}:2: front matter must be a mapping of key: value",
            "write title: …, date: YYYY-MM-DD, …",
        )
    if meta.get("draft") is True:
        return None
    unknown = sorted(str(k) for k in meta if k not in _ALLOWED_KEYS)
    if unknown:
        raise SourceError(
            f"{source}: unknown front matter key(s) {', '.join(unknown)}",
            f"use only {', '.join(sorted(_ALLOWED_KEYS))}",
        )
    return Post(
        slug=slug,
        title=_text(meta, "title", source, required=True),
        date=_date(meta.get("date"), f"{source}:{_line_of('date', lines[:end])}"),
        body="\n".join(lines[end + 1 :]).strip("\n") + "\n",
        author=_text(meta, "author", source),
        topics=_topics(meta.get("topics"), source),
        summary=_text(meta, "summary", source),
        disclosure=_text(meta, "disclosure", source),
        source=source,
    )


def load_posts(directory: Path) -> list[Post]:
    """Every `*.md` below `directory`, sorted by slug; slugs come from file names."""
    if not directory.is_dir():
        raise SourceError(f"posts directory {directory} not found", "create it or pass --posts DIR")
    posts: list[Post] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.rglob("*.md")):
        slug = slugify(path.stem)
        if slug in seen:
            raise SourceError(
                f"{path} and {seen[slug]} both make the page posts/{slug}.html",
                "rename one of the files",
            )
        seen[slug] = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SourceError(f"cannot read post {path}: {exc}", "save it as UTF-8 text") from None
        post = parse_post(text, str(path), slug)
        if post is not None:
            posts.append(post)
    return posts


# Files copied beside the posts so `![alt](images/x.png)` works. No SVG or HTML: a file
# opened directly could run script, and posts are not trusted more than PRs.
ASSET_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif")


def load_assets(directory: Path) -> list[tuple[str, bytes]]:
    """Images below the posts directory as (path relative to it, bytes), sorted."""
    found = []
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.suffix.lower() in ASSET_SUFFIXES:
            relative = path.relative_to(directory).as_posix()
            if any(part.startswith(".") for part in relative.split("/")):
                continue
            found.append((relative, path.read_bytes()))
    return found


def _text(meta: Mapping[str, object], key: str, source: str, required: bool = False) -> str:
    """Front matter (YAML as read) `key` as one line of text, checked."""
    value = meta.get(key)
    if value is None:
        if required:
            raise SourceError(f"{source}: front matter has no {key}", f"add '{key}: …'")
        return ""
    if isinstance(value, (int, float, date)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise SourceError(f"{source}: front matter {key} must be text", f"write '{key}: some text'")
    value = " ".join(value.split())
    if required and not value:
        raise SourceError(f"{source}: front matter {key} is empty", f"give the post a {key}")
    return value


def _line_of(key: str, front_matter: list[str]) -> int:
    """The file line (1-based) where the front matter sets `key`; the opening fence's if none."""
    for number, line in enumerate(front_matter, start=1):
        if line.startswith(f"{key}:"):
            return number
    return 1


def _date(value: object, where: str) -> date:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str):
        for parse in (date.fromisoformat, lambda text: datetime.fromisoformat(text).date()):
            try:
                return parse(value.strip())
            except ValueError:
                pass
    shown = "missing" if value is None else f"{value!r} is not a real date"
    raise SourceError(f"{where}: front matter date {shown}", "write 'date: YYYY-MM-DD'")


def _topics(value: object, source: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(t, str) and t.strip() for t in value):
        raise SourceError(
            f"{source}: front matter topics must be a list of names",
            "write 'topics: [Dynamic Shapes, Dispatcher]'",
        )
    return tuple(dict.fromkeys(" ".join(t.split()) for t in value))


def post_skeleton(title: str, day: date, author: str, topics: list[str]) -> str:
    """The text `prdigest post new` writes: front matter dumped safely, then a body to edit."""
    meta: dict[str, str | list[str]] = {
        "title": title,
        "date": day.isoformat(),
        "author": author,
        "topics": topics,
        "summary": "",
    }
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, default_flow_style=None)
    return f"{_FENCE}\n{front}{_FENCE}\nWrite the first paragraph here: it is the excerpt on the home page.\n"
