"""Title cleaning and the small bits of English the deterministic prose needs.

Titles carry routing noise (`[ET-VK][ez]`, `Arm backend:`, `(#123)`); the digest wants
the change itself. The stripped tags are kept: they are good theme names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..titles import COLON_PREFIX, LEADING_TAGS, PR_REF, SPACES, TRAILING_PR_REF

_BRACKET_TAGS = re.compile(rf"^\s*({LEADING_TAGS})")
_ONE_TAG = re.compile(r"\[([^\[\]]+)\]")
# `Arm backend: ...`, `mx cast: ...`, `Voxtral Realtime: ...`, `fix(ci): ...`
_COLON_PREFIX = re.compile(rf"^\s*({COLON_PREFIX})\s*:\s+(?=\S)")
# `Qualcomm AI Engine Direct - ...`
_DASH_PREFIX = re.compile(r"^\s*([A-Z][\w.+/]*(?: [\w.+/]+){0,3})\s+-\s+(?=\S)")
_PART_MARKER = re.compile(
    r"(?ix)"
    r"(?:^\s*\[?\d+\s*/\s*(?:\d+|x|n)\]?\s*:?\s*)"  # leading `[1/4]`, `1/x:`
    r"|(?:\s*[\[(]?\b(?:pt|part|group|step|phase)\.?\s*\d+(?:\s*[-–]\s*\d+)?(?![\w])[\])]?)"  # `pt.4-6`, `(group 3)`
    r"|(?:\s*[\[(]\d+\s*/\s*(?:\d+|x|n)[\])])"  # trailing `(2/3)`
)
_LEADING_PART = re.compile(r"(?i)^\s*(\d+\s*/\s*(?:\d+|x|n))\s*:?\s+")
_SERIES_MARKER = re.compile(
    r"(?i)(?:\b\d+\s*/\s*(?:\d+|x|n)\b|\b(?:pt|part|group|step|phase)\.?\s*\d+(?![\w]))"
)

# Tags that say how a change was made, not what it is about: never a theme name.
STOP_TAGS = frozenset(
    {
        "ez",
        "easy",
        "be",
        "bc-breaking",
        "bc breaking",
        "reland",
        "revert",
        "wip",
        "minor",
        "nit",
        "test",
        "tests",
        "fix",
        "bugfix",
        "feat",
        "feature",
        "chore",
        "refactor",
        "ci",
        "doc",
        "docs",
        "lint",
        "perf",
        "executorch",
        "et",
        "ao",
        "torchao",
        "pytorch",
        "title",
        "summary",
        "diff train",
        "ghstack",
        "ready",
        "draft",
        "1/x",
        "2/x",
        "3/x",
    }
)


@dataclass(frozen=True)
class CleanTitle:
    text: str  # the change itself, first letter upper-cased
    tags: tuple[str, ...]  # stripped tags and prefixes, in order, as written
    series_marker: bool  # `[1/4]`, `pt.2`, `(group 3)` …


def clean_title(title: str, number: int | None = None) -> CleanTitle:
    """Strip `(#N)`, leading `[tags]` and `Area:`/`Area -` prefixes; keep them as tags.

    A title that is only tags stays as written (minus `(#N)`); one that is only `(#N)`
    becomes `PR #<number>` (`number` is the PR's own), so no bullet is ever empty."""
    text = SPACES.sub(" ", title).strip()
    text = TRAILING_PR_REF.sub("", text)
    text = PR_REF.sub("", text)
    marker = bool(_SERIES_MARKER.search(text))
    tags: list[str] = []
    for _ in range(4):  # prefixes stack: `[ET-VK][ez] Cortex-M: ...`
        before = text
        match = _BRACKET_TAGS.match(text)
        if match:
            tags.extend(t.strip() for t in _ONE_TAG.findall(match.group(1)))
            text = text[match.end() :]
        match = _COLON_PREFIX.match(text)
        if match and len(text) - match.end() >= 8:
            tags.append(match.group(1).strip())
            text = text[match.end() :]
        match = _LEADING_PART.match(text)
        if match:
            tags.append(match.group(1).strip())
            text = text[match.end() :]
        match = _DASH_PREFIX.match(text)
        if match and len(text[match.end() :].split()) >= 3:
            tags.append(match.group(1).strip())
            text = text[match.end() :]
        if text == before:
            break
    text = text.strip().rstrip(".").strip()
    if not text:  # the whole title was tags: keep it as written
        text = PR_REF.sub("", TRAILING_PR_REF.sub("", SPACES.sub(" ", title))).strip()
        text = SPACES.sub(" ", text).strip(" .:-")
    if not text:
        text = f"PR #{number}" if number is not None else "Untitled change"
    return CleanTitle(text=text[:1].upper() + text[1:], tags=tuple(tags), series_marker=marker)


def series_key(clean_text: str) -> str:
    """The title with part markers and numbers removed: members of a series share it."""
    text = _PART_MARKER.sub(" ", clean_text)
    text = re.sub(r"\d+", "#", text.lower())
    text = re.sub(r"[^\w# ]+", " ", text)
    return SPACES.sub(" ", text).strip()


def strip_part_markers(clean_text: str) -> str:
    """`Format Arm passes (group 3)` → `Format Arm passes`."""
    return SPACES.sub(" ", _PART_MARKER.sub(" ", clean_text)).strip(" :-")


def theme_tags(tags: tuple[str, ...]) -> list[str]:
    """Tags usable as theme names (lower-cased keys), without process tags like `ez`."""
    out = []
    for tag in tags:
        key = tag.lower().strip()
        if key and key not in STOP_TAGS and not re.fullmatch(r"\d+\s*/\s*\w+", key):
            out.append(key)
    return out


# --- English helpers ---------------------------------------------------------------

# Imperative verbs that open PR titles; mapped to the noun used in theme names.
VERB_NOUNS: dict[str, str] = {
    "add": "",
    "adds": "",
    "added": "",
    "introduce": "",
    "implement": "",
    "create": "",
    "support": "support",
    "enable": "enablement",
    "fix": "fixes",
    "fixes": "fixes",
    "fixed": "fixes",
    "format": "formatting",
    "refactor": "refactor",
    "remove": "removal",
    "delete": "removal",
    "update": "updates",
    "upgrade": "upgrade",
    "bump": "bump",
    "migrate": "migration",
    "move": "move",
    "rename": "renames",
    "optimize": "optimization",
    "optimise": "optimization",
    "improve": "improvements",
    "clean": "cleanup",
    "cleanup": "cleanup",
    "replace": "replacement",
    "use": "adoption",
    "make": "",
    "allow": "support",
    "avoid": "avoidance",
    "expose": "exposure",
    "split": "split",
    "switch": "switch",
    "skip": "skips",
    "disable": "disabling",
    "increase": "increase",
    "reduce": "reduction",
    "validate": "validation",
    "propagate": "propagation",
    "reorganize": "reorganization",
    "port": "port",
    "test": "tests",
    "link": "linking",
    "filter": "filtering",
    "document": "docs",
    "deprecate": "deprecation",
    "extend": "extension",
    "handle": "handling",
    "register": "registration",
    "set": "",
    "change": "change",
    "drop": "removal",
    "reject": "rejection",
    "pin": "pinning",
    "unify": "unification",
    "lower": "lowering",
    "export": "export",
    "convert": "conversion",
    "apply": "",
    "run": "runs",
    "build": "build",
    "generate": "generation",
    "simplify": "simplification",
    "fuse": "fusion",
    "decompose": "decomposition",
    "quantize": "quantization",
    "ensure": "",
    "prevent": "prevention",
    "mark": "",
    "restore": "restoration",
    "consolidate": "consolidation",
    "guard": "guards",
    "check": "checks",
    "expand": "expansion",
    "align": "alignment",
    "adopt": "adoption",
    "wire": "wiring",
    "plumb": "plumbing",
    "populate": "",
    "cache": "caching",
    "parallelize": "parallelization",
    "vectorize": "vectorization",
    "rewrite": "rewrite",
    "relax": "relaxation",
    "emit": "",
    "modify": "changes",
    "retry": "retries",
    "limit": "limits",
    "load": "loading",
    "standardize": "standardization",
    "reland": "reland",
    "revert": "revert",
    "re-enable": "re-enablement",
    "reenable": "re-enablement",
    "speed": "speedup",
    "integrate": "integration",
    "initialize": "initialization",
    "define": "",
    "land": "",
    "preserve": "preservation",
    "include": "",
    "upstream": "upstreaming",
    "serialize": "serialization",
}
# More imperative openers; their theme names need no suffix noun.
for _verb in (
    "strengthen tweak swap bring reuse share hide show wrap rework redo reapply raise return throw "
    "keep stop start let get put pass override annotate cast pad sort merge resolve patch correct gate "
    "fold hoist lift prune trim strip bind call invoke dispatch route map compute calculate measure "
    "benchmark profile trace track record report warn verify mock unblock unbreak silence suppress "
    "recover repair tidy polish clarify explain describe mention note list dump save store fetch "
    "download upload publish release ship deploy install configure reset clear flush sync copy clone "
    "extract factor dedup deduplicate collapse flatten partition batch stream memoize precompute "
    "prefetch preload defer delay schedule throttle scale resize reshape transpose permute expose "
    "attach detach inject provide offer accept return surface print log bump pin tag label rename "
    "reduce shrink grow speed harden unify fuse gather collect aggregate skip silence guard "
    "complete finish finalize"
).split():
    VERB_NOUNS.setdefault(_verb, "")
VERB_NOUNS.update(
    {
        "report": "reporting",
        "reset": "reset",
        "try": "",
        "share": "sharing",
        "trace": "tracing",
        "profile": "profiling",
        "benchmark": "benchmarks",
        "sync": "sync",
        "merge": "merge",
        "resolve": "resolution",
        "patch": "patch",
        "harden": "hardening",
        "speed": "speedup",
    }
)


def is_verb(word: str) -> bool:
    return word.lower() in VERB_NOUNS


def third_person(verb: str) -> str:
    """`add` → `adds`, `fix` → `fixes`, `apply` → `applies` (already-conjugated forms kept)."""
    low = verb.lower()
    if low.endswith(("ed",)) and low not in VERB_NOUNS:
        return verb
    if low in {"adds", "fixes", "added", "fixed"}:
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def as_clause(clean_text: str) -> str:
    """A clean title as a third-person clause: `Add X` → `adds X`; else the title itself."""
    words = clean_text.split(" ", 1)
    first = words[0]
    if is_verb(first):
        rest = words[1] if len(words) > 1 else ""
        return (third_person(first.lower()) + (" " + rest if rest else "")).strip()
    return clean_text


def sentence_case(text: str) -> str:
    """Upper-case the first letter, unless the first word is code (`q8ta_conv2d`, `aten.add`)."""
    first = text.split(" ", 1)[0] if text else ""
    if (
        not first
        or not first[:1].isalpha()
        or re.search(r"[_.:/()`\d]", first)
        or any(c.isupper() for c in first[1:])
    ):
        return text
    return first[:1].upper() + text[1:]


NUMBER_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}


def number_word(n: int) -> str:
    return NUMBER_WORDS.get(n, str(n))


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"
