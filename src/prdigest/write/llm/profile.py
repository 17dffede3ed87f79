"""What the writer learns about a server and model, kept for the next run.

- the rung of the `response_format` ladder the server takes (`LADDER`);
- whether it streams;
- the context one request may use, and where that was read;
- its slots (requests it serves at once) and its measured speeds, from which
  each request's timeout follows.

The profile is kept in the reply cache under its own key (`cache.profile_key`),
so the writer still never sees the store.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field, fields

import msgspec

from ...models import CachedReply
from .cache import ReplyCache, profile_key
from .stream import Timings

LADDER = ("json_schema", "json_object+schema", "json_object", "plain")
ASSUMED_PROMPT_SPEED = 40.0  # tokens/s before anything is measured: a slow CPU
ASSUMED_GENERATION_SPEED = 4.0
MIN_TIMEOUT = 30.0
SLACK = 3.0  # a request may take this many times what the measured speeds predict


@dataclass
class ServerProfile:
    rung: int = 0
    stream: bool = True
    context: int | None = None
    context_source: str = ""
    slots: int | None = None
    prompt_speed: float | None = None  # tokens/s, prompt processing
    generation_speed: float | None = None  # tokens/s, answer
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def format_name(self) -> str:
        return LADDER[self.rung]

    def step_down(self, from_rung: int) -> bool:
        """Move below `from_rung` (once, however many requests saw the refusal);
        False when there is no rung left."""
        with self._lock:
            if self.rung > from_rung:
                return True
            if from_rung + 1 >= len(LADDER):
                return False
            self.rung = from_rung + 1
            return True

    def timeout(self, prompt_tokens: int, max_tokens: int) -> float:
        """Seconds to wait for an answer, from the speeds measured so far."""
        prompt = self.prompt_speed or ASSUMED_PROMPT_SPEED
        generation = self.generation_speed or ASSUMED_GENERATION_SPEED
        expected = prompt_tokens / prompt + max_tokens / generation
        return max(MIN_TIMEOUT, SLACK * expected + 10.0)

    def measured(self, prompt_speed: float | None, generation_speed: float | None) -> None:
        with self._lock:
            self.prompt_speed = _blend(self.prompt_speed, prompt_speed)
            self.generation_speed = _blend(self.generation_speed, generation_speed)

    def dumps(self) -> str:
        data = {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> ServerProfile | None:
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        known = {f.name for f in fields(cls) if not f.name.startswith("_")}
        profile = cls(**{k: v for k, v in data.items() if k in known})
        if not isinstance(profile.rung, int) or not 0 <= profile.rung < len(LADDER):
            profile.rung = 0
        return profile


def _blend(old: float | None, new: float | None) -> float | None:
    if not new or new <= 0:
        return old
    return new if not old else (old + new) / 2


def load_profile(cache: ReplyCache, base_url: str, model: str) -> ServerProfile | None:
    hit = cache.get(profile_key(base_url, model))
    return ServerProfile.loads(hit.content) if hit is not None else None


def save_profile(cache: ReplyCache, base_url: str, model: str, profile: ServerProfile) -> None:
    key = profile_key(base_url, model)
    cache.put(CachedReply(key, model, profile.dumps(), 0, 0, True))


def measured_speeds(
    timings: Timings | None,
    prompt_tokens: int,
    completion_tokens: int,
    first_token_s: float | None,
    seconds: float,
) -> tuple[float | None, float | None]:
    """Prompt and generation speeds of one answer: llama-server's own `timings`,
    else from when the first token came and when the last did."""
    if timings:
        prompt, generation = timings.prompt_per_second, timings.predicted_per_second
        if prompt is not None and generation is not None:
            # a prompt served from the server's cache says nothing about its speed
            told = timings.prompt_n
            evaluated = prompt_tokens if isinstance(told, msgspec.UnsetType) else told
            cached = int(evaluated or 0) < prompt_tokens // 2
            return (None if cached else float(prompt)), float(generation)
    if first_token_s and seconds > first_token_s and completion_tokens > 1:
        return prompt_tokens / first_token_s, completion_tokens / (seconds - first_token_s)
    if seconds > 0 and completion_tokens:
        return None, completion_tokens / seconds  # a whole answer: its prompt time counts too
    return None, None
