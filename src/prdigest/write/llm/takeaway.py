"""Key Takeaways' opening sentence by the model: what dominated the week, from the words of
the briefs the plan leads with, checked like a brief's sentence against those PRs together
(every name, number and claim in one of them) and required to name something of them.
It opens the paragraph the composer wrote, which still gives the news, cited, and the
counts. The answer is kept in the reply cache under a hash of the request, so a second
digest of the week sends nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...analyze.brief_types import Brief
from ...models import CachedReply, PullRequest
from .brief_check import Evidence, check_sentence, content_words, names_in
from .brief_prompt import TAKEAWAY_SCHEMA, BriefPrompts, Guide
from .cache import ReplyCache, normalise_base_url
from .chat_client import InvalidReply, LLMClient
from .pr_input import evidence_of
from .replies import parse_json_object
from .usage import Usage


@dataclass(frozen=True)
class Takeaway:
    sentence: str  # "" when the model's failed or none was asked
    why_not: str = ""  # why the model's sentence is not published


def takeaway_key(base_url: str, model: str, messages: list[dict[str, str]]) -> str:
    canonical = json.dumps(
        {"takeaway": messages, "server": normalise_base_url(base_url), "model": model},
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def opening_sentence(
    leads: Sequence[Brief],
    prs: Mapping[int, PullRequest],
    prompts: BriefPrompts,
    client: LLMClient | None,
    cache: ReplyCache,
    where: tuple[str, str],
    usage: Usage,
) -> Takeaway:
    """The model's sentence on the leading briefs, verified; asked only when not kept and
    `client` is given (None: only what is kept)."""
    if not leads:
        return Takeaway("", "no change leads the week")
    messages = prompts.takeaway_messages([Guide.of(b) for b in leads])
    key = takeaway_key(*where, messages)
    kept = cache.get(key)
    if kept is not None:
        said = parse_json_object(kept.content)
    elif client is None:
        return Takeaway("", "not asked")
    else:
        completion = client.complete(messages, prompts.params(TAKEAWAY_SCHEMA, "takeaway"))
        usage.sent(completion)
        try:
            said = parse_json_object(completion.content)
        except InvalidReply:
            said = {}
        reply = CachedReply(
            key, where[1], json.dumps(said), completion.prompt_tokens,
            completion.completion_tokens, completion.exact_usage,
        )  # fmt: skip
        cache.put(reply)
    sentence = " ".join(str(said.get("sentence") or "").split()).rstrip(".")
    if not sentence:
        return Takeaway("", "no sentence in the answer")
    texts = [evidence_of(prs[b.number]) for b in leads if b.number in prs]
    evidence = Evidence.of("\n".join([*texts, *(f"{b.what}\n{b.why}" for b in leads)]))
    problem = check_sentence(sentence, evidence)
    if not problem and not (names_in(sentence) or content_words(sentence)):
        problem = "names nothing of the week's changes"
    return Takeaway("", problem) if problem else Takeaway(sentence)
