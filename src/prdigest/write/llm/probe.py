"""Where a server says how much context a request may use, read before planning.

- llama.cpp's llama-server: `GET /props` → `default_generation_settings.n_ctx`
  (per slot: `--parallel N` divides `--ctx-size`) and `total_slots`;
  `GET /v1/models` → `data[].meta.n_ctx`.
- vLLM: `GET /v1/models` → `data[].max_model_len`.
- Ollama: `POST /api/show` → `num_ctx` in `parameters` when the model sets it,
  else its trained `model_info.<arch>.context_length`, capped at Ollama's own
  default context (it cuts longer prompts silently, so guessing high is worse).
- OpenAI and llama-cpp-python say nothing: the configured budget stands, and
  a refusal tells the real size (`refusals.py`).

Every probe is a short GET (or Ollama's POST) that may fail quietly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import httpx

PROBE_TIMEOUT = 5.0
OLLAMA_DEFAULT_CONTEXT = 4096


@dataclass(frozen=True)
class ServerFacts:
    context: int | None = None
    slots: int | None = None
    source: str = ""  # e.g. "llama-server /props"


def server_root(base_url: str) -> str:
    """The server's own root: the base URL without its OpenAI `/v1`."""
    return re.sub(r"/v1/?$", "", base_url.rstrip("/"))


def probe_server(http: httpx.Client, base_url: str, model: str) -> ServerFacts:
    root = server_root(base_url)
    for reader in (_llama_props, _models_list, _ollama_show):
        try:
            facts = reader(http, root, base_url.rstrip("/"), model)
        except (httpx.HTTPError, ValueError, TypeError, KeyError):
            continue
        if facts is not None and facts.context:
            return facts
    return ServerFacts()


def _get_json(http: httpx.Client, url: str) -> object:
    response = http.get(url, timeout=PROBE_TIMEOUT)
    return response.json() if response.status_code == 200 else None


def _llama_props(http: httpx.Client, root: str, base: str, model: str) -> ServerFacts | None:
    props = _get_json(http, f"{root}/props")
    if not isinstance(props, dict):
        return None
    settings = props.get("default_generation_settings") or {}
    context = _positive(settings.get("n_ctx"))
    slots = _positive(props.get("total_slots"))
    return ServerFacts(context, slots, "llama-server /props") if context else None


def _models_list(http: httpx.Client, root: str, base: str, model: str) -> ServerFacts | None:
    listing = _get_json(http, f"{base}/models")
    entries = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(entries, list) or not entries:
        return None
    entry = next((e for e in entries if isinstance(e, dict) and e.get("id") == model), None)
    if entry is None and len(entries) == 1 and isinstance(entries[0], dict):
        entry = entries[0]  # llama-server answers to any name; its one model is ours
    if entry is None:
        return None
    meta = entry.get("meta")
    context = _positive(meta.get("n_ctx")) if isinstance(meta, dict) else None
    if context:
        return ServerFacts(context, None, "llama-server /v1/models")
    for key in ("max_model_len", "context_length", "context_window"):
        context = _positive(entry.get(key))
        if context:
            return ServerFacts(context, None, f"/v1/models {key}")
    return None


def _ollama_show(http: httpx.Client, root: str, base: str, model: str) -> ServerFacts | None:
    response = http.post(f"{root}/api/show", json={"model": model}, timeout=PROBE_TIMEOUT)
    if response.status_code != 200:
        return None
    shown = response.json()
    if not isinstance(shown, dict):
        return None
    match = re.search(r"^\s*num_ctx\s+(\d+)", str(shown.get("parameters") or ""), re.MULTILINE)
    if match:
        return ServerFacts(int(match.group(1)), None, "Ollama /api/show num_ctx")
    info = shown.get("model_info")
    trained = next(
        (
            _positive(v)
            for k, v in (info.items() if isinstance(info, dict) else ())
            if str(k).endswith(".context_length")
        ),
        None,
    )
    if trained:
        return ServerFacts(
            min(trained, OLLAMA_DEFAULT_CONTEXT), None, "Ollama /api/show (default num_ctx)"
        )
    return None


def _positive(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
