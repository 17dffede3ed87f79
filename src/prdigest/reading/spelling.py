"""How the repository writes a word or a name (`sdpa` → SDPA, `qwen3_5` → Qwen3.5), learned
from its PR titles.

`TitleWords` reads titles once (oldest first) and remembers every way each word, compound
(`GPT-OSS`, `Qwen3.5`) and pair of words (`KV cache`) was written, and when. A `Spelling`
asks it what the titles wrote before a moment (the window's end), matching on letters and
digits only: a directory `gpt_oss` finds the titles' `GPT-OSS`. Where the titles say
nothing, a hand-kept list of acronyms stands in.

Positional capitals teach nothing: a title's first word (after its `[tags]` and a
`prefix:`) is capitalised by position, not by the repository; code (`foo_bar`, paths,
`a.b`, backticks) is verbatim, not a spelling.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

# The fallback where the titles say nothing: words written in capitals, and a few others.
HAND_KEPT_ACRONYMS = frozenset(
    (
        "ao aot aoti api apis awq ci cli cpp cpu cuda db dsp exir fp4 fp8 gguf glsl gptq gpu "
        "hf hifi hip hqq htp http io ir jit jni js llm mlx mps mx mxfp8 nn npu nvfp4 nxp onnx "
        "pt2e qat qnn rocm sam2 sdk spirv sql tosa tpu ts ui vgf vm xnnpack xpu cmake"
    ).split()
)
HAND_KEPT = {word: word.upper() for word in HAND_KEPT_ACRONYMS} | {
    "moe": "MoE",
    "ios": "iOS",
    "macos": "macOS",
    "cmake": "CMake",
    "pytorch": "PyTorch",
    "executorch": "ExecuTorch",
    "torchao": "torchao",
}

_TRAILING_REF = re.compile(r"\s*\(#\d+\)\s*$")
_CODE_SPAN = re.compile(r"`[^`]*`")
_TAGS = re.compile(r"^\s*((?:\[[^\]]*\]\s*)+)")
_EDGE = "[](){}\"'“”‘’:,;!?*"
_CODE_LIKE = re.compile(r"[/_=<>@#()\\{}\[\]$%&+|~^]|::|[A-Za-z]\.[A-Za-z]")
_PLAIN = re.compile(r"[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*")
# `GPT-OSS`, `Qwen3.5`, `Cortex-M`: one name with inner separators (a dot only beside a digit)
_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:(?:-|(?<=\d)\.|\.(?=\d))[A-Za-z0-9]+)+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_SQUASH = re.compile(r"[^a-z0-9]")
_RUN = 4  # the most words one name (`write-heap-buffer-overflow`) is matched across


def squash(text: str) -> str:
    """The letters and digits of a name, lower-cased: how names are matched."""
    return _SQUASH.sub("", text.lower())


def title_forms(title: str) -> list[tuple[str, str]]:
    """(key, written form) for each word, compound and pair of words of a title that the
    repository chose to write so (`KV`, `GPT-OSS`, `KV cache`, `4 bit`). Pairs of plain
    lower-case words are left out: they name nothing, and would be most of the index."""
    text = _TRAILING_REF.sub("", title) if title.endswith(")") else title
    if "`" in text:
        text = _CODE_SPAN.sub(" ", text)
    out: list[tuple[str, str]] = []
    if text.lstrip().startswith("["):
        tags = _TAGS.match(text)
        if tags:
            for tag in re.findall(r"\[([^\]]*)\]", tags.group(1)):
                out.extend(_chunk_forms(tag.strip()))
            text = text[tags.end() :]
    words = text.split()
    # a short prefix (`Arm backend: Add X`): the word after it is capitalised by position too
    prefix = next((i for i, raw in enumerate(words[:4]) if raw.endswith(":")), -1)
    previous = ""
    for index, raw in enumerate(words):
        positional = index == 0 or index == prefix + 1
        if raw.isalnum() and raw.isascii():
            if raw.isdigit():
                previous = "" if positional else raw
                continue
            if not positional:
                out.append((raw.lower(), raw))
                if previous and not (raw.islower() and raw.isalpha() and previous.islower()):
                    out.append(((previous + raw).lower(), f"{previous} {raw}"))
            previous = "" if positional else raw
            continue
        chunk = raw.strip(_EDGE).rstrip(".")
        if positional or not chunk or _CODE_LIKE.search(chunk):
            previous = ""
            continue
        out.extend(_chunk_forms(chunk))
        if previous and raw.startswith(chunk) and chunk.isalnum() and chunk.isascii():
            if not (chunk.islower() and chunk.isalpha() and previous.islower()):
                out.append(((previous + chunk).lower(), f"{previous} {chunk}"))  # `KV cache,`
        previous = ""
    return out


def _chunk_forms(chunk: str) -> list[tuple[str, str]]:
    if _COMPOUND.fullmatch(chunk):
        return [(squash(chunk), chunk)] + [
            (word.lower(), word) for word in _WORD.findall(chunk) if len(word) >= 2
        ]
    if _PLAIN.fullmatch(chunk):
        return [(chunk.lower(), chunk)]
    return []


class TitleWords:
    """Every written form of every key, with the titles that wrote it: read once per
    repository and run, asked once per window."""

    def __init__(self, titles: Iterable[tuple[str, str]]) -> None:
        """`titles`: (ISO moment, title) pairs, in any order."""
        ordered = sorted(titles, key=lambda pair: pair[0])
        self._moments = [moment for moment, _ in ordered]
        seen: dict[tuple[str, str], list[int]] = {}  # flat: twice as fast as nested dicts
        for index, (_, title) in enumerate(ordered):
            for pair in title_forms(title):
                found = seen.get(pair)
                if found is None:
                    seen[pair] = [index]
                else:
                    found.append(index)
        self._forms: dict[str, dict[str, list[int]]] = {}
        for (key, form), indexes in seen.items():
            self._forms.setdefault(key, {})[form] = indexes

    def spelling(self, before: str | None = None) -> Spelling:
        """The spelling of the titles written before `before` (an ISO moment; all if None)."""
        limit = self._limit(before)
        return Spelling(forms=lambda key: self._counted(key, limit))

    def _limit(self, before: str | None) -> int:
        return len(self._moments) if before is None else bisect_left(self._moments, before)

    def _counted(self, key: str, limit: int) -> dict[str, int]:
        found = self._forms.get(key)
        if not found:
            return {}
        counted = {form: bisect_left(indexes, limit) for form, indexes in found.items()}
        return {form: n for form, n in counted.items() if n}


def _is_special(form: str) -> bool:
    """Written otherwise than lower-case or capitalised: `SDPA`, `CoreML`, `iOS`, `KV cache`."""
    return any(
        (len(word) >= 2 and word.isupper() and any(c.isalpha() for c in word))
        or any(c.isupper() for c in word[1:])
        for word in re.split(r"[\s.-]+", form)
    )


def _most(forms: Mapping[str, int]) -> str:
    return min(forms, key=lambda form: (-forms[form], form))


def _nothing(key: str) -> Mapping[str, int]:
    return {}


class Spelling:
    """A word's or name's spelling in the repository: `spell("tosa")` → TOSA, `name(
    "qwen3_5")` → Qwen3.5 (when its titles write so), `respell("Sdpa refactor")` → SDPA
    refactor. A word the titles and the fallback do not know keeps the casing it came with."""

    def __init__(
        self,
        known: Mapping[str, str] | None = None,
        forms: Callable[[str], Mapping[str, int]] | None = None,
    ) -> None:
        """`known`: lower-case word → spelling, the fallback (default: the hand-kept
        acronyms and special cases); `forms`: key → {written form: times}, what the titles
        say (e.g. `TitleWords.forms` bound to a window's end)."""
        self._known = {w.lower(): s for w, s in (HAND_KEPT if known is None else known).items()}
        self._forms = forms or _nothing
        self._cache: dict[str, Mapping[str, int]] = {}

    @classmethod
    def learned(cls, titles: Iterable[str]) -> Spelling:
        """The spelling of these titles alone (no history: a window and its neighbour)."""
        return TitleWords(("", title) for title in titles).spelling()

    def forms(self, key: str) -> Mapping[str, int]:
        if key not in self._cache:
            self._cache[key] = self._forms(key)
        return self._cache[key]

    def spell(self, word: str) -> str:
        """`word` (a word, or the words of a directory: `kv cache`) where it is written with
        capitals, as the titles write it: the longest runs of its words the titles know
        (`qwen3 5 moe` → Qwen3.5 MoE), each in the shape they use most (`KV cache` over
        `KV-cache`) and its most common capitalised form; else the fallback; else as it came."""
        if word != word.lower() and word != word[:1].upper() + word[1:].lower():
            return word  # capitals of its own: already a spelling
        tokens = word.split()
        out: list[str] = []
        i = 0
        while i < len(tokens):
            for j in range(min(len(tokens), i + _RUN), i, -1):
                spelled = self._spelled_run(tokens[i:j])
                if spelled:
                    out.append(spelled)
                    i = j
                    break
            else:
                out.append(self._known.get(tokens[i].lower(), tokens[i]))
                i += 1
        return " ".join(out) if out else word

    def _spelled_run(self, tokens: list[str]) -> str:
        """How the titles write these words together ('' when they never do, or only as
        they are). A single word matches no spaced pair: `setup` is not `set up`."""
        run = " ".join(tokens)
        spaced = len(tokens) > 1
        forms = {f: n for f, n in self.forms(squash(run)).items() if spaced or " " not in f}
        if not forms:
            return ""
        shapes: dict[str, int] = defaultdict(int)
        for form, n in forms.items():
            shapes[form.lower()] += n
        shape = _most(shapes)
        capitals = {f: n for f, n in forms.items() if f.lower() == shape and f != shape}
        if capitals:
            return _most(capitals)
        if shape != run.lower():
            return shape  # `gpt-oss` for `gpt oss`: the titles' separators
        return "" if spaced or run.lower() in self._known else run

    def name(self, part: str) -> str:
        """A directory or file name as an area name: `qwen3_vl` → Qwen3-VL, `mx_formats` →
        MX Formats, `flat_tensor` → Flat Tensor (plain words capitalised, as area names are)."""
        return _titled(self.spell(_words(part).lower()))

    def phrase(self, part: str) -> str:
        """A directory or file name in running text: `coreml` → CoreML, `qwen3_5` → Qwen3.5,
        `runtime` → runtime (a plain word stays lower-case; the sentence capitalises it)."""
        spelled = self.spell(_words(part).lower())
        return " ".join(
            w.lower() if w.isalpha() and w == w[:1].upper() + w[1:].lower() else w
            for w in spelled.split(" ")
        )

    def respell(self, text: str) -> str:
        """A name made of title words, each as the repository writes it: a word capitalised
        by position (`Sdpa`) or typed lower-case (`kv`) takes the titles' own capitals when
        they use them at least as often; two words the titles join (`4 bit`) are joined.
        Code spans and words with capitals of their own are left alone."""
        parts = re.split(r"(`[^`]*`)", text)
        return "".join(p if p.startswith("`") else self._respell_words(p) for p in parts)

    def _respell_words(self, text: str) -> str:
        tokens = text.split(" ")
        out: list[str] = []
        i = 0
        while i < len(tokens):
            for j in range(min(len(tokens), i + _RUN), i + 1, -1):
                joined = self._joined(tokens[i:j])
                if joined:
                    out.append(joined)
                    i = j
                    break
            else:
                out.append(self._respelled(tokens[i]))
                i += 1
        return " ".join(out)

    def _respelled(self, token: str) -> str:
        core = token.strip(_EDGE + ".")
        if len(core) < 2 or not _WORD.fullmatch(core):
            return token
        lower = core == core.lower()
        if not lower and core != core[:1].upper() + core[1:].lower():
            return token  # the name's own capitals (`FP16`, `ExecuTorch`) stay
        forms = self.forms(core.lower())
        special = {f: n for f, n in forms.items() if f.lower() == core.lower() and _is_special(f)}
        if sum(special.values()) >= 2 and sum(special.values()) >= forms.get(core, 0):
            return token.replace(core, _most(special), 1)
        known = self._known.get(core.lower())
        if not forms and not lower and known:
            return token.replace(core, known, 1)
        return token

    def _joined(self, tokens: list[str]) -> str:
        """`4 bit` → 4-bit, `Cortex M` → Cortex-M: words the titles join more often than
        they space them (punctuation after the last word stays)."""
        last = tokens[-1].rstrip(_EDGE + ".")
        words = [*tokens[:-1], last]
        if not all(w.isalnum() and w.isascii() for w in words):
            return ""
        forms = self.forms(squash("".join(words)))
        joined = {f: n for f, n in forms.items() if _COMPOUND.fullmatch(f)}
        together = sum(joined.values())
        if together < 2 or together <= sum(n for f, n in forms.items() if " " in f):
            return ""
        best = _most(joined)
        if words[0][:1].isupper() and best[:1].islower():
            best = best[:1].upper() + best[1:]
        return best + tokens[-1][len(last) :]


def _words(part: str) -> str:
    """`qwen3_vl` → `qwen3 vl`: a directory's words, its separators spaces."""
    return " ".join(re.split(r"[_\-\s]+", part.strip("_- "))) or part


def _titled(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] if w == w.lower() else w for w in text.split(" "))
