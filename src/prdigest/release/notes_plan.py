"""Pure planning: PRs + classifications → worksheet rows → sections → bullets.

The notes are always rendered from worksheet rows, drafted here or edited by a
human, so `--apply` on an untouched worksheet gives the same notes as the draft.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..analyze.brief_types import Brief
from ..analyze.families import family_of
from ..classify.rule_tables import normalize_kind, normalize_name
from ..errors import ConfigError
from ..kinds import (
    BC_BREAKING,
    DEPRECATION,
    IMPROVEMENTS,
    KINDS,
    NEW_FEATURES,
    NOT_USER_FACING,
    PERFORMANCE,
    SECTIONS,
)
from ..models import Classification, PullRequest
from ..reading.file_roles import FileRole, file_role
from .breaking import breaking_heading, details
from .entry_text import entry_sentence
from .release_context import (
    BreakingDetails,
    Entry,
    Group,
    GroupArea,
    Headline,
    Highlight,
    Link,
    Module,
    NotesCounts,
    NotesSection,
    ReleaseContext,
)
from .release_series import draft_leads, series_parts, series_phrase
from .repeated_changes import group_breaking, told_together
from .reverted_in_range import RevertOutcome, label
from .sentences import to_sentence, whole_title
from .styles import NotesStyle, style_named
from .worksheet import WorksheetRow, accepters, files_cell

# PyTorch's module order in its release notes (2.6); other modules follow by size.
PYTORCH_MODULES: tuple[str, ...] = (
    "Python Frontend",
    "NN Frontend",
    "Autograd Frontend",
    "Optim",
    "Composability",
    "Distributed",
    "Profiler",
    "Nested Tensor",
    "Functorch",
    "Quantization",
    "Releng",
    "Cuda",
    "Mps",
    "ROCM",
    "XPU",
    "Miscellaneous",
    "Dynamo",
    "Export",
    "Fx",
    "Inductor",
    "Jit",
    "Sparse Frontend",
)
_LAST_MODULES = {"miscellaneous", "misc", "other", "others", "uncategorized", "unknown", "general"}
SKIP_CATEGORY = "skip"  # PyTorch's category for "not in the notes"
HIGHLIGHTS = 8  # the table's headline changes; the paragraph names the first three
NAMED = 3
_HIGHLIGHT_KINDS = frozenset({NEW_FEATURES, PERFORMANCE})


# -- drafting ------------------------------------------------------------------


def draft_rows(
    prs: Sequence[PullRequest],
    decided: Sequence[Classification],
    reverts: RevertOutcome,
    unreleased: dict[str, str] | None = None,
    notes: dict[str, str] | None = None,
    briefs: Mapping[str, Brief] | None = None,
) -> list[WorksheetRow]:
    """One row per PR, oldest first, with the machine's category, topic, sentence (from
    its brief, `entry_text`), merges (relands, series, duplicates) and reasons for rows
    out of the notes. `unreleased`: sha → why a change added and removed inside the range
    stays out; `notes`: sha → what a human should look at (the worksheet's `note`)."""
    briefs = briefs or {}
    reasons: dict[str, str] = {}
    relands: list[str] = []
    for pr, c in zip(prs, decided, strict=True):
        sha = pr.sha or ""
        # a revert's reason first, then a change that came and went inside the range
        gone = "" if sha in reverts.out else (unreleased or {}).get(sha, "")
        reasons[sha] = gone or _reason(pr, c, reverts, briefs.get(sha))
        merge = reverts.merge_into.get(sha, "")
        # The original is out (not user-facing, a direct push): judge the reland alone.
        relands.append("" if reasons.get(merge) else merge)
    sentences = [
        _as_filed(entry_sentence(briefs.get(pr.sha or ""), pr), c.kind)
        for pr, c in zip(prs, decided, strict=True)
    ]
    # Rows in the notes and not relands join their series (or duplicates) in area and kind.
    joinable = [not reasons[pr.sha or ""] and not relands[i] for i, pr in enumerate(prs)]
    leads = draft_leads(prs, decided, sentences, joinable)
    rows: list[WorksheetRow] = []
    for i, (pr, c) in enumerate(zip(prs, decided, strict=True)):
        sha = pr.sha or ""
        merge = relands[i] or ("" if leads[i] == i else prs[leads[i]].sha or "")
        sentence, reason = sentences[i], reasons[sha]
        first, second, third = accepters(pr)
        rows.append(
            WorksheetRow(
                commit_hash=sha,
                category=c.area,
                topic=c.kind,
                title=sentence,
                files_changed=files_cell(pr),
                pr_link=(pr.url() or "") if pr.number is not None else "",
                author=pr.author_login or pr.author_name or pr.author_email,
                accepter_1=first,
                accepter_2=second,
                accepter_3=third,
                merge_into=merge,
                reason=reason,
                note="" if reason else (notes or {}).get(sha, ""),
            )
        )
    return rows


def _as_filed(sentence: str, kind: str) -> str:
    """A "deprecation" the diff shows removing what it deprecated is filed as a breaking
    change: its entry says so (`Deprecated v1 of X` → `Removed v1 of X`)."""
    if kind == BC_BREAKING and sentence.startswith("Deprecated "):
        return "Removed " + sentence.removeprefix("Deprecated ")
    return sentence


def _reason(pr: PullRequest, c: Classification, reverts: RevertOutcome, brief: Brief | None) -> str:
    if pr.sha in reverts.out:
        return reverts.out[pr.sha or ""]
    if pr.number is None:
        return "direct push (no PR)"
    if brief is not None and brief.release:
        return f"version {brief.release}: the release itself, not a change"
    if c.kind == NOT_USER_FACING:
        return f"not user-facing ({c.kind_rule})" if c.kind_rule else "not user-facing"
    return ""


# -- from rows to notes ----------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """Where one row ended up: in a bullet (led by `lead`) or out, with why."""

    sha: str
    kind: str | None
    area: str
    lead: str | None  # sha of the row whose bullet holds this one
    reason: str


def resolve_rows(
    rows: Sequence[WorksheetRow], prs: dict[str, PullRequest], where: str
) -> list[Decision]:
    """Apply every edit: topic, category, merge_into, reason. `rows` have full shas."""
    by_sha = {row.commit_hash: row for row in rows}
    own: dict[str, str] = {}  # sha → why the row itself is out ("" = in)
    kinds: dict[str, str | None] = {}
    for row in rows:
        kind = normalize_kind(row.topic)
        if kind is None:
            raise ConfigError(
                f"{where} line {row.line}: unknown topic {row.topic!r}",
                f"use one of {', '.join(KINDS)}",
            )
        kinds[row.commit_hash] = kind
        own[row.commit_hash] = _row_out(row, kind, prs[row.commit_hash])
    decisions = []
    for row in rows:
        lead, why = _follow(row, by_sha, own, prs, where)
        decisions.append(Decision(row.commit_hash, kinds[row.commit_hash], row.category, lead, why))
    return decisions


def _row_out(row: WorksheetRow, kind: str, pr: PullRequest) -> str:
    if row.category.strip().lower() == SKIP_CATEGORY:
        return row.reason or "category skip"
    if kind == NOT_USER_FACING:
        return row.reason or "not user-facing"
    # A stale "not user-facing" reason gives way to a topic a human changed.
    if row.reason and not row.reason.startswith("not user-facing"):
        return row.reason
    return ""


def _follow(
    row: WorksheetRow,
    by_sha: dict[str, WorksheetRow],
    own: dict[str, str],
    prs: dict[str, PullRequest],
    where: str,
) -> tuple[str | None, str]:
    """The row that leads this row's bullet, following merge_into chains."""
    seen = [row.commit_hash]
    current = row
    while current.merge_into:
        target = current.merge_into
        if target in seen:
            raise ConfigError(
                f"{where} line {row.line}: merge_into goes round in a circle",
                "point merge_into at a row that is not merged itself",
            )
        if target not in by_sha:
            return None, f"merged into {label(prs[target])}, whose row was deleted"
        seen.append(target)
        current = by_sha[target]
    if own[row.commit_hash]:
        return None, own[row.commit_hash]
    if own[current.commit_hash]:
        return None, f"merged into {label(prs[current.commit_hash])}, which is out of the notes"
    return current.commit_hash, ""


@dataclass
class _Draft:
    """An entry while the decisions gather into it (it becomes an `Entry`)."""

    text: str
    kind: str | None
    module: str
    links: list[Link] = field(default_factory=list)
    shas: list[str] = field(default_factory=list)
    series: str = ""
    details: BreakingDetails | None = None

    def entry(self) -> Entry:
        return Entry(self.text, self.series, tuple(self.links), self.details)


def build_context(
    repo: str,
    title: str,
    range_info: dict[str, str],
    rows: Sequence[WorksheetRow],
    decisions: Sequence[Decision],
    prs: dict[str, PullRequest],
    range_shas: Sequence[str],
    *,
    short_links: bool,
    briefs: Mapping[str, Brief] | None = None,
    style: NotesStyle | None = None,
) -> ReleaseContext:
    """The context the template renders (and the report stores, `as_dict`), typed and
    frozen once built. `briefs`: each PR's brief by commit (the breaking changes'
    paragraphs and the Highlights are told from them); `style`: the convention whose
    sections the entries go to (PyTorch's when not given)."""
    briefs = briefs or {}
    style = style or style_named("pytorch")
    row_of = {row.commit_hash: row for row in rows}
    kind_of = {decision.sha: decision.kind for decision in decisions}
    bullets: dict[str, _Draft] = {}
    order: list[str] = []
    for decision in decisions:
        if decision.lead is None:
            continue
        if decision.lead not in bullets:
            lead_row = row_of[decision.lead]
            bullets[decision.lead] = _Draft(
                text=lead_row.title.strip()
                or to_sentence(
                    whole_title(prs[decision.lead].title, prs[decision.lead].body),
                    prs[decision.lead].number,
                ),
                kind=kind_of[decision.lead],
                module=lead_row.category.strip() or "Miscellaneous",
            )
            order.append(decision.lead)
        pr = prs[decision.sha]
        bullet = bullets[decision.lead]
        # The lead first: a series is counted from the row whose sentence the bullet uses.
        bullet.shas.insert(0 if decision.sha == decision.lead else len(bullet.shas), decision.sha)
        link = Link(pr.number, pr.url(), label(pr))
        if link not in bullet.links:  # a number landed twice (a re-export) links once
            # The row whose sentence the bullet uses links first.
            bullet.links.insert(0 if decision.sha == decision.lead else len(bullet.links), link)
    for draft in bullets.values():  # one change made several times (the worksheet joined them)
        if len(draft.shas) > 1 and draft.kind != BC_BREAKING:
            draft.text = told_together([row_of[s].title.strip() or draft.text for s in draft.shas])
    _name_series([bullets[sha] for sha in order], prs, range_shas)
    for sha in order:
        if bullets[sha].kind == BC_BREAKING:
            shas = bullets[sha].shas
            told = [briefs[s] for s in shas if s in briefs]
            bullets[sha].details = details([prs[s] for s in shas], told)
            bullets[sha].text = breaking_heading(bullets[sha].text, told)
    sections = []
    for kind, heading in style.sections:
        in_kind = [
            bullets[sha]
            for sha in order
            if style.section_of(bullets[sha].kind or "", bullets[sha].text) == kind
        ]
        if not in_kind:
            continue
        modules: dict[str, list[_Draft]] = {}
        for bullet in in_kind:
            modules.setdefault(bullet.module, []).append(bullet)
        ordered = [
            Module(name, tuple(b.entry() for b in modules[name])) for name in module_order(modules)
        ]
        # one change made several times is one Backwards Incompatible entry, told once
        entries = (
            group_breaking([b for m in ordered for b in m.bullets]) if kind == BC_BREAKING else ()
        )
        sections.append(
            NotesSection(
                kind, heading, tuple(ordered), tuple(group_modules(ordered)), tuple(entries)
            )
        )
    highlights = _highlights([bullets[sha] for sha in order], prs, briefs)
    out = [d for d in decisions if d.lead is None]
    reasons: dict[str, int] = {}
    for decision in out:
        key = _reason_group(decision.reason)
        reasons[key] = reasons.get(key, 0) + 1
    in_notes = len(decisions) - len(out)
    deleted = len(range_shas) - len(decisions)
    authors = {prs[sha].author for sha in range_shas if prs[sha].author}
    return ReleaseContext(
        repo=repo,
        title=title,
        range=range_info,
        short_links=short_links,
        highlights=tuple(highlights),
        headline=_headline(highlights, sections),
        sections=tuple(sections),
        counts=NotesCounts(
            prs=len(range_shas),
            in_notes=in_notes,
            bullets=_shown_entries(sections),
            out=len(out),
            out_reasons=dict(sorted(reasons.items())),
            deleted_rows=deleted,
            contributors=len(authors),
        ),
    )


def _shown_entries(sections: Sequence[NotesSection]) -> int:
    """The entries as the notes show them (one change made several times is one)."""
    return sum(
        len(section.entries)
        if section.kind == BC_BREAKING
        else sum(len(module.bullets) for module in section.modules)
        for section in sections
    )


def _name_series(
    bullets: Sequence[_Draft], prs: dict[str, PullRequest], range_shas: Sequence[str]
) -> None:
    """Say so when an entry is a series (`a three-part series: #1, #2, #3`); judged from
    the PRs themselves, so a drafted and an applied worksheet read the same."""
    several = [b for b in bullets if len(b.links) > 1]
    if not several:
        return
    for bullet in several:
        bullet.series = series_phrase(series_parts([prs[sha] for sha in bullet.shas]))


def module_order(modules: Mapping[str, Sequence[object]]) -> list[str]:
    """PyTorch's module order where known, then by number of bullets, catch-alls last; a
    family's modules (`Backends: Arm`, `Backends: NXP`) stay together, as in the digests."""
    known = {normalize_name(name): i for i, name in enumerate(PYTORCH_MODULES)}
    family = {name: family_of(name, set(modules)) or name for name in modules}
    size: dict[str, int] = {}
    for name, bullets in modules.items():
        size[family[name]] = size.get(family[name], 0) + len(bullets)

    def key(name: str) -> tuple[int, int, int, str, int, str]:
        norm = normalize_name(name)
        if norm in _LAST_MODULES:
            return (2, 0, 0, "", 0, norm)
        if norm in known:
            return (0, known[norm], 0, "", 0, norm)
        group = family[name]
        return (1, 0, -size[group], normalize_name(group), -len(modules[name]), norm)

    return sorted(modules, key=key)


MAX_GROUPS = 15  # `###` headings a section has at most, as PyTorch's notes do
MISCELLANEOUS = "Miscellaneous"


def group_modules(modules: list[Module]) -> list[Group]:
    """A `###` per top-level area (`Backends: Arm`, `Backends: NXP` → Backends), its
    sub-areas as lead-ins (`Arm`, `NXP`; the family's own area first, with none), in the
    modules' order; past MAX_GROUPS, the smallest groups fold into Miscellaneous, each
    area under its own name."""
    names = {m.name for m in modules}
    groups: dict[str, list[GroupArea]] = {}
    for module in modules:
        family = family_of(module.name, names) or module.name
        lead = module.name[len(family) :].lstrip(":").strip() if family != module.name else ""
        groups.setdefault(family, []).append(GroupArea(lead, module.bullets))
    for members in groups.values():
        members.sort(key=lambda m: m.lead != "")  # the family's own area first (stable)
    if len(groups) > MAX_GROUPS:
        size = {g: sum(len(m.bullets) for m in members) for g, members in groups.items()}
        keep = set(sorted(groups, key=lambda g: -size[g])[: MAX_GROUPS - 1])
        keep.discard(MISCELLANEOUS)
        folded: list[GroupArea] = []
        for name in list(groups):
            if name not in keep:
                for member in groups.pop(name):
                    lead = f"{name}: {member.lead}" if member.lead else name
                    folded.append(
                        GroupArea(lead if name != MISCELLANEOUS else member.lead, member.bullets)
                    )
        folded.sort(key=lambda m: m.lead != "")
        groups[MISCELLANEOUS] = folded
    return [Group(name, tuple(members)) for name, members in groups.items()]


_TAKES_AWAY = frozenset({"Removed", "Deleted", "Dropped", "Deprecated", "Reverted"})


def _highlights(
    bullets: list[_Draft], prs: dict[str, PullRequest], briefs: Mapping[str, Brief]
) -> list[Highlight]:
    """What the release brings its users, from the top briefs: new features, speed-ups and
    improvements of several PRs or that announce something, whose briefs reach users,
    ranked by the briefs' notability (`Brief.score`: stated results, new capability,
    announcements, library code, kind) and the number of PRs a bullet gathers; each with
    its stage (`Prototype` when its library code is a prototype's or an experiment's, else
    `Core`) and the phrase the paragraph names it by."""
    scored = []
    for position, bullet in enumerate(bullets):
        told = [briefs[sha] for sha in bullet.shas if sha in briefs]
        if not told or not any(b.user_facing for b in told):
            continue
        best = max(b.score for b in told)
        announced = any(b.announced for b in told)
        # features, as PyTorch's table lists them; breaking changes and deprecations
        # have their own sections, which the paragraph points to
        candidate = bullet.kind in _HIGHLIGHT_KINDS or (
            bullet.kind == IMPROVEMENTS and (len(bullet.links) > 1 or announced)
        )
        # what went is no feature to headline ("Removed rope fusion option, …")
        candidate = candidate and _opening_verb(bullet.text) not in _TAKES_AWAY
        if candidate:
            score = best + math.log(len(bullet.links))
            scored.append((-round(score, 6), position, bullet))
    headings = dict(SECTIONS)
    return [
        Highlight(
            text=b.text,
            series=b.series,
            links=tuple(b.links),
            section=headings.get(b.kind or "", b.kind or ""),
            module=b.module,
            stage=stage_of([prs[sha] for sha in b.shas]),
            phrase=headline_phrase(b.text),
            lead=b.shas[0],
            details=b.details,
        )
        for _, _, b in sorted(scored, key=lambda row: row[:2])[:HIGHLIGHTS]
    ]


def _opening_verb(sentence: str) -> str:
    return sentence.split(" ", 1)[0].capitalize()


def _headline(highlights: list[Highlight], sections: list[NotesSection]) -> Headline:
    """The Highlights paragraph and table, drafted as PyTorch writes them: the first
    `NAMED` headline changes by name, how many breaking changes and deprecations to read,
    and a table of the headline changes by stage (a column per stage that has one)."""
    entries = {s.kind: sum(len(m.bullets) for m in s.modules) for s in sections}
    columns = [stage for stage in (CORE, PROTOTYPE) if any(h.stage == stage for h in highlights)]
    by_stage = [[h for h in highlights if h.stage == stage] for stage in columns]
    depth = max((len(c) for c in by_stage), default=0)
    rows = tuple(tuple(c[i] if i < len(c) else None for c in by_stage) for i in range(depth))
    return Headline(
        named=tuple(highlights[:NAMED]),
        breaking=entries.get(BC_BREAKING, 0),
        deprecations=entries.get(DEPRECATION, 0),
        columns=tuple(columns),
        rows=rows,
    )


PROTOTYPE, CORE = "Prototype", "Core"
_PROTOTYPE_PART = frozenset({"prototype", "prototypes", "experimental", "experiments", "sandbox"})


def stage_of(members: Sequence[PullRequest]) -> str:
    """`Prototype` when most of the library lines the PRs change sit under a prototype or
    experimental directory, as ao's `torchao/prototype/` and torchtitan's `experiments/`."""
    inside = outside = 0
    for pr in members:
        for change in pr.files:
            if file_role(change.path) is not FileRole.LIBRARY:
                continue
            lines = (change.additions or 0) + (change.deletions or 0)
            parts = {part.lower() for part in change.path.split("/")[:-1]}
            if parts & _PROTOTYPE_PART:
                inside += lines
            else:
                outside += lines
    return PROTOTYPE if inside > outside else CORE


_AS_NOUN = {"added": "", "introduced": "", "implemented": "", "enabled": "", "created": ""}
_AS_ACT = {"removed": "the removal of ", "deleted": "the removal of ", "dropped": "dropping ",
           "deprecated": "the deprecation of ", "supported": "support for ",
           "renamed": "the renaming of "}  # fmt: skip


def headline_phrase(sentence: str) -> str:
    """An entry's sentence as the Highlights paragraph names it: `Added X` → `X`,
    `Supported X` → `support for X`, `Removed X` → `the removal of X`; others as written,
    their first letter lowered unless it starts a name (`MXFP8`, `` `torch.compile` ``)."""
    first, _, rest = sentence.partition(" ")
    low = first.lower()
    if rest and low in _AS_NOUN:
        return rest
    if rest and low in _AS_ACT:
        return _AS_ACT[low] + rest
    if first[1:2].isupper() or first.startswith("`"):
        return sentence
    return sentence[:1].lower() + sentence[1:]


def _reason_group(reason: str) -> str:
    text = reason.lower()
    for prefix, group in (
        ("not user-facing", "not user-facing"),
        ("category skip", "category skip"),
        ("revert of", "reverts"),
        ("reverted by", "reverted"),
        ("direct push", "direct pushes"),
        ("merged into", "merged into a row out of the notes"),
        ("added #", "added and removed in range"),
        ("version ", "releases"),
    ):
        if text.startswith(prefix):
            return group
    return "other reasons"
