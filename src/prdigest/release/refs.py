"""Ref ranges: the commits reachable from `--to-ref` and not from `--from-ref`.

That is `git rev-list <to> ^<from>`, so cherry-picks on a release branch count and
commits already shipped in the old release do not.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import GitError

_GIT_ENV = {"LC_ALL": "C", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"}


@dataclass(frozen=True)
class RefRange:
    from_ref: str
    to_ref: str
    from_sha: str
    to_sha: str
    commits: dict[str, datetime]  # sha → committer date, for every commit in the range

    @property
    def first(self) -> datetime | None:
        return min(self.commits.values()) if self.commits else None

    @property
    def last(self) -> datetime | None:
        return max(self.commits.values()) if self.commits else None


def _git(clone: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", "-C", str(clone), *args],
            capture_output=True,
            text=True,
            errors="replace",
            env={**os.environ, **_GIT_ENV},
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed (not found on PATH)", "install git, then retry"
        ) from None


def _commit_of(clone: Path, ref: str, option: str) -> str:
    result = _git(clone, "rev-parse", "-q", "--verify", "--end-of-options", f"{ref}^{{commit}}")
    sha = result.stdout.strip()
    if result.returncode != 0 or not sha:
        raise GitError(
            f"{option} {ref!r} is not a commit, branch or tag of {clone}",
            "check the name (`git tag`, `git branch -a`) or fetch it first",
        )
    return sha


def ref_range(clone: Path, from_ref: str, to_ref: str) -> RefRange:
    """Check both refs and their ancestry, then list the range's commits."""
    if not clone.is_dir():
        raise GitError(f"{clone}: no such directory", "give --git the path of a local clone")
    probe = _git(clone, "rev-parse", "--git-dir")
    if probe.returncode != 0:
        raise GitError(f"{clone} is not a git repository", "give --git the path of a local clone")
    from_sha = _commit_of(clone, from_ref, "--from-ref")
    to_sha = _commit_of(clone, to_ref, "--to-ref")
    ancestor = _git(clone, "merge-base", "--is-ancestor", from_sha, to_sha)
    if ancestor.returncode == 1:
        raise GitError(
            f"--from-ref {from_ref} is not an ancestor of --to-ref {to_ref}",
            f"give the older release as --from-ref, or its fork point: `git merge-base {from_ref} {to_ref}`",
        )
    if ancestor.returncode != 0:
        raise GitError(f"git merge-base failed: {_last_line(ancestor.stderr)}", "check the clone")
    listing = _git(clone, "rev-list", "--timestamp", to_sha, f"^{from_sha}")
    if listing.returncode != 0:
        raise GitError(f"git rev-list failed: {_last_line(listing.stderr)}", "check the clone")
    commits: dict[str, datetime] = {}
    for line in listing.stdout.splitlines():
        stamp, _, sha = line.partition(" ")
        if sha:
            commits[sha] = datetime.fromtimestamp(int(stamp), UTC)
    return RefRange(from_ref, to_ref, from_sha, to_sha, commits)


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"
