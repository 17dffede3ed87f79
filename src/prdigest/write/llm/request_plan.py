"""The requests of a digest: per-area "map" requests packed inside the token budget,
then one "takeaway" request over the verified themes.

Every request, prompt plus the room kept for its answer, fits in the budget by
our estimator. The answer room is what the request asks for: a number of
themes per area (more for the large areas the digest gives a section, one for
the rest), each bounded by the answer's JSON schema (at most so many PRs, a
name and a sentence of bounded length), so a schema-following server cannot
run past it. An area shares a request with its neighbours while the request
stays small (`MAX_PRS`, `MAX_THEMES_PER_REQUEST`); an area too large for one
request is shown shorter, then split into parts whose themes are merged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ...analyze.context_types import Area, DigestContext, Section
from ...errors import LLMError, TemplateError
from ..news import LEAD_SHOWN, lead_news
from ..sections import shown_plan
from .inputs import FULL_ITEMS, SHORT_ITEMS, ItemLimits, PRText, pr_item
from .schemas import takeaway_schema, themes_schema
from .tokens import estimate_messages

MAX_THEMES = 4  # themes asked of the largest areas
# An area with a section of its own is asked a theme per this many PRs (rounded up): a
# capable model asked one theme for five PRs writes one bullet and leaves four out.
PRS_PER_THEME = 2
MAX_PRS = 24  # PRs one request shows, unless one area alone has more
MAX_THEMES_PER_REQUEST = 4  # so areas told in one line (one theme each) share by four
THEME_TOKENS = 120  # the most one theme can take under the schema (text, JSON, whitespace)
ANSWER_BASE = 24
TAKEAWAY_OUTPUT = 140
WHY_TOKENS = 60  # a "why it matters" clause per notable item
_BUILTIN = Path(__file__).parent / "prompts"


def template_env(prompts_dir: Path | None) -> jinja2.Environment:
    """The user's templates first (config `[llm] prompts_dir`), then ours."""
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(_BUILTIN))]
    if prompts_dir is not None:
        loaders.insert(0, jinja2.FileSystemLoader(str(prompts_dir)))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=False,
        finalize=as_data,
    )


_MARKER = re.compile(r"(PR|DIGEST)_DATA")


def as_data(value: Any) -> Any:
    """Every value a prompt template prints (PR text, theme names, area names from paths):
    one line, and unable to forge the markers that close its data block."""
    if not isinstance(value, str):
        return value
    return _MARKER.sub(r"\1-DATA", " ".join(value.split()))


def render(env: jinja2.Environment, name: str, **values: Any) -> str:
    try:
        return env.get_template(name).render(**values).strip()
    except jinja2.TemplateError as exc:
        raise TemplateError(
            f"prompt template {name}: {exc}", "fix the template in [llm] prompts_dir"
        ) from None


@dataclass(frozen=True)
class ThemeSummary:
    """A verified theme as the key-takeaway prompt shows it."""

    name: str
    summary: str


@dataclass(frozen=True)
class TakeawayArea:
    """An area as the key-takeaway prompt shows it: its count, movement, leading themes."""

    name: str
    count: int
    delta: int | None
    themes: tuple[ThemeSummary, ...] = ()


@dataclass
class AreaPart:
    name: str
    count: int
    numbers: list[int]
    items: list[str]
    themes: int = 1  # how many themes the request asks for this area
    part: str = ""  # "part 2 of 3" when the area is split
    section: bool = True  # the digest gives it a section of its own

    @property
    def shown(self) -> int:
        return len(self.items)


@dataclass
class Request:
    purpose: str  # "areas" or "takeaway"
    messages: list[dict[str, str]]
    params: dict[str, Any]
    areas: list[AreaPart] = field(default_factory=list)

    @property
    def prompt_tokens(self) -> int:
        return estimate_messages(self.messages)

    @property
    def label(self) -> str:
        """What the request is about, for messages: "the request for Backends: Arm"."""
        if self.purpose == "takeaway":
            return "the key-takeaway request"
        names = [f"{p.name} ({p.part})" if p.part else p.name for p in self.areas]
        return "the request for " + ", ".join(names)


def themes_wanted(count: int, own_section: bool = True) -> int:
    """Themes asked of an area with `count` PRs: by its size when the digest gives it a
    section of its own, else one (its line in a family's section or in Other Areas)."""
    if not own_section:
        return 1
    return max(1, min(MAX_THEMES, -(-count // PRS_PER_THEME)))


def own_sections(context: DigestContext) -> set[str]:
    """The areas the digest gives a section of their own (`kind` "area" in the plan)."""
    return {name for entry in section_plan(context) if entry.kind == "area" for name in entry.areas}


def section_plan(context: DigestContext) -> list[Section]:
    """The digest's sections as both writers show them (`sections.shown_plan`): an area
    told in a line (Other Areas, the lone PRs' line) is asked one theme, not one a
    section's worth."""
    return shown_plan(context)[0]


def params_for(
    schema_name: str, schema: dict[str, Any], max_tokens: int, temperature: float
) -> dict[str, Any]:
    """What a request asks for. The schema is named, not the `response_format`: the
    client sends it on the server's rung of the ladder (`client.request_body`)."""
    return {
        "temperature": temperature,
        "max_tokens": max_tokens,
        "json_schema": {"name": schema_name, "schema": schema},
    }


def answer_tokens(parts: list[AreaPart]) -> int:
    return ANSWER_BASE + THEME_TOKENS * sum(p.themes for p in parts)


class AreaPlanner:
    """Packs the window's areas into requests that each fit the budget."""

    def __init__(
        self,
        context: DigestContext,
        texts: Mapping[int, PRText],
        env: jinja2.Environment,
        context_tokens: int,
        temperature: float,
    ) -> None:
        self.context = context
        self.texts = texts
        self.env = env
        self.budget = context_tokens
        self.temperature = temperature
        self.system = render(env, "areas_system.j2", repo=context.repo, max_themes=MAX_THEMES)
        self.label = context.window.label

    def plan(self) -> list[Request]:
        requests: list[Request] = []
        current: list[AreaPart] = []
        own = own_sections(self.context)
        for area in self._areas():
            numbers = list(area.prs)
            count = area.count
            section = area.name in own
            whole = self._part(area.name, count, numbers, themes_wanted(count, section))
            whole.section = section
            if self._shares([*current, whole]):
                current.append(whole)
                continue
            if current:
                requests.append(self._request(current))
                current = []
            if self._fits([whole]):
                current = [whole]
                continue
            short = self._part(whole.name, count, numbers, whole.themes, SHORT_ITEMS)
            short.section = whole.section
            if self._fits([short]):
                current = [short]
                continue
            requests.extend(self._request([part]) for part in self._split(short))
        if current:
            requests.append(self._request(current))
        return requests

    def _areas(self) -> list[Area]:
        """The window's areas with PRs, in the order of the digest's sections, so that a
        family's members share requests."""
        by_name = {a.name: a for a in self.context.areas if a.prs}
        ordered = [
            by_name.pop(name)
            for entry in section_plan(self.context)
            for name in entry.areas
            if name in by_name
        ]
        return ordered + list(by_name.values())  # lone PRs too: the model sees the whole window

    def split(self, request: Request) -> list[Request] | None:
        """Two smaller requests doing the work of one whose answer was cut off (or
        looped), or None when it holds a single PR."""
        if request.purpose != "areas":
            return None
        if len(request.areas) > 1:
            half = len(request.areas) // 2
            return [self._request(request.areas[:half]), self._request(request.areas[half:])]
        (part,) = request.areas
        if part.shown < 2:
            return None
        half = part.shown // 2
        themes = max(1, part.themes // 2)
        pieces = [
            AreaPart(part.name, part.count, part.numbers[:half], part.items[:half], themes),
            AreaPart(part.name, part.count, part.numbers[half:], part.items[half:], themes),
        ]
        for number, piece in enumerate(pieces, 1):
            piece.part = f"{part.part + ', ' if part.part else ''}half {number}"
        return [self._request([piece]) for piece in pieces]

    def _part(
        self,
        name: str,
        count: int,
        numbers: list[int],
        themes: int,
        limits: ItemLimits = FULL_ITEMS,
    ) -> AreaPart:
        items = [self._item(n, limits) for n in numbers]
        return AreaPart(name, count, numbers, items, min(themes, len(numbers)))

    def _item(self, number: int, limits: ItemLimits) -> str:
        info = self.context.prs.get(number)
        return pr_item(number, info, self.texts.get(number), limits)

    def _split(self, whole: AreaPart) -> list[AreaPart]:
        parts: list[AreaPart] = []
        numbers: list[int] = []
        items: list[str] = []
        for number, item in zip(whole.numbers, whole.items, strict=True):
            trial = AreaPart(whole.name, whole.count, [*numbers, number], [*items, item], 1)
            if self._fits([trial]):
                numbers, items = trial.numbers, trial.items
                continue
            if not numbers or not self._fits([AreaPart(whole.name, whole.count, [number], [item])]):
                raise LLMError(
                    f"--llm-context {self.budget} cannot hold even one PR (#{number}) with the instructions",
                    "raise --llm-context (2048 or more)",
                )
            parts.append(AreaPart(whole.name, whole.count, numbers, items, 1))
            numbers, items = [number], [item]
        parts.append(AreaPart(whole.name, whole.count, numbers, items, 1))
        for index, part in enumerate(parts, 1):
            part.part = f"part {index} of {len(parts)}"
        return parts

    def _shares(self, parts: list[AreaPart]) -> bool:
        """Whether the areas may go in one request: an area with a section of its own is
        asked alone (a small model writes one area best), the others share while the
        request stays small; all within the budget."""
        if len(parts) > 1 and (
            any(p.section for p in parts)
            or sum(p.shown for p in parts) > MAX_PRS
            or sum(p.themes for p in parts) > MAX_THEMES_PER_REQUEST
        ):
            return False
        return self._fits(parts)

    def request_for(self, parts: list[AreaPart], note: str = "") -> Request:
        """The request for these parts, with `note` after the data (a re-ask says why)."""
        request = self._request(parts)
        if note:
            request.messages[-1]["content"] += "\n" + note
        return request

    def fits(self, request: Request, parts: list[AreaPart]) -> bool:
        return request.prompt_tokens + answer_tokens(parts) <= self.budget

    def _fits(self, parts: list[AreaPart]) -> bool:
        return self._request(parts).prompt_tokens + answer_tokens(parts) <= self.budget

    def _request(self, parts: list[AreaPart]) -> Request:
        user = render(
            self.env,
            "areas_user.j2",
            repo=self.context.repo,
            label=self.label,
            areas=parts,
            example=example_sentence(parts[0]),
        )
        messages = [{"role": "system", "content": self.system}, {"role": "user", "content": user}]
        schema = themes_schema([p.name for p in parts], [p.numbers for p in parts], parts)
        params = params_for("digest_themes", schema, answer_tokens(parts), self.temperature)
        return Request("areas", messages, params, list(parts))


def item_title(item: str) -> str:
    """The title on a PR line ("#3545 Update version compatibility … | path | …")."""
    return item.split(" | ", 1)[0].split(" ", 1)[-1].strip()


def example_sentence(part: AreaPart) -> str:
    """A sentence in the form asked, made of the area's first PR line with no number in
    its title (a model copies an example's numbers): the title as a sentence ("#3545
    Update version compatibility … | …" → "Update version compatibility …."). A small
    model follows an example better than a rule; one of the request's own PRs, so that
    what it copies is true."""
    titles = [item_title(item).rstrip(".") for item in part.items]
    title = next((t for t in titles if len(t) > 3 and not re.search(r"\d{2,}", t)), "")
    return f"{title[:1].upper()}{title[1:]}." if title else ""


@dataclass(frozen=True)
class NewsItem:
    """One of the week's most notable PRs as the takeaway prompt shows it: what the
    analysis calls it, and the PR's own line of data (so the model can say why it
    matters)."""

    number: int
    line: str  # "breaking: old smoothquant implementation deleted"
    data: str = ""  # "#3495 Delete old smoothquant implementation | torchao/… | …"


def news_items(context: DigestContext, texts: Mapping[int, PRText] | None = None) -> list[NewsItem]:
    """What the analysis judged most notable, most notable first, as the deterministic
    writer opens its Key Takeaways (`news.lead_news`): the week's top PRs (a breaking
    change or deprecation by what it removes or deprecates, a new component by its path,
    another notable PR by its title and what its description says it enables), then the
    breaking changes and deprecations the lead did not name."""
    news = lead_news(context)
    prs = context.prs
    items: list[NewsItem] = []

    def add(number: int, line: str) -> None:
        info = prs.get(number)
        data = pr_item(number, info, (texts or {}).get(number), FULL_ITEMS) if info else ""
        items.append(NewsItem(number, line, data.split(" ", 1)[-1] if data else ""))

    for number in news.lead[:LEAD_SHOWN]:
        info = prs.get(number)
        row = news.told(number)
        if row is not None:
            add(number, f"{row.kind}: {row.subject}")
        elif number in news.made:
            add(number, f"new component: `{news.made[number].path}/`")
        elif info:
            substance = info.notability.substance
            enables = substance.enables if substance else ""
            title = info.clean_title or info.title
            add(number, f"notable: {title}" + (f" ({enables})" if enables else ""))
    for number in news.announced:
        row = news.told(number)
        if row is not None and number not in news.lead[:LEAD_SHOWN] and len(items) < 2 * LEAD_SHOWN:
            add(number, f"{row.kind}: {row.subject}")
    return items


def takeaway_request(
    context: DigestContext,
    areas: Sequence[TakeawayArea],
    env: jinja2.Environment,
    context_tokens: int,
    temperature: float,
    texts: Mapping[int, PRText] | None = None,
) -> Request:
    """The closing request: statistics, the analysis' news (what mattered most: a line
    each, from PR titles, so data like any PR text) and the verified themes."""
    news = news_items(context, texts)
    system = render(env, "takeaways_system.j2", repo=context.repo, notable=len(news))
    label = context.window.label
    total = context.counts.prs
    shown = list(areas)
    while True:
        user = render(
            env,
            "takeaways_user.j2",
            label=label,
            total=total,
            areas=shown,
            news=news,
        )
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        if estimate_messages(messages) + TAKEAWAY_OUTPUT <= context_tokens or len(shown) <= 1:
            break
        shown = shown[:-1]  # the smallest areas go first when the budget is tight
    if estimate_messages(messages) + TAKEAWAY_OUTPUT > context_tokens:
        raise LLMError(
            f"--llm-context {context_tokens} cannot hold the key-takeaway prompt",
            "raise --llm-context (2048 or more)",
        )
    return Request(
        "takeaway",
        messages,
        params_for(
            "digest_takeaway",
            takeaway_schema(len(news)),
            TAKEAWAY_OUTPUT + WHY_TOKENS * len(news),
            temperature,
        ),
    )
