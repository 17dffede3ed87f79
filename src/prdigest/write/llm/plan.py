"""The requests of a digest: per-area "map" requests packed inside the token budget,
then one "takeaway" request over the verified themes.

Every request, prompt plus the room kept for the answer, fits in
`context_tokens` by our estimator. Small areas share a request; an area too
large for one is split into parts whose themes are merged afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ...errors import LLMError, TemplateError
from .inputs import ItemLimits, PRText, pr_item
from .tokens import estimate_messages, estimate_tokens

MAX_THEMES = 4
OUTPUT_BASE = 64  # answer tokens kept per request, plus
OUTPUT_PER_AREA = 320  # up to four themes of about 80 tokens per area
TAKEAWAY_OUTPUT = 160
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
    )


def render(env: jinja2.Environment, name: str, **values: Any) -> str:
    try:
        return env.get_template(name).render(**values).strip()
    except jinja2.TemplateError as exc:
        raise TemplateError(
            f"prompt template {name}: {exc}", "fix the template in [llm] prompts_dir"
        ) from None


@dataclass
class AreaPart:
    name: str
    count: int
    numbers: list[int]
    items: list[str]

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
    def numbers(self) -> list[int]:
        return [n for part in self.areas for n in part.numbers]


def item_limits(context_tokens: int) -> ItemLimits:
    if context_tokens >= 8192:
        return ItemLimits(text_tokens=20, claim_tokens=20, claims=1)
    if context_tokens >= 4096:
        return ItemLimits(text_tokens=16, claim_tokens=16, claims=1)
    return ItemLimits(text_tokens=10, claim_tokens=12, claims=1)


def themes_schema(area_names: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "themes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "area": {"type": "string", "enum": area_names},
                        "name": {"type": "string"},
                        "summary": {"type": "string"},
                        "prs": {"type": "array", "items": {"type": "integer"}},
                    },
                    "required": ["area", "name", "summary", "prs"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["themes"],
        "additionalProperties": False,
    }


TAKEAWAY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"takeaway": {"type": "string"}},
    "required": ["takeaway"],
    "additionalProperties": False,
}


def _params(
    schema_name: str, schema: dict[str, Any], max_tokens: int, temperature: float
) -> dict[str, Any]:
    return {
        "temperature": temperature,
        "max_tokens": max_tokens,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": schema_name, "schema": schema, "strict": True},
        },
    }


class AreaPlanner:
    """Packs the window's areas into requests that each fit the budget."""

    def __init__(
        self,
        context: dict[str, Any],
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
        self.limits = item_limits(context_tokens)
        self.system = render(env, "areas_system.j2", repo=context["repo"], max_themes=MAX_THEMES)
        self.label = str(context.get("window", {}).get("label", ""))

    def plan(self) -> list[Request]:
        requests: list[Request] = []
        current: list[AreaPart] = []
        for area in self.context.get("areas", []):
            numbers = [int(n) for n in area.get("prs", [])]
            if not numbers:
                continue
            items = [self._item(n) for n in numbers]
            whole = AreaPart(
                str(area["name"]), int(area.get("count", len(numbers))), numbers, items
            )
            if self._fits([*current, whole]):
                current.append(whole)
                continue
            if current:
                requests.append(self._request(current))
                current = []
            if self._fits([whole]):
                current = [whole]
                continue
            parts = self._split(whole)
            requests.extend(self._request([part]) for part in parts[:-1])
            current = [parts[-1]]
        if current:
            requests.append(self._request(current))
        return requests

    def _item(self, number: int) -> str:
        info = self.context.get("prs", {}).get(str(number), {})
        line = pr_item(number, info, self.texts.get(number), self.limits)
        return line.replace("PR_DATA", "PR-DATA")  # the data cannot forge its own end marker

    def _split(self, whole: AreaPart) -> list[AreaPart]:
        parts: list[AreaPart] = []
        part = AreaPart(whole.name, whole.count, [], [])
        for number, item in zip(whole.numbers, whole.items, strict=True):
            trial = AreaPart(whole.name, whole.count, [*part.numbers, number], [*part.items, item])
            if self._fits([trial]):
                part = trial
                continue
            if not part.items:
                raise LLMError(
                    f"--llm-context {self.budget} cannot hold even one PR (#{number}) with the instructions",
                    "raise --llm-context (2048 or more)",
                )
            parts.append(part)
            part = AreaPart(whole.name, whole.count, [number], [item])
            if not self._fits([part]):
                raise LLMError(
                    f"--llm-context {self.budget} cannot hold even one PR (#{number}) with the instructions",
                    "raise --llm-context (2048 or more)",
                )
        parts.append(part)
        return parts

    def _fits(self, parts: list[AreaPart]) -> bool:
        return self._request(parts).prompt_tokens + _max_tokens(len(parts)) <= self.budget

    def _request(self, parts: list[AreaPart]) -> Request:
        user = render(self.env, "areas_user.j2", label=self.label, areas=parts)
        names = sorted({p.name for p in parts})
        params = _params(
            "digest_themes", themes_schema(names), _max_tokens(len(parts)), self.temperature
        )
        messages = [{"role": "system", "content": self.system}, {"role": "user", "content": user}]
        return Request("areas", messages, params, list(parts))


def _max_tokens(area_count: int) -> int:
    return OUTPUT_BASE + OUTPUT_PER_AREA * area_count


def takeaway_request(
    context: dict[str, Any],
    areas: list[dict[str, Any]],
    env: jinja2.Environment,
    context_tokens: int,
    temperature: float,
) -> Request:
    """The closing request: statistics and verified themes only, no PR text."""
    system = render(env, "takeaways_system.j2", repo=context["repo"])
    label = str(context.get("window", {}).get("label", ""))
    total = int(context.get("counts", {}).get("prs", 0))
    shown = list(areas)
    while True:
        user = render(env, "takeaways_user.j2", label=label, total=total, areas=shown)
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
        _params("digest_takeaway", TAKEAWAY_SCHEMA, TAKEAWAY_OUTPUT, temperature),
    )


def request_tokens(request: Request) -> int:
    """Prompt plus the answer room: what must fit in the context window."""
    return request.prompt_tokens + int(request.params.get("max_tokens", 0))


__all__ = [
    "AreaPlanner",
    "Request",
    "takeaway_request",
    "template_env",
    "request_tokens",
    "estimate_tokens",
]
