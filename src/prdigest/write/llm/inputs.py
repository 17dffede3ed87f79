"""What the model is shown about each PR, and the full text claims are checked against.

PR titles and bodies are written by strangers: they become one line of quoted
data each (whitespace collapsed, so a body cannot open a line of its own),
never part of an instruction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...analyze.context_types import DigestContext, PRFacts
from ...models import PullRequest
from .tokens import estimate_tokens

_BOILERPLATE_LINE = re.compile(
    r"^\s*(differential revision|pull request resolved|pull-request|ghstack-source-id|"
    r"signed-off-by|co-authored-by|approved by|reviewed by|reviewers|subscribers|tags|"
    r"change-id|fbshipit-source-id|imported from github|x-github|cc\s*@|stack from \[ghstack\]|"
    r"\*\s*(__->__\s*)?#\d+|\[ghstack-poisoned\]|\*\s*update\s*$)",
    re.IGNORECASE,
)
_TEST_PLAN = re.compile(r"^\s*(#+\s*)?test[ _-]?plan\b.*$", re.IGNORECASE)
_HEADING = re.compile(r"^\s*#+\s")
_SUMMARY_HEADING = re.compile(r"^\s*(#+\s*)?summary\s*:?\s*$", re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_SPACE = re.compile(r"\s+")
_WORD_CUT = re.compile(r"\S+\s*")


def clean_body(body: str) -> str:
    """The body without trailers, cc lists, stack lists, test plans and HTML comments."""
    kept: list[str] = []
    skipping = False
    for line in _COMMENT.sub("", body).splitlines():
        if _TEST_PLAN.match(line):
            skipping = True
            continue
        if skipping and _HEADING.match(line) and not _TEST_PLAN.match(line):
            skipping = False
        if skipping or _BOILERPLATE_LINE.match(line) or _SUMMARY_HEADING.match(line):
            continue
        kept.append(line.rstrip())
    return "\n".join(kept).strip()


def one_line(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def trim_tokens(text: str, budget: int) -> str:
    """The leading words of `text` that fit in `budget` tokens, "…" when cut."""
    if estimate_tokens(text) <= budget:
        return text
    out = ""
    for match in _WORD_CUT.finditer(text):
        if estimate_tokens(out + match.group(0)) > budget - 1:
            break
        out += match.group(0)
    return out.rstrip() + "…"


@dataclass(frozen=True)
class PRText:
    """Everything known about one PR number in the window (relands merged)."""

    number: int
    title: str
    author: str
    labels: tuple[str, ...]
    body: str  # cleaned: what the model is shown the start of
    raw_body: str  # everything: what claims are checked against
    paths: tuple[str, ...] = ()  # the files it changed: names a sentence may use


def pr_texts(prs: Iterable[PullRequest]) -> dict[int, PRText]:
    out: dict[int, PRText] = {}
    for pr in prs:
        if pr.number is None:
            continue
        cleaned, raw = clean_body(pr.body), pr.body
        paths = tuple(f.path for f in pr.files)
        known = out.get(pr.number)
        if known is not None:  # a reland or re-export: keep both texts
            cleaned, raw = f"{known.body}\n{cleaned}".strip(), f"{known.raw_body}\n{raw}"
            paths = tuple(dict.fromkeys((*known.paths, *paths)))
        out[pr.number] = PRText(
            pr.number, pr.title, pr.author_name or pr.author, pr.labels, cleaned, raw, paths
        )
    return out


@dataclass(frozen=True)
class ItemLimits:
    text_tokens: int = 16  # the body's opening words (within issue 5's token target)
    claim_tokens: int = 20  # each claim sentence
    claims: int = 1


FULL_ITEMS = ItemLimits()
SHORT_ITEMS = ItemLimits(text_tokens=0, claim_tokens=12)  # an area too large for one request


def pr_item(number: int, info: PRFacts | None, text: PRText | None, limits: ItemLimits) -> str:
    """One line of data: number, title, main path, opening words, a stated figure."""
    said = (info.clean_title or info.title) if info else ""
    title = one_line(said or (text.title if text else ""))
    parts = [f"#{number}", title]
    path = one_line(info.top_paths[0]) if info and info.top_paths else ""
    if path:
        parts.append(f"| {path}")
    opening = _opening(text, title) if limits.text_tokens else ""
    shown = trim_tokens(opening, limits.text_tokens) if opening else ""
    if shown:
        parts.append("| " + shown)
    for claim in stated_results(info.claims if info else (), shown, limits)[: limits.claims]:
        parts.append("| claim: " + claim)
    return " ".join(p for p in parts if p)


def stated_results(claims: Iterable[str], already_shown: str, limits: ItemLimits) -> list[str]:
    """The results the analysis read in the PR's text (`claims`: whole clauses stating a
    measured outcome, never a test threshold, a setting or a table cell, as the
    deterministic writer quotes them), cut around their figure to fit the line."""
    from .verify import extract_figures

    found = []
    for claim in claims:
        figures = extract_figures(claim)
        if one_line(claim) in already_shown:  # the opening words hold it whole
            continue
        found.append(
            _around(claim, figures[0], limits.claim_tokens)
            if figures
            else trim_tokens(claim, limits.claim_tokens)
        )
    return found


def _around(sentence: str, figure: str, budget: int) -> str:
    """The words of `sentence` around `figure` that fit `budget` tokens."""
    if estimate_tokens(sentence) <= budget:
        return sentence
    at = sentence.find(figure)
    at = sentence.rfind(" ", 0, max(at, 0)) + 1  # the figure's whole word: `~15`, `2-4x`
    words_before = sentence[:at].split()
    after = sentence[at:]
    kept_before: list[str] = []
    while (
        words_before and estimate_tokens(" ".join([words_before[-1], *kept_before])) < budget // 3
    ):
        kept_before.insert(0, words_before.pop())
    head = ("…" if words_before else "") + " ".join(kept_before)
    rest = trim_tokens(after, budget - estimate_tokens(head))
    return f"{head} {rest}".strip()


_LEAD_IN = re.compile(
    r"^(?:\*\*|__)?(?:summary|description|motivation)\s*:?\s*(?:\*\*|__)?\s*:?\s*", re.I
)


def _opening(text: PRText | None, title: str) -> str:
    if text is None:
        return ""
    body = _LEAD_IN.sub("", one_line(text.body))
    if body.lower().startswith(title.lower()):
        body = body[len(title) :].lstrip(" .:-")
    return body


def figure_texts(context: DigestContext, texts: Mapping[int, PRText]) -> dict[int, str]:
    """What each PR of the window says, for figures: title, full body, the claims
    analysis found."""
    out = {}
    for number, info in context.prs.items():
        text = texts.get(number)
        parts = [info.title, info.clean_title]
        if text is not None:
            parts += [text.title, text.raw_body]
        parts += info.claims
        out[number] = "\n".join(p for p in parts if p)
    return out


def evidence_texts(context: DigestContext, texts: Mapping[int, PRText]) -> dict[int, str]:
    """Everything a sentence citing a PR may name: its figure text, changed paths, labels."""
    out = figure_texts(context, texts)
    for number, info in context.prs.items():
        text = texts.get(number)
        extra = list(info.top_paths)
        if text is not None:
            extra += [*text.paths, *text.labels]
        out[number] = "\n".join([out[number], *extra])
    return out


def lower_case_words(texts: Iterable[str]) -> set[str]:
    """The words the texts write in lower case: ordinary words, not names."""
    return {w for text in texts for w in re.findall(r"(?<![A-Za-z])[a-z]+(?![A-Za-z])", text)}
