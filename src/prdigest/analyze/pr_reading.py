"""One reading of a PR: the evidence every stage judges it by, computed once per PR and
handed on (briefs, the digest's plan, the release notes). Its files' roles
(`reading.file_roles`), the lines that reach users, the public names it adds, removes
and renames (`reading.api_changes`), what it announces (`announcements`), the results it
states (`claims`), the version it releases, and its kind judged from all of it
(`kind_judge`). `content_key` names what was read: a brief made for one content is
valid for any window that holds it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from .. import kinds
from ..models import PullRequest
from ..reading import parse_title
from ..reading.api_changes import (
    CLASS,
    ENV,
    EXPORT,
    FIELD,
    FLAG,
    FUNCTION,
    METHOD,
    MODULE,
    ApiChanges,
    ApiName,
    read_diff,
)
from ..reading.file_roles import FileRole, file_role
from ..reading.news_fragments import news_fragment
from ..reading.pr_body import says_internal
from ..reading.releases import released_name, released_version
from .announcements import BREAKING, DEFAULT, DEPRECATION, SAID_IN_NOTES, Announcement
from .body_announcements import said_in_notes
from .brief_types import AnnouncementKind, Evidence, KindJudgment, Surface
from .items import Item
from .kind_judge import KindEvidence, judge_kind
from .notability import Notability

_ANNOUNCED = {
    BREAKING: AnnouncementKind.BREAKING,
    DEPRECATION: AnnouncementKind.DEPRECATION,
    DEFAULT: AnnouncementKind.DEFAULT,
}
_FROM_DIFF = frozenset(
    {"adds a deprecation warning", "removes what its deprecation warned of",
     "removes or renames a public option", "removes or renames a public API",
     "replaces a public API", "removes a public API (a duplicate)",
     "deletes public library code"}
)  # fmt: skip
_FROM_BODY = frozenset({"says it is BC-breaking", "its release note says users must change"})
MAX_SURFACE = 8  # names a brief keeps of each list
_DEVELOPERS = frozenset({FileRole.BUILD, FileRole.TOOL})  # the build, developers' scripts
# a build manifest, wherever it is (a test directory's `TARGETS` is the build's too)
_MANIFEST = re.compile(
    r"(?:^|/)(?:TARGETS|BUCK|BUILD(?:\.bazel)?|CMakeLists\.txt|[^/]+\.(?:bzl|cmake))$"
)
_FIXES = re.compile(r"(?i)^\W*(?:fix\w*|unbreak\w*|repair\w*|correct\w*)\b")


@dataclass(frozen=True, slots=True)
class PRReading:
    number: int | None
    content_key: str
    claims: tuple[str, ...]
    user_facing: bool
    chore: bool
    announced: AnnouncementKind
    migration: str
    notice: str  # the PR's own release-note sentence announcing the break or deprecation
    surface: Surface
    release: str
    kind: KindJudgment


_USERS_FRAGMENTS = frozenset(
    "breaking removal deprecation feature improvement enhancement bugfix bug fix perf "
    "performance security".split()
)
_INTERNAL_KINDS = frozenset({kinds.NOT_USER_FACING, kinds.DEVS})


def read_pr(it: Item, note: Notability) -> PRReading:
    """The reading of one landed PR, from what the analysis already read of it."""
    pr = it.pr
    said = note.announcement
    sub = note.substance
    changes = note.changes or read_diff(pr.files, pr.body, pr.title)
    roles = [file_role(f.path) for f in pr.files]
    fragment = news_fragment(pr.files)
    announced = _ANNOUNCED[said.kind] if said is not None else AnnouncementKind.NOTHING
    evidence = KindEvidence(
        classified=it.cls.kind,
        classified_by=it.cls.kind_rule,
        announced=announced,
        announced_from=_announced_from(said, changes),
        announced_why=said.why if said is not None else "",
        library_lines=sub.library_lines if sub is not None else 0,
        only_docs=bool(roles) and all(r is FileRole.DOCS for r in roles),
        no_library=bool(roles)
        and not any(r in (FileRole.LIBRARY, FileRole.EXAMPLE) for r in roles),
        claims=tuple(it.claims),
        developer_only=bool(roles)
        and all(
            r in _DEVELOPERS or _MANIFEST.search(f.path)
            for r, f in zip(roles, pr.files, strict=True)
        ),
        title_fixes=bool(_FIXES.match(it.clean.text)),
        adds_module=not changes.breaks and any(n.kind == MODULE for n in changes.added),
        declared=fragment.type if fragment is not None else "",
        declared_in=fragment.path if fragment is not None else "",
        says_internal=says_internal(pr.body)
        or parse_title(pr.title).conventional_type == "internal",
    )
    kind = judge_kind(evidence)
    return PRReading(
        number=it.number,
        content_key=content_key(pr),
        claims=tuple(it.claims),
        # a changelog entry the author wrote for users says they see it, however small the
        # diff; a change its words call internal (its body calls it a refactor) is not
        # seen, whatever its size
        user_facing=(fragment is not None and fragment.type in _USERS_FRAGMENTS)
        or ((sub.user_facing if sub is not None else True) and not _called_internal(kind)),
        chore=sub.chore if sub is not None else False,
        announced=announced,
        migration=said.hint if said is not None else "",
        notice=_notice(pr)
        if said is not None and announced is not AnnouncementKind.DEFAULT
        else "",
        surface=_surface(changes),
        release=_release(pr),
        kind=kind,
    )


def _notice(pr: PullRequest) -> str:
    said = said_in_notes(pr.body or "")
    return said.sentence if said is not None else ""


def _announced_from(said: Announcement | None, changes: ApiChanges) -> Evidence:
    if said is None:
        return Evidence.TITLE
    if said.why.startswith("labelled"):
        return Evidence.LABEL
    if said.why in _FROM_BODY or said.why in SAID_IN_NOTES.values():
        return Evidence.BODY
    if (
        said.why in _FROM_DIFF
        or said.why.startswith(("removes `", "raises the minimum `"))
        or (changes.read_from == "diff" and (said.removed or said.renamed))
    ):
        return Evidence.DIFF
    if changes.read_from == "body" and (said.removed or said.renamed):
        return Evidence.BODY
    return Evidence.TITLE


# what users touch first: what a package exports, its classes and functions, the flags and
# variables they type; a module is where names live: told last, and only when it goes
_BY_REACH = {EXPORT: 0, CLASS: 1, FUNCTION: 2, FLAG: 3, ENV: 3, FIELD: 4, METHOD: 5, MODULE: 6}


def _surface(changes: ApiChanges) -> Surface:
    def names(found: tuple[ApiName, ...], modules: bool) -> tuple[str, ...]:
        kept = [n for n in found if n.kind in _BY_REACH and (modules or n.kind != MODULE)]
        ranked = sorted(kept, key=lambda n: _BY_REACH[n.kind])
        return tuple(dict.fromkeys(n.name for n in ranked))[:MAX_SURFACE]

    renamed = sorted(
        (pair for pair in changes.renamed if pair[0].kind in _BY_REACH),
        key=lambda pair: _BY_REACH[pair[0].kind],
    )
    return Surface(
        added=names(changes.added, modules=False),
        removed=names(changes.removed, modules=True),
        renamed=tuple((old.name, new.name) for old, new in renamed)[:MAX_SURFACE],
    )


def content_key(pr: PullRequest) -> str:
    """A digest of everything a brief is read from: title, body, labels and each file's
    path, line counts and diff. The same content gives the same key in any window."""
    digest = hashlib.sha256()
    for part in (pr.title, pr.body or "", "\x1f".join(pr.labels)):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x1e")
    for f in pr.files:
        digest.update(f"{f.path}\x1f{f.old_path}\x1f{f.additions}\x1f{f.deletions}\x1f".encode())
        digest.update((f.patch or "").encode("utf-8", "surrogatepass"))
        digest.update(b"\x1e")
    return digest.hexdigest()[:32]


def _called_internal(kind: KindJudgment) -> bool:
    """Whether the PR's author called it internal (its body, or its title's `internal:`
    type). A title's other words, or its paths, are not enough: `Update version
    compatibility to allow torch 2.11` is users' news."""
    return kind.kind in _INTERNAL_KINDS and kind.evidence is Evidence.BODY


def _release(pr: PullRequest) -> str:
    """The release a PR makes: its version, after the name its title gives it
    (`tokio-util 0.7.19`, `Tokio 1.53.1`), or ""."""
    version = released_version(pr)
    name = released_name(pr) if version else ""
    return f"{name} {version}" if name else version
