"""Requests, cache hits and tokens of one LLM digest, for the closing summary."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from .client import Completion


@dataclass
class Usage:
    requests: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    saved_tokens: int = 0
    exact: bool = True
    largest_request: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def sent(self, completion: Completion, estimated_prompt: int) -> None:
        with self._lock:
            self.requests += 1
            self.prompt_tokens += completion.prompt_tokens
            self.completion_tokens += completion.completion_tokens
            self.exact = self.exact and completion.exact_usage
            self.largest_request = max(self.largest_request, estimated_prompt)

    def summary(self, model: str) -> str:
        how = "reported by the server" if self.exact and self.requests else "estimated"
        text = (
            f"LLM {model}: {self.requests} request{'s' * (self.requests != 1)}, {self.cached} from cache; "
            f"{self.prompt_tokens:,} prompt + {self.completion_tokens:,} completion tokens ({how})"
        )
        if self.requests:
            text += f"; largest prompt {self.largest_request:,} tokens"
        if self.cached:
            text += f"; {self.saved_tokens:,} tokens saved by the cache"
        return text
