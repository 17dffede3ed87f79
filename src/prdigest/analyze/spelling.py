"""The repository's spelling (`reading/spelling.py`), where the analysis reaches for it."""

from ..reading.spelling import HAND_KEPT, HAND_KEPT_ACRONYMS, Spelling, TitleWords, squash

__all__ = ["HAND_KEPT", "HAND_KEPT_ACRONYMS", "Spelling", "TitleWords", "squash"]
