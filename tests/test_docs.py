"""Docs cannot drift: every command and option is in docs/cli.md, every doc link resolves."""

from __future__ import annotations

import re
from pathlib import Path

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
