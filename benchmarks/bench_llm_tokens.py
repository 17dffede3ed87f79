"""Tokens the LLM writer sends, against the reference digests' one-prompt approach.

The references put every PR's title, author, labels and cleaned body into ONE
prompt. We send per-area requests inside a token budget. Both are counted with
the same estimator (`prdigest.write.llm.tokens`), ours as received by the fake
OpenAI-compatible server on 127.0.0.1.

    python benchmarks/bench_llm_tokens.py [--context 8192]

Targets: ours ≤ 40% of the one-prompt tokens, every PR of the window in some
request, no request (prompt + answer room) over the budget, and a second run
that sends nothing (cache).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fakes.llm_server import FakeLLMServer  # noqa: E402
from prdigest import pipeline  # noqa: E402
from prdigest.config import Config  # noqa: E402
from prdigest.store import Store, open_store  # noqa: E402
from prdigest.store.llm_cache import StoredReplies  # noqa: E402
from prdigest.timeutil import Window, iso_week_window  # noqa: E402
from prdigest.write.llm import LLMSettings, pr_texts, write_llm_digest  # noqa: E402
from prdigest.write.llm.tokens import estimate_messages  # noqa: E402

REPO = "pytorch/executorch"
DATA = ROOT.parent / "shared" / "data" / "pytorch__executorch" / "prs.jsonl.gz"
ONE_PROMPT_INSTRUCTIONS = (
    "You are given every pull request of the repository {repo} from the last 7 days: title, "
    "author, labels and description. Write a digest in Markdown. Start with '### Key Takeaways': "
    "one sentence on what dominated the week and why it matters, then the total PR count and the "
    "top areas numbered inline. Then numbered sections by category, each with three to five "
    "bullets: a bold theme name, one sentence on what changed and why it matters, code symbols in "
    "backticks, and every mentioned PR as [PR#1234](https://github.com/{repo}/pull/1234)."
)


def one_prompt_tokens(store: Store, window: Window) -> int:
    texts = pr_texts(store.merged_between(REPO, window.start, window.end))
    listing = "\n\n".join(
        f"PR #{t.number}: {t.title}\nAuthor: {t.author}\nLabels: {', '.join(t.labels) or 'none'}\n{t.body}"
        for t in texts.values()
    )
    messages = [
        {"role": "user", "content": ONE_PROMPT_INSTRUCTIONS.format(repo=REPO) + "\n\n" + listing}
    ]
    return estimate_messages(messages)


def window_of_at_least(store: Store, first: Window, wanted: int) -> Window:
    """The shortest window starting on `first`'s first day holding `wanted` PRs."""
    last = first.first_day
    while True:
        window = Window(first.first_day, last)
        prs = [
            p for p in store.merged_between(REPO, window.start, window.end) if p.number is not None
        ]
        if len(prs) >= wanted:
            return window
        last += timedelta(days=1)


def measure(store: Store, window: Window, budget: int) -> dict[str, Any]:
    context = pipeline.build_digest_context(store, REPO, window, Config())
    texts = pr_texts(store.merged_between(REPO, window.start, window.end))
    cache = StoredReplies(store)
    with FakeLLMServer() as server:
        settings = LLMSettings(base_url=server.url, model="fake", context_tokens=budget, backoff=0)
        started = time.perf_counter()
        result = write_llm_digest(context, texts, cache, settings)
        seconds = time.perf_counter() - started
        first_requests = server.count
        # The same digest again: all from the cache.
        write_llm_digest(context, texts, cache, settings)
        second_requests = server.count - first_requests
        bodies = server.requests[:first_requests]
        tokens = server.prompt_tokens[:first_requests]
    seen = {
        int(n) for b in bodies for n in re.findall(r"^#(\d+) ", b["messages"][1]["content"], re.M)
    }
    window_prs = set(context.prs)
    largest = max(t + int(b.get("max_tokens", 0)) for b, t in zip(bodies, tokens, strict=True))
    baseline = one_prompt_tokens(store, window)
    return {
        "window": window.label,
        "prs": len(window_prs),
        "requests": first_requests,
        "ours": sum(tokens),
        "one_prompt": baseline,
        "ratio": sum(tokens) / baseline,
        "largest": largest,
        "all_seen": seen >= window_prs,
        "second_run_requests": second_requests,
        "seconds": seconds,
        "closing": result.markdown.rstrip().splitlines()[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--context", type=int, default=8192, help="token budget per request")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"skipped: {DATA} is absent")
        return 0
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(str(Path(tmp) / "bench.db"))
        pipeline.sync(store, REPO, pipeline.SourceSpec(jsonl=DATA))
        windows = [
            iso_week_window("2026-W07"),
            window_of_at_least(store, iso_week_window("2026-W05"), 500),
        ]
        print(f"budget {args.context} tokens per request (prompt + answer room)")
        print(
            f"{'window':19} {'PRs':>4} {'req':>4} {'ours':>7} {'one-prompt':>10} {'ratio':>6} "
            f"{'largest':>7} {'all seen':>8} {'2nd run':>7}"
        )
        for window in windows:
            m = measure(store, window, args.context)
            passed = (
                m["ratio"] <= 0.40
                and m["all_seen"]
                and m["largest"] <= args.context
                and m["second_run_requests"] == 0
            )
            ok = ok and passed
            print(
                f"{m['window']:19} {m['prs']:>4} {m['requests']:>4} {m['ours']:>7,} {m['one_prompt']:>10,} "
                f"{m['ratio']:>6.1%} {m['largest']:>7,} {str(m['all_seen']):>8} {m['second_run_requests']:>7}"
                f"  {'PASS' if passed else 'FAIL'} ({m['seconds']:.1f}s)"
            )
        store.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
