"""Candidate groups of PRs inside an area, the raw material of themes.

Series come first, and only on evidence the PRs give: a ghstack stack (PRs listing each
other under "Stack from ghstack") or a stated continuation ("stacked on #N", "follow-up to
#N"), or part markers (`[1/3]`, `pt.4`, `(group 2)`) from the same author with the same
title or opening words. The same author with the same title but no marker is a template
(a theme, not a series): shared words are no evidence of one effort. Then titles equal but for one
word, shared tags (not the area's own), shared code symbols and their prefixes, words
distinctive by TF-IDF, and directories several PRs mostly touch. All linear in the area.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..reading import stack_groups
from .items import Item

MIN_SIZE = {"series": 2, "template": 2, "tag": 2, "term": 2, "symbol": 2, "path": 3}


@dataclass
class Candidate:
    kind: str
    key: str
    label: str
    members: frozenset[int]  # indexes into the area's items
    strength: float  # idf of a term, depth of a path, 1 otherwise


def _is_name(term: str, members: list[Item]) -> bool:
    if any(c.isdigit() for c in term):
        return True
    pattern = re.compile(rf"(?i)(?<![\w-]){re.escape(term)}(?![\w-])")
    for m in members:
        for match in pattern.finditer(m.clean.text):
            word = match.group(0)
            if any(c.isupper() for c in word[1:]) or (match.start() > 0 and word[:1].isupper()):
                return True
    return False


def area_words(area: str) -> set[str]:
    """Words of the area's name: `Backends: Arm` makes `arm` no theme inside that area."""
    words = {w for w in re.split(r"[^a-z0-9]+", area.lower()) if len(w) >= 2}
    return words | {w.rstrip("s") for w in words}


def names_area(text: str, area_words: set[str]) -> bool:
    words = [
        w
        for w in re.split(r"[^a-z0-9]+", text.lower())
        if len(w) >= 2 and w not in {"backend", "backends"}
    ]
    return bool(words) and all(w in area_words or w.rstrip("s") in area_words for w in words)


def mentions_area(tag: str, area_words: set[str]) -> bool:
    """`Qualcomm AI Engine Direct` in `Backends: Qualcomm` is the area's own prefix."""
    words = [w for w in re.split(r"[^a-z0-9]+", tag.lower()) if len(w) >= 2]
    return any(w in area_words and w not in {"backend", "backends"} for w in words)


_SYMBOL_CUT = re.compile(r"(?<=[a-z0-9])(?=[_.:])")


# `torch.`, `torch._`, `executorch.`: every other symbol starts so, no theme
_MODULE_ROOT = re.compile(r"_*[A-Za-z0-9]+(?:\.|::|\._)")


def _symbol_prefixes(symbol: str) -> set[str]:
    """`quantized_w8a32_gru` → {`quantized_w8a32_gru`, `quantized_w8a32`, `quantized`}."""
    stem = symbol.rstrip("()")
    out = {stem}
    for match in _SYMBOL_CUT.finditer(stem):
        prefix = stem[: match.start() + 1]  # keeps the separator: `quantized_w8a32_`
        if len(prefix) >= 6 and not _MODULE_ROOT.fullmatch(prefix):
            out.add(prefix)
    return out


def find_candidates(
    pool: Sequence[Item], idf: dict[str, float], area_words: set[str]
) -> list[Candidate]:
    n = len(pool)
    too_common = max(3, math.ceil(0.75 * n)) if n >= 6 else n + 1
    out: list[Candidate] = []
    # ghstack stacks: PRs listing each other in their stack.
    stacks: dict[int, set[int]] = defaultdict(set)
    roots = stack_groups([it.number for it in pool], [it.stack for it in pool])
    for i, root in enumerate(roots):
        stacks[root].add(i)
    for members in stacks.values():
        if len(members) >= 2:
            out.append(Candidate("series", f"stack:{min(members)}", "", frozenset(members), 1.0))
    # same author, same title once part markers and numbers are gone: a series when the
    # titles carry part markers, else a template (a chore done twice is no series)
    by_key: dict[tuple[str, str], set[int]] = defaultdict(set)
    for i, it in enumerate(pool):
        by_key[(it.pr.author_email or it.pr.author_name, it.key)].add(i)
    for (author, key), members in sorted(by_key.items()):
        if len(members) >= 2 and key:
            marked = all(pool[i].clean.series_marker for i in members)
            kind = "series" if marked else "template"
            out.append(Candidate(kind, f"key:{author}:{key}", "", frozenset(members), 1.0))
    # titles that differ in one word: `Fix duplicate reference labels` / `… conclusion labels`
    by_mask: dict[str, set[int]] = defaultdict(set)
    for i, it in enumerate(pool):
        words = it.key.split()
        if len(words) >= 3:
            for j in range(len(words)):
                by_mask[" ".join(words[:j] + ["*"] + words[j + 1 :])].add(i)
    for mask, members in sorted(by_mask.items()):
        if len(members) >= 2:
            out.append(Candidate("template", f"template:{mask}", "", frozenset(members), 1.0))
    # same author, part markers (`pt.4`, `(group 2)`), same opening words
    by_opening: dict[tuple[str, str], set[int]] = defaultdict(set)
    for i, it in enumerate(pool):
        if it.series:
            by_opening[
                (it.pr.author_email or it.pr.author_name, " ".join(it.series.split()[:2]))
            ].add(i)
    for (author, opening), members in sorted(by_opening.items()):
        if len(members) >= 2 and opening:
            out.append(
                Candidate("series", f"parts:{author}:{opening}", "", frozenset(members), 1.0)
            )
    # shared tags, terms and directories
    tag_members: dict[str, set[int]] = defaultdict(set)
    term_members: dict[str, set[int]] = defaultdict(set)
    dir_members: dict[str, set[int]] = defaultdict(set)
    tag_label: dict[str, str] = {}
    symbol_members: dict[str, set[int]] = defaultdict(set)
    for i, it in enumerate(pool):
        for symbol in it.symbols:
            if "/" not in symbol:
                for prefix in _symbol_prefixes(symbol):
                    symbol_members[prefix].add(i)
        for raw in it.clean.tags:
            tag_label.setdefault(raw.lower(), raw)
        for tag in it.tags:
            tag_members[tag].add(i)
        for term in it.terms:
            if not term.startswith("["):
                term_members[term].add(i)
        parts = it.home.split("/") if it.home else []
        for depth in range(2, len(parts) + 1):
            dir_members["/".join(parts[:depth])].add(i)
    for symbol, members in sorted(symbol_members.items()):
        if 2 <= len(members) < too_common and not names_area(symbol, area_words):
            out.append(
                Candidate(
                    "symbol",
                    f"symbol:{symbol}",
                    symbol,
                    frozenset(members),
                    3.0 + 0.1 * len(symbol) ** 0.5,
                )
            )
    tag_limit = (
        max(3, math.ceil(0.5 * n)) if n >= 4 else n + 1
    )  # on half the area: the area's own tag
    for tag, members in sorted(tag_members.items()):
        if 2 <= len(members) < tag_limit and not mentions_area(tag, area_words):
            out.append(
                Candidate("tag", f"tag:{tag}", tag_label.get(tag, tag), frozenset(members), 1.0)
            )
    for term, members in sorted(term_members.items()):
        weight = idf.get(term, 1.0)
        # a plain word (`model`) needs three PRs; a name (`XNNPACK`, `FP16`, `LoRA`) two
        if not (2 <= len(members) < too_common) or weight < 2.5 or names_area(term, area_words):
            continue
        if len(members) >= 3 or _is_name(term, [pool[i] for i in members]):
            out.append(Candidate("term", f"term:{term}", term, frozenset(members), weight))
    path_limit = max(4, math.ceil(0.5 * n))  # a directory holding half the area is no theme
    for directory, members in sorted(dir_members.items()):
        if 3 <= len(members) < path_limit and not names_area(
            directory.rsplit("/", 1)[-1], area_words
        ):
            out.append(
                Candidate(
                    "path",
                    f"path:{directory}",
                    directory,
                    frozenset(members),
                    float(directory.count("/")),
                )
            )
    return out
