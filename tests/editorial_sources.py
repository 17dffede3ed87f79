"""Rules that hold the digest to the repository's own records: its spelling, its package
root, what its PRs say (quoted figures), what they announce (breaking changes and
deprecations) and what they create (new directories)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from editorial_markdown import (
    Finding,
    Page,
    name_words,
    names,
    quotes,
    unique_names,
    unmarked,
    without_code,
)
from editorial_repo import announces_break, learn_title, new_directories


def house_spelling(page: Page) -> list[Finding]:
    known = page.knowledge
    # the window's own titles count too: a new name may first appear there
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    joined: Counter[tuple[str, str]] = Counter()
    spaced: Counter[tuple[str, str]] = Counter()
    joined_as = dict(known.joined_as)
    for record in page.window:
        learn_title(str(record.get("title") or ""), forms, joined, spaced, joined_as)
    out = []
    for name in unique_names(names(page.digest)):
        problems = []
        raw = name_words(name.text)
        words = [w.strip(".,:;()") for w in raw]
        for word in words:
            key = word.lower()
            house = _house_form(word, known.forms.get(key, Counter()) + forms.get(key, Counter()))
            if house:
                problems.append(f"{word!r} (the titles write {house!r})")
        for i, (a, b) in enumerate(zip(words, words[1:], strict=False)):
            if raw[i][-1:] in ".,:;)" or raw[i + 1][:1] == "(":
                continue  # `Backends: Arm` is two names, not one split
            pair = (a.lower(), b.lower())
            together = known.joined[pair] + joined[pair]
            if a and b and together >= 2 and together > known.spaced[pair] + spaced[pair]:
                problems.append(f"{a + ' ' + b!r} (the titles join them: {joined_as[pair]!r})")
        if problems:
            why = "spelled as the repository would not: " + "; ".join(problems)
            out.append(page.finding("house_spelling", name.line, why))
    return out


def _house_form(word: str, written: Counter[str]) -> str:
    """How the titles write a title-cased word when they capitalise it otherwise: their
    inner-capital or all-capital form (`Vgf` → VGF, `Etdump` → ETDump), written at least
    three times and three times as often as the title-cased form. Lower-case occurrences
    do not count (`etdump` in a title is the same name, carelessly typed)."""
    if len(word) < 2 or not (word[0].isupper() and word[1:] == word[1:].lower()):
        return ""
    if not any(c.isalpha() for c in word[1:]):
        return ""
    inner = {form: n for form, n in written.items() if any(c.isupper() for c in form[1:]) and n}
    total = sum(inner.values())
    if total < 3 or total < 3 * written.get(word, 0):
        return ""
    return min(inner, key=lambda form: (-inner[form], form))


def repository_named_area(page: Page) -> list[Finding]:
    packages = page.knowledge.package_names()
    out = []
    for name in unique_names(names(page.digest)):
        if name.kind in ("theme", "table-theme"):
            continue
        text = unmarked(without_code(name.text))
        parts = [text, *re.split(r"\s*:\s*", text)] if ":" in text else [text]
        for part in parts:
            if re.sub(r"[^a-z0-9]", "", part.lower()) in packages:
                why = f"{part!r} names the repository or its package root, not an area of it"
                out.append(page.finding("repository_named_area", name.line, why))
                break
    return out


_THRESHOLD = re.compile(
    r"(?i)\b(?:threshold\w*|toleran\w*|atol|rtol|timeouts?|limit(?:s|ed)?\s+(?:to|at|of)|"
    r"assert\w*|set\s+to|defaults?\s+(?:to|of|is)|config\w*\s*(?:=|:|to\b|value))"
    r"|(?<![\w-])--[a-z]|\b[a-z_]+_(?:threshold|tol|limit|timeout)\b"
)


# A whole phrase ends at punctuation, the end of a line, an aside or a new clause
# (`… is now 8x faster because …`), and starts after one (`…, and it cuts memory 30%`).
_END_OK = re.compile(
    r"(?:[,;:)!?—–]|\.(?=\s|$)|\s*$|\s*\n|\s+[(—–-]\s?"
    r"|\s+(?:because|since|while|whereas|although|though|but|which|when|where|and|so)\b)"
)
_START_OK = re.compile(
    r"(?:^|\n|[.!?]\s+|[,;:(—–]\s*|\s-\s+|^\s*[-*•]\s+|\n\s*[-*•]\s+"
    r"|\b(?:and|but|because|since|while|so|whereas|although|though|when)\s+)$"
)


def quote_shape(page: Page) -> list[Finding]:
    out = []
    seen: set[tuple[str, int]] = set()
    for quote in quotes(page.digest.markdown):
        text = unmarked(quote.text)
        if (text, quote.pr) in seen:
            continue  # Key Takeaways and the section quote the same figure
        seen.add((text, quote.pr))
        excerpt = f"“{quote.text}” (PR#{quote.pr})"
        if "|" in text:
            out.append(
                page.finding(
                    "quote_shape", excerpt, "a table fragment: it carries a cell separator"
                )
            )
            continue
        sources = [
            _unwrapped(str(s or "").replace("**", "").replace("`", ""))
            for r in page.window
            if r.get("number") == quote.pr
            for s in (r.get("title"), r.get("body"))
        ]
        pattern = re.compile(r"\s+".join(re.escape(w) for w in text.split()))
        spots = [(s, m) for s in sources for m in pattern.finditer(s)]
        if not spots:
            out.append(
                page.finding("quote_shape", excerpt, f"not found in the text of PR#{quote.pr}")
            )
            continue
        context = [_clause(s, m.start(), m.end()) for s, m in spots]
        setting = next((c for c in context if _THRESHOLD.search(c)), "")
        if setting:
            word = _THRESHOLD.search(setting).group(0)  # type: ignore[union-attr]
            why = f"quoted from a test threshold or configuration ({word!r} in “{setting[:80]}”)"
            out.append(page.finding("quote_shape", excerpt, why))
        elif not any(_whole(s, m.start(), m.end()) for s, m in spots):
            s, m = spots[0]
            why = f"cut mid-phrase: the PR reads “…{s[max(0, m.start() - 25) : m.end() + 25]}…”"
            out.append(page.finding("quote_shape", excerpt, " ".join(why.split())))
    return out


def _unwrapped(text: str) -> str:
    """Soft-wrapped paragraph lines joined: a line break inside a sentence is no boundary."""
    return re.sub(r"(?<=[^\s.!?:])[ \t]*\n[ \t]*(?![\s\-*•#|>`]|\d+[.)]\s)", " ", text)


def _clause(text: str, start: int, end: int) -> str:
    """The quote and its clause up to it: what sets the figure (`threshold stays at 1.10x`,
    `with a timeout of 30s`) comes before it or inside it."""
    cuts = [m.end() for m in re.finditer(r"[.!?]\s+|[,;:]\s|\n\s*\n|\n\s*[-*•]\s+", text[:start])]
    return text[cuts[-1] if cuts else 0 : end]


def _whole(text: str, start: int, end: int) -> bool:
    return bool(_END_OK.match(text, end)) and bool(_START_OK.search(text[:start]))


def uncited_breaking(page: Page) -> list[Finding]:
    cited = page.digest.cited()
    out = []
    for record in page.window:
        number = record.get("number")
        why = announces_break(str(record.get("title") or ""), record.get("labels") or ())
        if why and number is not None and int(number) not in cited:
            excerpt = f"#{number} {record.get('title')}"
            out.append(
                page.finding("uncited_breaking", excerpt, f"announces {why} and is cited nowhere")
            )
    return out


_GENERIC_SEGMENTS = {
    "src", "lib", "include", "python", "cpp", "utils", "util", "common", "core", "ops", "op",
    "runtime", "impl", "scripts", "tools", "models", "model", "kernels", "api", "config",
    "configs", "examples", "example", "data", "passes", "backend", "backends", "aot", "host",
    "target", "main", "java", "app", "cpu", "gpu", "cuda", "metal",
}  # fmt: skip


def unnamed_new_component(page: Page) -> list[Finding]:
    if page.start is None or not page.knowledge.history_spans(page.start):
        return []  # too little history to tell a new directory from a dormant one
    created = new_directories(page.window, page.knowledge)
    groups: dict[str, list[str]] = {}
    for directory in created:
        groups.setdefault(directory.rpartition("/")[0], []).append(directory)
    text = " " + _squashed(unmarked(page.digest.markdown)) + " "

    def named(directory: str) -> bool:
        return any(f" {form} " in text for form in _spoken(directory))

    out = []
    for parent, members in groups.items():
        if len(members) >= 3 and parent:
            # many new siblings (`backends/webgpu/runtime/ops/<op>/`): naming their parent
            # names them all, and leaving them out is one omission, not one per directory
            unnamed = [] if named(parent) else [d for d in members if not named(d)]
            if unnamed:
                leaves = ", ".join(d.rpartition("/")[2] for d in unnamed[:4])
                more = f" and {len(unnamed) - 4} more" if len(unnamed) > 4 else ""
                count = f"{len(unnamed)} new director{'y' if len(unnamed) == 1 else 'ies'}"
                why = f"{count} under {parent}/ this week, named nowhere in the digest"
                out.append(
                    page.finding("unnamed_new_component", f"{parent}/{{{leaves}{more}}}/", why)
                )
            continue
        for directory in members:
            if not named(directory):
                why = f"a new directory with {created[directory]} files this week, named nowhere in the digest"
                out.append(page.finding("unnamed_new_component", f"{directory}/", why))
    return out


def _squashed(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _spoken(directory: str) -> set[str]:
    """How a digest may name a directory: its path, its last segment (with its parent or a
    named ancestor when the segment alone says nothing: `runtime`, `ops`)."""
    parts = [_squashed(p) for p in directory.split("/")]
    forms = {" ".join(parts)}
    last = parts[-1]
    if last not in _GENERIC_SEGMENTS:
        forms |= {last, last.replace(" ", "")}
    else:
        forms |= {f"{p} {last}" for p in parts[:-1] if p not in _GENERIC_SEGMENTS}
    return {f for f in forms if f}
