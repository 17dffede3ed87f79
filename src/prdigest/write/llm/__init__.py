"""The LLM writer: the pipeline hands it the analysis context, the window's PR texts
and a reply cache; it never reads the store itself.

    writer    the digest: plan, ask, verify, render; the fallback to the deterministic one
    runner    replies from the cache first, the rest from the server
    client    HTTP to an OpenAI-compatible server: retries, format fallback, JSON repair
    plan      requests within the token budget; the prompt templates (prompts/*.j2)
    inputs    what the model is shown of each PR, and the texts claims are checked against
    verify    citations and figures checked against the PRs of the window
    render    Markdown of an LLM digest
    cache     request keys and the `ReplyCache` protocol the store implements
    settings  flags, environment and `[llm]` resolved
    usage     requests and tokens, for the closing summary
    tokens    the offline token estimator
"""

from .cache import ReplyCache, request_key
from .inputs import PRText, pr_texts
from .settings import LLMSettings, resolve_settings, settings_for
from .usage import Usage
from .writer import LLMDigest, write_llm_digest, write_with_fallback

__all__ = [
    "LLMDigest",
    "LLMSettings",
    "PRText",
    "ReplyCache",
    "Usage",
    "pr_texts",
    "request_key",
    "resolve_settings",
    "settings_for",
    "write_llm_digest",
    "write_with_fallback",
]
