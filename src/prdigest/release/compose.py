"""The release notes of a range's PRs: rows (drafted, merged into a worksheet or applied
from one) → context → Markdown → report. The store is the pipeline's (pipeline/release_job.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..analyze.brief_types import Brief
from ..analyze.range_briefs import range_briefs
from ..kinds import BC_BREAKING
from ..models import BriefText, Classification, PullRequest, Report
from ..reading.spelling import Spelling
from ..timeutil import Window, now
from .breaking import MIGRATION_NOTE, states_migration, window_of
from .filing import filed
from .notes_markdown import render_markdown
from .notes_plan import build_context, draft_rows, resolve_rows
from .refs import RefRange
from .release_context import ReleaseContext
from .reverted_in_range import find_reverts, label
from .styles import style_named
from .unreleased import unreleased
from .worksheet import WorksheetRow, merge_rows, read_worksheet, with_full_shas, write_worksheet

Classifier = Callable[[Sequence[PullRequest]], list[Classification]]


@dataclass
class ReleaseNotesResult:
    report: Report
    context: ReleaseContext
    rows: list[WorksheetRow]
    rows_added: int = 0
    worksheet: Path | None = None
    notes: list[str] = field(default_factory=list)
    report_id: int | None = None  # as stored
    made_texts: dict[str, BriefText] = field(default_factory=dict)  # briefs' words to store

    def summary(self) -> str:
        c = self.context.counts
        reasons = ", ".join(f"{n} {why}" for why, n in c.out_reasons.items())
        text = (
            f"{self.report.title}: {c.prs} commits = {c.in_notes} in the notes "
            f"({c.bullets} entries) + {c.out} out" + (f" ({reasons})" if reasons else "")
        )
        if c.deleted_rows:
            text += f" + {c.deleted_rows} deleted from the worksheet"
        if self.worksheet is not None:
            text += f"; worksheet {self.worksheet}: {len(self.rows)} rows, {self.rows_added} new"
        return text


def compose_notes(
    repo: str,
    prs: list[PullRequest],
    classify: Classifier,
    ambiguous: AbstractSet[str],
    *,
    window: Window | None = None,
    refs: RefRange | None = None,
    worksheet: Path | None = None,
    apply: Path | None = None,
    short_links: bool = False,
    spelling: Spelling | None = None,
    stored_texts: Mapping[str, BriefText] | None = None,
    style: str = "pytorch",
) -> ReleaseNotesResult:
    """The release notes of the range's PRs (oldest first), each filed and told by its
    brief (`classify` gives the areas and the classifier's kind the brief weighs;
    `ambiguous`: the abbreviated shas that name several commits; `spelling`: how the
    repository's titles write names; `stored_texts`: briefs' words already made, by
    content key), merged into or applied from a worksheet, planned and rendered in
    `style` (`pytorch` or `changelog`). The caller stores the report and the words made."""
    if (window is None) == (refs is None):
        raise ValueError("give exactly one of window and refs")
    notes_style = style_named(style)
    names = window_of(prs)  # the public names each PR adds, read once for every reading
    by_sha = {pr.sha: pr for pr in prs if pr.sha}
    shas = list(by_sha)
    rows_added = 0
    decided = classify(prs)
    spelling = spelling or Spelling.learned(pr.title for pr in prs)
    pairs = list(zip(prs, decided, strict=True))
    briefs, made = range_briefs(pairs, spelling, ambiguous, stored_texts, names)
    if apply is not None:
        where = str(apply)
        rows = with_full_shas(read_worksheet(apply), shas, by_sha, where)
    else:
        kinds = filed(prs, decided, briefs)
        drafted = draft_rows(
            prs,
            kinds,
            find_reverts(prs, ambiguous),
            unreleased(prs, names),
            _notes(prs, kinds, briefs),
            briefs,
        )
        where = str(worksheet) if worksheet else "the drafted worksheet"
        rows = drafted
        if worksheet is not None and worksheet.exists():
            existing = with_full_shas(read_worksheet(worksheet), shas, by_sha, where)
            landed = {sha: pr.merged_at for sha, pr in by_sha.items()}
            rows, rows_added = merge_rows(existing, drafted, landed)
            rows = refresh_reverts(rows, drafted, rows[len(rows) - rows_added :], by_sha)
        elif worksheet is not None:
            rows_added = len(rows)
    decisions = resolve_rows(rows, by_sha, where)
    first, last, range_info = _describe(window, refs, prs)
    title = (
        f"{repo} release notes ({range_info['from']}..{range_info['to']})"  # as docs name ranges
    )
    context = build_context(
        repo,
        title,
        range_info,
        rows,
        decisions,
        by_sha,
        shas,
        short_links=short_links,
        briefs=briefs,
        style=notes_style,
    )
    if apply is None and worksheet is not None:
        rows = _mark_highlights(rows, context)
        write_worksheet(worksheet, rows)
    markdown = render_markdown(context)
    report = Report(
        repo=repo,
        kind="release_notes",
        window_start=first,
        window_end=last,
        writer="deterministic",
        title=title,
        markdown=markdown,
        context=context.as_dict(),
        created_at=now(),
    )
    return ReleaseNotesResult(
        report,
        context,
        list(rows),
        rows_added,
        worksheet if apply is None else None,
        made_texts=made,
    )


def refresh_reverts(
    rows: list[WorksheetRow],
    drafted: Sequence[WorksheetRow],
    added: Sequence[WorksheetRow],
    prs: dict[str, PullRequest],
) -> list[WorksheetRow]:
    """New commits can revert or reland a row already in the worksheet: then, and only
    then, that row's reason follows (a human's own reason is never touched)."""
    fresh = {row.commit_hash: row for row in drafted}
    relanded = {row.merge_into for row in added if row.merge_into}
    reverted_labels = " ".join(row.reason for row in added if row.reason.startswith("revert of"))
    out = []
    for row in rows:
        now_reason = fresh[row.commit_hash].reason if row.commit_hash in fresh else row.reason
        if not row.reason and now_reason.startswith("reverted by"):
            if re.search(rf"{re.escape(label(prs[row.commit_hash]))}\b", reverted_labels):
                row = replace(row, reason=now_reason)
        elif (
            row.reason.startswith("reverted by") and not now_reason and row.commit_hash in relanded
        ):
            row = replace(row, reason="")
        out.append(row)
    return out


HIGHLIGHT_NOTE = "highlight (draft): named in the Highlights paragraph or table; rewrite it there"


def _mark_highlights(rows: list[WorksheetRow], context: ReleaseContext) -> list[WorksheetRow]:
    """The Highlights are a draft: the worksheet says which rows they were drafted from
    (rows drafted now; a row a human already has is left as it is)."""
    leads = {h.lead for h in context.highlights}
    return [
        replace(row, note=HIGHLIGHT_NOTE)
        if row.commit_hash in leads and row.line == 0 and not row.note
        else row
        for row in rows
    ]


def _notes(
    prs: Sequence[PullRequest], kinds: Sequence[Classification], briefs: Mapping[str, Brief]
) -> dict[str, str]:
    """What a human must look at in the worksheet: a breaking change whose PR states no
    migration (the notes never invent one)."""
    out = {}
    for pr, c in zip(prs, kinds, strict=True):
        brief = briefs.get(pr.sha or "")
        if c.kind == BC_BREAKING and not states_migration([pr], [brief] if brief else []):
            out[pr.sha or ""] = MIGRATION_NOTE
    return out


def _describe(
    window: Window | None, refs: RefRange | None, prs: Sequence[PullRequest]
) -> tuple[str, str, dict[str, str]]:
    """(first day, last day, range description) for the report and the title."""
    if window is not None:
        first, last = window.first_day.isoformat(), window.last_day.isoformat()
        return first, last, {"type": "dates", "from": first, "to": last}
    assert refs is not None
    days = [pr.merged_at.date().isoformat() for pr in prs if pr.merged_at]
    today = now().date().isoformat()
    info = {
        "type": "refs",
        "from": refs.from_ref,
        "to": refs.to_ref,
        "from_sha": refs.from_sha,
        "to_sha": refs.to_sha,
    }
    return (min(days) if days else today), (max(days) if days else today), info
