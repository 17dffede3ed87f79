"""The `[site]` table of prdigest.toml, checked and given defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

DEFAULT_TITLE = "DevLog"
DEFAULT_TAGLINE = "What the developers are building: posts, weekly digests and release notes."


@dataclass(frozen=True)
class Topic:
    name: str
    description: str = ""


@dataclass(frozen=True)
class SiteSettings:
    title: str = DEFAULT_TITLE
    tagline: str = DEFAULT_TAGLINE
    base_url: str = ""  # absolute URL the site is published at; "" keeps the feed's links relative
    topics: tuple[Topic, ...] = ()
    repos: tuple[str, ...] | None = None  # None: every repository with a stored report
    recent: int = 10
    digest_topic: str = "Weekly Digests"
    release_notes_topic: str = "Release Notes"
    feed_entries: int = 20

    def topic_description(self, name: str) -> str:
        for topic in self.topics:
            if topic.name == name:
                return topic.description
        return ""


def site_settings(section: Mapping[str, Any], where: str = "[site]") -> SiteSettings:
    """Build settings from `Config.section("site")`, collecting every problem before failing."""
    problems: list[str] = []

    def text(key: str, default: str) -> str:
        value = section.get(key, default)
        if not isinstance(value, str):
            problems.append(f"{where} {key} must be a string")
            return default
        return value

    def positive(key: str, default: int) -> int:
        value = section.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            problems.append(f"{where} {key} must be a positive integer")
            return default
        return value

    base_url = text("base_url", "")
    if base_url and not base_url.startswith(("https://", "http://")):
        problems.append(f"{where} base_url must start with https:// or http://")
        base_url = ""
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    settings = SiteSettings(
        title=text("title", DEFAULT_TITLE),
        tagline=text("tagline", DEFAULT_TAGLINE),
        base_url=base_url,
        topics=_topics(section.get("topics", []), where, problems),
        repos=_repos(section.get("repos"), where, problems),
        recent=positive("recent", 10),
        digest_topic=text("digest_topic", "Weekly Digests"),
        release_notes_topic=text("release_notes_topic", "Release Notes"),
        feed_entries=positive("feed_entries", 20),
    )
    if problems:
        raise ConfigError("; ".join(problems), "fix the [site] table (see docs/site.md)")
    return settings


def _topics(value: Any, where: str, problems: list[str]) -> tuple[Topic, ...]:
    """`topics = [{name, description}]`, or a table `name = "description"`."""
    found: list[Topic] = []
    if isinstance(value, Mapping):
        for name, description in value.items():
            if not isinstance(description, str):
                problems.append(f"{where} topics.{name} must be a string (its description)")
                continue
            found.append(Topic(str(name), description))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, str):
                found.append(Topic(item))
            elif isinstance(item, Mapping) and isinstance(item.get("name"), str):
                description = item.get("description", "")
                if not isinstance(description, str):
                    problems.append(f"{where} topics[{i}].description must be a string")
                    description = ""
                found.append(Topic(item["name"], description))
            else:
                problems.append(f"{where} topics[{i}] needs a name (and optionally a description)")
    else:
        problems.append(f"{where} topics must be a list of {{name, description}} or a table")
    seen: set[str] = set()
    unique = []
    for topic in found:
        if topic.name in seen:
            problems.append(f"{where} topic {topic.name!r} is listed twice")
            continue
        seen.add(topic.name)
        unique.append(topic)
    return tuple(unique)


def _repos(value: Any, where: str, problems: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(r, str) and "/" in r for r in value):
        problems.append(f"{where} repos must be a list of owner/name strings")
        return None
    return tuple(value)
