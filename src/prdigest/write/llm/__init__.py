"""The LLM writer: the pipeline hands it the analysis context, the window's PR texts
and a reply cache; it never reads the store itself.

    writer     the digest: learn the server, plan, ask, verify, render; the fallbacks
    runner     replies from the cache first, the rest from the server; cut-off answers split
    client     HTTP to an OpenAI-compatible server: the response_format ladder, retries
    stream     an answer read as it streams in; loops cut early
    refusals   what error answers mean (context size, format, retry)
    probe      the server's context, read before planning
    profile    what is learned about a server and model, kept for the next run
    plan       requests within the token budget; the prompt templates (prompts/*.j2)
    schemas    the answers' JSON schemas
    replies    the JSON in a reply, and what a cut-off reply holds
    inputs     what the model is shown of each PR, and the texts claims are checked against
    verify     the model's sentences: citations, figures and names checked against its PRs
    grounding  named things and words of a sentence, found in its PRs or not
    tally      what verification checked, dropped and repaired, by reason
    assemble   the LLM digest as a `Digest` document (write/digest_document.py)
    cache      request keys and the `ReplyCache` protocol the store implements
    settings   flags, environment and `[llm]` resolved
    usage      requests, tokens, failures and time, for the closing summary
    tokens     the offline token estimator
"""

from .cache import ReplyCache, request_key
from .inputs import PRText, pr_texts
from .llm_settings import LLMSettings, resolve_settings, settings_for
from .usage import Usage
from .writer import LLMDigest, Written, write_llm_digest, write_with_fallback

__all__ = [
    "LLMDigest",
    "LLMSettings",
    "PRText",
    "ReplyCache",
    "Usage",
    "Written",
    "pr_texts",
    "request_key",
    "resolve_settings",
    "settings_for",
    "write_llm_digest",
    "write_with_fallback",
]
