"""prdigest: turn a repository's pull requests into digests people read."""

__version__ = "0.1.0"
