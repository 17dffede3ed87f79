"""The wrapper a revert or a reland puts around the title it undoes or lands again.

One grammar for every reader: `Revert "X"`, `Back out "X"`, `Revert D123: X`, `[Arm]
Revert "X"`; `Reland X`, `[Reland] X`, `Reland2: X`, `Reland v2: X`, `Reapply "X"`,
`[retake] X`. A prose opening (`Reverts the addition of …`, `Reverting …`, `Unland X`)
is no wrapper: it usually takes back part of a change, which stays a change of its own
(#17407 takes one pass out of #17300). `Revert to the old pin` is no wrapper either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .patterns import TRAILING_PR_REF

_WRAPPER = re.compile(
    r"""(?ix)^\s*
    (?P<tags>(?:\[[^\]]*\]\s*)*)  # `[Arm] Revert …`
    (?P<bracket>\[)?  # `[Reland] X`
    (?:(?P<revert>revert(?:ed)?|back(?:ed)?[ -]?out)
      |(?P<reland>re-?land(?:ed)?|re-?apply|re-?commit|retake|redo))
    \d*\b\]?
    (?!\s+(?:to|back)\b)  # `Revert to the old pin`, `Revert back to …`: a change
    \s*[:-]?\s*(?:v\d+\b\s*:?\s*)?  # `Reland v2: X`
    (?P<rest>.*)$"""
)
# Every wrapper has one of these words: most titles are done after this check.
_WORD = re.compile(r"(?i)revert|back|re-?land|re-?apply|re-?commit|retake|redo")
# A reland marker elsewhere: `[Arm] [reland] X`, or a title ending in `reland(ed)`.
_RELAND_MARK = re.compile(r"(?i)\[\s*re-?land\d*\s*\]|\bre-?land(?:ed)?\s*$")
# `"X" v2`, `"X (#12)" (#13)`: the quoted title and what may follow its closing quote.
_QUOTED_WHOLE = re.compile(r'^"(.*)"(?:\s*(?:v?\d+|\(#\d+\)))*\s*$', re.S)
_QUOTED_START = re.compile(r'^"(.*)"\s*$|^"(.*)$')
# `#9841: X`, `#11294 and #11295 X`: the PRs a reland names before its subject.
_NUMBER_LIST = re.compile(r"^#\d+(?:\s*(?:,|and)\s*#\d+)*\s*:?\s+(?=\S)")


@dataclass(frozen=True, slots=True)
class Wrapper:
    """The outermost wrapper of a title: what it does and what it wraps."""

    kind: str  # revert | reland
    rest: str  # what follows the wrapper (and its `:`, `v2`)
    tagged: bool = False  # after leading `[tags]`: `[CPU] Reland X`
    bracketed: bool = False  # `[Reland] X`

    @property
    def plain(self) -> bool:
        """At the very start, not in brackets: `Revert "X"`, `Reland X`."""
        return not self.tagged and not self.bracketed


@lru_cache(maxsize=32768)
def read_wrapper(title: str) -> Wrapper | None:
    """The revert or reland wrapper `title` opens with, or None."""
    match = _WRAPPER.match(title) if _WORD.search(title) else None
    if match is None:
        return None
    return Wrapper(
        "reland" if match.group("reland") else "revert",
        match.group("rest"),
        tagged=bool(match.group("tags")),
        bracketed=match.group("bracket") is not None,
    )


def revert_rest(title: str) -> str | None:
    """What follows the `Revert`/`Back out` wrapper, or None when `title` is no revert."""
    wrapper = read_wrapper(title)
    if wrapper is None or wrapper.kind != "revert" or wrapper.bracketed:
        return None
    return wrapper.rest


def reland_rest(title: str) -> str | None:
    """What follows the `Reland`/`Reapply`/`[retake]` wrapper (None: no reland; a revert
    of a revert is reported by `revert_rest` and paired as a revert)."""
    wrapper = read_wrapper(title)
    if wrapper is not None and wrapper.kind == "revert" and not wrapper.bracketed:
        return None
    if wrapper is not None and wrapper.kind == "reland":
        return wrapper.rest
    if _RELAND_MARK.search(title):
        return _RELAND_MARK.sub(" ", title).strip()
    return None


def is_revert(title: str) -> bool:
    return revert_rest(title) is not None


def is_reland(title: str) -> bool:
    return reland_rest(title) is not None


def undoes_a_revert(title: str) -> bool:
    """`Revert "Revert "X""`: a revert by form, a reland by effect."""
    rest = revert_rest(title)
    return rest is not None and revert_rest(unquote(rest)) is not None


def unquote(text: str) -> str:
    """`"X (#12)" (#13)` → `X`: the title inside one wrapper's quotes (a quote cut short
    by truncation is taken as it is)."""
    text = TRAILING_PR_REF.sub("", text.strip())
    match = _QUOTED_START.match(text)
    if match:
        text = match.group(1) if match.group(1) is not None else match.group(2)
    return TRAILING_PR_REF.sub("", text.strip())


def quoted_or_rest(rest: str) -> str:
    """`"X" v2` → `X`; text not wholly quoted stays as it is (stripped)."""
    match = _QUOTED_WHOLE.match(rest)
    return (match.group(1) if match else rest).strip()


def unwrap(title: str) -> tuple[str, str | None, bool]:
    """Strip the plain wrappers a title opens with, possibly nested (`Revert "Reland …"`):
    the text inside, what the outer revert wraps (None: no revert), and whether a reland
    wrapper was met. Wrappers after tags or in brackets stay (they read as tags)."""
    revert_of: str | None = None
    reland = False
    text = title
    for _ in range(4):
        wrapper = read_wrapper(text)
        if wrapper is None or not wrapper.plain or (wrapper.kind == "revert" and revert_of):
            break
        inner = quoted_or_rest(wrapper.rest)
        if not inner:
            break
        if wrapper.kind == "revert":
            revert_of = inner
        else:
            reland = True
        text = inner
    if text.startswith('"') and text.endswith('"') and len(text) > 1:
        text = text[1:-1]
    return text, revert_of, reland


def reland_subject(text: str) -> str | None:
    """For a text opening with a plain reland wrapper, what it lands again, without the
    numbers it names (`Reapply #9841: X` → `X`); None when there is no such wrapper or
    nothing after it, space-separated, to describe (`Reland:X`)."""
    wrapper = read_wrapper(text)
    if wrapper is None or wrapper.kind != "reland" or not wrapper.plain:
        return None
    numbers = _NUMBER_LIST.match(wrapper.rest)
    if numbers:
        return wrapper.rest[numbers.end() :]
    spaced = text[: len(text) - len(wrapper.rest)][-1:].isspace()
    return wrapper.rest if spaced and wrapper.rest.strip() else None
