"""Which repositories to sync, and where each one's PRs come from (prdigest.toml)."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path

from ..config import Config
from ..errors import ConfigError
from ..sources.source_spec import GitHubOptions, SourceSpec
from ..timeutil import parse_date


def configured_repos(config: Config) -> list[str]:
    """The repositories listed in prdigest.toml (`[repos."owner/name"]`)."""
    repos = sorted(config.section("repos"))
    if not repos:
        raise ConfigError(
            "no repositories are configured",
            'list them in prdigest.toml as [repos."owner/name"] tables (see docs/configuration.md)',
        )
    return repos


def spec_for(repo: str, config: Config) -> SourceSpec:
    """The source of a configured repository: `git` / `jsonl` paths, else the GitHub API."""
    settings = config.repo_settings(repo)

    def text(key: str) -> str | None:  # `config_problems` has checked these are strings
        value = settings.get(key)
        return str(value) if value is not None else None

    git, jsonl, since = text("git"), text("jsonl"), settings.get("since")
    return SourceSpec(
        git=Path(git).expanduser() if git else None,
        jsonl=Path(jsonl).expanduser() if jsonl else None,
        ref=text("ref"),
        since=datetime.combine(parse_date(str(since), "since"), time.min, UTC) if since else None,
        github=GitHubOptions(api_url=text("github_api_url"), api=text("api") or "auto"),
    )


def resolve_spec(repo: str, config: Config, given: SourceSpec) -> SourceSpec:
    """Command-line source options win; without --git/--jsonl, the repository's configured
    source applies (GitHub options from the command line still count)."""
    if given.given:
        return given
    configured = spec_for(repo, config)
    return SourceSpec(
        git=configured.git,
        jsonl=configured.jsonl,
        ref=given.ref or configured.ref,
        since=given.since or configured.since,
        github=configured.github.under(given.github),
    )
