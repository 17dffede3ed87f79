"""Quantitative claims (`1.4x`, `~15%`, `O(N^2) to O(N)`, `264s to 87s`) quoted from a PR.

A claim is the PR's result in its own words: the whole clause that states a figure,
copied verbatim (up to whitespace) from the title or the prose of the body, cut where the
clause is (a sentence's end, punctuation, `and`/`which`/`because` …), never mid-phrase.
Boilerplate is skipped first: code blocks, Test Plan sections, tables, URLs, trailers,
ghstack lists, `cc @…` lines. Then what is no result: a figure in a sentence about a
setting (a threshold, tolerance, timeout, default or configuration value), a clause that
describes the problem rather than the outcome (`fails 5% of the time`, `the old
algorithm was 35% worse`), a figure with nothing said about it (`35.1%`), a machine
count (`8x H100`). A percentage or a multiplier counts only in a clause that talks about
speed, size, cost or accuracy.
"""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"(#{1,6} +|\*\*)?([A-Za-z][\w ]{0,30}?)(?:\*\*)?:?")
_SKIP_SECTIONS = re.compile(
    r"(?i)^(test plan|testing|test|tests|reproduc\w*|repro|logs?|output|benchmark commands?|how to run|usage)$"
)
_BOILERPLATE = re.compile(
    r"(?i)^\s*(differential revision|pull request resolved|pull-request|ghstack|stack from|"
    r"\*\s*(__->__\s*)?#\d+|cc\s*@|signed-off-by|co-authored-by|approved by|reviewed by|"
    r"reviewers?:|subscribers?:|tasks?:|tags?:|fbshipit-source-id|imported from|"
    r"@exported-using|x-link|bypass-github|test plan:|rollback plan|fixes\s*#|closes\s*#|"
    r"\||<img|<details|</details|<summary|!\[)"
)
_TEST_PLAN_LINE = re.compile(r"(?i)^\s*test plan:\s*\S")  # its section on one line
_URL = re.compile(r"https?://\S+|www\.\S+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n\s*[-*•]\s+|\n\s*\n")

_NOISE = re.compile(
    r"(?i)(coefficient|variation|trimm|elements differ|percentile|\bcv\b|std|stdev|confidence|p\d\d\b|top-?1|top-?5|coverage)"
)
# A sentence that sets something: its figures are settings, not results.
_SETTING = re.compile(
    r"(?i)\b(?:threshold\w*|toleran\w*|atol|rtol|timeouts?|limit(?:s|ed)?\s+(?:to|at|of)|"
    r"assert\w*|set\s+to|defaults?\s+(?:to|of|is)|config\w*\s*(?:=|:|to\b|value)|budget|"
    r"within)\b|(?<![\w-])--[a-z]|\b[a-z_]+_(?:threshold|tol|limit|timeout|size)\b|\w=\d"
)
# A clause that tells the problem a PR solves, or the state before it.
_PROBLEM = re.compile(
    r"(?i)\b(?:regress\w*|fail\w*|crash\w*|flak\w*|bugs?|broken|inflat\w*|older|stalls?|"
    r"previously|before this|used to|worse|than necessary|of the time|rang(?:e|es|ed)|"
    r"slowdowns?)\b"
    r"|^fix(?:es|ed|ing)?\b|#\d"
)
# A result is a change: the clause of a percentage or a multiplier says what moved, and
# which way (`2x faster`, `reduces memory by 30%`, `15% lower perplexity`), not only how
# much there is of something (`slice_copy takes about 5-10% time`, `accuracy is 24%`).
_CHANGE = re.compile(
    r"(?i)\b(?:fast\w*|speed\s?ups?|speed(?:s|ed)?\s+up|speed\w*|quick\w*|slow\w*|improv\w*|"
    r"reduc\w*|decreas\w*|increas\w*|small\w*|less|fewer|lower\w*|higher|better|sav(?:e|es|ed|"
    r"ing|ings)|cut\w*|shrink\w*|shrunk|drop\w*|eliminat\w*|gain\w*|boost\w*|accelerat\w*|"
    r"uplift|outperform\w*|optimi[sz]\w*|instead of|compared|than|vs\.?|versus|recover\w*)\b"
    r"|->|→"
)
_MACHINES = re.compile(
    r"\s?(?:[A-Z]+\d|(?:\w+\s)?(?:hosts?|machines?|nodes?|gpus?|cpus?|cores?|runners?|instances?)\b)",
    re.I,
)

_UNIT = r"(?:ms|us|µs|ns|s|sec|secs|seconds?|min|minutes?|h|hours?|MB|GB|KB|MiB|GiB|KiB|B|bytes|tok/s|tokens/s|it/s|fps|FPS|%|x)"
_NUM = r"~?\d[\d,]*(?:\.\d+)?"
_FIGURES = [
    # complexity change: O(N^2) to O(N)
    re.compile(r"O\([^()]{1,20}\)\s*(?:to|->|→|=>)\s*O\([^()]{1,20}\)"),
    # from A to B with units: 264s to 87s, 3.2 GB -> 1.1 GB, 133,169,536 -> 67,014,016 bytes
    re.compile(rf"(?<![\w.]){_NUM}\s?{_UNIT}?\s*(?:to|->|→|=>)\s*{_NUM}\s?{_UNIT}(?![\w])"),
    # savings: saves ~66.16 MB, reduced by 120 ms
    re.compile(
        rf"(?i)\b(?:sav(?:es|ed|ing)|reduc\w* by|cut\w* by|shav\w*)\s+(?:about |around |roughly |over |up to )?{_NUM}\s?(?:ms|us|µs|s|sec|seconds|minutes|MB|GB|KB|MiB|GiB|KiB|bytes)(?![\w])"
    ),
    # multipliers: 1.4x, 2x faster, 10X (not 0x1F, 2x2, x86)
    re.compile(r"(?<![\w.])~?\d+(?:\.\d+)?(?:\s?[-–]\s?\d+(?:\.\d+)?)?\s?[xX×](?![\w\d])"),
    # percentages: ~15%, -30%
    re.compile(r"(?<![\w.–-])[-+~]?\d+(?:\.\d+)?(?:\s?[-–]\s?\d+(?:\.\d+)?)?\s?%(?!\w)"),
]
_ANY_FIGURE = re.compile(
    r"\d\s?[xX×%]|O\(|\d\s?(?:ms|us|µs|s|sec|seconds|min|MB|GB|KB|MiB|GiB|KiB|bytes|tok)\b"
)
_NEEDS_CONTEXT = (False, False, False, True, True)
_MAX_PER_PR = 2


def prose_lines(body: str) -> list[str]:
    """The body's prose lines: no code blocks, Test Plan sections, tables or trailers."""
    lines: list[str] = []
    in_fence = False
    skipping = False
    dropped = False
    for raw in body.splitlines():
        # A dropped line becomes a blank one, so no sentence spans what was removed.
        if _FENCE.match(raw):
            in_fence = not in_fence
            lines.append("")
            continue
        stripped = raw.strip()
        heading = _HEADING.fullmatch(stripped) if len(stripped) <= 48 else None
        if (
            not in_fence
            and heading
            and (stripped.startswith(("#", "**")) or stripped.endswith(":"))
        ):
            skipping = bool(_SKIP_SECTIONS.match(heading.group(2).strip()))
            lines.append("")
            continue
        # a boilerplate line's paragraph goes with it: `Test Plan: tested in …, with rowwise`
        # wraps onto `peak memory decreased …`, which is no sentence of its own
        dropped = dropped and bool(stripped)
        if in_fence or skipping or dropped or _BOILERPLATE.match(raw) or raw.startswith("    "):
            dropped = dropped or (not in_fence and bool(_TEST_PLAN_LINE.match(raw)))
            lines.append("")
            continue
        lines.append(_URL.sub(" ", raw))
    return lines


def normalize(text: str) -> str:
    """Whitespace collapsed and Markdown bold markers dropped: the form claims are quoted
    from and checked against (`**18.5% reduction**` is quoted as `18.5% reduction`)."""
    return _WS.sub(" ", text.replace("**", "")).strip()


def find_claims(title: str, body: str) -> list[str]:
    """Up to two claims, as verbatim (whitespace-normalised) clauses of the PR's text."""
    found: list[str] = []
    if not _ANY_FIGURE.search(title) and not _ANY_FIGURE.search(body):
        return found  # most PRs state no figure: skip the sentence work
    sources = (normalize(title), normalize(body))
    text = title + "\n\n" + "\n".join(prose_lines(body))
    for chunk in _SENTENCE_END.split(text):
        sentence = normalize(chunk)
        if not sentence or len(sentence) > 400 or _NOISE.search(sentence):
            continue
        if _SETTING.search(sentence) or sentence.count("|") >= 2:
            continue  # a setting, or a table row that lost its leading pipe
        for pattern, needs_context in zip(_FIGURES, _NEEDS_CONTEXT, strict=True):
            for match in pattern.finditer(sentence):
                if _looks_like_version_or_date(sentence, match.start(), match.end()):
                    continue
                if _MACHINES.match(sentence, match.end()):
                    continue  # `8x H100`, `8x size hosts` count machines, they claim nothing
                phrase = clause_around(sentence, match.start(), match.end())
                if not phrase or _PROBLEM.search(phrase):
                    continue
                said = phrase.replace(match.group(0), " ")
                if needs_context and not _CHANGE.search(said):
                    continue  # `35.1%`, `accuracy is around 24%`: nothing moved
                if not any(phrase in source for source in sources):
                    continue  # a dropped URL or aside made it non-verbatim
                if not any(phrase in f or f in phrase for f in found):
                    found.append(phrase)
                if len(found) >= _MAX_PER_PR:
                    return found
    return found


def _looks_like_version_or_date(sentence: str, start: int, end: int) -> bool:
    before = sentence[max(0, start - 12) : start].lower()
    return bool(re.search(r"(v|version|python|cuda|rocm|sdk|api level|#)\s*$", before))


# Where a clause starts: after punctuation, a dash or a conjunction that opens a new one …
_CLAUSE_START = re.compile(
    r"(?:[.!?]\s+|[,;:(\[\"“—–]\s*|\s-\s+|\b(?:and|but|because|since|while|so|whereas|"
    r"although|though|when)\s+)"
)
# … and where it ends: punctuation (not inside a number: `1,010`, `2.5`), an aside or a
# conjunction that opens the next.
_CLAUSE_END = re.compile(
    r"(?:[;:)\]!?\"”—–]|,(?!\d)|\.(?=\s|$)|\s+[(\[]|\s--?\s|\s+(?:because|since|while|whereas|"
    r"although|though|but|which|when|where|and|so)\b)"
)
_BULLET = re.compile(r"\s*[-*•]\s+")
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_MAX_CLAUSE = 120


def clause_around(sentence: str, start: int, end: int) -> str:
    """The clause holding the figure at [start, end): from the last clause start before it
    to the first clause end after it, so it reads whole. '' when it is longer than a quote
    should be, or opens with a bare number (`170 we see …`: the text lacks punctuation)."""
    # an aside closed before the figure (`model (with this PR) achieved …`) is inside the
    # clause: its punctuation starts nothing
    left = _ASIDE.sub(lambda m: "_" * len(m.group(0)), sentence[:start])
    begin = max((m.end() for m in _CLAUSE_START.finditer(left)), default=0)
    bullet = _BULLET.match(sentence, begin)
    begin = bullet.end() if bullet and bullet.end() <= start else begin
    stop = _CLAUSE_END.search(sentence, end)
    finish = stop.start() if stop else len(sentence)
    phrase = sentence[begin:finish].strip().rstrip(".!?,;:|").strip()
    if "|" in phrase:
        return ""  # a row of a table, not a sentence
    if len(phrase) > _MAX_CLAUSE or (phrase[:1].isdigit() and begin < start - 1):
        return ""
    if phrase.count("(") != phrase.count(")") or phrase.count("[") != phrase.count("]"):
        return ""  # it opens or closes an aside it does not hold
    return phrase
