"""Speed of the rules engine, beside a baseline measured in the same run.

    python benchmarks/bench_classify_rules.py            # speed
    python benchmarks/bench_classify_rules.py --areas    # also the area distributions

Baseline: decompress, json-parse and `parse_record` all executorch records (what any
command pays to get PullRequest objects). Target (issue 4): 10,000 PRs classified in
well under 2 s. "cold" = a fresh profile (rules compiled, empty path and title caches).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable

from _common import AO, EXECUTORCH, need

from prdigest.classify import profile_for
from prdigest.config import Config
from prdigest.models import PullRequest
from prdigest.reading import parse_title
from prdigest.sources.jsonl import read_jsonl
from prdigest.sources.records import parse_record


def best(n: int, func: Callable[[], object]) -> tuple[float, object]:
    result: object = None
    times = []
    for _ in range(n):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), result


def parse(path, repo: str) -> list[PullRequest]:  # type: ignore[no-untyped-def]
    return [parse_record(raw, repo, "jsonl", f"{path}:{n}") for n, raw in read_jsonl(path)]


def cold(repo: str, prs: list[PullRequest], name: str | None = None) -> Callable[[], object]:
    def run() -> object:
        parse_title.cache_clear()
        return profile_for(repo, Config(), name).classify_all(prs)

    return run


def main() -> None:
    et_path, ao_path = need(EXECUTORCH), need(AO)
    t_parse, parsed = best(3, lambda: parse(et_path, "pytorch/executorch"))
    executorch: list[PullRequest] = parsed  # type: ignore[assignment]
    ao = parse(ao_path, "pytorch/ao")
    n = len(executorch)
    t_json, _ = best(3, lambda: [json.loads(json.dumps(pr.raw)) for pr in executorch])

    t_cold, _ = best(5, cold("pytorch/executorch", executorch))
    profile = profile_for("pytorch/executorch", Config())
    profile.classify_all(executorch)
    t_warm, _ = best(5, lambda: profile.classify_all(executorch))
    t_generic, _ = best(3, cold("someone/unknown", executorch, "generic"))

    def both() -> object:
        parse_title.cache_clear()
        return (
            profile_for("pytorch/executorch", Config()).classify_all(executorch),
            profile_for("pytorch/ao", Config()).classify_all(ao),
        )

    t_both, _ = best(5, both)
    total = n + len(ao)

    print(f"records: executorch {n}, ao {len(ao)}")
    print(
        f"baseline  parse executorch records (gzip+json+parse_record): {t_parse * 1000:7.1f} ms  {n / t_parse:9.0f} PRs/s"
    )
    print(f"baseline  json round-trip of the raw records:                {t_json * 1000:7.1f} ms")
    print(
        f"classify  executorch profile, cold:                          {t_cold * 1000:7.1f} ms  {n / t_cold:9.0f} PRs/s  "
        f"({t_cold / t_parse:.2f}x parsing)"
    )
    print(
        f"classify  executorch profile, warm caches:                   {t_warm * 1000:7.1f} ms  {n / t_warm:9.0f} PRs/s  "
        f"({t_warm / t_parse:.2f}x parsing)"
    )
    print(
        f"classify  generic profile (areas derived from the PRs), cold: {t_generic * 1000:6.1f} ms  {n / t_generic:9.0f} PRs/s  "
        f"({t_generic / t_parse:.2f}x parsing)"
    )
    print(
        f"classify  {total} PRs (executorch + ao), cold:                {t_both * 1000:6.1f} ms  {total / t_both:9.0f} PRs/s  "
        f"(target: 10,000 PRs well under 2 s)"
    )


def distributions(repo: str, prs: list[PullRequest]) -> None:
    for name in (None, "generic"):
        profile = profile_for(repo, Config(), name)
        results = profile.classify_all(prs)
        areas = Counter(result.area for result in results)
        evidence = Counter(result.area_rule.rsplit("/", 1)[-1] for result in results)
        other = areas.get("Other", 0)
        print(
            f"\n{repo}, profile {profile.name}: {len(prs)} PRs, {len(areas)} areas, "
            f"{1 - other / len(prs):.2%} specific ({other} in Other)"
        )
        print("  " + " · ".join(f"{area} {count}" for area, count in areas.most_common()))
        print("  evidence: " + ", ".join(f"{key} {count}" for key, count in evidence.most_common()))
        if name is None:
            kinds = Counter(result.kind for result in results)
            print("  kinds: " + ", ".join(f"{key} {count}" for key, count in kinds.most_common()))


if __name__ == "__main__":
    main()
    if "--areas" in sys.argv:
        distributions("pytorch/executorch", parse(need(EXECUTORCH), "pytorch/executorch"))
        distributions("pytorch/ao", parse(need(AO), "pytorch/ao"))
