"""The digest context of one window: counts, areas, every PR with its brief, reverts,
claims, trends and the digest's plan — a `DigestContext` (context_types.py); pure and
deterministic."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import timedelta

from ..models import BriefText, Classification, PullRequest, links_to_github, pr_url
from ..reading.spelling import Spelling
from ..timeutil import Window, to_iso
from .brief_types import Brief
from .components import history_order, new_components
from .context_types import Area, Claim, Counts, DigestContext, DirectPush, PRFacts, WindowSpan
from .digest_plan import plan_digest, untold_kind
from .families import families, family_of
from .items import Item, build_item
from .notability import Notability, assess
from .pr_briefs import make_briefs
from .prior_facts import History
from .revert_flags import pair_reverts
from .series_groups import series_homes, series_keys
from .trends import trends
from .window import counts, first_time_authors, persons


def build_context(
    repo: str,
    window: Window,
    items: Sequence[tuple[PullRequest, Classification]],
    previous: Sequence[tuple[PullRequest, Classification]],
    area_descriptions: dict[str, str] | None = None,
    history: History | None = None,
    count_mode: str = "merged",
    merged_and_opened: tuple[int, int] | None = None,
    stored_texts: Mapping[str, BriefText] | None = None,
    made_texts: dict[str, BriefText] | None = None,
) -> DigestContext:
    """The digest context of one window. `items` are the records landed in the window
    (direct pushes included), `previous` those of the window before (for trends and as
    the TF-IDF background), `history` what the store knows from outside the window (new
    components and first-time contributors need it; without it, the spelling is learned
    from the two windows' titles alone). `stored_texts`: the briefs' words already made,
    by content key; those made here are added to `made_texts`, for the caller to store."""
    descriptions = area_descriptions or {}
    spelling = (
        history.spelling
        if history is not None
        else Spelling.learned(pr.title for pr, _ in [*previous, *items])
    )
    history = history or History()
    people = history.people
    ordered = sorted(items, key=_landing_order)
    built = [build_item(pr, cls) for pr, cls in ordered]
    prs = [it for it in built if it.number is not None]
    pushes = [it for it in built if it.number is None]
    previous_prs = sorted(
        (pr for pr, _ in previous), key=lambda pr: (pr.merged_at or window.start, pr.sha or "")
    )

    revert_rows, reland_rows = pair_reverts(built, previous_prs, history.ambiguous_shas)
    components = new_components(history_order(built), history, window.first_day)
    notes = assess(built, components)
    for it in built:
        it.score = notes[id(it)].score
    # A series is one effort: filed, counted and told once, where most of it lands (issue
    # 19: readers file a series under one section; the cleanup PR of an Arm series is Arm's).
    homes = series_homes(prs)
    for it in prs:
        home = homes.get(id(it))
        if home is not None and home != it.cls.area:
            it.cls = replace(it.cls, area=home, area_rule=f"{it.cls.area_rule}+series")
    by_area: dict[str, list[Item]] = defaultdict(list)
    for it in prs:
        by_area[it.cls.area].append(it)
    area_counts = Counter({area: len(members) for area, members in by_area.items()})
    previous_counts = Counter(cls.area for pr, cls in previous if pr.number is not None)
    # equal counts: the area whose PRs carry more substance first, never the alphabet
    weight = {a: sum(max(0.0, it.score) for it in members) for a, members in by_area.items()}
    areas = [
        _area(
            area,
            by_area[area],
            previous_counts.get(area, 0),
            descriptions,
            tuple(c.path for c in components if c.lead.cls.area == area),
        )
        for area in sorted(by_area, key=lambda a: (-area_counts[a], -round(weight[a], 6), a))
    ]

    who = persons([it.pr for it in built], people)
    # who is new is known only against a history long enough to have seen the regulars
    known = history.first_landed is not None and (
        window.first_day - history.first_landed.date() >= NEWCOMER_HISTORY
    )
    first_timers = first_time_authors([it.pr for it in built], who) if known else []
    count_block = counts(
        [it.pr for it in built], who, first_timers, len(revert_rows), len(reland_rows), previous_prs
    )
    briefs, new_texts = make_briefs(prs, notes, spelling, stored_texts)
    if made_texts is not None:
        made_texts.update(new_texts)
    pr_block: dict[int, PRFacts] = {}
    for it in prs:
        number = it.number or 0
        if number in pr_block:
            pr_block[number] = replace(pr_block[number], landings=pr_block[number].landings + 1)
            continue
        pr_block[number] = _pr_facts(repo, it, notes[id(it)], briefs[number])
    plan = plan_digest(
        briefs, {it.number: untold_kind(it.pr) for it in prs if it.number}, series_keys(prs)
    )

    names = set(by_area)
    areas = [replace(entry, family=family_of(entry.name, names)) for entry in areas]
    merged, opened = merged_and_opened or (None, None)
    return DigestContext(
        repo=repo,
        window=WindowSpan(
            start=window.first_day.isoformat(),
            end=window.last_day.isoformat(),
            label=window.label,
            iso_week=window.iso_week,
            days=window.days,
        ),
        title=f"Analysis of Pull Requests for {repo} during {window.label}",
        counts=Counts(**count_block, merged=merged, opened=opened),
        areas=tuple(areas),
        families=tuple(families(areas)),
        prs=pr_block,
        reverts=tuple(revert_rows),
        relands=tuple(reland_rows),
        claims=tuple(
            Claim(it.number, text) for it in prs if it.number is not None for text in it.claims
        ),
        trends=trends(
            area_counts, previous_counts, count_block["prs"], count_block["previous_prs"]
        ),
        first_time_authors=tuple(first_timers),
        # first-time since this day (the synced history's start), or ever when None
        first_time_since=history.known_since.date().isoformat() if history.known_since else None,
        direct_pushes=tuple(
            DirectPush(
                sha=it.pr.sha or "",
                title=it.pr.title,
                clean_title=it.clean.text,
                author=it.pr.author_name,
                area=it.cls.area,
            )
            for it in pushes
        ),
        count_mode=count_mode,
        briefs=briefs,
        plan=plan,
    )


NEWCOMER_HISTORY = timedelta(days=365)


def _landing_order(pair: tuple[PullRequest, Classification]) -> tuple[str, str, int]:
    pr = pair[0]
    return (to_iso(pr.merged_at) if pr.merged_at else "", pr.sha or "", pr.number or 0)


def _area(
    area: str,
    members: list[Item],
    previous_count: int,
    descriptions: dict[str, str],
    components: tuple[str, ...] = (),
) -> Area:
    numbers: list[int] = []
    for m in members:
        if m.number is not None and m.number not in numbers:
            numbers.append(m.number)
    return Area(
        name=area,
        family=None,  # set once every area of the window is known (families.py)
        # the profile's catch-all (no rule placed these PRs)
        catch_all=all(m.cls.area_rule.endswith("/default") for m in members),
        description=descriptions.get(area, ""),
        count=len(members),
        previous_count=previous_count,
        delta=len(members) - previous_count,
        prs=tuple(numbers),
        top_paths=_top_dirs(members),
        kinds=dict(
            sorted(Counter(m.cls.kind for m in members).items(), key=lambda kv: (-kv[1], kv[0]))
        ),
        components=components,
    )


def _top_dirs(members: list[Item]) -> tuple[tuple[str, int], ...]:
    """The area's most touched directories, two levels deep: `((path, PRs), …)`."""
    counts = Counter("/".join(m.home.split("/")[:2]) for m in members if m.home)
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3])


def _pr_facts(repo: str, it: Item, note: Notability, brief: Brief) -> PRFacts:
    """A PR's facts, filed as its brief files it: the kind judged from all its evidence."""
    pr = it.pr
    number = it.number or 0
    lines_by_dir: Counter[str] = Counter()
    for f in pr.files:
        directory = f.path.rsplit("/", 1)[0] if "/" in f.path else ""
        lines_by_dir[directory] += (f.additions or 0) + (f.deletions or 0) + 1
    return PRFacts(
        number=number,
        title=pr.title,
        clean_title=it.clean.text,
        tags=tuple(it.clean.tags),
        url=pr_url(repo, number) if links_to_github(repo) else None,  # None: cite as PR#N
        author=pr.author_name or pr.author,
        area=it.cls.area,
        kind=brief.kind,
        area_rule=it.cls.area_rule,
        kind_rule=f"{brief.kind_evidence.evidence}: {brief.kind_evidence.why}",
        additions=pr.additions,
        deletions=pr.deletions,
        files=len(pr.files),
        top_paths=tuple(
            d for d, _ in sorted(lines_by_dir.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        ),
        symbols=tuple(it.symbols),
        claims=tuple(it.claims),
        labels=tuple(pr.labels),
        merged_at=to_iso(pr.merged_at) if pr.merged_at else None,
        score=it.score,
        notability=note.facts(),
        is_revert=it.is_revert,
        is_reland=it.is_reland,
        reverted=it.reverted,
    )
