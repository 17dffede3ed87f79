"""Quantitative claims (`1.4x`, `~15%`, `O(N^2) to O(N)`, `264s to 87s`) quoted from a PR.

A claim is a short phrase copied verbatim (up to whitespace) from the PR's title or the
prose of its body. Boilerplate is skipped first: code blocks, Test Plan sections, tables,
URLs, trailers, ghstack lists, `cc @…` lines. Numbers alone are not claims: a percentage
or a multiplier counts only in a sentence that talks about speed, size or cost.
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
_URL = re.compile(r"https?://\S+|www\.\S+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n\s*[-*•]\s+|\n\s*\n")

_CONTEXT = re.compile(
    r"(?i)\b(fast\w*|speed\w*|slow\w*|quick\w*|latenc\w*|throughput|perf\w*|improv\w*|"
    r"reduc\w*|decreas\w*|increas\w*|small\w*|less|fewer|lower\w*|higher|better|worse|"
    r"sav\w*|cut\w*|shrink\w*|memory|size|footprint|bandwidth|tok(?:ens)?/s|time|runtime|"
    r"overhead|cost|gain\w*|boost\w*|accelerat\w*|compile|binary|peak|uplift|efficien\w*|drop\w*)\b"
)
_NOISE = re.compile(
    r"(?i)(coefficient|variation|trimm|elements differ|percentile|\bcv\b|std|stdev|confidence|p\d\d\b|accuracy|top-?1|top-?5|coverage)"
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
        if in_fence or skipping or _BOILERPLATE.match(raw) or raw.startswith("    "):
            lines.append("")
            continue
        lines.append(_URL.sub(" ", raw))
    return lines


def normalize(text: str) -> str:
    """Whitespace collapsed and Markdown bold markers dropped: the form claims are quoted
    from and checked against (`**18.5% reduction**` is quoted as `18.5% reduction`)."""
    return _WS.sub(" ", text.replace("**", "")).strip()


def find_claims(title: str, body: str) -> list[str]:
    """Up to two claims, as verbatim (whitespace-normalised) phrases of the PR's text."""
    found: list[str] = []
    if not _ANY_FIGURE.search(title) and not _ANY_FIGURE.search(body):
        return found  # most PRs state no figure: skip the sentence work
    sources = (normalize(title), normalize(body))
    text = title + "\n\n" + "\n".join(prose_lines(body))
    for chunk in _SENTENCE_END.split(text):
        sentence = normalize(chunk)
        if not sentence or len(sentence) > 400 or _NOISE.search(sentence):
            continue
        for pattern, needs_context in zip(_FIGURES, _NEEDS_CONTEXT, strict=True):
            for match in pattern.finditer(sentence):
                if needs_context and not _CONTEXT.search(sentence):
                    continue
                if _looks_like_version_or_date(sentence, match.start(), match.end()):
                    continue
                if _HARDWARE_COUNT.match(sentence, match.end()):
                    continue  # `8x H100` counts machines, it claims nothing
                phrase = _phrase_around(sentence, match.start(), match.end())
                if not any(phrase in source for source in sources):
                    phrase = match.group(0).strip()  # the URL cut made the phrase non-verbatim
                    if not any(phrase in source for source in sources):
                        continue
                if phrase and not any(phrase in f or f in phrase for f in found):
                    found.append(phrase)
                if len(found) >= _MAX_PER_PR:
                    return found
    return found


def _looks_like_version_or_date(sentence: str, start: int, end: int) -> bool:
    before = sentence[max(0, start - 12) : start].lower()
    return bool(re.search(r"(v|version|python|cuda|rocm|sdk|api level|#)\s*$", before))


_HARDWARE_COUNT = re.compile(r"\s?[A-Z]+\d")
_STOP_LEFT = re.compile(r"[,;:()\[\]\"“”—]")


_CLAUSE_BREAK = re.compile(
    r"(?i)^(by|and|which|when|while|for|on|in|with|after|because|so|but|if|as|compared|vs\.?|versus|than)$"
)
_LEADING_FILLER = re.compile(r"(?i)^(this|which|that|and|it|so|but|also|we|overall|here)$")


def _phrase_around(sentence: str, start: int, end: int) -> str:
    """The figure with a few words either side, cut at punctuation and clause words: a
    quotable phrase. Always a slice of `sentence`, so the phrase is verbatim."""
    left = sentence[:start]
    cut = max((m.end() for m in _STOP_LEFT.finditer(left)), default=0)
    words = [(m.start() + cut, m.group(0)) for m in re.finditer(r"\S+", left[cut:])][-6:]
    while words and _LEADING_FILLER.match(words[0][1]):
        words = words[1:]
    begin = words[0][0] if words else start
    right = sentence[end:]
    stop = _STOP_LEFT.search(right)
    limit = stop.start() if stop else len(right)
    finish = end
    for count, match in enumerate(re.finditer(r"\S+", right[:limit])):
        if count >= 3 or _CLAUSE_BREAK.match(match.group(0)):
            break
        finish = end + match.end()
    phrase = sentence[begin:finish].strip().rstrip(".!?,;:").strip()
    return phrase if len(phrase) <= 100 else sentence[start:end].strip()
