"""PR title → one user-facing release-notes sentence.

Titles carry routing tags (`[ET-VK][ez]`, `Arm backend:`), the PR number, ticket
ids and series markers; release notes want the change (`reading.strip_noise` takes
the rest off), in one consistent mood.
PyTorch's own notes mostly use the past tense ("Added …", "Fixed …"), so every
leading imperative, gerund or third-person verb becomes past tense.
"""

from __future__ import annotations

import re

from ..reading import strip_noise

_WORD = re.compile(r"^([A-Za-z][A-Za-z'-]*)(.*)$", re.S)

# Leading verbs → past tense. Imperative, third person and gerund all map here.
_PAST: dict[str, str] = {
    "add": "added",
    "fix": "fixed",
    "update": "updated",
    "remove": "removed",
    "use": "used",
    "support": "supported",
    "rename": "renamed",
    "make": "made",
    "enable": "enabled",
    "bump": "bumped",
    "move": "moved",
    "allow": "allowed",
    "create": "created",
    "refactor": "refactored",
    "introduce": "introduced",
    "migrate": "migrated",
    "improve": "improved",
    "replace": "replaced",
    "skip": "skipped",
    "run": "ran",
    "build": "built",
    "disable": "disabled",
    "clean": "cleaned",
    "implement": "implemented",
    "reduce": "reduced",
    "change": "changed",
    "delete": "deleted",
    "set": "set",
    "split": "split",
    "extend": "extended",
    "increase": "increased",
    "handle": "handled",
    "convert": "converted",
    "expose": "exposed",
    "upgrade": "upgraded",
    "switch": "switched",
    "unify": "unified",
    "apply": "applied",
    "copy": "copied",
    "modify": "modified",
    "simplify": "simplified",
    "specify": "specified",
    "stop": "stopped",
    "drop": "dropped",
    "prefer": "preferred",
    "keep": "kept",
    "pin": "pinned",
    "wrap": "wrapped",
    "do": "did",
    "avoid": "avoided",
    "optimize": "optimized",
    "optimise": "optimised",
    "deprecate": "deprecated",
    "port": "ported",
    "register": "registered",
    "propagate": "propagated",
    "expand": "expanded",
    "validate": "validated",
    "document": "documented",
    "export": "exported",
    "lower": "lowered",
    "fuse": "fused",
    "decompose": "decomposed",
    "quantize": "quantized",
    "ensure": "ensured",
    "prevent": "prevented",
    "restore": "restored",
    "consolidate": "consolidated",
    "guard": "guarded",
    "check": "checked",
    "align": "aligned",
    "adopt": "adopted",
    "wire": "wired",
    "plumb": "plumbed",
    "populate": "populated",
    "cache": "cached",
    "parallelize": "parallelized",
    "vectorize": "vectorized",
    "rewrite": "rewrote",
    "relax": "relaxed",
    "emit": "emitted",
    "limit": "limited",
    "load": "loaded",
    "standardize": "standardized",
    "integrate": "integrated",
    "initialize": "initialized",
    "define": "defined",
    "preserve": "preserved",
    "include": "included",
    "serialize": "serialized",
    "upstream": "upstreamed",
    "partition": "partitioned",
    "delegate": "delegated",
    "re-enable": "re-enabled",
    "reenable": "re-enabled",
    "generate": "generated",
    "speed": "sped",
    "reorganize": "reorganized",
    "enforce": "enforced",
    "clarify": "clarified",
    "correct": "corrected",
    "declare": "declared",
    "default": "defaulted",
    "deduplicate": "deduplicated",
    "dedup": "deduplicated",
    "detect": "detected",
    "tweak": "tweaked",
    "unbreak": "unbroke",
    "mark": "marked",
    "reject": "rejected",
    "raise": "raised",
    "return": "returned",
    "write": "wrote",
    "get": "got",
    "put": "put",
    "let": "let",
    "hide": "hid",
    "show": "showed",
    "print": "printed",
    "log": "logged",
    "pass": "passed",
    "accept": "accepted",
    "reuse": "reused",
    "release": "released",
    "publish": "published",
    "install": "installed",
    "link": "linked",
    "bind": "bound",
    "try": "tried",
    "exclude": "excluded",
    "annotate": "annotated",
    "save": "saved",
    "fill": "filled",
    "free": "freed",
    "swap": "swapped",
    "retrieve": "retrieved",
    "adjust": "adjusted",
    "suppress": "suppressed",
    "silence": "silenced",
    "rework": "reworked",
    "revise": "revised",
    "reorder": "reordered",
    "resolve": "resolved",
    "address": "addressed",
    "test": "tested",
    "bring": "brought",
    "teach": "taught",
    "split out": "split out",
    "extract": "extracted",
    "factor": "factored",
    "inline": "inlined",
    "merge": "merged",
    "separate": "separated",
    "share": "shared",
    "store": "stored",
    "track": "tracked",
    "turn": "turned",
    "unpin": "unpinned",
    "patch": "patched",
    "reland": "relanded",
    "introduces": "introduced",
    "provide": "provided",
    "cleanup": "cleaned up",
    "setup": "set up",
    "decouple": "decoupled",
    "prepare": "prepared",
    "refine": "refined",
    "soften": "softened",
    "require": "required",
    "buckify": "buckified",
    "restrict": "restricted",
    "disallow": "disallowed",
    "uplift": "uplifted",
    "hoist": "hoisted",
    "hook": "hooked",
    "reimplement": "reimplemented",
    "re-implement": "re-implemented",
    "fold": "folded",
    "prefetch": "prefetched",
    "infer": "inferred",
    "unblock": "unblocked",
    "revert": "reverted",
}
# Third-person and gerund forms of the table's verbs.
_FORMS: dict[str, str] = {}
for _verb, _past in _PAST.items():
    _FORMS[_verb] = _past
    _FORMS[_past] = _past
    _third = _verb + ("es" if re.search(r"(s|sh|ch|x|z)$", _verb) else "s")
    if re.search(r"[^aeiou]y$", _verb):
        _third = _verb[:-1] + "ies"
    _FORMS[_third] = _past
    _stem = _verb[:-1] if _verb.endswith("e") and not _verb.endswith("ee") else _verb
    _FORMS[_stem + "ing"] = _past
_FORMS.update(
    {
        "running": "ran",
        "stopping": "stopped",
        "dropping": "dropped",
        "skipping": "skipped",
        "wrapping": "wrapped",
        "pinning": "pinned",
        "setting": "set",
        "getting": "got",
        "putting": "put",
        "splitting": "split",
        "emitting": "emitted",
        "letting": "let",
    }
)
# Third-person forms that open noun phrases more often than sentences ("Sets of …").
for _noun in ("sets", "uses", "links", "logs", "prints", "returns", "exports", "builds"):
    _FORMS.pop(_noun, None)

# Abbreviations look dotted like `torch.compile` but are words, not code: matched on the
# token without its punctuation, so `(e.g.`, `e.g.,` and `i.e` stay prose too.
_ABBREVIATION = re.compile(r"(?i)^(?:e\.g|i\.e|etc|vs|a\.k\.a|n\.b|cf|w\.r\.t|approx|viz)\.?$")
_CODE_TOKEN = re.compile(
    r"""(?x)^(
        [A-Za-z_][\w]*(?:(?:\.|::)[A-Za-z_]\w*)+(?:\(\))?   # torch.compile, c10::foo, a.b()
      | [A-Za-z_]\w*\(\)                                   # foo()
      | _*[a-z][a-z0-9]*(?:_[a-z0-9]+)+_*                  # snake_case
      | [A-Za-z0-9_]*_[A-Za-z0-9_]*[A-Z][A-Za-z0-9_]*      # MIXED_Case with underscore
      | [a-z]{2,}[A-Z][a-z]\w*                              # camelCase
      | --[a-z][\w-]+                                      # --flag
      | (?:[\w.-]+/)+[\w.-]+\.[A-Za-z]{1,5}               # path/to/file.py
      | \w+\.(?:py|cpp|h|hpp|cc|c|cu|txt|yml|yaml|toml|json|sh|bzl|cmake|glsl|mm|swift|kt|java|md)
    )$"""
)
_TRAILING_PUNCT = ",;:!?)]'\""
_LEADING_PUNCT = "(['\""


def past_tense(text: str) -> str:
    """`Add X` / `Adds X` / `Adding X` → `Added X`; other openings are kept."""
    match = _WORD.match(text)
    if not match:
        return text
    word, rest = match.group(1), match.group(2)
    low = word.lower()
    if low == "don't" or low == "do" and rest.lower().startswith(" not "):
        return "Stopped " + _gerund_rest(rest)
    past = _FORMS.get(low)
    if past is None and low.endswith("ize") and len(low) > 5 and word[1:].islower():
        past = low + "d"  # generalize, specialize, materialize …
    if past is None:
        return text
    return past + _second_verbs(rest)


# Verbs that, after `and`/`,`/`+`, are verbs and hardly ever nouns: `…, fix X` → `…, fixed X`.
_SECOND_VERBS = frozenset(
    "add fix remove update enable disable rename refactor move introduce implement make allow "
    "expose delete replace clean migrate improve bump create extend convert register "
    "restrict disallow hoist propagate annotate decompose reject drop stop fold fuse optimize "
    "deprecate consolidate document align adjust relax validate expand avoid simplify decouple".split()
)
_SECOND = re.compile(r"(\band|,|\+|;)(\s+)([a-z]+)\b")


def _second_verbs(text: str) -> str:
    def past(match: re.Match[str]) -> str:
        verb = match.group(3)
        if verb in _SECOND_VERBS:
            return f"{match.group(1)}{match.group(2)}{_PAST[verb]}"
        return match.group(0)

    return _SECOND.sub(past, text)


def _gerund_rest(rest: str) -> str:
    """`Don't copy X` → `copying X`, crudely: only for the table's verbs."""
    words = rest.strip().split(" ", 2)
    if words and words[0].lower() == "not":
        words = words[1:]
    if not words:
        return ""
    verb = words[0].lower()
    if re.fullmatch(r"[a-z]+", verb):
        stem = verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb
        if re.fullmatch(r"[a-z]*[^aeiou][aeiou][bdgmnprt]", verb) and len(verb) <= 4:
            stem = verb + verb[-1]  # stop → stopping, run → running
        words[0] = stem + "ing"
    return " ".join(words)


def backtick_code(text: str) -> str:
    """Wrap identifier-looking tokens (`foo_bar`, `torch.compile`, `a/b.py`, `--flag`) in
    backticks; text already inside backticks is left alone."""
    parts = re.split(r"(`[^`]*`)", text)
    for index, part in enumerate(parts):
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            continue
        parts[index] = " ".join(_tick(token) for token in part.split(" "))
    return "".join(parts)


def _tick(token: str) -> str:
    if not token or "://" in token:
        return token
    start = len(token) - len(token.lstrip(_LEADING_PUNCT))
    core = token[start:]
    end = len(core.rstrip(_TRAILING_PUNCT))
    core, tail = core[:end], core[end:]
    if _ABBREVIATION.match(core):
        return token
    if core.endswith("(") and tail.startswith(")"):
        core, tail = core + ")", tail[1:]
    if core.endswith(".") and not core.endswith("()."):
        core, tail = core[:-1], "." + tail
    if core and _CODE_TOKEN.match(core) and not re.fullmatch(r"[\d.]+", core):
        return f"{token[:start]}`{core}`{tail}"
    return token


def to_sentence(title: str, number: int | None = None) -> str:
    """The whole treatment: noise out, past tense, capitalised, code in backticks. A title
    with nothing left (`(#5)`) becomes `PR #<number>` (`number` is the PR's own)."""
    text = strip_noise(title)
    if not text:
        return f"PR #{number}" if number is not None else "Untitled change"
    text = past_tense(text)
    text = backtick_code(text)
    if text and not text.startswith("`"):
        text = text[:1].upper() + text[1:]
    return text


_CUT = ("…", "...")
_DANGLING = frozenset(
    "a an the and or of in on for to from with by at via into as than vs".split()
)  # fmt: skip


def whole_title(title: str, body: str) -> str:
    """A title git cut short (`… in CoreMLPa…`): continued by the body when the body
    carries the rest (`…rtitioner`, as GitHub's squash messages do), else ended at its last
    whole word, without the dangling words before the cut, so no entry reads cut off."""
    text = title.rstrip()
    cut = next((mark for mark in _CUT if text.endswith(mark)), "")
    if not cut:
        return title
    head = text[: -len(cut)]
    rest = (body or "").lstrip()
    if rest.startswith(cut):
        first_line = rest[len(cut) :].split("\n", 1)[0].rstrip()
        return head + first_line
    words = head.split()
    if words and not head.endswith(" "):
        cut_word = words.pop()  # the word the cut went through; `GB200/GB3` keeps `GB200`
        if "/" in cut_word.strip("/"):
            words.append(cut_word.rsplit("/", 1)[0])
    while words and words[-1].lower().strip(",;:") in _DANGLING:
        words.pop()
    kept = " ".join(words).rstrip(",;:-–—(/")
    return kept if len(words) >= 2 else head.rstrip()
