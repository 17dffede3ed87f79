"""What verification checked, dropped and repaired, by reason: for the closing line,
the command's summary and `--format json`."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import TypedDict

# Why a claim was dropped
NOT_IN_WINDOW = "cites a PR not in the window"
NO_CITATION = "cites no PR"
FIGURE = "figure not in the cited PRs"
NAME = "name not in the cited PRs"
WORDS = "words not in the cited PRs"
NOT_A_NAME = "not a name"
MARKUP = "links or markup"
DEBRIS = "punctuation or JSON debris"
PROMPT = "copied from the prompt"
DUPLICATE = "said twice"
PR_NUMBERS = "PR numbers in prose"
VACUOUS = "vacuous"  # says no change: no action, or no subject its PRs name
UNBALANCED = "unbalanced markup"
CUT_OFF = "cut off mid-clause"  # nothing whole before where the answer stopped
# Why a claim was repaired
OTHER_AREA = "citation of another area"
UNTOLD = "citation of a PR the theme does not tell"  # told in the section's "Also" line
FIGURE_CITED = "citation added for a figure"
NAME_CITED = "citation added for a name"
THEME_NAME = "theme name taken from its sentence"
BALANCED = "unbalanced markup closed"
TRIMMED = "clause cut off taken out"
PADDING = "padding clause taken out"  # the rest of the sentence passed on its own
LONG = "clauses past the words asked taken out"
RESPELLED = "name respelled as its PRs write it"  # one letter off: "MXFPR8" for mxfp8


class ClaimFacts(TypedDict):
    """What verification did, as `--format json` tells it (`llm.claims`)."""

    checked: int
    citations: int
    figures: int
    names: int
    dropped: dict[str, int]  # claims dropped, by reason
    repaired: dict[str, int]


@dataclass
class Tally:
    citations: int = 0
    figures: int = 0
    names: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    repaired: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def checked(self) -> int:
        return self.citations + self.figures + self.names

    @property
    def dropped_count(self) -> int:
        return sum(self.dropped.values())

    @property
    def repaired_count(self) -> int:
        return sum(self.repaired.values())

    def drop(self, reason: str, problem: str, count: int = 1) -> None:
        with self._lock:
            self.dropped[reason] += count
            self.problems.append(problem)

    def repair(self, reason: str, problem: str) -> None:
        with self._lock:
            self.repaired[reason] += 1
            self.problems.append(problem)

    def summary(self) -> str:
        """e.g. "41 claims checked against the PRs of the window (37 citations, 4 figures,
        9 names), 2 dropped (1 name not in the cited PRs, 1 …), 1 repaired (…)"."""
        text = (
            f"{self.checked} claims checked against the PRs of the window ({self.citations} "
            f"citations, {self.figures} figures, {self.names} names), "
            f"{self.dropped_count} dropped{_reasons(self.dropped)}"
        )
        if self.repaired:
            text += f", {self.repaired_count} repaired{_reasons(self.repaired)}"
        return text

    def counts(self) -> str:
        """The digest's closing words: "41 claims checked against the PRs of the window,
        2 dropped, 1 repaired". A reader wants to know it was checked; why each claim
        was dropped is for the maintainer (the run's notes and `--format json`)."""
        text = f"{self.checked} claims checked against the PRs of the window, {self.dropped_count} dropped"
        return text + (f", {self.repaired_count} repaired" if self.repaired else "")

    def facts(self) -> ClaimFacts:
        return {
            "checked": self.checked,
            "citations": self.citations,
            "figures": self.figures,
            "names": self.names,
            "dropped": dict(sorted(self.dropped.items())),
            "repaired": dict(sorted(self.repaired.items())),
        }


def _reasons(counts: Counter[str]) -> str:
    if not counts:
        return ""
    return " (" + ", ".join(f"{n} {reason}" for reason, n in counts.most_common()) + ")"
