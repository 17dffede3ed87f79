"""Verification of what a model wrote, against the PRs of the window.

A citation must name a PR of the window, in the section's area (a theme whose
PRs all belong to another area is moved there). A figure (`1.4x`, `15%`,
`O(N)`, `264s`, any number of two digits or more) must appear in the text of a
PR cited beside it; when it appears in another PR of the same area, that PR
is cited too (a repaired citation), otherwise the sentence is dropped.
Sentences carrying links, HTML or Markdown structure are dropped as well:
the model has no business writing them, and PR text may try to smuggle them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_BIG_O = r"O\((?:[^()]|\([^()]*\))*\)"
_UNIT = r"(?i:ms|us|µs|ns|secs?|seconds?|s|mins?|minutes?|h|hrs?|hours?|[kmgt]i?b|[kmb]|x|×)"
_FIGURE = re.compile(
    rf"\$?{_BIG_O}\$?"
    rf"|(?<![\w.$/-])\d+(?:[.,]\d+)*(?:\s?(?:%|percent\b)|\s?{_UNIT}(?![A-Za-z\d]))?(?![\w.]?\d)"
)
_PR_REF = re.compile(
    r"\[PR\s?#?(\d+)\]\([^)]*\)|https?://github\.com/[\w.-]+/[\w.-]+/pull/(\d+)"
    r"|\bPR\s?#?(\d+)\b|(?<![\w&])#(\d+)\b|\bpull request\s+#?(\d+)\b",
    re.IGNORECASE,
)
_UNSAFE = re.compile(r"https?://|www\.|<[a-zA-Z/!][^>]*>|\]\(|^\s*#|\n\s*#|!\[", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'*])")
_CITATION = re.compile(r"\[PR#(\d+)\]\((https?://[^)]+)\)")


def extract_figures(text: str) -> list[str]:
    """Quantitative claims in `text`; single digits alone are not claims."""
    found = []
    for match in _FIGURE.finditer(_without_refs(text)):
        figure = match.group(0).strip()
        if re.fullmatch(r"\d", figure):
            continue
        found.append(figure)
    return found


def extract_pr_refs(text: str) -> list[int]:
    return [int(next(g for g in m.groups() if g)) for m in _PR_REF.finditer(text)]


def strip_pr_refs(text: str) -> str:
    text = _PR_REF.sub("", text)
    text = re.sub(r"\(\s*[,;\s]*\)", "", text)  # "(#12, #13)" leaves "( , )"
    return re.sub(r"\s+([,.;:])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()


def _without_refs(text: str) -> str:
    return _PR_REF.sub(" ", text)


def normalise(text: str) -> str:
    text = text.lower().replace("×", "x").replace("**", "^").replace("²", "^2")
    text = re.sub(r"[$\\{}~≈]", "", text)
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    text = re.sub(r"(?<=\d)\s*percent\b", "%", text)
    text = re.sub(r"(?<=\d)\s*(?:seconds?|secs?)\b", "s", text)
    text = re.sub(r"(?<=\d)\s*(?:minutes?|mins?)\b", "min", text)
    text = re.sub(r"(?<=\d)\s*(?:hours?|hrs?)\b", "h", text)
    return re.sub(r"\s+", "", text)


def figure_in_text(figure: str, text: str) -> bool:
    """Whether the figure is stated in the text (spacing, `×`, `$…$`, `percent` aside)."""
    wanted, haystack = normalise(figure), normalise(text)
    if not wanted:
        return True
    start = haystack.find(wanted)
    while start >= 0:
        before = haystack[start - 1] if start else ""
        after = haystack[start + len(wanted) : start + len(wanted) + 1]
        if not (before.isdigit() or before == ".") and not (
            wanted[-1].isdigit() and after.isdigit()
        ):
            return True
        start = haystack.find(wanted, start + 1)
    return False


@dataclass
class Theme:
    area: str
    name: str
    summary: str
    prs: list[int]


@dataclass
class Tally:
    citations: int = 0
    figures: int = 0
    dropped: int = 0
    repaired: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def checked(self) -> int:
        return self.citations + self.figures

    def summary(self) -> str:
        repaired = (
            f", {self.repaired} citation{'s' * (self.repaired != 1)} repaired"
            if self.repaired
            else ""
        )
        return (
            f"{self.checked} claims checked against the PRs of the window "
            f"({self.citations} citations, {self.figures} figures), {self.dropped} dropped{repaired}"
        )

    def closing_line(self) -> str:
        return f"_{self.summary()}._"


class Verifier:
    def __init__(self, texts: Mapping[int, str], areas: Mapping[int, str]) -> None:
        self.texts = texts  # PR number → everything the PR says (title, body, claims)
        self.areas = areas  # PR number → its area in this window
        self.tally = Tally()

    def check_theme(self, theme: Theme) -> Theme | None:
        """The theme as it may be published, or None when nothing of it survives."""
        name = _one_line(strip_pr_refs(theme.name)).replace("*", "").strip("_ :")
        summary = _one_line(theme.summary)
        cited = _dedupe([*theme.prs, *extract_pr_refs(theme.name), *extract_pr_refs(summary)])
        summary = strip_pr_refs(summary)
        kept = []
        for number in cited:
            self.tally.citations += 1
            if number in self.texts:
                kept.append(number)
            else:
                self._drop(f"theme {name!r} cites PR #{number}, which is not in the window")
        if not kept:
            return None
        area = self._area_of(theme.area, kept)
        on_area = [n for n in kept if self.areas.get(n) == area]
        for number in kept:
            if number not in on_area:
                self.tally.repaired += 1
                self.tally.problems.append(
                    f"theme {name!r}: PR #{number} belongs to {self.areas.get(number)!r}, not {area!r}"
                )
        if (
            not name
            or _UNSAFE.search(name)
            or not self._figures_supported(name, on_area, area, name)
        ):
            self._drop(f"theme name {name!r} is unsafe or states an unsupported figure")
            return None
        sentences = [s for s in _SENTENCE_END.split(summary) if s.strip()]
        published = [s for s in sentences if self._sentence_ok(s, on_area, area, name)]
        if not published:
            return None
        return Theme(area, name, " ".join(published), on_area)

    def check_free_text(self, text: str, sources: Iterable[str], what: str) -> str:
        """Prose that cites nothing (the key takeaway): its figures must come from `sources`."""
        pool = "\n".join(sources)
        kept = []
        for sentence in (s for s in _SENTENCE_END.split(_one_line(text)) if s.strip()):
            refs = extract_pr_refs(sentence)
            self.tally.citations += len(refs)
            if refs or _UNSAFE.search(sentence):
                self._drop(f"{what}: a sentence with PR references or markup was dropped")
                continue
            figures = extract_figures(sentence)
            self.tally.figures += len(figures)
            missing = [f for f in figures if not figure_in_text(f, pool)]
            if missing:
                self._drop(
                    f"{what}: figure {missing[0]!r} is not in the verified themes", len(missing)
                )
                continue
            kept.append(sentence)
        return " ".join(kept)

    def _sentence_ok(self, sentence: str, cited: list[int], area: str, name: str) -> bool:
        if _UNSAFE.search(sentence):
            self._drop(f"theme {name!r}: a sentence with links or markup was dropped")
            return False
        return self._figures_supported(sentence, cited, area, name)

    def _figures_supported(self, text: str, cited: list[int], area: str, name: str) -> bool:
        """Every figure is in a cited PR's text; a same-area PR that states it is cited too."""
        ok = True
        for figure in extract_figures(text):
            self.tally.figures += 1
            if any(figure_in_text(figure, self.texts[n]) for n in cited):
                continue
            stating = [
                n
                for n, a in self.areas.items()
                if a == area and n in self.texts and figure_in_text(figure, self.texts[n])
            ]
            if stating:
                cited.insert(0, stating[0])
                self.tally.repaired += 1
                self.tally.problems.append(
                    f"theme {name!r}: {figure!r} is stated by PR #{stating[0]}, not by the PRs cited"
                )
                continue
            self._drop(f"theme {name!r}: {figure!r} appears in none of the cited PRs")
            ok = False
        return ok

    def _area_of(self, claimed: str, cited: list[int]) -> str:
        """The claimed area, unless no cited PR belongs to it: then the area most of them share."""
        owners = [self.areas.get(n) for n in cited]
        if claimed in owners:
            return claimed
        known = [a for a in owners if a]
        return max(known, key=known.count) if known else claimed

    def _drop(self, problem: str, count: int = 1) -> None:
        self.tally.dropped += count
        self.tally.problems.append(problem)


def audit_markdown(markdown: str, repo: str, texts: Mapping[int, str]) -> list[str]:
    """Problems in a finished digest: a citation outside the window, a wrong link, or a
    figure on a cited line that none of its cited PRs states. The test oracle, and the
    LLM writer's last check before it publishes."""
    problems = []
    for line_number, line in enumerate(markdown.splitlines(), 1):
        citations = _CITATION.findall(line)
        for number_text, url in citations:
            number = int(number_text)
            if number not in texts:
                problems.append(f"line {line_number}: PR #{number} is not in the window")
            if url != f"https://github.com/{repo}/pull/{number}":
                problems.append(f"line {line_number}: PR #{number} links to {url}")
        if not citations:
            continue
        prose = _CITATION.sub("", line)
        cited = [texts[int(n)] for n, _ in citations if int(n) in texts]
        for figure in extract_figures(prose):
            if not any(figure_in_text(figure, text) for text in cited):
                problems.append(f"line {line_number}: {figure!r} is in none of the PRs cited there")
    return problems


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def _dedupe(numbers: Iterable[object]) -> list[int]:
    out: list[int] = []
    for value in numbers:
        if isinstance(value, bool):
            continue
        if isinstance(value, str) and value.lstrip("#").isdigit():
            value = int(value.lstrip("#"))
        if isinstance(value, int) and value not in out:
            out.append(value)
    return out
