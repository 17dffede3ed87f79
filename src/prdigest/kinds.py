"""The kinds of change a PR makes: the one registry of their ids, their release-notes
headings, how a digest names them, and the other spellings accepted for them.

The ids are PyTorch's release-notes topics (CLI.md, "Kinds and areas"); the headings and
their order are those of PyTorch's release notes. Code names a kind by its constant
(`kinds.BC_BREAKING`), never by spelling the id again.
"""

from __future__ import annotations

from dataclasses import dataclass

BC_BREAKING = "bc_breaking"
DEPRECATION = "deprecation"
NEW_FEATURES = "new_features"
IMPROVEMENTS = "improvements"
BUG_FIXES = "bug_fixes"
PERFORMANCE = "performance"
DOCS = "docs"
DEVS = "devs"
NOT_USER_FACING = "not_user_facing"


@dataclass(frozen=True, slots=True)
class Kind:
    id: str
    heading: str | None  # its section of the release notes; None: never in the notes
    label: str  # how a digest's prose names PRs of the kind ("3 bug fixes", "BC-breaking")
    # other names accepted for the id in profiles, labels and worksheets, normalised as
    # `classify.spec.normalize_name` does (lower case, `_` for every run of other characters)
    aliases: tuple[str, ...] = ()


# In PyTorch's release-notes order; a kind with no heading last.
REGISTRY: tuple[Kind, ...] = (
    Kind(
        BC_BREAKING,
        "Backwards Incompatible changes",
        "BC-breaking",
        ("backwards_incompatible_changes", "backwards_incompatible_change", "bc_breaking_changes"),
    ),
    Kind(DEPRECATION, "Deprecations", "deprecations", ("deprecations",)),
    Kind(NEW_FEATURES, "New features", "new features", ("new_feature", "features")),
    Kind(IMPROVEMENTS, "Improvements", "improvements", ("improvement",)),
    Kind(BUG_FIXES, "Bug fixes", "bug fixes", ("bug_fix", "bugfixes", "bugfix")),
    Kind(PERFORMANCE, "Performance", "performance", ("perf",)),
    Kind(DOCS, "Documentation", "docs", ("documentation", "doc")),
    Kind(DEVS, "Developers", "developer-facing", ("developers", "developer", "dev")),
    Kind(NOT_USER_FACING, None, "internal", ("not_user_facing_changes",)),
)

KINDS: tuple[str, ...] = tuple(kind.id for kind in REGISTRY)
# (id, heading) of the release notes' sections, in order
SECTIONS: tuple[tuple[str, str], ...] = tuple(
    (kind.id, kind.heading) for kind in REGISTRY if kind.heading is not None
)
LABELS: dict[str, str] = {kind.id: kind.label for kind in REGISTRY}
ALIASES: dict[str, str] = {alias: kind.id for kind in REGISTRY for alias in kind.aliases}
