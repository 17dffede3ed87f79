"""The digest context of one window: counts, areas with their themes, PRs with their
notability, reverts, claims, trends, notable PRs and the news (breaking changes,
deprecations, new components) — a JSON-serialisable dict; pure and deterministic."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from typing import Any

from ..models import Classification, PullRequest, links_to_github, pr_url
from ..timeutil import Window, to_iso
from .components import history_order, new_components
from .families import families, family_of, plan_sections
from .history import History
from .items import Item, build_item, inverse_document_frequency, title_terms
from .notability import Notability, assess, news, ranked
from .reverts import pair_reverts
from .spelling import Spelling
from .subjects import keep_subjects
from .themes import Theme, area_themes, series_homes, theme_limit
from .trends import trends
from .window import counts, first_time_authors, persons

SCHEMA = 1


def build_context(
    repo: str,
    window: Window,
    items: Sequence[tuple[PullRequest, Classification]],
    previous: Sequence[tuple[PullRequest, Classification]],
    area_descriptions: dict[str, str] | None = None,
    history: History | None = None,
) -> dict[str, Any]:
    """The digest context of one window. `items` are the records landed in the window
    (direct pushes included), `previous` those of the window before (for trends and as
    the TF-IDF background), `history` what the store knows from outside the window (new
    components and first-time contributors need it; without it, the spelling is learned
    from the two windows' titles alone)."""
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
    keep_subjects(built)  # a bullet says whose `to_json` it adds
    prs = [it for it in built if it.number is not None]
    pushes = [it for it in built if it.number is None]
    previous_prs = sorted(
        (pr for pr, _ in previous), key=lambda pr: (pr.merged_at or window.start, pr.sha or "")
    )

    revert_rows, reland_rows = pair_reverts(built, previous_prs, history.ambiguous_shas)
    components = new_components(history_order(built), history, window.first_day)
    notes = assess(built, components)
    # the PRs a new component's bullet cites lead their section: no theme tells them again
    told = {id(it) for c in components for it in [m for m in c.makers if m.number][:2]}
    for it in built:
        it.score = notes[id(it)].score

    idf = inverse_document_frequency(
        [it.terms for it in built] + [title_terms(pr) for pr, _ in previous]
    )
    by_area: dict[str, list[Item]] = defaultdict(list)
    for it in prs:
        by_area[it.cls.area].append(it)
    area_counts = Counter({area: len(members) for area, members in by_area.items()})
    previous_counts = Counter(cls.area for pr, cls in previous if pr.number is not None)

    areas = []
    series_members: set[int] = set()
    theme_of: dict[int, str] = {}
    # equal counts: the area whose PRs carry more substance first, never the alphabet
    weight = {a: sum(max(0.0, it.score) for it in members) for a, members in by_area.items()}
    # a series across areas is told once, where most of it lands; its other areas count it
    homes = series_homes(prs)
    for area in sorted(by_area, key=lambda a: (-area_counts[a], -round(weight[a], 6), a)):
        members = by_area[area]
        guests = [it for it in prs if homes.get(id(it)) == area and it.cls.area != area]
        away = told | {id(it) for it in members if homes.get(id(it), area) != area}
        said = {id(it): {r["kind"] for r in notes[id(it)].reasons} for it in members + guests}
        internal = sum("internal" in said[id(it)] for it in members)
        keep = {key for key, kinds in said.items() if kinds & {"size", "measured"}}
        themes = area_themes(
            members + guests,
            idf,
            theme_limit(len(members), internal),
            area,
            spelling,
            told=away,
            keep=keep,
        )
        for theme in themes:
            for m in theme.members:
                if m.number is not None:
                    theme_of.setdefault(m.number, theme.topic)
                    if theme.series:
                        series_members.add(m.number)
        entry = _area_dict(area, members, themes, previous_counts.get(area, 0), descriptions, away)
        entry["components"] = [c.path for c in components if c.lead.cls.area == area]
        areas.append(entry)

    who = persons([it.pr for it in built], people)
    first_timers = first_time_authors([it.pr for it in built], who)
    count_block = counts(
        [it.pr for it in built], who, first_timers, len(revert_rows), len(reland_rows), previous_prs
    )
    pr_block: dict[str, dict[str, Any]] = {}
    for it in prs:
        key = str(it.number)
        if key in pr_block:
            pr_block[key]["landings"] += 1
            continue
        pr_block[key] = _pr_dict(repo, it, theme_of.get(it.number or 0), notes[id(it)])

    names = set(by_area)
    for entry in areas:
        entry["family"] = family_of(entry["name"], names)
    top = [a["name"] for a in areas[:4]]
    return {
        "schema": SCHEMA,
        "repo": repo,
        "window": {
            "start": window.first_day.isoformat(),
            "end": window.last_day.isoformat(),
            "label": window.label,
            "iso_week": window.iso_week,
            "days": window.days,
        },
        "title": f"Analysis of Pull Requests for {repo} during {window.label}",
        "counts": count_block,
        "areas": areas,
        "families": families(areas),
        "sections": plan_sections(areas, count_block["prs"]),
        "prs": pr_block,
        "reverts": revert_rows,
        "relands": reland_rows,
        "claims": [{"pr": it.number, "text": text} for it in prs for text in it.claims],
        "trends": trends(
            area_counts, previous_counts, count_block["prs"], count_block["previous_prs"]
        ),
        "first_time_authors": first_timers,
        # first-time since this day (the synced history's start), or ever when None
        "first_time_since": history.known_since.date().isoformat() if history.known_since else None,
        "direct_pushes": [
            {
                "sha": it.pr.sha or "",
                "title": it.pr.title,
                "clean_title": it.clean.text,
                "author": it.pr.author_name,
                "area": it.cls.area,
            }
            for it in pushes
        ],
        "key_takeaways": {
            "total": count_block["prs"],
            "top_areas": top,
            "lead_themes": [
                {"area": a["name"], "theme": a["themes"][0]["topic"], "prs": a["themes"][0]["prs"]}
                for a in areas[:3]
                if a["themes"]
            ],
        },
        "notable": ranked(prs, notes, series_members),
        "news": news(prs, notes, components),
    }


def _landing_order(pair: tuple[PullRequest, Classification]) -> tuple[str, str, int]:
    pr = pair[0]
    return (to_iso(pr.merged_at) if pr.merged_at else "", pr.sha or "", pr.number or 0)


def _theme_dict(theme: Theme) -> dict[str, Any]:
    cited = [m.number for m in theme.cited if m.number is not None]
    return {
        "name": theme.name,
        "topic": theme.topic,
        "kind": theme.kind,
        "sentence": theme.sentence,
        "prs": cited,
        "quotes": [m.number for m in theme.quoted if m.number is not None],
        "members": [m.number for m in theme.members if m.number is not None],
        "more": len(theme.members) - len(cited),
        "figures": [{"text": text, "pr": pr} for text, pr in theme.figures],
        "points": [{"text": text, "pr": pr} for text, pr in theme.points],
        "series": theme.series,
    }


def _area_dict(
    area: str,
    members: list[Item],
    themes: list[Theme],
    previous_count: int,
    descriptions: dict[str, str],
    told: Collection[int] = (),
) -> dict[str, Any]:
    in_themes = {id(m) for t in themes for m in t.members} | set(told)
    rest = [m for m in members if id(m) not in in_themes]
    rest_dirs = Counter(m.home for m in rest if m.home)
    numbers: list[int] = []
    for m in members:
        if m.number is not None and m.number not in numbers:
            numbers.append(m.number)
    return {
        "name": area,
        "family": None,  # set once every area of the window is known (families.py)
        # the profile's catch-all (no rule placed these PRs): named by its paths in prose
        "catch_all": all(m.cls.area_rule.endswith("/default") for m in members),
        "description": descriptions.get(area, ""),
        "count": len(members),
        "previous_count": previous_count,
        "delta": len(members) - previous_count,
        "prs": numbers,
        "themes": [_theme_dict(t) for t in themes],
        "top_paths": _top_dirs(members),
        "kinds": dict(
            sorted(Counter(m.cls.kind for m in members).items(), key=lambda kv: (-kv[1], kv[0]))
        ),
        "rest": {
            "count": len(rest),
            "top_paths": [
                [d, n] for d, n in sorted(rest_dirs.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
            ],
            "reverts": sum(1 for m in rest if m.is_revert or m.is_reland or m.reverted),
            # no theme tells them: a tiny week names them rather than counting them
            "prs": [m.number for m in rest if m.number is not None],
        },
    }


def _top_dirs(members: list[Item]) -> list[list[Any]]:
    """The area's most touched directories, two levels deep: `[[path, PRs], …]`."""
    counts = Counter("/".join(m.home.split("/")[:2]) for m in members if m.home)
    return [[d, n] for d, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]]


def _pr_dict(repo: str, it: Item, theme: str | None, note: Notability) -> dict[str, Any]:
    pr = it.pr
    number = it.number or 0
    lines_by_dir: Counter[str] = Counter()
    for f in pr.files:
        directory = f.path.rsplit("/", 1)[0] if "/" in f.path else ""
        lines_by_dir[directory] += (f.additions or 0) + (f.deletions or 0) + 1
    return {
        "number": number,
        "title": pr.title,
        "clean_title": it.clean.text,
        "tags": list(it.clean.tags),
        "url": pr_url(repo, number) if links_to_github(repo) else None,  # None: cite as PR#N
        "author": pr.author_name or pr.author,
        "area": it.cls.area,
        "kind": it.cls.kind,
        "area_rule": it.cls.area_rule,
        "kind_rule": it.cls.kind_rule,
        "additions": pr.additions,
        "deletions": pr.deletions,
        "files": len(pr.files),
        "top_paths": [
            d for d, _ in sorted(lines_by_dir.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        ],
        "symbols": it.symbols,
        "claims": it.claims,
        "labels": list(pr.labels),
        "merged_at": to_iso(pr.merged_at) if pr.merged_at else None,
        "score": it.score,
        "notability": note.as_dict(),
        "theme": theme,
        "is_revert": it.is_revert,
        "is_reland": it.is_reland,
        "reverted": it.reverted,
        "landings": 1,
    }
