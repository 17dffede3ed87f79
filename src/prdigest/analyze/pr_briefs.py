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
from .english import verb_base
from .items import STOP_TAGS, Item
from .notability import Notability
from .pr_reading import PRReading, read_pr
from .statements import content_words

# a scope or tag that says how a change was made, not what it is about
_PROCESS = STOP_TAGS | CONVENTIONAL_TYPES | frozenset(
    {"deps", "dep", "dependencies", "dependency", "release", "build", "core", "misc", "main",
     "general", "internal", "pr", "agents", "ai", "claude", "python", "py", "rust", "rs", "go",
     "js", "ts", "cpp", "c++", "cuda", "all", "common", "repo", "project", "tooling", "infra",
     "depr", "deprecation", "breaking", "ux", "api", "bug fix", "bug", "bugfix", "hotfix",
     "feature", "enhancement", "improvement", "performance", "cleanup", "maintenance",
     "minor", "nit", "typo", "documentation", "testing"}
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
        why = _notice_why(reading, text)
        out[it.number] = Brief(
            number=it.number,
            author=it.pr.author_email or it.pr.author_name,
            subject=subject_of(it, spelling) or path_subject(it.pr, spelling),
            what=sentence_case_words(text.what, spelling)
            if text.what_from == "title"
            else text.what,
            why=why,
            why_from="notice" if why != text.why else text.why_from,
            writer=text.writer,
            kind=reading.kind.kind,
            kind_evidence=reading.kind,
            component=it.cls.area,
            user_facing=reading.user_facing,
            chore=reading.chore,
            announced=reading.announced,
            migration=reading.migration,
            surface=reading.surface,
            status=status,
            status_of=status_of,
            release=reading.release,
            series=it.series,
            figures=quoted(reading.claims, why),
            score=notes[id(it)].score,
        )
    return out, made


def _notice_why(reading: PRReading, text: BriefText) -> str:
    """A break or a deprecation says what users must know in the PR's own release note
    ("relying on the `name` column is deprecated"), when its what does not say it."""
    notice = reading.notice
    if notice and not _restated(notice, text.what) and len(notice.split()) <= 40:
        return notice
    return text.why


def _restated(one: str, two: str) -> bool:
    a, b = content_words(one), content_words(two)
    return bool(a and b) and len(a & b) >= 0.6 * min(len(a), len(b))


def quoted(claims: Sequence[str], why: str) -> tuple[str, ...]:
    """The stated results (`claims`) a why quotes whole: the figures its line carries."""
    return tuple(c for c in claims if c in why)


def worded(brief: Brief, text: BriefText, claims: Sequence[str]) -> Brief:
    """The brief in another writer's words (a model's): its plan and facts unchanged."""
    return replace(
        brief,
        what=text.what,
        why=text.why,
        why_from=text.why_from,
        writer=text.writer,
        figures=quoted(claims, text.why),
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
    folders = {normalize_tag(d) for f in it.pr.files for d in f.path.split("/")[:-1]}
    for candidate in candidates:
        name = candidate.strip().rstrip("!")  # `fix!:`: a breaking fix, no name
        name = name[1:-1].strip() if name[:1] + name[-1:] in ("[]", "()") else name
        if "(" in name or ")" in name:
            continue  # `fix(ci)`: a conventional type and its scope, read above
        key = normalize_tag(name)
        if not key or key in _PROCESS or key.isdigit() or len(name) > 40:
            continue
        if name.islower() and key in folders:
            continue  # a folder the title names (`fix(nu-command): …`): where, not what
        if verb_base(name.split(" ", 1)[0].strip("`")) and " " in name:
            continue  # `Consolidate AsrModule API: …` is an action, not a name
        if re.fullmatch(r"\d+\s*/\s*\w+", key):
            continue
        if "`" in name or "/" in name:
            return name
        if " " in name:
            return spelling.respell(name)
        # a name with capitals of its own (`ParallelismConfig`) is already a spelling
        own = name != name.lower() and name != name[:1].upper() + name[1:].lower()
        return name if own else spelling.spell(name.lower())
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
    for depth, part in reversed(list(enumerate(shared))):
        key = part.lower().replace("-", "_")
        if (
            key in _GENERIC_DIRS
            or key == package
            or key.startswith(package + "_")
            or (depth == 0 and key.endswith(package))  # `torchao/` in ao: the package root
            or not _NAMED.fullmatch(part)
        ):
            continue
        words = part.lower().replace("-", "_").split("_")
        if not all(spelling.forms(w) for w in words):
            continue  # a directory no title names: its folder name is no name for readers
        return spelling.phrase(part) if "_" in part or part.islower() else part
    return ""


_SMALL = frozenset("a an the and or nor but to with for of in on by at from into via as".split())
_CAPITALISED = re.compile(r"(?<=[\s(/-])([A-Z][a-z]{2,})\b")


def sentence_case_words(text: str, spelling: Spelling) -> str:
    """A title written in Title Case (`Fix GGUF to Work Better with …`) in sentence case:
    each capitalised plain word the repository's titles mostly write in lower case is
    lowered; acronyms, names and code keep their capitals. A title not in Title Case is
    left as it is."""
    words = [w for w in re.findall(r"[A-Za-z][\w-]*", text.split(" ", 1)[-1]) if len(w) > 2]
    # Title Case lowers its small words and keeps acronyms: weigh the other words
    plain = [w for w in words if w.isalpha() and not w.isupper() and w.lower() not in _SMALL]
    capitalised = [w for w in plain if w[0].isupper() and w[1:].islower()]
    if len(capitalised) < 2 or len(capitalised) < 0.6 * len(plain):
        return text

    def lowered(match: re.Match[str]) -> str:
        word = match.group(1)
        forms = spelling.forms(word.lower())
        lower = forms.get(word.lower(), 0)
        upper = sum(n for form, n in forms.items() if form != word.lower())
        return word.lower() if lower >= upper else word

    head, sep, tail = text.partition(" ")
    return head + sep + _CAPITALISED.sub(lowered, " " + tail)[1:] if sep else text


def _relands_by_title(items: Sequence[Item]) -> dict[int, int]:
    """PRs that land again, under the same title, a change a revert of the window took
    back (a reland without a "Reland" in its title): {reland: the reverted PR}."""
    reverted = [it for it in items if it.reverted and it.number is not None]
    if not reverted:
        return {}
    keys = [comparable(it.clean.text) for it in items]  # once per PR, not once per pair
    out: dict[int, int] = {}
    for original in reverted:
        key = comparable(original.clean.text)
        later = False
        for it, its_key in zip(items, keys, strict=True):
            if it is original:
                later = True
                continue
            if later and it.number is not None and not it.is_revert and not it.reverted:
                if its_key == key and it.number not in out:
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
