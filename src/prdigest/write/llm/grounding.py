"""Is a model's sentence supported by the PRs it cites, beyond its citations?

A sentence passes when
- every *named thing* in it (a code span, a CamelCase, snake_case, dotted or
  path-like identifier, an acronym, a letters-and-digits name like `Qwen3`,
  a capitalised word inside the sentence) appears in the text of a cited PR:
  title, body, changed paths or labels;
- at least half of its content words (not the generic verbs of a summary)
  appear there too, so fluent prose about something else does not pass;
- it is prose: not punctuation, not JSON debris, not a copy of the prompt's
  own instructions or examples.

Matching forgives case, plural endings and separators (`bitwise_not` is
`bitwise-not`), never spelling. A capitalised word opening the sentence is a
name only when the window never uses it in lower case ("Adds" is a word;
"Cadene" is a name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...reading.spelling import Spelling

_CODE_SPAN = re.compile(r"`([^`]+)`")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/+-]*[A-Za-z0-9+]|[A-Za-z0-9]")
_WORD = re.compile(r"[a-z]+")
_PLAIN_WORD = re.compile(r"[a-z]{2,}")  # a lower-case word, never a name
_SQUASH = re.compile(r"[\s_\-./:`'\"()]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+)$")
_AFTER_NUMBER = re.compile(r"\d\s*$")
_UNITS = frozenset("kb mb gb tb kib mib gib ms us ns fps tops flops x s h min k m b".split())
_FIGURE = re.compile(r"^\d[\d.,]*([a-z]*)$", re.IGNORECASE)
_WORD_ENDINGS = ("s", "ed", "ing", "ion", "ions", "ment", "ments", "ity", "al", "ly", "er", "ers")
_GENERIC = frozenset(
    """a an the and or but of to in on for with from by as at into onto over under via per
    its it this that these those their them they which who whose when where while than then
    also both each every other several various many more most some such new now
    is are was were be been being has have had do does did can could will would may might
    add adds added adding support supports supported supporting enable enables enabled enabling
    fix fixes fixed fixing improve improves improved improving update updates updated updating
    change changes changed changing make makes made making use uses used using allow allows
    allowed allowing introduce introduces introduced introducing move moves moved moving
    remove removes removed removing rename renames renamed renaming refactor refactors
    refactored clean cleans cleanup cleaned extend extends extended provide provides provided
    handle handles handled ensure ensures ensured avoid avoids avoided keep keeps kept
    better work works worked across related area areas theme themes series part parts set
    week window change code pr prs pull request requests landed merged through your you our
    we about after before without within between all any only just well very much first
    second last same like what how why there here able being one two""".split()
)
_NOT_NAMES = frozenset({"pr", "prs", "i", "a"})
_SUFFIXES = ("ing", "ed", "es", "s")


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def squash(text: str) -> str:
    return _SQUASH.sub("", text.lower())


@dataclass
class Evidence:
    """What a group of PRs says, ready for matching."""

    lower: str
    squashed: str
    words: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, texts: Iterable[str]) -> Evidence:
        lower = "\n".join(texts).lower()
        words = set(_WORD.findall(lower))
        return cls(lower, squash(lower), words, {_stem(w)[:5] for w in words if len(w) >= 4})

    def names(self, name: str) -> bool:
        """Whether the text mentions `name` (case, plural and separators forgiven)."""
        wanted = name.lower().strip(".:/+-")
        if _standalone(name.lower(), self.lower):  # "C++" as written, not "c"
            return True
        for form in {wanted, re.sub(r"(?:'s|es|s)$", "", wanted)}:
            if not form:
                continue
            if len(form) <= 3 or form.isdigit():  # "M" in "groups along M": a word of its own
                if re.search(rf"(?<![a-z0-9]){re.escape(form)}(?![a-z0-9])", self.lower):
                    return True
            elif form in self.lower:
                return True
            squashed = squash(form)
            if len(squashed) >= 5 and squashed in self.squashed:
                return True
        return False

    def has_word(self, word: str) -> bool:
        return word in self.words or _stem(word)[:5] in self.prefixes


def _standalone(name: str, text: str) -> bool:
    """Whether `text` writes `name` as a word of its own (no letter or digit either side)."""
    return bool(name) and bool(re.search(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])", text))


def named_things(
    text: str, vocabulary: set[str] | frozenset[str] = frozenset(), *, title: bool = False
) -> list[str]:
    """The names a sentence relies on. `vocabulary`: words the window writes in lower
    case, so that a capitalised common word opening a sentence is not taken for a
    name. A `title` (a theme's name) may capitalise every word: there only the
    shapes of names count (CamelCase, acronyms, …), not capitals alone."""
    names: list[str] = []
    for span in _CODE_SPAN.findall(text):
        names.append(span.strip())
    prose = _CODE_SPAN.sub(" ", text)
    for match in _TOKEN.finditer(prose):
        token = match.group(0).rstrip(".:/-")
        before = prose[: match.start()]
        if not token or token.lower() in _NOT_NAMES:
            continue
        if token.lower() in _UNITS and _AFTER_NUMBER.search(before):
            continue  # 66.16 MB: a figure's unit, checked with the figure
        figure = _FIGURE.match(token)
        if figure and (not figure.group(1) or figure.group(1).lower() in _UNITS):
            continue  # 1049.4s: a figure, checked as one
        if title and token.isalpha() and token[1:].islower():
            continue  # Title Case is not a name
        at_start = bool(_SENTENCE_START.search(before))
        parts = token.split("-")
        if len(parts) > 1 and any(_PLAIN_WORD.fullmatch(p) for p in parts[1:]):
            # "Python-agnostic", "x86-specific": a name joined to a plain word; the name
            # is checked as a name, the word with the sentence's words (`content_words`)
            names += [
                p
                for i, p in enumerate(parts)
                if p
                and not _PLAIN_WORD.fullmatch(p)
                and _is_name(p, at_start and i == 0, vocabulary)
            ]
        elif _is_name(token, at_start, vocabulary):
            names.append(token)
    return list(dict.fromkeys(names))


def _is_name(token: str, at_start: bool, vocabulary: set[str] | frozenset[str]) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", token)
    if re.search(r"[_/]|::|[A-Za-z]\.[A-Za-z]", token):
        return True  # snake_case, paths, dotted names
    if any(c.isdigit() for c in token):
        return bool(letters)  # Qwen3, int8, U85 (bare numbers are figures, checked apart)
    if re.search(r"[a-z][A-Z]|[A-Z]{2,}[a-z]", token):
        return True  # CamelCase, DTensor
    if len(letters) >= 2 and letters.isupper():
        return True  # acronyms
    if token[0].isupper() and "-" in token:
        return True  # Cortex-M, GPT-OSS
    if token[0].isupper():
        if not at_start:
            return True
        # An opening capital: a word the window uses, or one shaped like a word
        # ("Measured", "Adds"), is a word; anything else ("Cadene") is a name.
        word = token.lower()
        if any(word.startswith(verb) for verb in _ACTIONS if len(verb) >= 4):
            return False  # "Correct …", "Harden …": a verb of change opening the sentence
        return word not in vocabulary and word not in _GENERIC and not word.endswith(_WORD_ENDINGS)
    return False


def content_words(sentence: str, shortest: int = 4) -> list[str]:
    """Plain lower-case words of `shortest` letters or more, names and generic verbs aside."""
    words = []
    for token in _TOKEN.findall(_CODE_SPAN.sub(" ", sentence)):
        for plain in re.split(r"[-/]", token.rstrip(".:/-")):  # cross-compilation: two words
            if not plain.isalpha() or not (plain[1:].islower() or len(plain) == 1):
                continue  # a name: checked as one
            word = plain.lower()
            if len(word) >= shortest and word not in _GENERIC:
                words.append(word)
    return words


def word_support(sentence: str, evidence: Evidence) -> float:
    """The share of the sentence's content words the evidence uses (1.0 when it has none)."""
    words = content_words(sentence)
    if not words:
        return 1.0
    return sum(evidence.has_word(w) for w in words) / len(words)


_DEBRIS = re.compile(r'[{}\[\]]|"\s*:|\\[nt"]|^\W|\b(?:null|true|false)\b\s*[,}]')


def is_debris(text: str) -> bool:
    """Punctuation, JSON fragments, or too few letters to be prose."""
    stripped = text.strip()
    if not stripped:
        return True
    visible = re.sub(r"\s", "", stripped)
    letters = sum(c.isalpha() for c in visible)
    if letters < 3 or sum(c.isalnum() for c in visible) < 0.75 * len(visible):
        return True
    return bool(_DEBRIS.search(stripped.strip("`")))


def copies_prompt(text: str, prompt: str, min_words: int = 4) -> bool:
    """Whether `text` repeats the prompt's own words: a placeholder, a marker, an
    instruction (any run of `min_words` words, or all of a shorter text)."""
    words = re.findall(r"[a-z0-9_]+", text.lower())
    if not words:
        return False
    said = " " + " ".join(re.findall(r"[a-z0-9_]+", prompt.lower())) + " "
    if len(words) < min_words:
        return f" {' '.join(words)} " in said and (len(words) > 1 or "_" in words[0])
    runs = [" ".join(words[i : i + min_words]) for i in range(len(words) - min_words + 1)]
    copied = sum(f" {run} " in said for run in runs)
    return copied * 2 > len(runs)


# Words that say a change happened ("deletes", "support for", "now runs"), by stem. A
# summary sentence without one, or without a subject its PRs name, says nothing
# ("These changes are part of PRs").
_ACTIONS = frozenset(
    """add fix remov delet drop support enabl disabl introduc updat refactor mov renam
    deprecat improv optimiz optimis implement replac expos bump upgrad migrat switch allow
    make made extend speed reduc avoid handl skip clean tidy revert reland port wire lower
    fus quantiz export register creat generat convert split merg unif simplif document
    test benchmark gate guard rais preserv cach pin expand restor correct prevent align
    run build format lint rewrit rework integrat adopt accelerat teach let lets gain gets
    becom bring stop requir default increas decreas cut shrink harden standardiz
    consolidat land publish releas ship emit load sav stor infer pars serializ lift
    decompos partition schedul dispatch track log report warn error check validat verify
    bound limit cap pad resiz reshap cast tune retun profil trac instrument mark flag
    annotat now longer runs use""".split()
)


def says_what_changed(sentence: str, evidence: Evidence, leading: Iterable[str] = ()) -> bool:
    """Whether the sentence says what changed: an action (a verb of change, a past
    participle, or a verb its PRs' titles open with, in `leading`) and a subject its
    PRs name (a named thing or a content word beyond the generic ones)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", _CODE_SPAN.sub(" ", sentence))]
    verbs = {_stem(w.lower()) for w in leading}
    action = any(
        _stem(w) in verbs
        or bool(_forms(w) & _ACTIONS)
        or any(w.startswith(a) for a in _ACTIONS if len(a) >= 4)
        or (len(w) >= 5 and w.endswith("ed"))
        for w in words
    )
    subjects = [*named_things(sentence), *content_words(sentence, shortest=3)]
    subject = any(
        evidence.names(s) if not s.isalpha() or not s.islower() else evidence.has_word(s)
        for s in subjects
        if s.lower() not in _GENERIC and _stem(s.lower()) not in verbs
    )
    return action and subject


def _forms(word: str) -> set[str]:
    """The word and what it may be inflected from: "adds" → add, "made" → mad(e)…"""
    forms = {word}
    for ending in ("s", "es", "ed", "d", "ing"):
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            forms.add(word[: -len(ending)])
    return forms


_MARK_PAIRS = {")": "(", "]": "["}


def balance_markup(text: str) -> str:
    """The text with every unpaired backtick, `**`, bracket and parenthesis taken out,
    so that no heading or bullet is published with markup left open."""
    if text.count("`") % 2:  # the last backtick is the one left open
        cut = text.rfind("`")
        text = text[:cut] + text[cut + 1 :]
    if text.count("**") % 2:
        text = text.replace("**", "")
    spans = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)]
    open_at: list[int] = []
    unpaired: set[int] = set()
    for index, char in enumerate(text):
        if any(start <= index < end for start, end in spans):
            continue  # inside code, brackets are code
        if char in "([":
            open_at.append(index)
        elif char in ")]":
            if open_at and text[open_at[-1]] == _MARK_PAIRS[char]:
                open_at.pop()
            else:
                unpaired.add(index)
    unpaired.update(open_at)
    out = "".join(c for i, c in enumerate(text) if i not in unpaired)
    return re.sub(r"\s{2,}", " ", out).strip()


def is_balanced(text: str) -> bool:
    return balance_markup(text) == re.sub(r"\s{2,}", " ", text).strip()


_JOINERS = frozenset("a an the of for in on to and with via from by".split())
NAME_WORDS = 3  # meaningful words in a name taken from a sentence


def name_from(sentence: str, evidence: Evidence, vocabulary: set[str] | frozenset[str]) -> str:
    """A theme name in the sentence's own words: its first run of words and names the
    evidence uses ("Added complex type support to div operator." gives "Complex type
    support"), code-like names in backticks; "" when it has none."""
    tokens = re.findall(r"`[^`]+`|[A-Za-z0-9][A-Za-z0-9_.:/+-]*[A-Za-z0-9+]|[A-Za-z0-9]", sentence)
    run: list[str] = []
    meaningful = 0
    for token in tokens:
        bare = token.strip("`")
        lower = bare.lower()
        if not run and (lower in _GENERIC or lower in _JOINERS):
            continue  # "Added", "The": not the start of a name
        if run and lower in _JOINERS:
            run.append(lower)
            continue
        if not evidence.names(bare) and not (bare.isalpha() and evidence.has_word(lower)):
            if meaningful:
                break
            run = []
            continue
        code = bool(_CODE_SHAPE.search(bare)) and not bare.isupper()
        run.append(f"`{bare}`" if code else bare)
        meaningful += 1
        if meaningful == NAME_WORDS:
            break
    while run and run[-1] in _JOINERS:
        run.pop()
    if not run:
        return ""
    first = run[0]
    return " ".join([first[0].upper() + first[1:] if first[0].islower() else first, *run[1:]])


_CODE_SHAPE = re.compile(r"[_./]|[a-z][A-Z]|\d")


# Words a finished clause does not end with: a sentence ending "… introduction of ." was
# cut where the answer's length cap (the schema's) stopped the model.
_DANGLING = frozenset(
    "a an the of and or with via from by as like including into than its their in on to for at"
    " that which".split()
)


# A determiner and a word that wants its noun: "replaced X with the more".
_DANGLING_PHRASE = re.compile(r"(?i)\b(?:the|a|an)\s+(?:more|most|less|least|new|other)\W*$")


def complete_clause(sentence: str) -> str:
    """The sentence, or, when it ends mid-clause ("…, as well as introduction of ."),
    its part up to the last comma, closed with a stop; "" when no whole part is left."""
    body = sentence.rstrip().rstrip(".!").rstrip()
    if body.endswith((",", ";", ":")):  # "…, unified LLaMa model,." stopped after a comma
        return body.rstrip(",;: ") + "."
    last = re.search(r"([A-Za-z]+)\W*$", body)
    unfinished = _DANGLING_PHRASE.search(body) is not None  # "… with the more"
    if not unfinished and (last is None or last.group(1).lower() not in _DANGLING):
        return sentence
    cut = body.rfind(",")
    return body[:cut].rstrip() + "." if cut > 0 else ""


def whole_words(name: str, limit: int) -> str:
    """A name `limit` characters long (where the answer's pattern stops it, often
    mid-word: "… INT4 weight-only quantizati") without its last, cut word and any
    joining word left before it; shorter names as they are."""
    if len(name) < limit or " " not in name:
        return name
    words = name[: name.rfind(" ")].split()
    while words and words[-1].lower() in _DANGLING | _JOINERS:
        words.pop()
    return balance_markup(" ".join(words).rstrip(",;:-"))


# Where a small model pads a sentence the PRs support with one they do not: a trailing
# clause after a comma or a word of purpose or result ("…, ensuring compatibility and
# stability", "… for better performance", "…, which is useful for contributors").
_TRAILING_CLAUSE = re.compile(
    r",\s+|\s+(?=(?:which|ensuring|making|allowing|enabling|improving|enhancing|providing|"
    r"streamlining|simplifying|resulting|leading|thereby|so that|in order to|as well as|while|"
    r"to (?:ensure|improve|enhance|make|allow|provide|enable|better|streamline|simplify|"
    r"facilitate|support)|for (?:better|improved|enhanced|easier|greater|faster|more|"
    r"consistent|seamless|efficient|users|developers|contributors))\b)",
    re.IGNORECASE,
)
MIN_CLAUSE_WORDS = 2  # "Split `et_metal_ops.mm`." says what changed; one word cannot


def shorter_readings(sentence: str) -> list[str]:
    """The sentence cut before each trailing clause, longest first, each closed with a
    stop: what is left when its padding goes. Cuts fall outside code spans and brackets;
    a part that ends mid-clause ("… support for.") or has fewer than
    `MIN_CLAUSE_WORDS` words is no reading. Each must pass verification on its own."""
    code = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(sentence)]
    out: list[str] = []
    for match in _TRAILING_CLAUSE.finditer(sentence):
        at = match.start()
        head = sentence[:at]
        if any(start < at < end for start, end in code) or head.count("(") != head.count(")"):
            continue
        part = head.rstrip(" ,;:-") + "."
        if len(part.split()) < MIN_CLAUSE_WORDS or complete_clause(part) != part:
            continue
        out.append(part)
    return sorted(dict.fromkeys(out), key=len, reverse=True)


def within_words(sentence: str, limit: int) -> str:
    """The sentence's leading clauses (cut at a comma or semicolon outside code and
    brackets) that fit in `limit` words, closed with a stop; the first clause whole when
    it alone is longer. A model asked for "at most thirty words" writes a list of sixty
    that its answer's length cap stops mid-word ("…, addedw.")."""
    if len(sentence.split()) <= limit:
        return sentence
    code = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(sentence)]
    kept = ""
    for match in re.finditer(r"[,;]\s+", sentence):
        at = match.start()
        head = sentence[:at]
        if any(start < at < end for start, end in code) or head.count("(") != head.count(")"):
            continue
        if len(head.split()) > limit:
            break
        kept = head
    part = (kept or sentence).rstrip(" ,;:-.") + "."
    return complete_clause(part) or part


_CONNECTIVE = re.compile(
    r"^(?:additionally|also|furthermore|moreover|in addition|besides|finally|then)\s*,\s*",
    re.IGNORECASE,
)


def without_connective(sentence: str) -> str:
    """The sentence without an opening "Additionally," that leans on a sentence before it
    (one verification dropped: "Additionally, outdated content … is removed")."""
    rest = _CONNECTIVE.sub("", sentence, count=1)
    return rest[:1].upper() + rest[1:] if rest != sentence else sentence


MIN_RESPELL = 4  # shorter names differ by a letter on purpose: "FP8" is not "FP4"
_CODE_SHAPED = re.compile(r"\d|_|[A-Z].*[A-Z]")  # mxfp8, fp8_linear, MXFPR8, DTensor


def spelled_as_written(name: str, texts: Iterable[str]) -> str:
    """How the texts write `name` when the model misspelt it by one letter ("MXFPR8" for
    `mxfp8`): the one token of theirs a letter added, dropped or changed away, with the
    same digits (int4 is never respelled int8); "" when none or several are."""
    wanted = name.lower()
    if len(wanted) < MIN_RESPELL or not _CODE_SHAPED.search(name):
        return ""  # "Updated" is a word, not a misspelt `update`
    digits = re.sub(r"\D", "", wanted)
    found = {
        token.lower(): token
        for text in texts
        for token in _TOKEN.findall(text)
        if re.sub(r"\D", "", token) == digits and _one_edit(wanted, token.lower())
    }
    return found.popitem()[1] if len(found) == 1 else ""


def _one_edit(a: str, b: str) -> bool:
    """Whether `b` is `a` with one letter added, dropped or changed (not `a` itself)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    skip = 1 if len(a) == len(b) else 0  # changed: skip it in both; added: only in b
    letters = b[start] + (a[start] if skip else "")
    return letters.isalpha() and a[start + skip :] == b[start + 1 :]  # "2D-2D" is `2d_2d`


def rejoined(text: str, spelling: Spelling) -> str:
    """`text` with a name the model split in two written whole, as the texts `spelling`
    learned from write it ("IntxUn packedToInt8Tensor" → IntxUnpackedToInt8Tensor: a name
    they write, neither half of which they write alone), outside code spans."""

    def whole(part: str) -> str:
        out: list[str] = []
        for word in part.split(" "):
            core = word.rstrip(".,;:!?)")
            if out and (joined := _joined(out[-1], core, spelling)):
                out[-1] = joined + word[len(core) :]
            else:
                out.append(word)
        return " ".join(out)

    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") else whole(part) for part in parts)


def _joined(first: str, second: str, spelling: Spelling) -> str:
    """The name `first` and `second` make together, when they are halves of one
    ("IntxUn" "packedToInt8Tensor"); "" for two words ("a tensor")."""
    if not (_WORD_TOKEN.fullmatch(first) and _WORD_TOKEN.fullmatch(second)):
        return ""
    if not any(re.search(r"\d|[a-z][A-Z]", half) for half in (first, second)):
        return ""  # neither half is name-shaped: two words the texts happen to run together
    joined = spelling.forms((first + second).lower())
    if not joined or spelling.forms(first.lower()) or spelling.forms(second.lower()):
        return ""
    return max(joined, key=lambda form: joined[form])


_WORD_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*")


# "… in several areas including X, Y, Z": the digest names the week's areas itself
_AREA_LIST = re.compile(
    r",?\s+(?:in|across)\s+(?:several|various|many|multiple|different|a number of)\s+"
    r"(?:areas|components|parts)\b.*$",
    re.IGNORECASE,
)
# Words that say a week happened, not what changed in it
_VAGUE = frozenset(
    """project projects repository week weeks significant notable several various new
    feature features improvement improvements change changes fix fixes update updates
    enhancement enhancements progress work made seen overall number areas area components
    multiple different including such""".split()
)


def without_area_list(sentence: str) -> str:
    """The sentence without a closing list of areas: "The project added X in several
    areas including A, B, C." → "The project added X."."""
    cut = _AREA_LIST.sub("", sentence.rstrip(".")).rstrip(" ,;:")
    return cut + "." if cut and cut != sentence.rstrip(".") else sentence


def is_vague(sentence: str, vocabulary: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether the sentence names nothing that changed: no name, and no word beyond
    those of a week that happened ("The project added several new features and
    improvements.")."""
    if named_things(sentence, vocabulary):
        return False
    return all(w in _VAGUE for w in content_words(sentence, shortest=3))
