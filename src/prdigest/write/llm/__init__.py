"""The LLM writer: the model writes each PR's brief, never the digest. The pipeline hands
it the analysis context, the window's PRs, where briefs are stored and a reply cache; it
never reads the store itself.

    writer          the digest: the PRs it shows, their model briefs, the same composer
    brief_runner    briefs stored or asked, one request per PR, in parallel, bounded
    brief_prompt    the request for one PR (prompts/*.j2), its schema, the prompt version
    pr_input        what a request shows of a PR, and the text its sentences rest on
    brief_words     an answer made into a brief's words, each sentence checked or replaced
    brief_check     one sentence checked against one PR: names, numbers, claims
    server_session  the server, opened only when asked: its profile, context, slots
    chat_client     HTTP to an OpenAI-compatible server: the response_format ladder, retries
    stream          an answer read as it streams in; loops cut early
    refusals        what error answers mean (context size, format, retry)
    probe           the server's context, read before the first request
    profile         what is learned about a server and model, kept for the next run
    replies         the JSON object in a reply
    cache           where a server's profile is kept: the `ReplyCache` protocol
    llm_settings    flags, environment and `[llm]` resolved
    usage           requests, tokens, failures and time, for the closing summary
    tokens          the offline token estimator
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as mypy sees them; at run time they load on first use
    from .brief_runner import BriefTexts
    from .cache import ReplyCache
    from .llm_settings import LLMSettings, resolve_settings, settings_for
    from .usage import Usage
    from .writer import Written, model_briefs, shown_numbers, write_with_fallback

# name → the module that holds it: imported when first asked for, so that a digest with no
# LLM configured (`--writer auto`) never loads the HTTP client, the prompts or the checks
_WHERE = {
    "BriefTexts": "brief_runner",
    "ReplyCache": "cache",
    "LLMSettings": "llm_settings",
    "resolve_settings": "llm_settings",
    "settings_for": "llm_settings",
    "Usage": "usage",
    "Written": "writer",
    "model_briefs": "writer",
    "shown_numbers": "writer",
    "write_with_fallback": "writer",
}
__all__ = [
    "BriefTexts",
    "LLMSettings",
    "ReplyCache",
    "Usage",
    "Written",
    "model_briefs",
    "resolve_settings",
    "settings_for",
    "shown_numbers",
    "write_with_fallback",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)
