"""How the repository writes a word (`qnn` → `QNN`), for theme names made of paths.

Theme names from directories (`backends/qualcomm/htp` → "Qualcomm HTP") need the
casing the repository uses. Until that casing is learned from the titles of the window
and its history, a hand-kept list of acronyms (tuned to executorch) stands in:
`Spelling()` is that fallback, and the context builder hands it to the naming code.
"""

from __future__ import annotations

from collections.abc import Mapping

# Lower-case words written in capitals; the fallback when no spelling is learned.
HAND_KEPT_ACRONYMS = frozenset(
    "aot api ci cpu gpu npu llm ir io jni aoti qnn htp glsl spirv cmake hifi mps vgf tosa".split()
)


class Spelling:
    """A word's spelling in the repository: `spell("tosa")` → `TOSA`; a word it does not
    know keeps the casing it came with."""

    def __init__(self, known: Mapping[str, str] | None = None) -> None:
        """`known`: lower-case word → how the repository writes it (default: the
        hand-kept acronyms, in capitals)."""
        if known is None:
            known = {word: word.upper() for word in HAND_KEPT_ACRONYMS}
        self._known = {word.lower(): spelled for word, spelled in known.items()}

    def spell(self, word: str) -> str:
        return self._known.get(word.lower(), word)
