"""Requests, briefs read back from the store, tokens, failures and time of one LLM run,
for the closing summary and `--format json`."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import TypedDict

from ...analyze.english import plural
from .chat_client import Completion


class UsageFacts(TypedDict):
    """What a run cost, as `--format json` tells it (`llm.usage`)."""

    requests: int
    cached: int  # briefs read back from the store: no request
    prompt_tokens: int
    completion_tokens: int
    tokens_exact: bool
    largest_prompt: int
    failed_attempts: dict[str, int]
    lost: list[str]
    seconds: float


@dataclass
class Usage:
    requests: int = 0  # answers received
    cached: int = 0  # briefs read back from the store
    prompt_tokens: int = 0
    completion_tokens: int = 0
    exact: bool = True
    largest_prompt: int = 0
    seconds: float = 0.0
    failed: Counter[str] = field(default_factory=Counter)  # attempts without an answer, by reason
    lost_requests: list[str] = field(default_factory=list)  # "the brief of #N: timed out"
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def sent(self, completion: Completion) -> None:
        with self._lock:
            self.requests += 1
            self.prompt_tokens += completion.prompt_tokens
            self.completion_tokens += completion.completion_tokens
            self.exact = self.exact and completion.exact_usage
            self.largest_prompt = max(self.largest_prompt, completion.prompt_tokens)
            if completion.finish_reason in ("length", "loop"):
                self.failed["cut off" if completion.finish_reason == "length" else "looped"] += 1

    def lost(self, label: str, reason: str) -> None:
        with self._lock:
            self.lost_requests.append(f"{label}: {reason}")

    @property
    def attempted(self) -> bool:
        return bool(self.requests or self.cached or self.failed)

    def summary(self, model: str) -> str:
        how = "reported by the server" if self.exact and self.requests else "estimated"
        text = f"LLM {model}: {plural(self.requests, 'request')}"
        if self.failed:
            text += " (" + ", ".join(f"{n} {why}" for why, n in self.failed.most_common()) + ")"
        text += (
            f", {plural(self.cached, 'brief')} from the store; {self.prompt_tokens:,} prompt + "
            f"{self.completion_tokens:,} completion tokens ({how})"
        )
        if self.requests:
            text += f"; largest prompt {self.largest_prompt:,} tokens"
        return text + f"; {self.seconds:.1f} s"

    def facts(self) -> UsageFacts:
        return {
            "requests": self.requests,
            "cached": self.cached,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "tokens_exact": self.exact,
            "largest_prompt": self.largest_prompt,
            "failed_attempts": dict(sorted(self.failed.items())),
            "lost": list(self.lost_requests),
            "seconds": round(self.seconds, 1),
        }
