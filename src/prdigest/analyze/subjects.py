"""A bullet keeps its subject: the title prefix a cleaner strips is often what the change is
about. `ParallelismConfig: add to_json` is "Adds `ParallelismConfig.to_json`", not "Adds
`to_json`"; `mxfp8 moe: enable ep=1` is "Enables ep=1 for mxfp8 moe", not "Enables ep=1".

A prefix stays off when it only says what the heading already says: it names the PR's
area (`Arm backend:` in Backends: Arm), it is a process word (`fix:`, `ci:`), or most of
the area's PRs carry it (the area's own tag, `Cadence:` in a Cadence section).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

from ..reading import normalize_tag
from ..reading.parts import has_part_marker
from ..reading.titles import CONVENTIONAL_TYPES
from .english import VERB_NOUNS, verb_base
from .groups import area_words, mentions_area, names_area
from .items import STOP_TAGS, STOPWORDS, Item

_OWN_SHARE = 0.4  # a prefix on this share of an area's PRs (and 3 or more) is the area's tag
_CODE_NAME = re.compile(r"[A-Za-z_][\w.]*[a-z0-9][A-Z]\w*|[A-Za-z_]\w*[_.]\w+")  # `FooBar`, `a_b`
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:\(\))?$")
_QUALIFIER = re.compile(r"\d|[a-z][A-Z]|[_.]")  # `mxfp8`, `FlatTensor`, `op_lib`: a name


def keep_subjects(items: Sequence[Item]) -> None:
    """Put back, in each item's clean text, the stripped prefix that is its subject."""
    by_area: dict[str, list[Item]] = defaultdict(list)
    for it in items:
        by_area[it.cls.area].append(it)
    for area, members in by_area.items():
        prefixes = {id(it): _prefix(it) for it in members}
        counts = Counter(normalize_tag(p) for p in prefixes.values() if p)
        for it in members:
            prefix = prefixes[id(it)]
            if not prefix or _area_own(prefix, area, counts, len(members)):
                continue
            text = with_subject(prefix, it.clean.text)
            if text != it.clean.text:
                it.clean = replace(it.clean, text=text)
                if not text.startswith(f"{text.split(' ', 1)[0]} {prefix}."):
                    it.extra["subject"] = prefix  # its topic says whose, too


def with_subject(prefix: str, text: str) -> str:
    """`to_json` with `ParallelismConfig` → `ParallelismConfig.to_json`; `Enable ep=1` with
    `mxfp8 moe` → `Enable ep=1 for mxfp8 moe`. A text that says the prefix already, or
    that opens with no verb (a noun phrase reads with its heading), stays as it is."""
    if re.search(rf"(?i)(?<![\w-]){re.escape(prefix)}(?![\w-])", text):
        return text
    verb, _, rest = text.partition(" ")
    if not rest or not verb_base(verb):
        return text
    first, _, tail = rest.partition(" ")
    if _CODE_NAME.fullmatch(prefix) and _IDENTIFIER.match(first) and _CODE_NAME.search(first):
        return f"{verb} {prefix}.{first}" + (f" {tail}" if tail else "")
    joiner = " in " if re.search(r"(?i)\bfor\b", rest) else " for "
    return f"{text}{joiner}{prefix}"


def _prefix(it: Item) -> str:
    """The `Name:` or `Name - ` prefix the cleaner took off this title ('' for none, for a
    bracket tag, a process word or a part marker): the last one before the text."""
    if it.is_revert or it.is_reland or not it.clean.tags:
        return ""
    tag = it.clean.tags[-1].strip()
    low = normalize_tag(tag)
    if not tag or low in STOP_TAGS or low in CONVENTIONAL_TYPES or has_part_marker(tag):
        return ""
    title = it.pr.title
    if not re.search(rf"(?<!\[){re.escape(tag)}\s*(?::|\s-)\s", title):
        return ""
    words = re.split(r"[\s/]+", low)
    if len(words) > 4 or all(w in STOP_TAGS or w in STOPWORDS or w in VERB_NOUNS for w in words):
        return ""  # `docs update:` says how, not what
    return tag


def _area_own(prefix: str, area: str, counts: Counter[str], size: int) -> bool:
    """Whether the prefix says no more than the heading: it names the area, or mentions it
    with only plain words besides (`Qualcomm AI Engine Direct` in Backends: Qualcomm; but
    `mxfp8 moe` in MoE Training qualifies it), or most of the area carries it."""
    words = area_words(area)
    if names_area(prefix, words):
        # `mx` in MX / NVFP4 Formats names one of the heading's subjects: it says which
        alternatives = [a for a in re.split(r"\s[/&]\s|,\s", area.rsplit(":", 1)[-1]) if a]
        return len(alternatives) < 2 or all(names_area(prefix, area_words(a)) for a in alternatives)
    if mentions_area(prefix, words):
        others = [w for w in re.split(r"[\s/]+", prefix) if w.lower().rstrip("s") not in words]
        if not any(_QUALIFIER.search(w) for w in others):
            return True
    n = counts[normalize_tag(prefix)]
    return n >= 3 and n >= _OWN_SHARE * size
