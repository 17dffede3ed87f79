"""Names for themes, made from the titles of their PRs.

A theme is named after its tag, symbol, directory or most telling shared phrase, turned
into a noun phrase (`Format Arm passes` → "Arm passes formatting"). `name_choice` picks
among the names a theme could have; `describe` writes its sentence.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from ..reading import strip_part_markers
from ..reading.spelling import Spelling
from .english import VERB_NOUNS, is_verb, sentence_case, verb_base
from .groups import Candidate, area_words, names_area
from .items import STOPWORDS, Item, stated_series

HAND_KEPT = Spelling()

_PREPOSITIONS = {
    "to",
    "for",
    "in",
    "on",
    "with",
    "from",
    "into",
    "via",
    "by",
    "at",
    "when",
    "if",
    "of",
}
_VAGUE_NAMES = {
    "pass",
    "op",
    "ops",
    "test",
    "tests",
    "support",
    "option",
    "options",
    "script",
    "tool",
    "file",
    "error",
    "helper",
    "util",
    "utils",
    "api",
    "flag",
    "config",
    "method",
    "function",
    "kernel",
    "operator",
    "fixes",
    "updates",
    "changes",
    "removal",
    "refactor",
    "",
}
_HEAD_NOUNS = {
    "support",
    "tests",
    "test",
    "docs",
    "documentation",
    "tutorial",
    "option",
    "options",
    "handling",
    "checks",
    "check",
    "example",
    "examples",
    "benchmarks",
    "benchmark",
    "guards",
}
_CLAUSE_WORDS = _PREPOSITIONS | {
    "behind",
    "before",
    "after",
    "under",
    "over",
    "without",
    "across",
    "per",
    "between",
    "against",
    "than",
    "that",
    "which",
    "so",
    "because",
    "where",
    "while",
    "instead",
    "and",
    "or",
    "as",
}
_EDGE_WORDS = _PREPOSITIONS | {
    "all",
    "some",
    "any",
    "more",
    "new",
    "other",
    "each",
    "every",
    "and",
    "or",
    "the",
    "a",
    "an",
    "as",
    "is",
    "are",
    "be",
    "it",
    "this",
    "that",
    "not",
    "no",
}
WORDS = re.compile(r"\S+")


def common_phrase(members: list[Item]) -> str:
    """The most telling word run (1–3 words) shared by at least two titles of the group."""
    if len(members) < 2:
        return ""
    counts: Counter[tuple[str, ...]] = Counter()
    original: dict[tuple[str, ...], str] = {}
    for m in members:
        words = WORDS.findall(strip_part_markers(m.clean.text))
        seen: set[tuple[str, ...]] = set()
        for size in range(1, 4):
            for start in range(len(words) - size + 1):
                gram = tuple(w.lower().strip(",.;:()") for w in words[start : start + size])
                if gram in seen or gram[0] in _EDGE_WORDS - {"the"} or gram[-1] in _EDGE_WORDS:
                    continue
                if all(w in STOPWORDS or w in VERB_NOUNS for w in gram):
                    continue
                seen.add(gram)
                counts[gram] += 1
                original.setdefault(
                    gram, " ".join(w.strip(",.;:()") for w in words[start : start + size])
                )
    need = max(2, math.ceil(0.5 * len(members)))

    def weight(gram: tuple[str, ...]) -> float:
        content = len(gram) - (1 if gram[0] in VERB_NOUNS else 0)  # `Add` says little
        return counts[gram] * (1 + 0.7 * (max(content, 1) - 1))

    best = sorted(
        (g for g, c in counts.items() if c >= need), key=lambda g: (-weight(g), -len(g), g)
    )
    return original[best[0]] if best else ""


def _noun_phrase(phrase: str) -> str:
    """`Format Arm passes` → `Arm passes formatting`; `Add FP16 support to ops` → `FP16 support`."""
    words = re.sub(
        r"(?:^|\s)\([^)]*\)?|https?://\S+|[\"“”]", " ", phrase
    ).split()  # no asides, URLs, quotes
    noun = ""
    base = verb_base(words[0], third=False) if words else ""
    if base:
        noun = VERB_NOUNS.get(base, "")
        words = words[1:]
        if len(words) >= 2 and words[0].lower() in {"and", "&"} and is_verb(words[1]):
            words = words[2:]  # `Fix and complete X` → `X fixes`
    if len(words) >= 2 and words[0].lower() == "to" and is_verb(words[1]):
        noun = VERB_NOUNS[words[1].lower()] or noun  # `Update … to use X` → `X adoption`
        words = words[2:]
    if noun and len(words) >= 2 and words[0].lower() in {"for", "of"}:
        words = words[1:]  # `Support for all quantized ops` → `quantized ops support`
    while words and words[0].lower() in {"a", "an", "the", "all", "some"}:
        words = words[1:]
    if not words or words[0].lower() in _CLAUSE_WORDS:
        return ""  # `Support for all …`: no noun phrase here
    if (
        len(words) >= 3
        and words[0].lower() in _HEAD_NOUNS
        and words[1].lower() in {"for", "of", "to", "on"}
    ):
        noun = words[0].lower()  # `support for X` → `X support`
        words = words[2:]
    for i, word in enumerate(words):
        low = word.lower()
        if (i >= 1 and low in _CLAUSE_WORDS - {"and", "or", "of"}) or (
            i >= 2 and low in {"and", "or", "of"}
        ):
            words = words[:i]
            break
        if word.endswith((",", ";")):
            words = words[: i + 1]
            break
    while words and words[-1] in {"-", "–", "—", ":", "+", "&", "/"}:
        words = words[:-1]  # `Remove X gating - Extensions and Core` → `X gating removal`
    text = " ".join(words).rstrip(",;:")
    if noun and noun.lower() not in text.lower():
        text = f"{text} {noun}".strip()
    return sentence_case(text)


_GENERIC_DIRS = {
    "test",
    "tests",
    "ops",
    "operators",
    "passes",
    "src",
    "source",
    "runtime",
    "impl",
    "scripts",
    "docs",
    "utils",
    "lib",
    "api",
    "aot",
    "glsl",
    "models",
    "graph",
    "kernels",
    "cpu",
    "python",
    "cpp",
    "include",
    "common",
    "core",
}


def _pretty_dir(part: str, spelling: Spelling) -> str:
    return "tests" if part.strip("_").lower() == "test" else spelling.phrase(part)


def _directory_name(directory: str, spelling: Spelling) -> str:
    """`backends/arm/_passes` → `Arm passes`; `backends/vulkan/runtime` → `Vulkan runtime`."""
    parts = [p for p in directory.rstrip("/").split("/") if p]
    last = _pretty_dir(parts[-1], spelling)
    if parts[-1].strip("_").lower() in _GENERIC_DIRS and len(parts) >= 2:
        parent = _pretty_dir(parts[-2], spelling)
        if parent.lower() not in {
            "backends",
            "extension",
            "examples",
            "src",
            "torchao",
            "prototype",
        }:
            last = f"{parent} {last}"
    return sentence_case(last)


def theme_name(
    cand: Candidate,
    phrase: str,
    rep: Item,
    spelling: Spelling = HAND_KEPT,
    members: Sequence[Item] = (),
) -> str:
    """The theme's name; `spelling` says how the repository writes the words of a path."""
    if cand.kind == "path":
        return f"{_directory_name(cand.label, spelling)} (`{cand.label}`)"
    if cand.kind == "series" and (stated := stated_series(members or [rep])):
        return sentence_case(stated)  # `[3/x] docs update: …` → Docs update
    if cand.kind == "template":
        masked = cand.key.split(":", 1)[1].split()
        words = WORDS.findall(strip_part_markers(rep.clean.text))
        if len(words) == len(masked):
            kept = [w for w, m in zip(words, masked, strict=True) if m != "*"]
        else:  # the key split a word (`Half/BFloat16`): what the titles share, as written
            kept = _shared_words([WORDS.findall(strip_part_markers(m.clean.text)) for m in members])
        while kept and kept[-1].lower() in _EDGE_WORDS:
            kept.pop()  # `Deprecate v1 of *` → `Deprecate v1`
        name = _noun_phrase(" ".join(kept[:7]))
        if name:
            return name
    if cand.kind == "tag" and (not phrase or len(phrase.split()) < 2):
        return sentence_case(cand.label)
    if cand.kind == "symbol":
        label = f"`{cand.label}`" if cand.label[-1:].isalnum() else f"`{cand.label}*`"
        if phrase and cand.label.lower() in phrase.lower() and len(phrase.split()) >= 2:
            return _noun_phrase(phrase) or label
        return label
    written = _as_written(cand.label, [rep, *members]) if cand.kind == "term" else ""
    if phrase and (
        len(phrase.split()) >= 2 or (cand.kind != "single" and phrase != phrase.lower())
    ):
        name = _noun_phrase(phrase)
        if name:
            return name
    if cand.kind == "term" and (written != written.lower() or any(c.isdigit() for c in written)):
        return sentence_case(written)  # a name: `TOSA`, `Voxtral`, `FP16`
    opening = strip_part_markers(rep.clean.text).split()
    name = _noun_phrase(" ".join(opening[:6]))
    if name.lower() in _VAGUE_NAMES and rep.symbols:
        return f"`{rep.symbols[0]}` {name.lower()}"  # `Add a pass to fuse mul.Scalar` → `mul.Scalar` pass
    return name or sentence_case(" ".join(opening[:4]).rstrip(",;:"))


def _shared_words(titles: list[list[str]]) -> list[str]:
    """The words all titles open with, then those they all end with (as the first writes
    them): `Support Half/BFloat16 in op_allclose` and `… in hardtanh` share
    `Support Half/BFloat16 in`."""
    if not titles:
        return []
    first = titles[0]
    low = [[word.lower() for word in title] for title in titles]
    head = 0
    while head < len(first) and all(len(t) > head and t[head] == low[0][head] for t in low):
        head += 1
    tail = 0
    while tail < len(first) - head and all(
        len(t) - 1 - tail >= head and t[-1 - tail] == low[0][-1 - tail] for t in low
    ):
        tail += 1
    return first[:head] + first[len(first) - tail :]


def _as_written(term: str, items: Sequence[Item]) -> str:
    """The term as the titles write it: the form with capitals most of them use (`VGF`
    over `vgf`), else as the first title has it."""
    pattern = re.compile(rf"(?i)(?<![\w-]){re.escape(term)}(?![\w-])")
    found = [(m.group(0), m.start()) for it in items for m in pattern.finditer(it.clean.text)]
    forms = [form for form, _ in found]
    # a capital that only opens a title is the title's, not the word's (`Modernize X`)
    cased = Counter(
        form
        for form, at in found
        if form != form.lower() and (at > 0 or form[1:] != form[1:].lower())
    )
    if cased:
        return min(cased, key=lambda form: (-cased[form], forms.index(form)))
    return term.lower() if forms else term


def other_names(
    cand: Candidate,
    members: list[Item],
    rep: Item,
    phrase: str,
    spelling: Spelling = HAND_KEPT,
    area: str = "",
) -> list[str]:
    """Names the theme could also go by, best first: what grouped it (its term as the
    titles write it, its tag, symbol or directory), the directory its PRs share, its
    shared phrase."""
    out: list[str] = []
    if cand.kind == "term":
        written = _as_written(cand.label, [rep, *members])
        if written != written.lower() or any(c.isdigit() for c in written):
            out.append(written)
    elif cand.kind == "tag":
        out.append(cand.label)
    elif cand.kind == "symbol":
        out.append(f"`{cand.label}`" if cand.label[-1:].isalnum() else f"`{cand.label}*`")
    homes = [m.home.split("/") for m in members if m.home]
    if len(homes) == len(members) and homes:
        shared: list[str] = []
        for parts in zip(*homes, strict=False):
            if len(set(parts)) != 1:
                break
            shared.append(parts[0])
        if len(shared) >= 2 and not names_area(shared[-1], area_words(area)):
            directory = "/".join(shared)
            out.append(f"{_directory_name(directory, spelling)} (`{directory}`)")
    if phrase:
        out.append(_noun_phrase(phrase) or phrase)
    return out
