"""One exception tree. Every message names the object at fault and the fix."""

from __future__ import annotations


class PrdigestError(Exception):
    """Base of every error prdigest reports to a user (exit code 1)."""

    exit_code = 1

    def __init__(self, what: str, fix: str | None = None) -> None:
        self.what = what
        self.fix = fix
        super().__init__(f"{what} — {fix}" if fix else what)


class ConfigError(PrdigestError):
    """Invalid configuration, option or command-line value."""


class UsageError(ConfigError):
    """Options that do not go together (exit code 2, like any usage error)."""

    exit_code = 2


class SourceError(PrdigestError):
    """A source (file, clone, API) gave input we cannot use."""


class GitError(SourceError):
    """git failed or the clone/ref is not usable."""


class GitLogError(GitError):
    """The streaming `git log` failed partway (e.g. a partial clone lacks a file's contents)."""


class GitHubError(SourceError):
    """The GitHub API answered with an error."""


class RateLimitError(GitHubError):
    """GitHub's rate limit is exhausted and we were told not to wait."""


class StoreError(PrdigestError):
    """The database could not be opened, migrated or written."""


class ReadOnlyStoreError(StoreError):
    """The database may be read but not written (file permissions, a read-only replica)."""


class LLMError(PrdigestError):
    """The LLM server failed or answered with something unusable."""


class TemplateError(PrdigestError):
    """A template could not be loaded or rendered."""


class SyncInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sync, with what the sync had committed (`kept`: "1,500 PRs of
    o/n are stored"), for the one line the CLI prints."""

    def __init__(self, kept: str) -> None:
        self.kept = kept
        super().__init__(kept)
