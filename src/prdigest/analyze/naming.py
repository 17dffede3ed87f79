"""Names and sentences for themes, made from the titles of their PRs.

A theme is named after its tag, symbol, directory or most telling shared phrase, turned
into a noun phrase (`Format Arm passes` → "Arm passes formatting"), and described by one
sentence from its most representative title (`Add X` → "Adds X").
"""

from __future__ import annotations

import math
import re
from collections import Counter

from ..reading import strip_part_markers
from .english import VERB_NOUNS, as_clause, is_verb, number_word, sentence_case
from .groups import Candidate
from .items import STOPWORDS, Item
from .spelling import Spelling

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
    if words and is_verb(words[0]):
        noun = VERB_NOUNS[words[0].lower()]
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


def theme_name(cand: Candidate, phrase: str, rep: Item, spelling: Spelling = HAND_KEPT) -> str:
    """The theme's name; `spelling` says how the repository writes the words of a path."""
    if cand.kind == "path":
        return f"{_directory_name(cand.label, spelling)} (`{cand.label}`)"
    if cand.kind == "template":
        masked = cand.key.split(":", 1)[1].split()
        words = WORDS.findall(strip_part_markers(rep.clean.text))
        if len(words) != len(masked):
            words = masked
        kept = [w for w, m in zip(words, masked, strict=True) if m != "*"]
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
    if phrase and (
        len(phrase.split()) >= 2 or (cand.kind != "single" and phrase != phrase.lower())
    ):
        name = _noun_phrase(phrase)
        if name:
            return name
    if cand.kind == "term":
        written = _as_written(cand.label, rep)
        if written != written.lower() or any(c.isdigit() for c in written):
            return sentence_case(written)  # a name: `TOSA`, `Voxtral`, `FP16`
    opening = strip_part_markers(rep.clean.text).split()
    name = _noun_phrase(" ".join(opening[:6]))
    if name.lower() in _VAGUE_NAMES and rep.symbols:
        return f"`{rep.symbols[0]}` {name.lower()}"  # `Add a pass to fuse mul.Scalar` → `mul.Scalar` pass
    return name or sentence_case(" ".join(opening[:4]).rstrip(",;:"))


def _as_written(term: str, rep: Item) -> str:
    match = re.search(rf"(?i)(?<![\w-]){re.escape(term)}(?![\w-])", rep.clean.text)
    return match.group(0) if match else term


def _lower_first_verb(clause: str) -> str:
    first = clause.split(" ", 1)[0]
    base = first.lower()
    if base.endswith(("s", "es")) and (
        is_verb(base[:-1]) or is_verb(base[:-2]) or is_verb(base[:-3] + "y")
    ):
        return base + clause[len(first) :]
    return clause


def _overlap(a: Item, b: Item) -> float:
    if not a.terms or not b.terms:
        return 0.0
    return len(a.terms & b.terms) / len(a.terms | b.terms)


def slot_merge(rep: Item, members: list[Item]) -> tuple[str, list[Item]] | None:
    """Titles that differ in one word (`Add 16A8W support for mul` / `… for add`) become one
    sentence listing that word's values."""
    words = WORDS.findall(strip_part_markers(rep.clean.text))
    if len(members) < 2 or len(words) < 3:
        return None
    slot: int | None = None
    values: list[str] = [words[0]]
    used: list[Item] = [rep]
    for m in members:
        if m is rep:
            continue
        other = WORDS.findall(strip_part_markers(m.clean.text))
        if len(other) != len(words):
            continue
        diff = [
            i for i, (x, y) in enumerate(zip(words, other, strict=True)) if x.lower() != y.lower()
        ]
        if len(diff) != 1 or (slot is not None and diff[0] != slot):
            continue
        slot = diff[0]
        values.append(other[slot])
        used.append(m)
    if slot is None or len(used) < 2:
        return None
    values[0] = words[slot]
    listed = values[:3]
    rest = len(values) - len(listed)
    listing = (
        ", ".join(listed[:-1]) + " and " + listed[-1]
        if not rest
        else ", ".join(listed) + f" and {rest} more"
    )
    text = " ".join(words[:slot] + [listing] + words[slot + 1 :])
    return text, used[:2]


def describe(
    cand: Candidate, members: list[Item], ranked: list[Item], phrase: str
) -> tuple[str, list[Item]]:
    """One sentence from the most representative title(s); returns it and the PRs it quotes."""
    rep = ranked[0]
    if cand.kind == "series":
        n = len(members)
        base = (
            phrase
            if phrase and is_verb(phrase.split()[0]) and len(phrase.split()) >= 3
            else strip_part_markers(rep.clean.text)
        )
        clause = _lower_first_verb(as_clause(base))
        if clause == base:  # not verb-led: say what the series is about
            clause = f"on {base}"
        return f"A {number_word(n)}-part series {clause}.", [
            members[0],
            members[-1],
        ] if n > 1 else [rep]
    merged = slot_merge(rep, members)
    if merged:
        text, used = merged
        return f"{sentence_case(as_clause(text))}.", used
    first = sentence_case(as_clause(rep.clean.text))
    if len(ranked) == 1:
        return f"{first}.", [rep]
    other = min(ranked[1:4], key=lambda m: (_overlap(rep, m), ranked.index(m)))
    second = _lower_first_verb(as_clause(other.clean.text))
    joiner = ", and " if second != other.clean.text else "; "
    if len(first) + len(second) <= 170:
        return f"{first}{joiner}{second}.", [rep, other]
    return f"{first}.", [rep]
