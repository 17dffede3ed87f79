"""The LLM writer with a real model beside the deterministic writer, on the gold weeks.

For each writer it writes the digests of the chosen gold weeks (`tests/data/gold/`) with
the CLI, as a user would, scores them with `benchmarks/judgment_eval.py` (the gold-set
scorer, which imports nothing of prdigest), and prints beside each other: the judgment
metrics, the share of the window's PRs cited (and, for the LLM, of those the deterministic
digest cites in its sections), the claims verification kept and dropped by reason, the
sections the model wrote, and minutes per week. The LLM runs against llama-server started
by `scripts/llama_server.sh` with the model asked for (or a server you give).

    python3 benchmarks/bench_llm_judgment.py                      # qwen-1.5b, 12 gold weeks
    python3 benchmarks/bench_llm_judgment.py --weeks 6            # the six small ones
    python3 benchmarks/bench_llm_judgment.py --model qwen-0.5b --weeks 1
    python3 benchmarks/bench_llm_judgment.py --base-url http://127.0.0.1:8080/v1 --keep out/

Each week's LLM digest is written once with `--format json` (timed: it sends the
requests) and once as Markdown (from the reply cache, no request).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import judgment_eval  # noqa: E402  (the scorer: it imports nothing of prdigest)

# Every gold week, the smaller first (`--weeks 6`: the six small ones): a 1.5B model on
# 2 cores takes 1-3 minutes a week, about 25 for the twelve; six weeks hold only 19
# sections, too few for the share the model writes to mean much.
DEFAULT_WEEKS = [
    "ao-2025-W51",
    "ao-2026-W01",
    "ao-2025-W47",
    "ao-2025-W48",
    "ao-2026-W08",
    "ao-2025-W44",
    "ao-2026-W03",
    "ao-2026-W11",
    "ao-2025-W42",
    "ao-2026-W05",
    "executorch-2026-W02",
    "executorch-2026-W03",
]
SERVER = ROOT / "scripts" / "llama_server.sh"
_CITE = re.compile(r"\[PR#(\d+)\]\(")
_SECTION = re.compile(r"^### \d+\. ", re.M)


@dataclass
class Run:
    """One writer over the weeks: what the scorer and the LLM facts say."""

    name: str
    score: judgment_eval.Tally = field(default_factory=judgment_eval.Tally)
    window_prs: int = 0
    cited: int = 0
    section_prs: int = 0  # PRs the deterministic digest cites in its sections
    section_cited: int = 0  # of those, cited by this digest
    seconds: list[float] = field(default_factory=list)
    checked: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    repaired: Counter[str] = field(default_factory=Counter)
    sections: int = 0
    by_model: int = 0
    lost: Counter[str] = field(default_factory=Counter)  # sections not the model's, by reason
    retried: int = 0  # areas asked once more after every theme was dropped
    recovered: int = 0  # of those, written by the model the second time
    takeaways: int = 0
    requests: int = 0
    fallbacks: list[str] = field(default_factory=list)
    open_markup: int = 0  # published lines with a lone backtick or `**`
    weeks: int = 0


def sync(db: Path, golds: list[dict[str, Any]]) -> None:
    for repo in sorted({g["repo"] for g in golds}):
        source = judgment_eval.DATA / judgment_eval.PATCH_FILES[repo]
        prdigest(db, ["sync", repo, "--jsonl", str(source)])


def prdigest(db: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRDIGEST_DB": str(db)}
    argv = [sys.executable, "-m", "prdigest", "--db", str(db), *args]
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"prdigest {' '.join(args)} failed:\n{done.stderr}")
    return done


def write_week(db: Path, out: Path, gold: dict[str, Any], extra: list[str]) -> tuple[float, str]:
    """The week's digest as JSON (timed) then as Markdown; the wall time and stderr."""
    stem = judgment_eval.stem(gold)
    base = ["digest", gold["repo"], "--week", gold["week"], *extra]
    started = time.monotonic()
    done = prdigest(db, [*base, "--format", "json", "--out", str(out / f"{stem}.json")])
    seconds = time.monotonic() - started
    prdigest(db, [*base, "--format", "md", "--out", str(out / f"{stem}.md")])
    return seconds, done.stderr


def section_citations(markdown: str) -> set[int]:
    """PRs cited in the numbered sections (not Key Takeaways, the callout or the tail)."""
    parts = _SECTION.split(markdown)[1:]
    return {int(n) for part in parts for n in _CITE.findall(part.split("\n---", 1)[0])}


def measure(run: Run, folder: Path, gold: dict[str, Any], reference: set[int] | None) -> None:
    stem = judgment_eval.stem(gold)
    digest = judgment_eval.read_digest(folder, gold)
    run.score.merge(judgment_eval.score_week(gold, digest))
    context = json.loads((folder / f"{stem}.json").read_text(encoding="utf-8"))
    window = {int(n) for n in context.get("prs", {})}
    cited = {int(n) for n in _CITE.findall(digest.markdown)}
    run.window_prs += len(window)
    run.cited += len(window & cited)
    if reference is not None:
        run.section_prs += len(reference)
        run.section_cited += len(reference & section_citations(digest.markdown))
    run.weeks += 1
    for line in digest.markdown.splitlines():
        prose = re.sub(r"\]\([^)]*\)", "]", line)
        if prose.count("`") % 2 or prose.count("**") % 2:
            run.open_markup += 1
    facts = context.get("llm")
    if not facts:
        return
    if "fallback" in facts:
        run.fallbacks.append(f"{stem}: {facts['fallback']}")
    run.requests += int(facts.get("usage", {}).get("requests", 0))
    claims = facts.get("claims", {})
    run.checked += int(claims.get("checked", 0))
    run.dropped.update(claims.get("dropped", {}))
    run.repaired.update(claims.get("repaired", {}))
    sections = facts.get("sections", {})
    run.sections += int(sections.get("total", 0))
    run.by_model += int(sections.get("by_model", 0))
    run.lost.update(sections.get("lost", {}))
    run.retried += int(sections.get("areas_retried", 0))
    run.recovered += int(sections.get("areas_recovered", 0))
    run.takeaways += bool(facts.get("takeaway_by_model"))


def start_server(model: str, folder: Path, ctx: int, parallel: int) -> tuple[str, Path]:
    """llama-server with `parallel` slots of `ctx` tokens each (the writer sends as many
    requests at once: on a CPU, two answers decode in about the time of one)."""
    pid_file = folder / "llama-server.pid"
    argv = [str(SERVER), "serve", "--model", model, "--ctx", str(ctx * parallel), "--daemon"]
    argv += ["--parallel", str(parallel), "--log", str(folder / "llama-server.log")]
    argv += ["--pid-file", str(pid_file), "--watch-pid", str(os.getpid()), "--wait", "600"]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"llama-server did not start:\n{done.stderr}")
    return done.stdout.strip().splitlines()[-1], pid_file


def share(got: int, of: int) -> str:
    return f"{got / of:.2f} ({got}/{of})" if of else "—"


def reasons(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {r}" for r, n in counts.most_common()) or "none"


def report(runs: list[Run], model: str, weeks: list[str]) -> str:
    rows = {run.name: run.score.row() for run in runs}
    lines = [judgment_eval.table(rows), ""]
    names = [run.name for run in runs]
    lines += [f"| measure | {' | '.join(names)} |", "| --- |" + " --- |" * len(runs)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | {' | '.join(cells)} |")

    row("weeks", [str(r.weeks) for r in runs])
    row("window's PRs cited", [share(r.cited, r.window_prs) for r in runs])
    row(
        "PRs the deterministic digest cites in sections, cited in sections",
        [share(r.section_cited, r.section_prs) if r.section_prs else "—" for r in runs],
    )
    row("lines with markup left open", [str(r.open_markup) for r in runs])
    row(
        "claims kept / checked",
        [
            f"{r.checked - sum(r.dropped.values())} / {r.checked}" if r.checked else "—"
            for r in runs
        ],
    )
    row("dropped, by reason", [reasons(r.dropped) if r.checked else "—" for r in runs])
    row("repaired, by reason", [reasons(r.repaired) if r.checked else "—" for r in runs])
    row(
        "sections the model wrote",
        [share(r.by_model, r.sections) if r.sections else "—" for r in runs],
    )
    row(
        "sections not the model's, by reason",
        [reasons(r.lost) if r.sections else "—" for r in runs],
    )
    row(
        "areas asked again / won back",
        [f"{r.retried} / {r.recovered}" if r.sections else "—" for r in runs],
    )
    row(
        "key takeaways the model wrote",
        [f"{r.takeaways}/{r.weeks}" if r.sections else "—" for r in runs],
    )
    row("requests", [str(r.requests) if r.sections else "—" for r in runs])
    row(
        "minutes per week (mean, max)",
        [
            f"{sum(r.seconds) / len(r.seconds) / 60:.2f}, {max(r.seconds) / 60:.2f}"
            if r.seconds
            else "—"
            for r in runs
        ],
    )
    row("fallbacks to the deterministic writer", [str(len(r.fallbacks)) for r in runs])
    lines.append("")
    lines.append(f"LLM: {model}; weeks: {', '.join(weeks)}")
    for run in runs:
        lines += [f"fallback: {f}" for f in run.fallbacks]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen-1.5b", help="smollm2, qwen-0.5b or qwen-1.5b")
    parser.add_argument("--weeks", type=int, default=len(DEFAULT_WEEKS), help="how many weeks")
    parser.add_argument("--week", action="append", help="a gold week, e.g. ao-2025-W51")
    parser.add_argument("--base-url", help="an LLM server already running (else started here)")
    parser.add_argument(
        "--ctx", type=int, default=8192, help="the started server's context per slot"
    )
    parser.add_argument("--parallel", type=int, default=2, help="the started server's slots")
    parser.add_argument("--keep", type=Path, help="keep the digests here")
    parser.add_argument("extra", nargs="*", help="more options for the LLM digest (after --)")
    args = parser.parse_args()
    wanted = args.week or DEFAULT_WEEKS[: args.weeks]
    by_stem = {judgment_eval.stem(g): g for g in judgment_eval.gold_weeks(judgment_eval.GOLD)}
    missing = [w for w in wanted if w not in by_stem]
    if missing:
        print(f"no gold week {missing[0]} in {judgment_eval.GOLD}", file=sys.stderr)
        return 1
    golds = [by_stem[w] for w in wanted]
    for repo in {g["repo"] for g in golds}:
        if not (judgment_eval.DATA / judgment_eval.PATCH_FILES[repo]).exists():
            print(
                f"the real data is not in {judgment_eval.DATA}: nothing to score", file=sys.stderr
            )
            return 1
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        pid_file = None
        url = args.base_url
        try:
            if url is None:
                url, pid_file = start_server(args.model, root, args.ctx, args.parallel)
                print(f"llama-server with {args.model} at {url}", file=sys.stderr)
            writers = {
                "deterministic": ["--writer", "deterministic"],
                f"llm {args.model}": [
                    "--writer",
                    "llm",
                    "--llm-base-url",
                    url,
                    "--llm-model",
                    args.model,
                    *args.extra,
                ],  # fmt: skip
            }
            runs = []
            reference: dict[str, set[int]] = {}
            for name, extra in writers.items():
                run = Run(name)
                folder = root / name.replace(" ", "-")
                folder.mkdir(parents=True, exist_ok=True)
                db = folder / "bench.db"
                sync(db, golds)
                for gold in golds:
                    seconds, stderr = write_week(db, folder, gold, extra)
                    run.seconds.append(seconds)
                    stem = judgment_eval.stem(gold)
                    (folder / f"{stem}.stderr").write_text(stderr, encoding="utf-8")
                    print(f"{name} {stem}: {seconds:.0f} s", file=sys.stderr)
                    if name == "deterministic":
                        md = (folder / f"{stem}.md").read_text(encoding="utf-8")
                        reference[stem] = section_citations(md)
                        measure(run, folder, gold, reference[stem])
                    else:
                        measure(run, folder, gold, reference.get(stem))
                runs.append(run)
        finally:
            if pid_file is not None:
                subprocess.run([str(SERVER), "stop", "--pid-file", str(pid_file)], check=False)
    print(report(runs, args.model, wanted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
