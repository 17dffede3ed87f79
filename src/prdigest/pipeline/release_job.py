"""`release-notes`: load the range's PRs from the store, compose the notes
(release/compose.py: judge, draft or apply the worksheet, plan, render), store the report."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from ..config import Config
from ..errors import ReadOnlyStoreError, SourceError
from ..models import Classification, PullRequest
from ..reading import abbreviated_reverts
from ..reading.spelling import Spelling
from ..release import Classifier, RefRange, ReleaseNotesResult, compose_notes
from ..store import Store
from ..timeutil import Window


def release_notes(
    store: Store,
    repo: str,
    config: Config,
    *,
    window: Window | None = None,
    refs: RefRange | None = None,
    worksheet: Path | None = None,
    apply: Path | None = None,
    short_links: bool = False,
    profile_name: str | None = None,
    classifier: Classifier | None = None,
    style: str = "auto",
) -> ReleaseNotesResult:
    """The release notes of a date window or a ref range, stored as a report.
    `classifier`: how PRs are classified (default: as their weeks' digests file them);
    `style`: the sections' convention, `pytorch` (PyTorch's), `changelog` (Keep a
    Changelog's) or `auto` (PyTorch's for a profile of PyTorch's family, Keep a Changelog's
    for the generic profile)."""
    if (window is None) == (refs is None):
        raise ValueError("give exactly one of window and refs")
    from ..analyze.brief_text import WRITER
    from ..analyze.pr_reading import content_key
    from ..classify.weekly import week_of

    prs = prs_in_range(store, repo, window, refs)
    last = max((pr.merged_at for pr in prs if pr.merged_at), default=None)
    spelling = store.title_spelling(repo, window or (week_of(last) if last else None))
    stored = store.brief_texts([content_key(pr) for pr in prs if pr.number is not None], WRITER)
    result = compose_notes(
        repo,
        prs,
        classifier or _digest_classifier(store, repo, config, profile_name),
        store.ambiguous_shas(repo, abbreviated_reverts(prs)),
        window=window,
        refs=refs,
        worksheet=worksheet,
        apply=apply,
        short_links=short_links,
        spelling=spelling,
        stored_texts=stored,
        style=style if style != "auto" else _style_of(repo, config, profile_name),
    )
    try:
        store.save_brief_texts(result.made_texts)
    except ReadOnlyStoreError:
        pass  # made again next time: the notes need none of them stored
    result.report_id = store.save_report(result.report)
    return result


def prs_in_range(
    store: Store, repo: str, window: Window | None, refs: RefRange | None
) -> list[PullRequest]:
    """The stored PRs of a date window or a ref range, oldest first."""
    if store.merged_range(repo) is None:
        raise SourceError(
            f"no pull requests of {repo} in the store",
            f"sync first (prdigest sync {repo} --git PATH or --jsonl FILE), or give a source option",
        )
    if refs is None:
        assert window is not None
        return store.merged_between(repo, window.start, window.end)
    if not refs.commits:
        return []
    assert refs.first is not None and refs.last is not None
    candidates = store.merged_between(repo, refs.first, refs.last + timedelta(seconds=1))
    found = [pr for pr in candidates if pr.sha in refs.commits]
    if not found:
        raise SourceError(
            f"none of the {len(refs.commits)} commits of {refs.from_ref}..{refs.to_ref} is in the store",
            f"sync that history: give --git PATH (it syncs --to-ref {refs.to_ref}'s history first)",
        )
    return found


def _digest_classifier(
    store: Store, repo: str, config: Config, profile_name: str | None
) -> Classifier:
    """Each PR filed as its week's digest files it (one PR, one area in every output).
    The profile is made when first asked (applying a worksheet classifies nothing)."""
    from ..classify import profile_for
    from ..classify.weekly import classify_as_digests

    def landed(week: Window) -> list[PullRequest]:
        return store.merged_between(repo, week.start, week.end)

    def spelling_of(week: Window) -> Spelling:
        return store.title_spelling(repo, week)

    def classify(prs: Sequence[PullRequest]) -> list[Classification]:
        profile = profile_for(repo, config, profile_name)
        return classify_as_digests(profile, prs, landed, spelling_of)

    return classify


def _style_of(repo: str, config: Config, profile_name: str | None) -> str:
    """PyTorch's sections for the profiles of PyTorch's family, Keep a Changelog's for the
    generic profile (a repository of any other convention)."""
    from ..classify.profiles import GENERIC, profile_name_for

    return "changelog" if profile_name_for(repo, config, profile_name) == GENERIC else "pytorch"
