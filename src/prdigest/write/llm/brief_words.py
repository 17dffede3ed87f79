"""A model's answer for one PR made into the words of its brief: each sentence checked
against that PR alone (`brief_check`); one that fails gives way to the deterministic
sentence, and the reason is kept with the words (`BriefText.replaced`). Nothing the model
wrote is patched: a sentence is published as written (its closing stop aside) or not at
all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ...models import BriefText
from .brief_check import Evidence, check_sentence, content_words
from .pr_input import PRInput


def verified_text(
    answer: Mapping[str, object] | None,
    pr: PRInput,
    fallback: BriefText,
    writer: str,
    no_answer: str = "no usable answer",
) -> BriefText:
    """The brief's words by `writer`: the model's sentences that pass, the deterministic
    ones (`fallback`) elsewhere, and why any was replaced."""
    if answer is None:
        return replace(fallback, writer=writer, replaced=f"what: {no_answer}")
    evidence = Evidence.of(pr.evidence)
    replaced: list[str] = []
    what, why = _sentence(answer.get("what")), _sentence(answer.get("why"))
    problem = check_sentence(what, evidence) if what else "empty"
    if problem:
        replaced.append(f"what: {problem}")
        what, what_from = fallback.what, fallback.what_from
    else:
        what_from = "model"
    if why:
        problem = check_sentence(why, evidence) or _restates(why, what)
        if problem:
            replaced.append(f"why: {problem}")
            why = ""
    if why:
        return BriefText(what, why, what_from, "model", writer, "; ".join(replaced))
    # no reason the model could state: the PR's own, when the analysis read one and the
    # model's what does not say it already (a model may make the PR's reason its what)
    why, why_from = fallback.why, fallback.why_from
    if why and _restates(why, what):
        why, why_from = "", ""
    return BriefText(what, why, what_from, why_from, writer, "; ".join(replaced))


def _sentence(value: object) -> str:
    """The sentence as the brief keeps it: one line, without its closing stop."""
    text = " ".join(str(value or "").split())
    return text[:-1].rstrip() if text.endswith(".") else text


def _restates(why: str, what: str) -> str:
    """A why that only says the what again is no reason."""
    words = set(content_words(why))
    return "says the what again" if words and words <= set(content_words(what)) else ""
