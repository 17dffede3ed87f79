"""Docs cannot drift: every command and option is in docs/cli.md, every doc link resolves."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import click
import pytest

from prdigest.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(main)
    found: list[tuple[str, click.Command]] = []

    def walk(command: click.Command, path: list[str]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                walk(sub, [*path, name])
        else:
            found.append((" ".join(path), command))

    walk(main, [])
    return found


def _sections() -> dict[str, str]:
    text = (ROOT / "docs" / "cli.md").read_text()
    return {chunk.split("\n", 1)[0]: chunk for chunk in text.split("\n## ")[1:]}


@pytest.mark.parametrize(
    ("path", "command"), _commands(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_command_and_option_is_documented(path: str, command: click.Command) -> None:
    sections = _sections()
    own = [body for heading, body in sections.items() if f"prdigest {path.split()[0]}" in heading]
    assert own, f"`prdigest {path}` has no section in docs/cli.md"
    assert any(f"prdigest {path}" in body for body in own), f"`prdigest {path}` is not described"
    shared = sections["Source options (`sync`, `digest`, `release-notes`)"]
    for param in command.params:
        for opt in getattr(param, "opts", []):
            if opt.startswith("--") and opt != "--help":
                assert any(opt in body for body in [*own, shared]), (
                    f"{opt} of `prdigest {path}` is not in docs/cli.md"
                )


def test_the_readme_gives_the_two_setup_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Set up", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip()]
    assert [c.split()[0] for c in commands] == ["./scripts/quickstart.sh", "./scripts/test.sh"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./scripts/test.sh" in ci, "CI runs the README's test command"


def test_links_between_docs_resolve() -> None:
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+\.(?:md|yml))\)", doc.read_text()):
            assert (doc.parent / target).exists(), f"{doc.name} links to missing {target}"


def _module_sizes() -> ModuleType:
    """benchmarks/module_sizes.py, the command docs/architecture.md points to for figures."""
    spec = importlib.util.spec_from_file_location(
        "module_sizes", ROOT / "benchmarks" / "module_sizes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_architecture_md_states_only_rules_the_tree_keeps() -> None:
    """Issue 30: its sizes went stale (`verify.py` 441 lines, then 590). It quotes no line
    count of a module now; the two rules it states are checked here, and the figures come
    from benchmarks/module_sizes.py."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    sizes = _module_sizes()
    assert "python3 benchmarks/module_sizes.py" in text
    assert not re.search(r"`[\w/]+\.py` \d{3}\b", text), "a module's line count is quoted"
    assert sizes.repeated_names() == [], "each module file name is unique across the tree"
    [bound] = re.findall(r"at most (\d+) lines of code", text)
    too_big = [(face, n) for face, n in sizes.faces() if n > int(bound)]
    assert not too_big, f"package faces over {bound} lines of code: {too_big}"


def test_module_sizes_counts_code_lines_without_docstrings_or_comments(tmp_path: Path) -> None:
    module = tmp_path / "face.py"
    module.write_text(
        '"""A face.\n\nMore."""\n\n# why\nfrom x import y  # noqa\n\n\ndef f():\n    """Doc."""\n    return y\n'
    )
    assert _module_sizes().code_lines(module) == 3
