"""The one check of a finished `Digest`, whichever writer filled it, before it becomes
Markdown: every PR a line cites is a PR of the window, linked as the window links it;
every figure a line quotes is stated by a PR the line cites; no line leaves a code span
or bold open. And the one figure check (`figure_in_text`) and link pattern (`LINK`) the
writers and the LLM's sentence checks share.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from ..analyze.context_types import PRFacts
from ..models import links_to_github
from .digest_document import Digest, Line

# `[PR#N](url)`, or a bare `PR#N` where the repository has no GitHub home to link to
LINK = re.compile(r"\[PR#(\d+)\]\(([^)]*)\)|(?<![\w\[#])PR#(\d+)\b")
_CODE_SPAN = re.compile(r"`[^`]*`")
_BOLD = re.compile(r"(?<!\\)\*\*")


def normalise(text: str) -> str:
    """A figure's spelling aside: case, spacing, `×`, `$…$`, `percent`, units of time."""
    text = text.lower().replace("×", "x").replace("**", "^").replace("²", "^2")
    text = re.sub(r"[$\\{}~≈]", "", text)
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    text = re.sub(r"(?<=\d)\s*percent\b", "%", text)
    text = re.sub(r"(?<=\d)\s*(?:seconds?|secs?)\b", "s", text)
    text = re.sub(r"(?<=\d)\s*(?:minutes?|mins?)\b", "min", text)
    text = re.sub(r"(?<=\d)\s*(?:hours?|hrs?)\b", "h", text)
    return re.sub(r"\s+", "", text)


def figure_in_text(figure: str, text: str) -> bool:
    """Whether the figure (`1.4x`, or a quoted clause) is stated in the text, not as part
    of a longer number (`4x` is not in `14x`)."""
    wanted, haystack = normalise(figure), normalise(text)
    if not wanted:
        return True
    start = haystack.find(wanted)
    while start >= 0:
        before = haystack[start - 1] if start else ""
        after = haystack[start + len(wanted) : start + len(wanted) + 1]
        if not (before.isdigit() or before == ".") and not (
            wanted[-1].isdigit() and after.isdigit()
        ):
            return True
        start = haystack.find(wanted, start + 1)
    return False


def stated_by(figure: str, sources: Iterable[str]) -> bool:
    return any(figure_in_text(figure, source) for source in sources)


def own_texts(prs: Mapping[int, PRFacts]) -> dict[int, tuple[str, ...]]:
    """What the analysis holds of each PR for figures: its title and the claims it found."""
    return {n: (pr.title, *pr.claims) for n, pr in prs.items()}


def links_in(text: str) -> list[tuple[int, str | None]]:
    """The PR citations of a line: (number, its link's URL, None for a bare `PR#N`)."""
    found: list[tuple[int, str | None]] = []
    for linked, url, bare in LINK.findall(text):
        found.append((int(linked), url) if linked else (int(bare), None))
    return found


def check_digest(
    digest: Digest,
    repo: str,
    prs: Mapping[int, PRFacts],
    texts: Mapping[int, Sequence[str]] | None = None,
) -> list[str]:
    """What is wrong with the digest of `repo` ([] when nothing): `prs` are the window's
    PRs, `texts` what each states, text by text (`own_texts` when not given)."""
    stated = texts if texts is not None else own_texts(prs)
    linked = links_to_github(repo)
    problems: list[str] = []
    for line in digest.lines():
        problems += _line_problems(line, prs, stated, linked)
    return problems


def _line_problems(
    line: Line, prs: Mapping[int, PRFacts], texts: Mapping[int, Sequence[str]], linked: bool
) -> list[str]:
    where = f"line {line.text[:60]!r}"
    problems = [
        f"{where} cites PR #{n}, which is not in the window" for n in line.cites if n not in prs
    ]
    found = links_in(line.text)
    links = [n for n, url in found if url is not None]
    for number, url in found:
        pr = prs.get(number)
        if url is not None and (pr is None or url != pr.url):
            problems.append(f"{where} links PR #{number} to {url}, not to a PR of the window")
    cited = Counter(line.cites)
    if linked and Counter(links) != cited:
        problems.append(f"{where} links {links}, but cites {list(line.cites)}")
    bare = Counter(n for n, url in found if url is None)
    if not linked and not cited <= bare:  # a title may name a PR#N it does not cite
        problems.append(f"{where} names {sorted(bare)}, but cites {list(line.cites)}")
    for figure in line.figures:
        sources = line.cites if figure.pr is None else (figure.pr,)
        if figure.pr is not None and figure.pr not in line.cites:
            problems.append(f"{where} quotes {figure.text!r} of PR #{figure.pr}, uncited")
        elif not any(stated_by(figure.text, texts.get(n, ())) for n in sources):
            problems.append(f"{where}: {figure.text!r} is stated by none of the PRs it cites")
    prose = _CODE_SPAN.sub("", line.text)
    if "`" in prose or len(_BOLD.findall(prose)) % 2:
        problems.append(f"{where} leaves a code span or bold open")
    return problems
