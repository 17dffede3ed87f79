"""An offline token estimator: close enough to BPE tokenizers to budget prompts.

Words cost about one token per four characters (at least one), every other
non-space character one token. Chat messages add a small fixed overhead each,
as OpenAI-style chat templates do. The fake server in the tests counts with
this very function, so budgets and benchmarks agree with what was "sent".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_PIECES = re.compile(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]")
MESSAGE_OVERHEAD = 4  # role and separators per message
REPLY_PRIMING = 3  # the assistant header every request ends with


def estimate_tokens(text: str) -> int:
    total = 0
    for piece in _PIECES.findall(text):
        if piece[0].isalpha():
            total += (len(piece) + 3) // 4
        elif piece[0].isdigit():
            total += (len(piece) + 2) // 3  # tokenizers split digits in groups of up to three
        else:
            total += 1
    return total


def estimate_messages(messages: Iterable[Mapping[str, str]]) -> int:
    return REPLY_PRIMING + sum(
        MESSAGE_OVERHEAD + estimate_tokens(str(m.get("content", ""))) for m in messages
    )
