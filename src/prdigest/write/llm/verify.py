"""Verification of what a model wrote, against the PRs of the window.

A citation must name a PR of the window, in the section's area (a theme whose
PRs all belong to another area is moved there); a theme citing nothing goes.
A figure (`1.4x`, `15%`, `O(N)`, `264s`, any number of two digits or more)
must appear in the text of a PR cited beside it, and so must every named
thing (code symbols, CamelCase and snake_case names, acronyms, product and
model names: `grounding.py`); when another PR of the same area states it,
that PR is cited too (a repaired citation), otherwise the sentence is dropped.
So is a sentence most of whose words the cited PRs never use, one that is
punctuation or JSON debris, one copied from the prompt, one said twice, and one
carrying links, HTML or Markdown: the model has no business writing them, and
PR text may try to smuggle them. A theme name that fails is replaced by the
first name its published sentence uses, or the theme goes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...analyze.english import as_clause, sentence_case, verb_base
from ...analyze.name_choice import is_generic, tidy_name
from ...reading.spelling import Spelling, TitleWords
from ..digest_verifier import LINK, figure_in_text
from . import tally
from .grounding import (
    Evidence,
    balance_markup,
    complete_clause,
    content_words,
    copies_prompt,
    is_balanced,
    is_debris,
    is_vague,
    name_from,
    named_things,
    rejoined,
    says_what_changed,
    shorter_readings,
    spelled_as_written,
    whole_words,
    within_words,
    without_area_list,
    without_connective,
    word_support,
)
from .schemas import NAME_MAX
from .tally import Tally

_BIG_O = r"O\((?:[^()]|\([^()]*\))*\)"
_UNIT = r"(?i:ms|us|µs|ns|secs?|seconds?|s|mins?|minutes?|h|hrs?|hours?|[kmgt]i?b|[kmb]|x|×)"
_FIGURE = re.compile(
    rf"\$?{_BIG_O}\$?"
    rf"|(?<![\w.$/-])\d+(?:[.,]\d+)*(?:\s?(?:%|percent\b)|\s?{_UNIT}(?![A-Za-z\d]))?(?![\w.]?\d)"
)
# A PR named in a model's text: the digest's own citation (`LINK`), or any looser form
_PR_REF = re.compile(
    rf"{LINK.pattern}|\[PR\s?#?(\d+)\]\([^)]*\)|https?://github\.com/[\w.-]+/[\w.-]+/pull/(\d+)"
    r"|\bPR[\s_]?#?(\d+)\b|(?<![\w&])#(\d+)\b|\bpull request\s+#?(\d+)\b",
    re.IGNORECASE,
)
_UNSAFE = re.compile(r"https?://|www\.|<[a-zA-Z/!][^>]*>|\]\(|^\s*#|\n\s*#|!\[", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'*])")
_LEADING = re.compile(r"(?<![\w\[-])[A-Za-z]{2,}")  # a title's first word, its verb
MIN_WORD_SUPPORT = 0.66  # of a sentence's content words, in its PRs' text
# A "why it matters" sentence about one PR is told as the analysis' news, beside its
# citation: one word of four the PR never uses ("deleted" told as "deprecated") is one
# too many.
MIN_CLAUSE_SUPPORT = 0.8
# What a padding clause fails for: a shorter reading without it may pass (never a
# vacuous sentence, markup or a copy of the prompt: those are what they are whole).
_PADDING_REASONS = frozenset({tally.WORDS, tally.NAME, tally.FIGURE})
MIN_FREE_TEXT_SUPPORT = 0.5  # of a takeaway's, in the themes it draws from (it sums them up)
FREE_TEXT_WORDS = 30  # a takeaway sentence: what its prompt asks for
THEME_WORDS = 25  # a theme's sentence: asked for twenty words, a few more pass


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
    opened = bool(_PR_REF.match(text.lstrip()))  # "PR_3491 moves six workflows …"
    text = _PR_REF.sub("", text)
    text = re.sub(r"\(\s*[,;\s]*\)", "", text)  # "(#12, #13)" leaves "( , )"
    # "( , )" and "x ." lose their space, a dotfile or `.5` keeps it ("Add .claude files")
    text = re.sub(r"\s+([,.;:])(?=\s|$)", r"\1", re.sub(r"\s{2,}", " ", text)).strip()
    text = text.lstrip(",.;: ")  # "PR_3491: Move six workflows" leaves ": Move …"
    return text[:1].upper() + text[1:] if opened else text


def _without_refs(text: str) -> str:
    return _PR_REF.sub(" ", text)


@dataclass
class Theme:
    area: str
    name: str
    summary: str
    prs: list[int]


class Verifier:
    """Checks themes and free text against the PRs of the window.

    `texts`: PR number → what figures are checked against (title, body, claims);
    `areas`: PR number → its area; `evidence`: PR number → everything a sentence
    may name (title, body, paths, labels), `texts` when not given; `prompt`: the
    instructions the model was given, which it must not copy; `vocabulary`: the
    words the window writes in lower case (see `grounding.named_things`); `repo`:
    the repository, which any sentence may name, as it may name its section's area.
    """

    def __init__(
        self,
        texts: Mapping[int, str],
        areas: Mapping[int, str],
        evidence: Mapping[int, str] | None = None,
        prompt: str = "",
        vocabulary: set[str] | None = None,
        repo: str = "",
    ) -> None:
        self.texts = texts
        self.areas = areas
        self.evidence = evidence if evidence is not None else texts
        self.prompt = prompt
        self.vocabulary = vocabulary if vocabulary is not None else set()
        self.repo = repo  # the digest is about it: "ExecuTorch" needs no PR to name it
        self.tally = Tally()
        self._said: set[tuple[str, str]] = set()
        self._spelling: dict[str, Spelling] = {}  # per area: its PRs' spelling

    def check_theme(self, theme: Theme) -> Theme | None:
        """The theme as it may be published, or None when nothing of it survives."""
        name = _one_line(strip_pr_refs(theme.name)).replace("*", "").strip("_ :")
        summary = _one_line(theme.summary)
        cited = _dedupe([*theme.prs, *extract_pr_refs(theme.name), *extract_pr_refs(summary)])
        summary = strip_pr_refs(summary)
        label = name[:60] or "(unnamed)"
        if not cited:
            self.tally.drop(tally.NO_CITATION, f"theme {label!r} cites no PR")
            return None
        kept = []
        for number in cited:
            self.tally.citations += 1
            if number in self.texts:
                kept.append(number)
            else:
                self.tally.drop(
                    tally.NOT_IN_WINDOW,
                    f"theme {label!r} cites PR #{number}, which is not in the window",
                )
        if not kept:
            return None
        area = self._area_of(theme.area, kept)
        on_area = [n for n in kept if self.areas.get(n) == area]
        for number in kept:
            if number not in on_area:
                self.tally.repair(
                    tally.OTHER_AREA,
                    f"theme {label!r}: PR #{number} belongs to {self.areas.get(number)!r}, not {area!r}",
                )
        if _UNSAFE.search(name):
            self.tally.drop(tally.MARKUP, f"theme name {label!r} has links or markup")
            return None
        name = self._balanced(name, f"theme name {label!r}")
        if whole_words(name, NAME_MAX) != name:
            self.tally.repair(tally.TRIMMED, f"theme name {label!r} stopped mid-word")
            name = whole_words(name, NAME_MAX)
        name = self._respelled(name, on_area, area, f"theme name {label!r}")
        sentences = [
            self._respelled(
                self._balanced(s, f"theme {label!r}"), on_area, area, f"theme {label!r}"
            )
            for s in _SENTENCE_END.split(summary)
            if s.strip()
        ]
        sentences = [c for s in sentences if (c := self._complete(s, f"theme {label!r}"))]
        sentences = [self._within(s, THEME_WORDS, f"theme {label!r}") for s in sentences]
        on_area = self._told(f"{name}. {' '.join(sentences)}", on_area, area, label)
        published = [p for s in sentences if (p := self._grounded(s, on_area, area, label))]
        if not published:
            return None
        published[0] = without_connective(published[0])  # its sentence before may be gone
        published = [in_third_person(p) for p in published]
        checked = self._checked_name(name, " ".join(published), on_area, area, label)
        if not checked:
            return None
        if not is_balanced(checked):  # a name taken from the sentence: closed, or none
            self.tally.drop(tally.UNBALANCED, f"theme name {checked!r} has markup left open")
            return None
        return Theme(area, checked, " ".join(published), on_area)

    def _told(self, text: str, cited: list[int], area: str, label: str) -> list[int]:
        """The cited PRs the theme tells of: those whose title shares a word with it, or
        whose text writes a name it uses (beyond the area's own words). A sentence about
        PR A citing B too is grounded in A and B together, and B is hidden under a theme
        that is not its: B's citation goes (a repair; B is told in the section's "Also"
        line). When the theme tells of none in particular, its citations stand."""
        around = Evidence.of([self.repo, area])
        names = [n for n in named_things(text, self.vocabulary) if not around.names(n)]
        words = [w for w in content_words(text, shortest=3) if not around.has_word(w)]

        def tells(number: int) -> bool:
            titles = Evidence.of(self.texts.get(number, "").splitlines()[:2])
            evidence = Evidence.of([self._text(number)])
            return any(evidence.names(n) for n in names) or any(map(titles.has_word, words))

        told = [n for n in cited if tells(n)]
        if not told or len(told) == len(cited):
            return cited
        for number in cited:
            if number not in told:
                self.tally.repair(
                    tally.UNTOLD, f"theme {label!r}: PR #{number} is not what it tells"
                )
        return told

    def unsupported(self, text: str, cited: list[int], area: str) -> list[str]:
        """The names and content words of `text` none of the cited PRs use: why a
        sentence was dropped, as a re-ask tells the model."""
        evidence = self._evidence([n for n in cited if n in self.texts], area)
        names = [n for n in named_things(text, self.vocabulary) if not evidence.names(n)]
        words = [w for w in content_words(text) if not evidence.has_word(w)]
        return list(dict.fromkeys([*names, *words]))

    def _respelled(self, text: str, cited: list[int], area: str, label: str) -> str:
        """The text with each name misspelt by one letter written as its PRs write it
        ("MXFPR8" → "mxfp8"): a repair; any other name is checked as it stands. A word
        the model title-cased takes the capitals the area's PRs give it ("Fsdp2" → FSDP2,
        `Spelling.respell`), and a name it split is joined."""
        texts = [self._text(n) for n in cited]
        evidence = Evidence.of(texts)
        for name in named_things(text, self.vocabulary):
            if evidence.names(name):
                continue
            written = spelled_as_written(name, texts)
            if written:
                text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", written, text)
                self.tally.repair(tally.RESPELLED, f"{label}: {name!r} written {written!r}")
        # spelling, not grounding (not counted): as the area's PRs write its names
        if area not in self._spelling:
            by_area = (("", t) for n, t in self.texts.items() if self.areas.get(n) == area)
            self._spelling[area] = TitleWords(by_area).spelling()
        spelling = self._spelling[area]
        return _as_cited(text, spelling.respell(rejoined(text, spelling)), " ".join(texts))

    def _within(self, sentence: str, limit: int, label: str) -> str:
        """The sentence's leading clauses that fit in `limit` words (a repair): the 1.5B
        joins six titles into one run-on sentence, asked for twenty words."""
        cut = within_words(sentence, limit)
        if cut != sentence:
            self.tally.repair(tally.LONG, f"{label}: {sentence[:40]!r} cut to its first clauses")
        return cut

    def _complete(self, sentence: str, label: str) -> str:
        """The sentence without a last clause the length cap cut off, "" (dropped) when
        nothing whole is left."""
        whole = complete_clause(sentence)
        if not whole:
            self.tally.drop(tally.CUT_OFF, f"{label}: {sentence[-40:]!r} stops mid-clause")
        elif whole != sentence:
            self.tally.repair(tally.TRIMMED, f"{label}: {sentence[-40:]!r} stopped mid-clause")
        return whole

    def _balanced(self, text: str, label: str) -> str:
        """The text with markup it left open (a lone backtick, `**`, a bracket) taken out:
        a heading like "Use `torch.distributed" is never published open."""
        closed = balance_markup(text)
        if closed != re.sub(r"\s{2,}", " ", text).strip():
            self.tally.repair(tally.BALANCED, f"{label}: markup left open in {text[:50]!r}")
        return closed

    def check_free_text(self, text: str, sources: Iterable[str], what: str) -> str:
        """Prose that cites nothing (the key takeaway): its figures and names must come
        from `sources`."""
        pool = "\n".join(sources)
        evidence = Evidence.of(
            [pool, self.repo]
        )  # the digest is about it: any sentence may name it
        kept = []
        for said in (s for s in _SENTENCE_END.split(_one_line(text)) if s.strip()):
            sentence = self._complete(said, what)
            if not sentence:
                continue
            sentence = self._within(sentence, FREE_TEXT_WORDS, what)
            listless = without_area_list(sentence)
            if listless != sentence:
                self.tally.repair(tally.PADDING, f"{what}: its list of areas taken out")
                sentence = listless
            if is_vague(sentence, self.vocabulary):
                self.tally.drop(tally.VACUOUS, f"{what}: {sentence[:60]!r} says no change")
                continue
            refs = extract_pr_refs(sentence)
            self.tally.citations += len(refs)
            if refs:
                self.tally.drop(tally.PR_NUMBERS, f"{what}: a sentence with PR numbers was dropped")
                continue
            if not self._prose(sentence, what):
                continue
            figures = extract_figures(sentence)
            self.tally.figures += len(figures)
            missing = [f for f in figures if not figure_in_text(f, pool)]
            if missing:
                self.tally.drop(
                    tally.FIGURE, f"{what}: figure {missing[0]!r} is not in the verified themes"
                )
                continue
            names = named_things(sentence, self.vocabulary)
            self.tally.names += len(names)
            unnamed = [n for n in names if not evidence.names(n)]
            if unnamed:
                self.tally.drop(tally.NAME, f"{what}: {unnamed[0]!r} is not in the verified themes")
                continue
            if word_support(sentence, evidence) < MIN_FREE_TEXT_SUPPORT:
                self.tally.drop(
                    tally.WORDS, f"{what}: {sentence[:60]!r} is not what the themes say"
                )
                continue
            kept.append(sentence)
        return " ".join(kept)

    def check_clause(self, text: str, number: int, what: str) -> str:
        """A "why it matters" sentence about one PR: grounded in that PR alone (its
        figures, its names, most of its words) and saying something; "" when it fails."""
        sentence = self._balanced(strip_pr_refs(_one_line(text)), what)
        if not sentence or number not in self.texts:
            return ""
        cited = [number]
        area = self.areas.get(number, "")
        sentence = self._respelled(sentence, cited, area, what)
        if not self._prose(sentence, what):
            return ""
        if not self._figures_supported(sentence, cited, "", what):
            return ""
        if not self._names_supported(sentence, cited, "", what):
            return ""
        if word_support(sentence, self._evidence(cited, area)) < MIN_CLAUSE_SUPPORT:
            self.tally.drop(tally.WORDS, f"{what}: {sentence[:60]!r} is not what the PR says")
            return ""
        if not self.says_something(sentence, cited):
            self.tally.drop(tally.VACUOUS, f"{what}: {sentence[:60]!r} does not say why")
            return ""
        return sentence

    def _prose(self, sentence: str, label: str) -> bool:
        """Markup, debris and copies of the prompt never pass."""
        if _UNSAFE.search(sentence):
            self.tally.drop(tally.MARKUP, f"{label}: a sentence with links or markup was dropped")
            return False
        if is_debris(sentence):
            self.tally.drop(tally.DEBRIS, f"{label}: {sentence[:40]!r} is not prose")
            return False
        if self.prompt and copies_prompt(sentence, self.prompt):
            self.tally.drop(tally.PROMPT, f"{label}: {sentence[:40]!r} repeats the prompt")
            return False
        return True

    def _grounded(self, sentence: str, cited: list[int], area: str, label: str) -> str:
        """The sentence; or, when it fails only for what its PRs never say, its longest
        part before a padding clause that passes every check on its own (a repair);
        "" when neither does. A vacuous part fails as a vacuous sentence does."""
        failed = self._would_drop(sentence, cited, area, label)
        if failed is not None and failed <= _PADDING_REASONS:
            readings = shorter_readings(sentence)  # longest first; those all of whose
            # words its PRs use before those that pass with a few more
            readings.sort(key=lambda part: bool(self.unsupported(part, cited, area)))
            for part in readings:
                if self._would_drop(part, cited, area, label) is None:
                    self._sentence_ok(part, cited, area, label)  # counted as published
                    cut = sentence[len(part) - 1 :].strip(" ,.")
                    self.tally.repair(tally.PADDING, f"theme {label!r}: {cut[:50]!r} taken out")
                    return part
        return sentence if self._sentence_ok(sentence, cited, area, label) else ""

    def _would_drop(
        self, sentence: str, cited: list[int], area: str, label: str
    ) -> set[str] | None:
        """Why checking the sentence would drop it (None: it passes), leaving no trace in
        the tally, the sentences said or the citations."""
        tally_before, said_before = self.tally, set(self._said)
        self.tally = Tally()
        try:
            ok = self._sentence_ok(sentence, list(cited), area, label)
            return None if ok else set(self.tally.dropped)
        finally:
            self.tally, self._said = tally_before, said_before

    def _sentence_ok(self, sentence: str, cited: list[int], area: str, label: str) -> bool:
        if not self._prose(sentence, f"theme {label!r}"):
            return False
        if not self._figures_supported(sentence, cited, area, label):
            return False
        if not self._names_supported(sentence, cited, area, label):
            return False
        evidence = self._evidence(cited, area)
        if word_support(sentence, evidence) < MIN_WORD_SUPPORT:
            self.tally.drop(
                tally.WORDS, f"theme {label!r}: {sentence[:60]!r} is not what the cited PRs say"
            )
            return False
        if not self.says_something(sentence, cited):
            self.tally.drop(
                tally.VACUOUS, f"theme {label!r}: {sentence[:60]!r} does not say what changed"
            )
            return False
        said = (area, re.sub(r"\W+", " ", sentence.lower()).strip())
        if said in self._said:
            self.tally.drop(tally.DUPLICATE, f"theme {label!r}: {sentence[:40]!r} was said before")
            return False
        self._said.add(said)
        return True

    def _names_supported(self, sentence: str, cited: list[int], area: str, label: str) -> bool:
        """Every named thing is in a cited PR; a same-area PR that names it is cited too."""
        for name in named_things(sentence, self.vocabulary):
            self.tally.names += 1
            if self._evidence(cited, area).names(name):
                continue
            naming = [
                n
                for n, a in self.areas.items()
                if a == area and n not in cited and Evidence.of([self._text(n)]).names(name)
            ]
            if naming:
                cited.append(naming[0])
                self.tally.repair(
                    tally.NAME_CITED, f"theme {label!r}: {name!r} is named by PR #{naming[0]}"
                )
                continue
            self.tally.drop(tally.NAME, f"theme {label!r}: {name!r} is in none of the cited PRs")
            return False
        return True

    def _checked_name(
        self, name: str, summary: str, cited: list[int], area: str, label: str
    ) -> str | None:
        """The theme's name if it is prose naming something of its PRs beyond the area,
        else a name taken from its published sentence (a repair), else None."""
        evidence = self._evidence(cited, area)
        problem = None
        if not name or is_debris(name):
            problem = tally.DEBRIS
        elif not reads_as_name(name):
            problem = tally.NOT_A_NAME  # "The addition of X in the test passed a bug that"
        elif self.prompt and copies_prompt(name, self.prompt, min_words=3):
            problem = tally.PROMPT
        elif not self._figures_supported(name, cited, area, label):
            return None
        else:
            names = named_things(name, self.vocabulary, title=True)
            self.tally.names += len(names)
            words = [*names, *content_words(name, shortest=3)]
            beyond_area = [w for w in words if not Evidence.of([area]).names(w)]
            if any(not evidence.names(n) for n in names):
                problem = tally.NAME
            elif not any(evidence.names(w) for w in beyond_area):
                problem = tally.WORDS  # "Premise", "Backends", "The first one": names nothing
        if problem is None:
            return name
        taken = name_from(summary, evidence, self.vocabulary)
        if taken:
            self.tally.repair(
                tally.THEME_NAME, f"theme name {label!r} ({problem}) became {taken!r}"
            )
            return taken
        self.tally.drop(problem, f"theme name {label!r}: {problem}")
        return None

    def _figures_supported(self, text: str, cited: list[int], area: str, name: str) -> bool:
        """Every figure is in a cited PR's text; a same-area PR that states it is cited too."""
        ok = True
        for figure in extract_figures(text):
            self.tally.figures += 1
            if any(figure_in_text(figure, self.texts[n]) for n in cited if n in self.texts):
                continue
            stating = [
                n
                for n, a in self.areas.items()
                if a == area and n in self.texts and figure_in_text(figure, self.texts[n])
            ]
            if stating:
                cited.insert(0, stating[0])
                self.tally.repair(
                    tally.FIGURE_CITED,
                    f"theme {name!r}: {figure!r} is stated by PR #{stating[0]}, not by the PRs cited",
                )
                continue
            self.tally.drop(
                tally.FIGURE, f"theme {name!r}: {figure!r} appears in none of the cited PRs"
            )
            ok = False
        return ok

    def says_something(self, sentence: str, cited: list[int]) -> bool:
        """An action and a subject the cited PRs themselves name (not the area's name)."""
        texts = [self._text(n) for n in cited]
        leading = [
            m.group(0) for t in texts for line in t.splitlines()[:2] if (m := _LEADING.search(line))
        ]
        return says_what_changed(sentence, Evidence.of(texts), leading)

    def _text(self, number: int) -> str:
        return self.evidence.get(number) or self.texts.get(number, "")

    def _evidence(self, cited: list[int], area: str) -> Evidence:
        return Evidence.of([self.repo, area, *(self._text(n) for n in cited)])

    def _area_of(self, claimed: str, cited: list[int]) -> str:
        """The claimed area, unless no cited PR belongs to it: then the area most of them share."""
        owners = [self.areas.get(n) for n in cited]
        if claimed in owners:
            return claimed
        known = [a for a in owners if a]
        return max(known, key=known.count) if known else claimed


def _as_cited(said: str, spelled: str, cited: str) -> str:
    """`spelled` (the model's words in the area's spelling), but each word the cited PRs
    write exactly as the model did kept so ("Amax", as #17372 writes it, though its area
    writes AMAX)."""
    words, respelled = said.split(" "), spelled.split(" ")
    if len(words) != len(respelled):  # a name rejoined: no word to word
        return spelled
    kept = [
        old
        if old != new and re.search(rf"(?<!\w){re.escape(old.strip('.,;:()'))}(?!\w)", cited)
        else new
        for old, new in zip(words, respelled, strict=True)
    ]
    return " ".join(kept)


# "The PR uses X", "PRs enable X": a bullet's subject is its theme, its verb opens it
_PR_SUBJECT = re.compile(
    r"^(?:(?:this|these|the|both)\s+)?(?:prs?|pull requests?|changes?|patch(?:es)?|commits?)\s+"
    r"(?!(?:is|are|was|were|has|have|does|do|seems|means)\b)",
    re.IGNORECASE,
)


def in_third_person(sentence: str) -> str:
    """A sentence opening with its verb in the third person, as every line of the digest
    does: "Add X", "PRs add X" and "The PR adds X" → "Adds X"; any other sentence as it
    is ("Default `x`=False", "The patch is small")."""
    rest = _PR_SUBJECT.sub("", sentence, count=1)
    if not verb_base(rest.split(" ", 1)[0]):
        return sentence
    return sentence_case(as_clause(rest))


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


def reads_as_name(name: str) -> bool:
    """A heading, as the deterministic writer's names are: a short phrase that ends in no
    article, preposition or conjunction (no clause cut off), and no lone generic word."""
    name = name.strip()
    tidy = tidy_name(name).lower() == name.lower()  # (tidy_name also capitalises)
    return len(name.split()) <= _NAME_WORDS and tidy and not is_generic(name)


_NAME_WORDS = 8
