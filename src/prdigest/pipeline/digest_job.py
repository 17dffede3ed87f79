"""`digest`: check the window, load it from the store once, analyse it, write it with the
chosen writer and store the report; and the window's checks and history it needs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..classify.weekly import AREA_BASIS
from ..config import Config
from ..errors import ConfigError, ReadOnlyStoreError, SourceError
from ..models import BriefText, Classification, PullRequest, Report
from ..reading import abbreviated_reverts
from ..reporting import Reporter, SilentReporter
from ..store import Store
from ..store.window_data import WindowData
from ..timeutil import Window, last_complete_week, now

if TYPE_CHECKING:
    from ..analyze import DigestContext
    from ..analyze.people import People
    from ..analyze.prior_facts import History
    from ..classify import Profile
    from ..reading.spelling import Spelling


@dataclass
class DigestResult:
    report: Report
    context: DigestContext
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # for the closing summary line
    report_id: int | None = None  # as stored
    unstored: str = ""  # why it was not stored, when it was not


def stored_span(store: Store, repo: str) -> tuple[datetime, datetime]:
    span = store.merged_range(repo)
    if span is None:
        raise SourceError(
            f"no pull requests of {repo} in the store",
            f"sync first: prdigest sync {repo} --git PATH (or --jsonl FILE)",
        )
    return span


def check_window(
    store: Store,
    repo: str,
    window: Window,
    count_mode: str = "merged",
    span: tuple[datetime, datetime] | None = None,
) -> None:
    """A window that ends before the repository's first landed PR, or starts after its
    last, is an error (CLI.md): its report would be empty, and published. So is one that
    starts before the stored history does (`sync --since`): it would be wrong. `span`:
    the stored history's first and last landing, when the caller read it already."""
    oldest, newest = span or stored_span(store, repo)
    floor = store.synced_since(repo)
    if floor is not None and window.start < floor:
        # Its days before the floor were skipped, not empty: counts, trends and who is
        # new would all be wrong.
        raise SourceError(
            f"{window.span} starts before the synced history of {repo}, which begins"
            f" {floor:%Y-%m-%d} (it was synced with --since {floor:%Y-%m-%d})",
            f"pick a window from {floor:%Y-%m-%d} on, or sync the older history first"
            f" (prdigest sync {repo} --since {window.first_day} …)",
        )
    if window.start > max(newest, now()) or (count_mode == "merged" and window.start > newest):
        raise SourceError(
            f"nothing of {repo} in the store for {window.span}: its newest landed PR is"
            f" from {newest:%Y-%m-%d}",
            f"sync first (prdigest sync {repo} …) or pick an earlier window",
        )
    if window.end <= oldest:
        raise SourceError(
            f"nothing of {repo} in the store for {window.span}: its oldest landed PR is"
            f" from {oldest:%Y-%m-%d}",
            f"pick a window from {oldest:%Y-%m-%d} on, or sync older history"
            f" (prdigest sync {repo} --since DATE …)",
        )


def default_window(
    store: Store, repo: str, span: tuple[datetime, datetime] | None = None
) -> Window:
    """The last complete week of the stored history, unless the last sync did not finish:
    its newest week would be one from an old part of the history, without a word."""
    _, newest = span or stored_span(store, repo)
    run = store.last_sync(repo)
    if run is not None and run.unfinished:
        raise SourceError(
            f"the last sync of {repo} ({run.source}, started {run.started_at[:16].replace('T', ' ')}"
            f" UTC) did not finish, so its newest stored PR ({newest:%Y-%m-%d}) may not be"
            " its newest",
            f"run that sync again to finish it (prdigest sync {repo} …), or name the window"
            " (--week YYYY-Www or --since DATE)",
        )
    return last_complete_week(min(newest, now()))


def classified(
    store: Store,
    repo: str,
    window: Window,
    config: Config,
    profile_name: str | None = None,
    count_mode: str = "merged",
    spelling: Spelling | None = None,
    loaded: WindowData | None = None,
) -> tuple[list[tuple[PullRequest, Classification]], list[tuple[PullRequest, Classification]], Any]:
    """The window's and the previous window's PRs with their classifications (stored too).
    `spelling`: how the repository writes names, for areas a profile derives from paths;
    `loaded`: the window as read already."""
    from ..classify import profile_for

    loaded = loaded or store.window(repo, window, count_mode)
    current, previous = list(loaded.prs), list(loaded.previous)
    previous_window = window.previous()
    profile = profile_for(repo, config, profile_name)
    if spelling is not None:
        profile.use_spelling(spelling)
    basis: list[PullRequest] = []
    if profile.batch_dependent:
        earlier = store.paths_landed_between(repo, window.end - AREA_BASIS, previous_window.start)
        basis = [*earlier, *previous, *current]
    decided = profile.classify_all([*current, *previous], basis)
    try:
        store.save_classifications(repo, zip(current, decided[: len(current)], strict=True))
    except ReadOnlyStoreError:
        pass  # what was decided is kept to be looked up; the digest needs none of it
    pairs = list(zip(current, decided[: len(current)], strict=True))
    previous_pairs = list(zip(previous, decided[len(current) :], strict=True))
    return pairs, previous_pairs, profile


def build_digest_context(
    store: Store,
    repo: str,
    window: Window,
    config: Config,
    profile_name: str | None = None,
    count_mode: str = "merged",
    loaded: WindowData | None = None,
) -> DigestContext:
    """The digest context of a window; `loaded`: the window as read already."""
    from ..analyze import build_context
    from ..analyze.brief_text import WRITER
    from ..analyze.pr_reading import content_key

    loaded = loaded or store.window(repo, window, count_mode)
    spelling = store.title_spelling(repo, window)
    pairs, previous_pairs, profile = classified(
        store, repo, window, config, profile_name, count_mode, spelling, loaded
    )
    descriptions = {name: profile.area_description(name) for name in profile.area_names()}
    prs = [pr for pr, _ in pairs]
    stored = store.brief_texts([content_key(pr) for pr in prs if pr.number is not None], WRITER)
    made: dict[str, BriefText] = {}
    context = build_context(
        repo,
        window,
        pairs,
        previous_pairs,
        area_descriptions=descriptions,
        history=window_history(store, repo, window, prs, spelling, loaded),
        count_mode=count_mode,
        merged_and_opened=loaded.merged_and_opened,
        stored_texts=stored,
        made_texts=made,
    )
    try:
        store.save_brief_texts(made)
    except ReadOnlyStoreError:
        pass  # made again next time: the digest needs none of them stored
    return context


def classified_with(store: Store, pr: PullRequest, profile: Profile) -> list[PullRequest]:
    """The PRs a digest of this one's ISO week classifies it with: the week and the week
    before, and for a profile deriving its areas from the PRs (the generic one) all those
    of its area basis, a quarter up to the week's end (spelled as the digest spells them);
    the profile is told the spelling."""
    from ..classify.weekly import position_in, week_of

    if pr.merged_at is None:
        return [pr]
    week = week_of(pr.merged_at)
    profile.use_spelling(store.title_spelling(pr.repo, week))
    start = week.previous().start
    if profile.batch_dependent:
        start = min(start, week.end - AREA_BASIS)
    batch = store.merged_between(pr.repo, start, week.end)
    position_in(batch, pr)
    return batch


def window_history(
    store: Store,
    repo: str,
    window: Window,
    prs: list[PullRequest],
    spelling: Spelling,
    loaded: WindowData | None = None,
) -> History:
    """What the store knows from outside the window that its analysis needs (a few
    indexed queries per window, none per PR; the titles' spelling read once per run;
    the history's span and start from `loaded`, when the window was read already)."""
    from ..analyze.prior_facts import History, ancestor_dirs

    paths = [p for pr in prs for f in pr.files for p in (f.path, f.old_path) if p]
    span = loaded.span if loaded else store.merged_range(repo)
    since = loaded.synced_since if loaded else store.synced_since(repo)
    return History(
        known_dirs=frozenset(store.dirs_seen_before(repo, ancestor_dirs(paths), window.start)),
        first_landed=span[0] if span and span[0] < window.start else None,
        people=people_before(store, repo, prs, window.start),
        spelling=spelling,
        ambiguous_shas=store.ambiguous_shas(repo, abbreviated_reverts(prs)),
        known_since=since,
    )


def people_before(store: Store, repo: str, prs: Sequence[PullRequest], before: datetime) -> People:
    """Who the authors of `prs` are across their addresses (the stored .mailmap), and the
    identities under which any of them landed something before `before`."""
    from ..analyze.people import Identity, People, identity_of, lookups

    mailmap = store.mailmap_of(repo, (pr.author_email for pr in prs))
    emails, logins, names = lookups([identity_of(pr) for pr in prs], People(mailmap=mailmap))
    seen = store.identities_before(repo, before, emails, logins, names)
    return People(mailmap=mailmap, seen=frozenset(Identity(*row) for row in sorted(seen)))


def digest(
    store: Store,
    repo: str,
    window: Window | None,
    config: Config,
    *,
    writer: str = "auto",
    profile_name: str | None = None,
    llm_options: dict[str, Any] | None = None,
    reporter: Reporter | None = None,
    count_mode: str = "merged",
    keep: bool = True,
) -> DigestResult:
    """Analyse a window, write its digest and store it (`keep_digest`; with keep=False the
    caller stores it once delivered)."""
    reporter = reporter or SilentReporter()
    span = stored_span(store, repo)  # read once: the window's checks and its history
    window = window or default_window(store, repo, span)
    check_window(store, repo, window, count_mode, span)
    loaded = store.window(repo, window, count_mode, span)
    context = build_digest_context(
        store, repo, window, config, profile_name, count_mode, loaded=loaded
    )
    markdown, used_writer, warnings, notes, llm_facts, context = _write(
        store, loaded, context, config, writer, llm_options or {}, reporter
    )
    if llm_facts:  # what the LLM run did, in the report and `--format json`
        context = replace(context, llm=llm_facts)
    report = Report(
        repo=repo,
        kind="digest",
        window_start=window.first_day.isoformat(),
        window_end=window.last_day.isoformat(),
        writer=used_writer,
        title=markdown.splitlines()[0].lstrip("# ").strip() if markdown else context.title,
        markdown=markdown,
        context=context.as_dict(),
        created_at=now(),
    )
    result = DigestResult(report, context, warnings, notes)
    return keep_digest(store, result) if keep else result


def keep_digest(store: Store, result: DigestResult) -> DigestResult:
    """Store a written digest (what `site build` publishes), unless nothing landed in the
    window: a report of nothing is not published (`unstored` then says so). A window of
    direct pushes only is stored like any other: a repository that lands its work without
    PRs gets its digests published too. Call it once the digest is where it was asked to
    go: a digest that was not delivered is not stored."""
    counts = result.context.counts
    if not (counts.prs or counts.direct_pushes):
        result.unstored = (
            "not stored: nothing landed in the window (no PR, no direct push), so nothing to"
            " publish"
        )
        return result
    result.report_id = store.save_report(result.report)
    return result


def _write(
    store: Store,
    loaded: WindowData,
    context: DigestContext,
    config: Config,
    writer: str,
    llm_options: dict[str, Any],
    reporter: Reporter,
) -> tuple[str, str, list[str], list[str], dict[str, Any], DigestContext]:
    """(markdown, the writer that wrote it, warnings, notes for the closing summary, what
    the LLM run did, the context it was written from: with the model's briefs)."""
    from ..write import llm
    from ..write.deterministic import write_digest

    if writer not in ("auto", "deterministic", "llm"):
        raise ConfigError(f"unknown writer {writer!r}", "use auto, deterministic or llm")
    settings = None if writer == "deterministic" else llm.settings_for(writer, config, llm_options)
    if settings is not None:
        from ..store.llm_cache import StoredReplies

        written = llm.write_with_fallback(
            context, loaded.merged, store, StoredReplies(store), settings, reporter
        )
        used = written.context or context
        return (
            written.markdown,
            written.writer,
            written.warnings,
            written.notes,
            written.facts,
            used,
        )
    return write_digest(context), "deterministic", [], [], {}, context
