"""The small bits of English the deterministic prose needs: verbs that open titles and
the nouns themes are named with, third person, sentence case, number words, plurals."""

from __future__ import annotations

import re

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
    "modernize": "modernization",
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
    "complete finish finalize adjust generalize eliminate ignore solve promote decouple match "
    "enforce refine force reorder refresh fail address import write read allocate require reformat "
    "normalize buckify turn handle relax tighten restore restructure reorganize separate assign "
    "lower raise propagate infer xfail select compare allow cap centralize combine compile "
    "consume continue convert declare decode delegate detect determine disallow distinguish "
    "downgrade duplicate edit embed encode enhance evaluate exclude execute forward hook "
    "identify increment inherit inline insert inspect instantiate instrument interpret isolate "
    "launch leverage localize loosen maintain materialize minimize notify omit overload parse "
    "parametrize parameterize persist prefer prepare preserve produce prohibit protect rebuild "
    "recompute redirect reimplement reload remap render repackage reproduce rerun respect "
    "restrict retain retrieve revamp revise sanitize serve specify stub substitute toggle "
    "transfer transform translate trigger truncate unpack unpin unset unskip unwrap upcast "
    "utilize widen accelerate consider narrow incorporate borrow factorize shuffle honor "
    "honour cut close tune colour color"
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


# Verbs whose `-ing` and past forms open titles as actions (`Adding X`, `Updated Y`); other
# such forms are mostly nouns or adjectives (`Padding`, `Tracing`, `Fused`, `Quantized`).
_ACTION_FORMS = frozenset(
    """add use fix update remove enable disable change modify move refactor include bump
    introduce create reduce register improve make split replace shorten rename export simplify
    store apply consolidate support align correct serialize choose rearrange double convert
    address merge clarify implement optimize optimise extend delete unify clean increase
    integrate adjust skip upgrade deprecate migrate allow expose avoid drop switch""".split()
)


_VERB_PREFIXES = frozenset("auto re pre un de co lazy lazily force batch double self".split())
_INFLECTED = {"adds": "add", "added": "add", "fixes": "fix", "fixed": "fix"}


def verb_base(word: str, third: bool = True) -> str:
    """The imperative a title's first word stands for: `Add`, `Adds`, `Adding` and `Added`
    → `add`; '' when it is no verb (`Padding`, `Fused` and `Quantized` are not actions).
    `third=False` leaves `-s` forms alone (`Tests`, `Docs` open noun phrases too)."""
    low = word.lower()
    if low in _INFLECTED:
        return _INFLECTED[low]
    if low in VERB_NOUNS:
        return low
    head, dash, last = low.rpartition("-")
    if dash and head in _VERB_PREFIXES:  # `Auto-load`, `Lazy-import`: a verb with a prefix
        base = verb_base(last, third)
        return f"{head}-{base}" if base else ""
    stems: list[str] = []
    if low.endswith("ing") and len(low) >= 5:
        stem = low[:-3]
        stems = [stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else stem]
    elif low.endswith("ied"):
        stems = [low[:-3] + "y"]
    elif low.endswith("ed") and len(low) > 4:
        stem = low[:-2]
        stems = [stem, low[:-1], stem[:-1] if stem[-1:] == stem[-2:-1] else stem]
    elif not third:
        return ""
    elif low.endswith("ies"):
        stems = [low[:-3] + "y"]
    elif low.endswith("es"):
        stems = [low[:-2], low[:-1]]
    elif low.endswith("s"):
        stems = [low[:-1]]
    for stem in stems:
        if stem in _ACTION_FORMS or (low.endswith("s") and stem in VERB_NOUNS):
            return stem
    return ""


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


_ADVERB_VERB = re.compile(r"([A-Z]?[a-z]+ly) ([a-z]+)\b")
_DEFAULT_TO = re.compile(r"(?i)default\s+(\S.*?\s+to\s+\S.*)")
_TAG_THEN_VERB = re.compile(r"([A-Z][\w.+-]*) ([A-Z][a-z]+) (\S.*)")
_NEGATION = re.compile(r"(?i)(?:don'?t|do not|never)\s+(\S+)(.*)")


def as_clause(clean_text: str) -> str:
    """A clean title as a third-person clause: `Add X` and `Adding X` → `adds X`, `Don't
    X` → `no longer Xs`; else the title itself."""
    negated = _NEGATION.fullmatch(clean_text)
    if negated:
        verb = negated.group(1)
        # `double-install` is a verb when its last part is one
        base = verb_base(verb) or verb.lower()  # "Don't" is only ever followed by a verb
        if base.isalpha() or "-" in base:
            return f"no longer {third_person(base)}{negated.group(2)}"
    words = clean_text.split(" ", 1)
    adverb = _ADVERB_VERB.match(clean_text)
    if (
        adverb
        and not verb_base(adverb.group(1))  # `Apply fix`, `Multiply …`: verbs themselves
        and adverb.group(1).lower() not in ("early", "family", "assembly", "poly")
        and verb_base(adverb.group(2), third=False)
    ):  # `Dynamically select X`
        verb = third_person(verb_base(adverb.group(2), third=False))
        return f"{adverb.group(1).lower()} {verb}{clean_text[adverb.end() :]}"
    base = verb_base(words[0])
    rest = words[1] if len(words) > 1 else ""
    if clean_text.lower().startswith("back out "):  # Phabricator's word for a revert
        return f"backs out {clean_text[9:]}"
    defaulted = _DEFAULT_TO.fullmatch(clean_text)
    if defaulted:  # `Default X to Y`: "Default" is the verb here
        return f"defaults {defaulted.group(1)}"
    tagged = _TAG_THEN_VERB.fullmatch(clean_text)
    if not base and tagged and verb_base(tagged.group(2), third=False) == tagged.group(2).lower():
        # `Java Remove X`: a component's name before the verb
        verb = third_person(tagged.group(2).lower())
        return f"{verb} {tagged.group(3)} in {tagged.group(1)}"
    if base in ("support", "fix") and rest.lower().startswith("for "):
        # a noun here: `Support for X` → `adds support for X`, `Fix for X` → `fixes X`
        return f"adds support {rest}" if base == "support" else f"fixes {rest[4:]}"
    if base:
        return (third_person(base) + (" " + rest if rest else "")).strip()
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


def lowered_start(text: str) -> str:
    """The text continuing a sentence: its first word in lower case when it is a plain
    word ("Support for X" → "support for X"), kept when it is a name: code, an acronym,
    or the first of title-cased words ("Exynos Backend for …")."""
    words = text.split(" ", 2)
    first = words[0] if words else ""
    if not (first.isalpha() and first[:1].isupper() and first[1:].islower()):
        return text
    if len(words) > 1 and words[1][:1].isupper() and words[1][1:2].islower():
        return text
    return first.lower() + text[len(first) :]


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
