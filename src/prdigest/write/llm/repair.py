"""One more ask for an area the model wrote nothing publishable for.

A small model often pads a sentence with what its PRs never say ("for better
performance", "ensuring consistency"): verification drops it, and when it drops
every theme of an area, the area gets prdigest's own themes. Asked once more —
the same PR lines, told which sentences were dropped and which of their words no
PR writes — a 1.5B model mostly writes them again in the PRs' words. The re-ask
is bounded: one request per failed request, at most `MAX_REASKS` a digest, never split,
never asked again; its answer is verified like any other, so nothing looser gets through.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import jinja2

from . import tally
from .request_plan import AreaPart, AreaPlanner, Request, example_sentence, item_title, render
from .runner import Outcome
from .schemas import with_short_sentences
from .verify import Theme, Verifier

MAX_REJECTED_SHOWN = 4  # the dropped sentences a re-ask quotes, per request
# Re-asks per digest, the largest areas first: a model that writes nothing usable (a 135M
# one) costs a few more requests, never twice the digest's.
MAX_REASKS = 4
MAX_WORDS_SHOWN = 6  # the words no PR writes, per sentence


@dataclass
class Rejected:
    """An area none of whose themes passed: what the model wrote and why it failed."""

    area: str
    themes: list[Theme] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    hints: list[str] = field(default_factory=list)  # per theme: why it was dropped

    def why(self) -> str:
        """Why the section has prdigest's own themes, as the digest tells its reader: an
        answer that gave it no theme; "" when verification dropped them (`reason`)."""
        if not self.themes:
            return "the model's answer gave it no theme"
        return ""  # verification dropped them: why is in the warnings and `--format json`

    @property
    def reason(self) -> str:
        """The one reason that counts it: no theme, or the commonest reason of a drop."""
        if not self.themes:
            return "no theme in the answer"
        return self.reasons.most_common(1)[0][0] if self.reasons else "dropped"


@dataclass
class Record:
    """What the model lost and won back, for `--format json` and the benchmark: per area
    it did not write, the reason counted ("timed out", "words not in the cited PRs", "no
    theme in the answer"); the areas re-asked, and those the re-ask won back."""

    lost: dict[str, str] = field(default_factory=dict)
    retried: set[str] = field(default_factory=set)
    recovered: set[str] = field(default_factory=set)


Retry = Callable[[list[Outcome], dict[str, Rejected]], list[Outcome]]


def model_themes(
    outcomes: list[Outcome], verifier: Verifier
) -> tuple[dict[str, list[Theme]], dict[str, str], dict[str, Rejected]]:
    """The model's verified themes per area, why an area has no answer at all (a failed
    request), and the areas of an answer none of whose themes passed (with why)."""
    found: dict[str, list[Theme]] = {}
    why_not: dict[str, str] = {}
    asked: dict[str, Rejected] = {}
    for outcome in outcomes:
        names = [p.name for p in outcome.request.areas]
        if outcome.reply is None:
            for name in names:
                why_not.setdefault(name, f"the model's answer for it failed ({outcome.failure})")
            continue
        for name in names:
            asked.setdefault(name, Rejected(name))
        for raw in outcome.reply.get("themes", []):
            claimed = str(raw.get("area", ""))
            theme = Theme(
                claimed if claimed in names else names[0],
                str(raw.get("name", "")),
                str(raw.get("summary", "")),
                list(raw.get("prs", [])),
            )
            before = Counter(verifier.tally.dropped)
            checked = verifier.check_theme(theme)
            if checked is not None:
                found.setdefault(checked.area, []).append(checked)
                continue
            lost = asked.setdefault(theme.area, Rejected(theme.area))
            dropped = Counter(verifier.tally.dropped) - before
            lost.themes.append(theme)
            lost.reasons.update(dropped)
            lost.hints.append(_hint(theme, dropped, verifier))
    rejected = {name: r for name, r in asked.items() if not found.get(name)}
    return found, why_not, rejected


def _hint(theme: Theme, dropped: Counter[str], verifier: Verifier) -> str:
    """Why a theme was dropped, as the re-ask tells the model."""
    if tally.WORDS in dropped or tally.NAME in dropped:
        words = verifier.unsupported(theme.summary, theme.prs, theme.area)[:MAX_WORDS_SHOWN]
        if words:
            return "its PRs never write " + ", ".join(f'"{w}"' for w in words)
    if tally.FIGURE in dropped:
        return "it gives a figure its PRs do not state"
    if tally.VACUOUS in dropped:
        return "it does not say what changed"
    if tally.DUPLICATE in dropped:
        return "it repeats another theme"
    reasons = ", ".join(r for r, _ in dropped.most_common())
    return reasons or "it is not what its PRs say"


def retry_requests(
    planner: AreaPlanner,
    env: jinja2.Environment,
    outcomes: list[Outcome],
    rejected: dict[str, Rejected],
) -> list[Request]:
    """A request per answered request with rejected areas (up to `MAX_REASKS`, those of
    the most PRs first): the same PR lines for those areas, and a note quoting what was
    dropped and why. One that does not fit the budget with its note is not sent (its
    areas keep prdigest's themes)."""
    requests: list[tuple[int, Request]] = []
    for outcome in outcomes:
        if outcome.reply is None:
            continue
        parts: list[AreaPart] = [p for p in outcome.request.areas if p.name in rejected]
        if not parts:
            continue
        names = {p.name for p in parts}
        titles = {
            n: item_title(item) for p in parts for n, item in zip(p.numbers, p.items, strict=True)
        }
        dropped = [
            {
                "area": r.area,
                "summary": t.summary or t.name,
                "why": hint,
                "title": next((titles[n] for n in t.prs if titles.get(n)), ""),
            }
            for r in rejected.values()
            if r.area in names
            for t, hint in zip(r.themes, r.hints, strict=True)
        ][:MAX_REJECTED_SHOWN]
        note = render(
            env,
            "areas_retry.j2",
            dropped=dropped,
            areas=[p.name for p in parts],
            example=example_sentence(parts[0]),
        )
        request = planner.request_for(parts, note)
        asked = request.params["json_schema"]
        request.params["json_schema"] = {**asked, "schema": with_short_sentences(asked["schema"])}
        if planner.fits(request, parts):
            requests.append((sum(p.count for p in parts), request))
    requests.sort(key=lambda pair: -pair[0])  # stable: the digest's order among equals
    return [request for _, request in requests[:MAX_REASKS]]
