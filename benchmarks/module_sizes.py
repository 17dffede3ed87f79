"""The figures docs/architecture.md would otherwise copy and let go stale: how many modules
src/prdigest has, the median and the largest in lines, and the package faces' code lines.

    python3 benchmarks/module_sizes.py [--largest N]

tests/test_docs.py checks the rules the document states with the same functions (file
names unique, package faces within their bound), so the figures are printed, not quoted.
"""

from __future__ import annotations

import argparse
import ast
import statistics
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "prdigest"


def modules(root: Path = PACKAGE) -> list[Path]:
    return sorted(root.rglob("*.py"))


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def code_lines(path: Path) -> int:
    """Lines holding code: not blank, not a comment, not a docstring."""
    text = path.read_text(encoding="utf-8")
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                end = body[0].end_lineno or body[0].lineno
                docstrings.update(range(body[0].lineno, end + 1))
    return sum(
        1
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#") and number not in docstrings
    )


def repeated_names(root: Path = PACKAGE) -> list[str]:
    """Module file names found more than once (package faces, `__init__.py`, aside)."""
    names = Counter(p.name for p in modules(root) if p.name != "__init__.py")
    return sorted(name for name, count in names.items() if count > 1)


def faces(root: Path = PACKAGE) -> list[tuple[str, int]]:
    """Each package's `__init__.py` by its code lines, largest first."""
    found = [(str(p.parent.relative_to(root)), code_lines(p)) for p in root.rglob("__init__.py")]
    return sorted(found, key=lambda item: (-item[1], item[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=8, help="how many of the largest to list")
    args = parser.parse_args()
    found = modules()
    sizes = sorted(((lines(p), str(p.relative_to(PACKAGE))) for p in found), reverse=True)
    print(f"modules: {len(found)} (src/prdigest/**/*.py)")
    print(f"median module: {statistics.median(size for size, _ in sizes):g} lines")
    print("largest:", ", ".join(f"{name} {size}" for size, name in sizes[: args.largest]))
    face, most = faces()[0]
    print(f"largest package face: {face}/__init__.py, {most} lines of code")
    print("repeated file names:", ", ".join(repeated_names()) or "none")


if __name__ == "__main__":
    main()
