"""Is a model's sentence about one PR supported by that PR alone?

A sentence passes when
- it is one plain sentence: no link, HTML, Markdown beyond code spans, code span left
  open, PR or issue number, prompt marker; it speaks of the change, not of "the PR";
- every **name** it writes is in the PR's text (title, description, labels, paths, diff):
  code in backticks exactly as written there (a closing `()` aside); CamelCase (exactly),
  snake_case, dotted and path names, acronyms, names of letters and digits (`Qwen3`,
  `FP16`), a capitalised word inside the sentence, and one opening it that is not shaped
  like a word. Case, plural endings and separators are otherwise forgiven (`bitwise_not`
  is `bitwise-not`), spelling never;
- every **number** it writes is stated by the PR (`figure_in_text`: `15%` is not `150%`),
  and it gives no size (lines, files) as a reason;
- what it **claims** is the PR's: a word of effect (faster, memory, crash, security,
  breaking, …) is a word the PR uses, and at most a quarter of its other content words
  are words the PR does not use.

Nothing is rewritten: a sentence passes, or the deterministic one stands in its place.
The rules are about sentences and PRs, not about any model's habits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..digest_verifier import figure_in_text

_CODE_SPAN = re.compile(r"`([^`]*)`")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/+#-]*[A-Za-z0-9+#]|[A-Za-z0-9]")
_WORD = re.compile(r"[a-z]+")
_SQUASH = re.compile(r"[\s_\-./:`'\"()]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\(\s*)$")
_NUMBER = re.compile(
    r"(?<![\w.])[~≈]?\d+(?:[.,]\d+)*(?:\s?(?:%|x|×|ms|us|ns|s|sec|seconds|min|minutes|h|"
    r"hours|[KMGT]i?B|k|M|B)\b|\s?%)?",
)
# a number with its unit (`37x`, `15%`, `2.5GB`, `264s`): a figure, checked as one
_FIGURE_TOKEN = re.compile(r"(?i)~?\d+(?:[.,]\d+)*(?:x|%|ms|us|ns|s|min|h|[kmgt]i?b|k|m|b)?")
_SIZE = re.compile(r"(?i)\b\d[\d,]*\s+(?:lines?|files?|loc)\b")
_MARKUP = re.compile(r"https?://|www\.|\]\(|<[a-zA-Z/!]|^\s*[#>*-]\s|\|\s*-|\*\*|__")
_NUMBERED_REF = re.compile(r"(?<![\w&])#\d+|\b(?:PR|issue)\s*#?\d+", re.IGNORECASE)
_META = re.compile(
    r"(?i)\b(?:this|the|a) (?:pr|pull request|patch|commit)\b|\bpr_data|\bdraft\b|\bjson\b"
)
_SECOND_SENTENCE = re.compile(r"(?<!\b[a-z]\.[a-z])(?<!\betc)[.!?]\s+[A-Z]")
_ENDINGS = ("s", "ed", "ing", "es")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")  # CamelCase, `DTensor` aside: spelled exactly
MIN_WORDS, MAX_WORDS = 2, 45
UNSUPPORTED_SHARE = 0.25  # of a sentence's plain content words, the PR may not use

# words any summary uses: never evidence that the sentence is about this PR, never held
# against it
_GENERIC = frozenset(
    """a an the and or but of to in on for with from by as at into onto over under via per
    its it this that these those their them they which who whose when where while than then
    also both each every other several various many more most some such new now not no
    is are was were be been being has have had do does did can could will would may might
    should must add adds added adding support supports supported supporting enable enables
    enabled enabling fix fixes fixed fixing improve improves improved improving update
    updates updated updating change changes changed changing make makes made making use
    uses used using allow allows allowed allowing introduce introduces introduced
    introducing move moves moved moving remove removes removed removing rename renames
    renamed renaming refactor refactors refactored clean cleans cleanup cleaned extend
    extends extended provide provides provided handle handles handled ensure ensures
    ensured avoid avoids avoided keep keeps kept let lets instead rather so because since
    without within between all any only just well very much first same like what how why
    there here able one two three existing current correctly properly option options
    users user people developers code issue issues problem problems case cases certain
    specific possible additional various""".split()
)
# words that claim an effect: a sentence may say them only when its PR does (by stem)
_EFFECTS = (
    "fast", "speed", "slow", "perform", "latenc", "throughput", "memory", "efficien",
    "crash", "secur", "vulnerab", "stabil", "stable", "robust", "reliab", "accura",
    "precis", "compatib", "breaking", "deprecat", "regress", "leak", "deadlock", "hang",
    "safe", "scalab", "optimi", "overhead", "production",
)  # fmt: skip


@dataclass(frozen=True)
class Evidence:
    """A PR's text, ready for matching."""

    text: str
    lower: str
    squashed: str
    words: frozenset[str]
    stems: frozenset[str]

    @classmethod
    def of(cls, text: str) -> Evidence:
        lower = text.lower()
        words = frozenset(_WORD.findall(lower))
        return cls(text, lower, _squash(lower), words, frozenset(_stem(w) for w in words))

    def names(self, name: str) -> bool:
        """Whether the text writes `name` (case, plural endings and separators forgiven;
        a name with a capital inside a word, `ExecutorCh`, only as it is written)."""
        if _INNER_CAPITAL.search(name) and " " not in name:
            return any(form in self.text for form in {name, re.sub(r"(?:'s|es|s)$", "", name)})
        wanted = name.lower().strip(".:/+-()")
        for form in {wanted, re.sub(r"(?:'s|es|s)$", "", wanted)}:
            if not form:
                continue
            if len(form) <= 3 or form.isdigit():  # a short name: a word of its own
                if re.search(rf"(?<![a-z0-9]){re.escape(form)}(?![a-z0-9])", self.lower):
                    return True
            elif form in self.lower:
                return True
            squashed = _squash(form)
            if len(squashed) >= 4 and squashed in self.squashed:
                return True
        return False

    def uses(self, word: str) -> bool:
        return word in self.words or _stem(word) in self.stems


def _squash(text: str) -> str:
    return _SQUASH.sub("", text.lower())


def _stem(word: str) -> str:
    """A word's stem for matching, its first six letters at most ("shapes" and "shape",
    "optimizes" and "optimization", "unifies" and "unified" match)."""
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        word = word[:-1]
    for ending in ("ation", "ing", "ied", "ie", "ed", "ly", "e"):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            word = word[: -len(ending)]
            break
    return word[:6]


def check_sentence(sentence: str, evidence: Evidence) -> str:
    """Why the sentence may not be published as this PR's ("" when it may)."""
    text = sentence.strip()
    words = text.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        return f"not one sentence ({len(words)} words)"
    if _MARKUP.search(text) or "\n" in text:
        return "links or markup"
    if text.count("`") % 2:
        return "a code span left open"
    if _NUMBERED_REF.search(text):
        return "a PR or issue number in the prose"
    if _META.search(text):
        return "speaks of the PR or the prompt, not of the change"
    if _SECOND_SENTENCE.search(_CODE_SPAN.sub("x", text).rstrip(".!?")):
        return "more than one sentence"
    if _SIZE.search(text):
        return "gives a size as a reason"
    for span in _CODE_SPAN.findall(text):
        code = span.strip().removesuffix("()")
        if code and code not in evidence.text:  # code is written as the code writes it
            return f"names {span.strip()!r}, which the PR does not"
    for name in names_in(text):
        if not evidence.names(name) and not _joined_names_found(name, evidence):
            return f"names {name!r}, which the PR does not"
    for figure in figures_in(text):
        if not figure_in_text(figure, evidence.lower):
            return f"gives {figure!r}, which the PR does not state"
    content = content_words(text)
    for word in content:
        effect = next((e for e in _EFFECTS if word.startswith(e)), "")
        if effect and effect not in evidence.lower:  # "faster" needs a "fast…" of the PR
            return f"claims {word!r}, which the PR does not say"
    unsupported = [w for w in content if not evidence.uses(w)]
    if len(unsupported) > int(len(content) * UNSUPPORTED_SHARE):
        return "words the PR does not use: " + ", ".join(repr(w) for w in unsupported[:4])
    return ""


def _joined_names_found(name: str, evidence: Evidence) -> bool:
    """`v2-style`, `Qwen3-based`: a name joined to plain words, found as the name (the
    words are checked with the sentence's words)."""
    parts = [p for p in name.split("-") if p]
    names = [p for p in parts if _is_name(p, False)]
    return len(parts) > 1 and bool(names) and all(evidence.names(p) for p in names)


def figures_in(text: str) -> list[str]:
    """The numbers a sentence states (outside code spans and names), with their units."""
    prose = _CODE_SPAN.sub(" ", text)
    found = []
    for match in _NUMBER.finditer(prose):
        end = match.end()
        if end < len(prose) and (prose[end].isalnum() or prose[end] in "_-"):
            continue  # `int8`, `v2` and `3D` are names, checked as names
        found.append(match.group(0).strip())
    return found


def names_in(text: str) -> list[str]:
    """The names a sentence relies on outside its code spans (checked as code)."""
    names: list[str] = []
    prose = _CODE_SPAN.sub(" , ", text)
    for match in _TOKEN.finditer(prose):
        token = match.group(0).rstrip(".:/-")
        if not token or _FIGURE_TOKEN.fullmatch(token):
            continue
        at_start = bool(_SENTENCE_START.search(prose[: match.start()]))
        if "-" in token and not _is_name(token, at_start):
            parts = [p for p in token.split("-") if p]
            names += [p for i, p in enumerate(parts) if _is_name(p, at_start and i == 0)]
        elif _is_name(token, at_start):
            names.append(token)
    return list(dict.fromkeys(names))


def _is_name(token: str, at_start: bool) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", token)
    if not letters or token.lower() in ("i", "a"):
        return False
    if re.search(r"[_/#+]|::|[A-Za-z0-9]\.[A-Za-z]", token):
        return True  # snake_case, paths, dotted names, C++, C#
    if any(c.isdigit() for c in token):
        return True  # Qwen3, int8, FP16 (a bare number is a figure, checked apart)
    if re.search(r"[a-z][A-Z]|[A-Z]{2,}[a-z]", token) or (len(letters) >= 2 and letters.isupper()):
        return True  # CamelCase, DTensor, acronyms
    if token[0].isupper():
        if not at_start:
            return True
        word = token.lower()  # an opening capital: a word shaped like one is a word
        return word not in _GENERIC and not word.endswith(_ENDINGS)
    return False


def content_words(text: str) -> list[str]:
    """The plain lower-case words of three letters or more a sentence says, generic ones
    and names aside."""
    out = []
    for token in _TOKEN.findall(_CODE_SPAN.sub(" ", text)):
        for part in re.split(r"[-/]", token.rstrip(".:/-")):
            if not part.isalpha() or not (part[1:].islower() or len(part) == 1):
                continue
            word = part.lower()
            if len(word) >= 3 and word not in _GENERIC:
                out.append(word)
    return out
