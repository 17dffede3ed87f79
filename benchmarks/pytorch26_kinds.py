"""Kind accuracy on PyTorch 2.6's release-notes entries (issue 22: "On the PyTorch 2.6 bullets
(kinds from section headings, held out from training) kind accuracy >= 0.70").

The entries come from the release notes' excerpt in the shared seeds
(`seeds/003_*.excerpt.txt`), read at run time and never copied into the repository. Each
entry's kind is its `##` section (Backwards Incompatible changes → bc_breaking,
Deprecations → deprecation, New features → new_features, and so on for every section the
file has; Highlights are not a kind). An entry is

- a `###` heading that is itself an entry: it carries PR links ("### Flip default
  torch.load to weights_only (#137602, …)"); a `###` without links is a module heading
  ("### Python Frontend"), and the bullets under an entry heading are its description;
- a bullet that carries PR links, or a top-level bullet none of whose sub-bullets carry
  links (one entry of New features has none); a bullet whose sub-bullets carry links is a
  group (a component's name), its sub-bullets the entries.

The entry's title is its text before its first PR link (what follows is the note's
explanation), of a bullet only the first sentence (the rest explains it), links reduced
to their text. The labels are written in the worksheet format
`classify eval` reads (commit_hash, category, topic, title; category = the module heading,
or `Uncategorized`), and `prdigest classify eval --profile pytorch` is run on them through
the CLI, rules alone: no model was trained on these entries.

    python3 benchmarks/pytorch26_kinds.py                  # measure, print the eval report
    python3 benchmarks/pytorch26_kinds.py --labels pt26.csv   # also keep the labels CSV
    python3 benchmarks/pytorch26_kinds.py --seed FILE      # another copy of the notes
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("PRDIGEST_SEEDS", ROOT.parent / "shared" / "seeds"))
SEED_GLOB = "003_*.excerpt.txt"

# `##` section heading (lower case, without bold) → kind id; a section not listed is no kind
SECTIONS = {
    "backwards incompatible changes": "bc_breaking",
    "backwards incompatible change": "bc_breaking",
    "deprecations": "deprecation",
    "new features": "new_features",
    "improvements": "improvements",
    "bug fixes": "bug_fixes",
    "performance": "performance",
    "documentation": "docs",
    "developers": "devs",
}
UNCATEGORIZED = "Uncategorized"

_HEADING = re.compile(r"^(#{2,6})\s+(.*?)\s*$")
_BULLET = re.compile(r"^(\s*)[*-]\s+(.*?)\s*$")
_FENCE = re.compile(r"^\s*```")
_PR_LINK = re.compile(r"\[#(\d+)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)`])\.\s+(?=[A-Z`])")


@dataclass(frozen=True)
class Entry:
    line: int
    kind: str
    module: str
    text: str  # the raw Markdown of the heading or bullet
    heading: bool = False

    @property
    def prs(self) -> list[str]:
        return _PR_LINK.findall(self.text)

    @property
    def title(self) -> str:
        match = _PR_LINK.search(self.text)
        head = _LINK.sub(r"\1", self.text[: match.start()] if match else self.text)
        if not self.heading:  # a bullet's first sentence; the rest explains it
            head = _SENTENCE_END.split(head, maxsplit=1)[0]
        return re.sub(r"\s+", " ", head).strip(" ([,.:;")

    @property
    def commit_hash(self) -> str:
        prs = self.prs
        return f"pr{prs[0]}" if prs else f"line{self.line}"


@dataclass
class _Bullet:
    line: int
    indent: int
    text: str
    children: list[_Bullet]


def section_kind(heading: str) -> str | None:
    name = re.sub(r"[*_]", "", heading).strip().lower()
    return SECTIONS.get(name)


def read_entries(text: str) -> list[Entry]:
    """Every entry of every kind section, in file order."""
    entries: list[Entry] = []
    kind: str | None = None
    module = UNCATEGORIZED
    under_entry = False  # bullets below an entry heading describe it
    block: list[_Bullet] = []  # the bullets of the current module, as a tree
    fenced = False

    def flush() -> None:
        if kind is not None:
            for bullet in block:
                entries.extend(_bullet_entries(bullet, kind, module))
        block.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = _HEADING.match(raw)
        if heading:
            flush()
            level, title = len(heading.group(1)), heading.group(2)
            if level == 2:
                kind, module, under_entry = section_kind(title), UNCATEGORIZED, False
            elif kind is not None and _PR_LINK.search(title):
                entries.append(Entry(number, kind, module, title, heading=True))
                under_entry = True
            else:
                module = re.sub(r"[*_]", "", title).strip() or UNCATEGORIZED
                under_entry = False
            continue
        bullet = _BULLET.match(raw)
        if bullet is None or kind is None or under_entry:
            continue
        node = _Bullet(number, len(bullet.group(1).expandtabs(4)), bullet.group(2), [])
        parent = _parent(block, node.indent)
        (parent.children if parent else block).append(node)
    flush()
    return entries


def _parent(block: list[_Bullet], indent: int) -> _Bullet | None:
    """The last bullet indented less than `indent`, following the last children down."""
    parent = None
    siblings = block
    while siblings and siblings[-1].indent < indent:
        parent = siblings[-1]
        siblings = parent.children
    return parent


def _bullet_entries(bullet: _Bullet, kind: str, module: str) -> list[Entry]:
    linked_children = any(_PR_LINK.search(child.text) for child in bullet.children)
    if linked_children and not _PR_LINK.search(bullet.text):  # a group: a component's name
        found: list[Entry] = []
        for child in bullet.children:
            found.extend(_bullet_entries(child, kind, module))
        return found
    return [Entry(bullet.line, kind, module, bullet.text)]


def write_labels(entries: list[Entry], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["commit_hash", "category", "topic", "title"])
        for entry in entries:
            writer.writerow([entry.commit_hash, entry.module, entry.kind, entry.title])


def find_seed(given: Path | None) -> Path | None:
    if given is not None:
        return given if given.exists() else None
    found = sorted(SEEDS.glob(SEED_GLOB))
    return found[0] if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seed", type=Path, help=f"the release notes (default: {SEEDS}/{SEED_GLOB})"
    )
    parser.add_argument("--labels", type=Path, help="keep the labels CSV here")
    parser.add_argument("--profile", default="pytorch")
    parser.add_argument("--list", action="store_true", help="print the entries read, and stop")
    args = parser.parse_args()
    seed = find_seed(args.seed)
    if seed is None:
        print(
            f"skipped: PyTorch 2.6's release notes ({args.seed or SEEDS / SEED_GLOB}) are absent "
            "(set PRDIGEST_SEEDS to the shared seeds folder)",
            file=sys.stderr,
        )
        return 0
    entries = read_entries(seed.read_text(encoding="utf-8"))
    if not entries:
        print(f"{seed}: no release-notes entries under a kind section", file=sys.stderr)
        return 1
    counts = Counter(entry.kind for entry in entries)
    print(
        f"{seed.name}: {len(entries)} entries ("
        + ", ".join(f"{kind} {n}" for kind, n in counts.most_common())
        + ")"
    )
    if args.list:
        for entry in entries:
            print(f"{entry.line:4d}  {entry.kind:<13} {entry.module:<20} {entry.title}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        labels = args.labels or Path(tmp) / "pytorch26.csv"
        write_labels(entries, labels)
        command = [
            sys.executable, "-m", "prdigest", "classify", "eval",
            "--labels", str(labels), "--profile", args.profile,
        ]  # fmt: skip
        print("$ prdigest " + " ".join(command[3:]), flush=True)
        return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
