"""The brief of every PR of a window, made from its one reading (`pr_reading`): the words
(`brief_text`, or those stored for its content, by either writer), its kind with the
evidence (`kind_judge`), its subject, its public surface, its release and its status in
the window (reverted later, a revert, a reland found by wrapper, title or diff).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..models import BriefText, PullRequest
from ..reading import clean_title, comparable, normalize_tag, parse_title
from ..reading.file_roles import is_library
from ..reading.patterns import COLON_PREFIX
from ..reading.spelling import Spelling
from ..reading.titles import CONVENTIONAL_TYPES
from .brief_text import brief_text
from .brief_types import Brief, Status, Surface
from .items import STOP_TAGS, Item
from .notability import Notability
from .pr_reading import PRReading, read_pr

# a scope or tag that says how a change was made, not what it is about
_PROCESS = STOP_TAGS | CONVENTIONAL_TYPES | frozenset(
    {"deps", "dep", "dependencies", "release", "build", "core", "misc", "main", "general",
     "internal", "pr", "agents", "ai", "claude"}
)  # fmt: skip
_RAW_PREFIX = re.compile(rf"^\s*(?:\[[^\]]*\]\s*)*(?P<prefix>{COLON_PREFIX})\s*:\s+")
_SCOPE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*[A-Za-z]+\((?P<scope>[^()]{1,40})\)!?:\s")
_LEADING_CODE = re.compile(r"^\s*`(?P<name>[^`]{1,40})`")


def make_briefs(
    items: Sequence[Item],
    notes: Mapping[int, Notability],
    spelling: Spelling,
    stored: Mapping[str, BriefText] | None = None,
) -> tuple[dict[int, Brief], dict[str, BriefText]]:
    """The brief of each PR (by number; a number landed twice keeps its last landing) and
    the texts made here that were not stored (by content key), for the caller to store."""
    stored = stored or {}
    made: dict[str, BriefText] = {}
    readings = {id(it): read_pr(it, notes[id(it)]) for it in items if it.number is not None}
    relands = _relands_by_title(items)
    out: dict[int, Brief] = {}
    for it in items:
        if it.number is None:
            continue
        reading = readings[id(it)]
        text = stored.get(reading.content_key)
        if text is None:
            clean = clean_title(it.pr.title, it.number)  # as written: no subject put back
            text = made.get(reading.content_key) or brief_text(it.pr, clean, reading.claims)
            made[reading.content_key] = text
        status, status_of = _status(it, relands)
        out[it.number] = Brief(
            number=it.number,
            subject=subject_of(it, spelling) or path_subject(it.pr, spelling),
            what=text.what,
            why=text.why,
            writer=text.writer,
            kind=reading.kind.kind,
            kind_evidence=reading.kind,
            component=it.cls.area,
            user_facing=reading.user_facing,
            announced=reading.announced,
            migration=reading.migration,
            surface=reading.surface,
            status=status,
            status_of=status_of,
            release=reading.release,
            series=it.series,
            figures=quoted(reading.claims, text.why),
            score=notes[id(it)].score,
        )
    return out, made


def quoted(claims: Sequence[str], why: str) -> tuple[str, ...]:
    """The stated results (`claims`) a why quotes whole: the figures its line carries."""
    return tuple(c for c in claims if c in why)


def worded(brief: Brief, text: BriefText, claims: Sequence[str]) -> Brief:
    """The brief in another writer's words (a model's): its plan and facts unchanged."""
    return replace(
        brief, what=text.what, why=text.why, writer=text.writer, figures=quoted(claims, text.why)
    )


def subject_of(it: Item, spelling: Spelling) -> str:
    """What a bullet names the change by: the title's conventional scope (`fix(cp)`), its
    `Name:` prefix, its first tag that names a thing (`[LLADA2]` → LLaDA2), or the code
    name it opens with (`` `watch` command … ``); "" when the title names none."""
    title = it.pr.title
    info = parse_title(title)
    candidates: list[str] = []
    scope = _SCOPE.match(info.inner)
    if scope:
        candidates.append(scope.group("scope"))
    prefix = _RAW_PREFIX.match(info.inner)
    if prefix and not scope:
        candidates.append(prefix.group("prefix"))
    candidates += [t for t in it.clean.tags if not t.endswith(":")]
    code = _LEADING_CODE.match(it.clean.text)
    if code:
        candidates.append(f"`{code.group('name')}`")
    for candidate in candidates:
        name = candidate.strip().strip("[]()").strip()
        key = normalize_tag(name)
        if not key or key in _PROCESS or key.isdigit() or len(name) > 40:
            continue
        if re.fullmatch(r"\d+\s*/\s*\w+", key):
            continue
        return name if "`" in name or "/" in name else spelling.respell(name)
    return ""


# directories that say where code lives, not what it is about
_GENERIC_DIRS = frozenset(
    """src lib libs pkg packages crates core utils util common internal models model pipelines
    modules ops kernels api main python include csrc source app apps components loaders hooks
    impl base shared helpers runtime cmd commands plugins backends frontend server client
    transformers schedulers quantizers extensions contrib experimental prototype nn""".split()
)
_NAMED = re.compile(r"[A-Za-z][\w.-]{1,40}")


def path_subject(pr: PullRequest, spelling: Spelling) -> str:
    """What a PR is about by where its library code lies: the deepest directory all of it
    shares that names a thing (`pipelines/motif_video/` → Motif-Video, `quantizers/gguf/`
    → GGUF), not where code lives (`src/`, `utils/`, `models/`), nor the package itself.
    "" when its library code spans unrelated places."""
    paths = [f.path.split("/")[:-1] for f in pr.files if is_library(f.path)]
    if not paths:
        return ""
    shared: list[str] = []
    for parts in zip(*paths, strict=False):
        if len(set(parts)) != 1:
            break
        shared.append(parts[0])
    package = pr.repo.rsplit("/", 1)[-1].lower().replace("-", "_")
    for part in reversed(shared):
        key = part.lower().replace("-", "_")
        if (
            key in _GENERIC_DIRS
            or key == package
            or key.startswith(package + "_")
            or not _NAMED.fullmatch(part)
        ):
            continue
        return spelling.name(part) if "_" in part or part.islower() else part
    return ""


def _relands_by_title(items: Sequence[Item]) -> dict[int, int]:
    """PRs that land again, under the same title, a change a revert of the window took
    back (a reland without a "Reland" in its title): {reland: the reverted PR}."""
    reverted = [it for it in items if it.reverted and it.number is not None]
    out: dict[int, int] = {}
    for original in reverted:
        key = comparable(original.clean.text)
        later = False
        for it in items:
            if it is original:
                later = True
                continue
            if later and it.number is not None and not it.is_revert and not it.reverted:
                if comparable(it.clean.text) == key and it.number not in out:
                    out[it.number] = original.number or 0
                    break
    return out


def _status(it: Item, relands: Mapping[int, int]) -> tuple[Status, int | None]:
    if it.is_revert:
        return Status.REVERT, it.revert_of
    if it.reverted:
        return Status.REVERTED, None
    if it.is_reland:
        return Status.RELAND, it.reland_of
    if it.number in relands:
        return Status.RELAND, relands[it.number or 0]
    return Status.LANDED, None


__all__ = ["Brief", "BriefText", "PRReading", "Surface", "make_briefs", "subject_of", "worded"]
