"""How the editorial check reads a digest: sections, bullets, the names they carry, quotes
and citations, and the `Page` every rule reads (the digest and the facts of its window). Plain reading of the Markdown, no product code: the check must hold any
writer (the deterministic one, the LLM one) to the same page a maintainer reads."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from editorial_repo import Knowledge, Record

# Headings the writer always uses for its opening and closing blocks: never an area or
# a theme (the callout of breaking changes and deprecations is one of them).
FIXED_HEADINGS = frozenset(
    {
        "key takeaways",
        "breaking changes and deprecations",
        "reverts and relands",
        "week over week",
        "contributors",
        "summary table",
    }
)
_HEADING = re.compile(r"^#{2,4}\s+(?:\d+\.\s+)?(?P<text>.+?)\s*#*\s*$")
_BULLET = re.compile(r"^(?P<indent>\s*)[*+-]\s+(?P<body>.*)$")
_OTHER = re.compile(r"(?i)^other(?:\s+areas|\s+\S.*)?$")
# `**Name:** sentence`, `**Name**: sentence`, `**Name** (4 PRs): sentence`, `**Name** (4 PRs).`
_NAMED = re.compile(
    r"^\*\*(?P<name>.+?)\*\*\s*(?P<count>\((?P<n>\d+) PRs?(?P<across> across [^)]*)?\))?\s*(?P<rest>.*)$"
)
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>$&])")
_LINK = re.compile(r"\[(PR#\d+)\]\([^)]*\)")
PR_LINK = re.compile(r"\[PR#(?P<n>\d+)\]\(")
TOTAL = re.compile(r"totaling (?P<n>\d+) PRs?\b")
INTRO_COUNT = re.compile(r"^\*(?P<n>\d+) PRs?\b")


def unmarked(text: str) -> str:
    """Text as a reader sees it: no escapes, code ticks, bold or link targets."""
    text = _LINK.sub(r"\1", text)
    text = _ESCAPED.sub(r"\1", text.replace("**", "").replace("`", ""))
    return re.sub(r"\s+", " ", text).strip()


def without_code(text: str) -> str:
    """Text with its code spans dropped: a symbol is verbatim, never a spelling choice."""
    return re.sub(r"`[^`]*`", " ", text)


@dataclass
class Bullet:
    line: int  # 1-based line number in the digest
    depth: int  # 0 for a top-level bullet, 1 for a sub-bullet, …
    raw: str  # the line as written
    body: str  # the bullet's text without its marker
    name: str = ""  # the bold name the bullet opens with, if any (no trailing colon)
    count: int | None = None  # `(4 PRs)` after the name
    family: bool = False  # `(20 PRs across A, B, C)`: a family of areas
    rest: str = ""  # what follows the name (and count)
    children: list[Bullet] = field(default_factory=list)


@dataclass
class Section:
    line: int
    heading: str  # without the `### N.` numbering
    intro: str = ""  # the italic line under the heading
    bullets: list[Bullet] = field(default_factory=list)  # every bullet, in order, any depth

    @property
    def fixed(self) -> bool:
        return self.heading.lower() in FIXED_HEADINGS

    @property
    def is_other(self) -> bool:
        return bool(_OTHER.match(self.heading))

    @property
    def is_area(self) -> bool:
        return not self.fixed and not self.is_other and self.heading.lower() != "key takeaways"


@dataclass
class Digest:
    markdown: str
    title: str
    sections: list[Section]
    table: list[list[str]]  # Summary Table rows (cells as written), header excluded

    def section(self, heading: str) -> Section | None:
        return next((s for s in self.sections if s.heading.lower() == heading.lower()), None)

    @property
    def total(self) -> int | None:
        """The window's PR count as the digest prints it (Key Takeaways, else the sections)."""
        takeaways = self.section("Key Takeaways")
        match = TOTAL.search(takeaways.intro) if takeaways else None
        if match:
            return int(match.group("n"))
        counts = [INTRO_COUNT.match(s.intro) for s in self.sections if not s.fixed]
        found = [int(m.group("n")) for m in counts if m]
        return sum(found) if found else None

    def cited(self) -> set[int]:
        return {int(m.group("n")) for m in PR_LINK.finditer(self.markdown)}


def _bullet(number: int, raw: str, indent: str, body: str) -> Bullet:
    depth = len(indent.expandtabs(4)) // 4
    bullet = Bullet(number, depth, raw, body.rstrip())
    match = _NAMED.match(bullet.body)
    if match:
        name = match.group("name").strip()
        rest = match.group("rest")
        if name.endswith(":"):
            name = name[:-1].rstrip()
        elif rest.startswith(":"):
            rest = rest[1:]
        bullet.name = name
        bullet.rest = rest.strip()
        bullet.count = int(match.group("n")) if match.group("n") else None
        bullet.family = bool(match.group("across"))
    return bullet


def read_digest(markdown: str) -> Digest:
    lines = markdown.splitlines()
    title = lines[0].lstrip("# ").strip() if lines else ""
    sections: list[Section] = []
    table: list[list[str]] = []
    parents: list[Bullet] = []
    for number, raw in enumerate(lines, start=1):
        heading = _HEADING.match(raw) if raw.startswith("##") else None
        if heading:
            sections.append(Section(number, heading.group("text").strip()))
            parents = []
            continue
        if not sections:
            continue
        section = sections[-1]
        bullet = _BULLET.match(raw)
        if bullet:
            item = _bullet(number, raw, bullet.group("indent"), bullet.group("body"))
            section.bullets.append(item)
            parents = [p for p in parents if p.depth < item.depth]
            if parents:
                parents[-1].children.append(item)
            parents.append(item)
        elif raw.startswith("|") and section.heading.lower() == "summary table":
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", raw.strip())[1:-1]]
            if cells and not all(set(c) <= set(":- ") for c in cells) and cells[0] != "Category":
                table.append(cells)
        elif raw.strip() and not section.intro and not section.bullets:
            section.intro = raw.strip()
    return Digest(markdown, title, sections, table)


@dataclass(frozen=True)
class Quote:
    line: int
    text: str  # as written in the digest, Markdown escapes included
    pr: int
    lead: str  # the words before the opening mark


_QUOTE = re.compile(r"“(?P<text>[^”]*)”\s*\(\[PR#(?P<pr>\d+)\]")


def quotes(markdown: str) -> list[Quote]:
    """Quoted figures: `reporting “…” ([PR#N](…))` and the same after `and`; quoted titles
    of reverts and relands are not figures."""
    out = []
    for number, raw in enumerate(markdown.splitlines(), start=1):
        for match in _QUOTE.finditer(raw):
            lead = raw[: match.start()].rstrip()
            if re.search(r"(?i)\b(reverted|relanded|reverts|relands)$", lead):
                continue
            if not re.search(r"\d", match.group("text")):
                continue
            out.append(Quote(number, match.group("text"), int(match.group("pr")), lead))
    return out


# --- the page the rules read -------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    rule: str
    week: str  # the window, e.g. 2025-W37 (or the digest's date label)
    excerpt: str  # the offending line or phrase
    why: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.week}: {self.excerpt!r} — {self.why}"


@dataclass
class Page:
    """One digest and what the repository says about its window."""

    digest: Digest
    repo: str
    week: str
    start: datetime | None
    window: Sequence[Record]
    knowledge: Knowledge

    def finding(self, rule: str, excerpt: str, why: str) -> Finding:
        return Finding(rule, self.week, excerpt.strip()[:160], why)


@dataclass(frozen=True)
class Name:
    kind: str  # heading | theme | area | table (category, component) | table-theme
    text: str  # as written
    line: str  # where it stands


def names(digest: Digest) -> list[Name]:
    """Every name a reader takes as one: section headings, theme names (bold openers of
    bullets in area sections), area and family names in Other Areas, Summary Table cells."""
    out: list[Name] = []
    for section in digest.sections:
        if section.fixed:
            continue
        if section.is_area:
            out.append(Name("heading", section.heading, f"### {section.heading}"))
        kind = "area" if section.is_other else "theme"
        for bullet in section.bullets:
            if bullet.name and bullet.name.lower() != "also":
                out.append(Name(kind, bullet.name, bullet.raw.strip()))
    for row in digest.table:
        line = "| " + " | ".join(row) + " |"
        for column, cell in enumerate(row[:3]):
            for part in re.split(r"(?<!\\),\s+", cell):
                if part.strip() and part.strip() not in ("—", "…", "**Other**"):
                    out.append(Name("table" if column < 2 else "table-theme", part.strip(), line))
    return out


def name_words(name: str) -> list[str]:
    """A name's words as read, code spans left out (a symbol is verbatim, not a spelling)."""
    return unmarked(without_code(name)).split()


def content_sections(digest: Digest) -> list[Section]:
    """The area sections and Other Areas: where names, bullets and counts are."""
    return [s for s in digest.sections if s.is_area or s.is_other]


def held_by(section: Section) -> int:
    """The PRs a section holds: its intro's count (`*30 PRs across …*`), else its lines'."""
    match = re.match(r"^\*(\d+) PRs?\b", section.intro)
    if match:
        return int(match.group(1))
    return sum(b.count or 0 for b in section.bullets if b.depth == 0)


def unique_names(found: Iterable[Name]) -> list[Name]:
    """Each name once (a theme is also in the Summary Table): one finding per name."""
    seen: set[str] = set()
    out = []
    for name in found:
        key = unmarked(name.text).lower()
        if key not in seen:
            seen.add(key)
            out.append(name)
    return out
