"""Whether a PR releases the project, and which version: a release is news that leads a
digest ("v2.12.0 released"), never a tail item ("Version (2 PRs): Prepare release").

A PR releases version V when its title says so ("Release 2.12.0", "Prepare release
v2.12.0", "chore: prepare tokio-util v0.7.19", "chore(release): 2.12.0", "Bump version to 2.12.0", "Changelog for 1.20.1",
"v1.0") or, with a title that speaks of a release or a version without naming one, when
its diff sets V in a version file (`version = "2.12.0"`, `__version__`, `"version":`).
Development versions (`1.1.0.dev0`, `2.0.0-dev`) are the work after a release, not one.
"""

from __future__ import annotations

import re

from ..models import PullRequest
from .file_roles import FileRole, file_role

_VERSION = r"v?(?P<version>\d+\.\d+(?:\.\d+){0,2}(?:[-.]?(?:rc|a|b|alpha|beta|post)\.?\d*)?)"
_TITLE = re.compile(
    rf"(?i)^(?:\[[^\]]*\]\s*)*(?:chore\(release\):?\s*|(?:chore|build|ci):\s*)?"
    rf"(?:release:?\s*|releasing\s+|prepare(?:s|d)?\s+(?:for\s+)?(?:the\s+)?(?:release\s+(?:of\s+)?)?"
    rf"(?P<name>[A-Za-z][\w.-]*\s+)?|cut\s+(?:release\s+)?|"
    rf"bump(?:s|ed)?\s+(?:the\s+)?(?:package\s+)?version\s+(?:to\s+)?|version\s+bump\s+(?:to\s+)?|"
    rf"(?:(?:add|some|final)\s+)?(?:the\s+)?(?:changelog|release notes?)(?:\s+updates?)?\s+"
    rf"(?:for\s+)?(?:[A-Za-z][\w.-]*\s+)?|\S+\s+)?"
    rf"{_VERSION}(?:\s+release(?:d)?)?\s*$"
)
_SPEAKS = re.compile(r"(?i)\b(?:release|releasing|changelog|version bump|bump (?:the )?version)\b")
_SET_VERSION = re.compile(
    rf"""(?m)^\+\s*(?:__version__|version|VERSION|"version")\s*[:=]\s*["']{_VERSION}["']"""
)
_VERSION_FILE = re.compile(r"(?:^|/)(?:version|VERSION)(?:\.txt)?$")
_BARE_VERSION = re.compile(rf"(?m)^\+\s*{_VERSION}\s*$")
_DEV = re.compile(r"(?i)dev|\.post\d|snapshot")
_AFTER = re.compile(r"(?i)\b(?:after|post)[- ]")  # `version.txt after 0.19.4 release`: the next one
_NOT_RELEASE = re.compile(
    r"(?i)\b(?:bump|update|upgrade|pin)\s+(?!(?:the\s+)?(?:package\s+)?version\b)\S"
)


def released_version(pr: PullRequest) -> str:
    """The version this PR releases, or ""."""
    title = pr.title.strip().rstrip(".")
    if _NOT_RELEASE.search(title) and not _SPEAKS.search(title):
        return ""  # `Bump aiohttp from 3.13.3 to 3.13.4`: a dependency's version
    found = _TITLE.match(title)
    version = found.group("version") if found else ""
    if found and not _SPEAKS.search(title) and not _sets_version(pr, version):
        # a bare `2.12.0` or `mypy 1.20.1`: a release only if the diff sets it
        version = ""
    if not version and _SPEAKS.search(title) and not _AFTER.search(title):
        version = _version_set(pr)
    return "" if not version or _DEV.search(version) else version.lstrip("v")


def released_name(pr: PullRequest) -> str:
    """What a release PR's title says it releases (`chore: prepare tokio-util v0.7.19` →
    "tokio-util"), or "" when it names nothing but the version."""
    found = _TITLE.match(pr.title.strip().rstrip("."))
    name = (found.group("name") or "").strip() if found else ""
    return "" if name.lower() in ("version", "release", "the", "for", "v") else name


def _version_set(pr: PullRequest) -> str:
    for change in pr.files:
        if file_role(change.path) in (FileRole.TEST, FileRole.EXAMPLE):
            continue  # `version = "1.2.3"` in a test's fixture releases nothing
        patch = change.patch or ""
        match = _SET_VERSION.search(patch)
        if not match and _VERSION_FILE.search(change.path):
            match = _BARE_VERSION.search(patch)  # `version.txt`: the version alone on a line
        if match:
            return match.group("version")
    return ""


def _sets_version(pr: PullRequest, version: str) -> bool:
    return bool(version) and _version_set(pr).lstrip("v") == version.lstrip("v")


_CHANGELOG = re.compile(r"(?i)(?:^|/)(?:changelog|changes|history|news|release[-_ ]?notes?)[^/]*$")
_ITEM = re.compile(r"^\+\s{0,3}[-*]\s+(?P<text>\S.*)$")
# `(#12)`, `([#12](url), [#13](url))`, `([#12], [#13])` (reference links), `[#12](url)`
_REF = r"(?:#\d+|\[#\d+\](?:\([^)]*\))?)"
_REFS = re.compile(rf"\s*\({_REF}(?:,\s*{_REF})*\)|\s*\[#\d+\]\([^)]*\)")
# a changelog entry's area prefix: `io: add write_all_vectored`, `stream: fix overflow`
_AREA_PREFIX = re.compile(r"^[a-z][\w-]*(?:::\w+)?:\s+(?=[a-z])")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def changelog_items(pr: PullRequest, limit: int = 3) -> tuple[str, ...]:
    """The first entries a release PR adds to its changelog (their text, without PR
    references and links): what the release brings, in the project's own words."""
    items: list[str] = []
    for change in pr.files:
        if not change.patch or not _CHANGELOG.search(change.path):
            continue
        for line in change.patch.splitlines():
            found = _ITEM.match(line)
            if found:
                text = _LINK.sub(r"\1", _REFS.sub("", found.group("text"))).strip().rstrip(".")
                text = _AREA_PREFIX.sub("", text)
                if len(text.split()) >= 2:
                    items.append(text)
            if len(items) >= limit:
                return tuple(items)
    return tuple(items)
