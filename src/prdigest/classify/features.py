"""What a trained model sees of a PR: cleaned title text plus symbolic tokens.

Three blocks, each TF-IDF weighted (see model.py):
- words: the title without `(#N)` and Phabricator ids, word 1–2-grams;
- characters: 2–5-grams inside words (robust to `quantized`/`quant`, `CUDA`/`cudnn`);
- tokens: structure a bag of words misses — bracket tags (`[JIT]`, `[Static Runtime]`),
  `torch.xxx` module paths at every depth, identifier pieces (`GetLivenessMap` →
  get, liveness, map), revert / no-PR / cherry-pick markers, changed-path directories,
  the author, the profile's rules (the area and kind they decide and every area whose
  title tags the title carries) and, with a code index, the directories that define the
  code the title names (code_index.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import FileChange, PullRequest
from ..reading import parse_title
from ..reading.patterns import BRACKET_TAG, PHAB_ID, PR_REF
from ..reading.wrappers import read_wrapper
from .base import Profile
from .code_index import CodeIndex
from .rules import Decision

_MODULE = re.compile(r"\btorch(?:\.[A-Za-z_]\w*)+")
_IDENTIFIER = re.compile(r"[A-Za-z0-9_]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_NON_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Sample:
    """The parts of a PR a model may use (a worksheet row has only some of them)."""

    title: str
    files: tuple[str, ...] = ()
    author: str = ""
    labels: tuple[str, ...] = ()

    @classmethod
    def from_pr(cls, pr: PullRequest) -> Sample:
        return cls(pr.title, tuple(change.path for change in pr.files), pr.author, pr.labels)

    def as_pr(self) -> PullRequest:
        files = tuple(FileChange(path) for path in self.files)
        return PullRequest(
            repo="",
            number=None,
            title=self.title,
            files=files,
            labels=self.labels,
            author_login=self.author or None,
        )


def title_text(title: str) -> str:
    """The title as words: `(#N)` and `D12345678` ids removed (they name, not describe)."""
    return PHAB_ID.sub(" ", PR_REF.sub(" ", title)).strip()


def _slug(text: str) -> str:
    return _NON_WORD.sub("_", text.lower()).strip("_")


def title_tokens(title: str) -> list[str]:
    tokens: list[str] = []
    numbers = len(PR_REF.findall(title))
    if numbers == 0:
        tokens.append("__no_pr")  # landed from Phabricator / a direct push
    elif numbers > 1:
        tokens.append("__cherry_pick")  # `… (#66817) (#67803)`: a branch merged back
    text = title_text(title)
    wrapper = read_wrapper(text)
    if wrapper is not None and wrapper.plain:  # `Revert "X"`, `Reapply X`
        tokens.append("__revert")
    tokens.extend("__tag_" + _slug(tag) for tag in BRACKET_TAG.findall(text) if _slug(tag))
    for module in _MODULE.findall(text):
        parts = module.lower().split(".")
        tokens.extend("__mod_" + "_".join(parts[:depth]) for depth in range(2, len(parts) + 1))
    for word in _IDENTIFIER.findall(BRACKET_TAG.sub(" ", text)):
        pieces = [p for p in word.split("_") if p] if "_" in word else _CAMEL.findall(word)
        if len(pieces) > 1:
            tokens.extend("__part_" + piece.lower() for piece in pieces)
    return tokens


def path_tokens(files: Sequence[str], limit: int = 50) -> list[str]:
    """Directories (depth 1–3) and extensions of the changed files, each once."""
    seen: dict[str, None] = {}
    for path in files[:limit]:
        parts = path.split("/")
        for depth in range(1, min(len(parts), 4)):
            seen["__dir_" + "/".join(parts[:depth])] = None
        if "." in parts[-1]:
            seen["__ext_" + parts[-1].rsplit(".", 1)[1].lower()] = None
    return list(seen)


class RuleHints:
    """The profile's rules as features: the area and kind they decide (with the kind of
    evidence), and every area whose title tags the title carries."""

    def __init__(self, profile: Profile | None) -> None:
        self.profile = profile
        rules = profile.area_rules() if profile is not None else ()
        self._tags = [("__hint_" + _slug(rule.name), rule.title_tags) for rule in rules]

    def tokens(
        self, sample: Sample, decision: tuple[Decision, Decision] | None = None
    ) -> list[str]:
        if self.profile is None:
            return []
        area, kind = decision if decision is not None else self.profile.explain(sample.as_pr())
        tokens = [
            f"__rule_area_{_slug(area.value)}_{area.evidence}",
            f"__rule_kind_{kind.value}_{kind.evidence}",
        ]
        info = parse_title(sample.title)
        tags = set(info.tags)
        if info.prefix:
            tags.add(info.prefix)
        if tags:
            tokens.extend(token for token, rule_tags in self._tags if tags & rule_tags)
        return tokens


def symbolic_tokens(
    sample: Sample,
    hints: RuleHints,
    decision: tuple[Decision, Decision] | None = None,
    code: CodeIndex | None = None,
) -> str:
    tokens = title_tokens(sample.title) + path_tokens(sample.files) + hints.tokens(sample, decision)
    if code is not None:
        tokens += code.tokens(sample.title)
    if sample.author:
        tokens.append("__author_" + _slug(sample.author))
    tokens.extend("__label_" + _slug(label) for label in sample.labels)
    return " ".join(tokens)
