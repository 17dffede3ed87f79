"""The one reading of a PR that briefs are made from: each file's role, the body's sections,
statements of the change, releases and what a PR's own release notes announce. One table a
rule, so that a mutation of a rule fails a row of its table."""

from __future__ import annotations

import pytest

from prdigest.analyze.body_announcements import said_in_notes
from prdigest.analyze.docs_intro import docs_intro
from prdigest.analyze.statements import about_the_same, as_statement, has_subject, sentences
from prdigest.models import FileChange, PullRequest
from prdigest.reading.file_roles import FileRole, file_role, is_library, is_public
from prdigest.reading.pr_body import Role, is_bot_body, read_body
from prdigest.reading.releases import changelog_items, released_name, released_version
from prdigest.reading.severity import Severity, severity


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("torchao/quantization/quant_api.py", FileRole.LIBRARY),
        ("src/diffusers/pipelines/ltx2/pipeline.py", FileRole.LIBRARY),
        ("crates/nu-command/src/filesystem/ucp.rs", FileRole.LIBRARY),
        ("langchain/tools/search.py", FileRole.LIBRARY),  # a nested `tools/` is code
        ("main.go", FileRole.LIBRARY),  # a root file of a compiled language
        ("vendor/x.py", FileRole.VENDORED),
        ("third_party/x.cpp", FileRole.VENDORED),
        ("mypy/typeshed/stdlib/ssl.pyi", FileRole.VENDORED),
        ("proto/api_pb2.py", FileRole.VENDORED),
        (".github/workflows/ci.yml", FileRole.CI),
        ("tests/test_api.py", FileRole.TEST),
        ("pkg/unittests/x.py", FileRole.TEST),
        ("crates/nu-test-support/src/lib.rs", FileRole.TEST),
        ("test-data/unit/check-final.test", FileRole.TEST),
        ("cmd/tool/main_test.go", FileRole.TEST),
        ("benchmarks/b.py", FileRole.BENCH),
        ("examples/llama/export.py", FileRole.EXAMPLE),
        ("tools/lint.py", FileRole.TOOL),  # a top-level `tools/` is the project's tooling
        ("scripts/release.sh", FileRole.TOOL),
        ("setup.py", FileRole.TOOL),  # a Python file at the root is a script
        ("docs/index.md", FileRole.DOCS),
        ("README.md", FileRole.DOCS),
        ("Cargo.lock", FileRole.BUILD),
        ("pyproject.toml", FileRole.BUILD),
        ("CMakeLists.txt", FileRole.BUILD),
        ("assets/logo.png", FileRole.DATA),
    ],
)
def test_one_function_decides_a_files_role(path: str, role: FileRole) -> None:
    assert file_role(path) is role


@pytest.mark.parametrize(
    ("path", "library", "public", "public_with_examples"),
    [
        ("torchao/quantization/quant_api.py", True, True, True),
        ("torchao/_models/llama.py", True, False, False),  # a private package
        ("torchao/quantization/_utils.py", True, False, False),  # a private module
        ("torchao/quantization/__init__.py", True, True, True),
        ("examples/llama/export_llama.py", False, False, True),  # its flags are typed by users
        ("tests/test_x.py", False, False, False),
    ],
)
def test_library_and_public_files(
    path: str, library: bool, public: bool, public_with_examples: bool
) -> None:
    assert is_library(path) is library
    assert is_public(path) is public
    assert is_public(path, examples=True) is public_with_examples


def test_a_body_is_read_by_its_sections_roles() -> None:
    body = (
        "<!-- template: explain your change -->\n"
        "## Description\nThis PR adds a `--no-commas` flag to `to nuon`.\n\n"
        "## Motivation\nNuon does not need commas.\n\n"
        "## User-facing changes (Release notes)\n`to nuon --no-commas` prints no commas.\n\n"
        "## Test plan\nRan the tests.\n\n"
        "- [ ] I have read the guide\n- [x] Breaking change\n\n"
        "Co-authored-by: A <a@b.c>\ncc @someone\n"
    )
    read = read_body(body)
    roles = [s.role for s in read.sections]
    assert roles[:4] == [Role.SUMMARY, Role.MOTIVATION, Role.USERS, Role.TESTING]
    assert read.of(Role.SUMMARY)[0].paragraphs == (
        "This PR adds a `--no-commas` flag to `to nuon`.",
    )
    text = " ".join(t for s in read.sections for t in (*s.paragraphs, *s.items))
    assert "template" not in text and "Co-authored-by" not in text and "@someone" not in text
    assert "I have read the guide" not in text  # an empty box says nothing
    assert "[x] Breaking change" in text  # a ticked one does


def test_a_squash_of_commits_keeps_only_its_first_commit() -> None:
    body = (
        "* feat: add Motif Video pipelines\n\nAdd complete Motif Video implementation:\n\n"
        "- Add MotifVideoPipeline\n\n* up\n\n* fix tests\n\n* make style\n"
    )
    read = read_body(body)
    assert read.commit_log
    text = " ".join(t for s in read.sections for t in (*s.paragraphs, *s.items))
    assert "Add MotifVideoPipeline" in text and "make style" not in text and "fix tests" not in text


def test_links_keep_their_text_and_bots_are_known() -> None:
    read = read_body("Bumps [calamine](https://github.com/tafia/calamine) from 0.34.0 to 0.35.0.")
    assert read.sections[0].paragraphs == ("Bumps calamine from 0.34.0 to 0.35.0.",)
    assert is_bot_body("Bumps [x](u) from 1 to 2.\n\nDependabot will resolve any conflicts")
    assert not is_bot_body("This PR adds X.\n\n🤖 Generated with Claude Code")


@pytest.mark.parametrize(
    ("sentence", "statement"),
    [
        (
            "This PR adds a `--no-commas` flag to `to nuon`.",
            "Adds a `--no-commas` flag to `to nuon`",
        ),
        ("In this PR, I fixed the glob handling of `cp`.", "Fixes the glob handling of `cp`"),
        ("We now support nested tables.", "Supports nested tables"),
        ("Added `dequantize` to MXTensor.", "Adds `dequantize` to MXTensor"),
        (
            "The `grid` command now accepts a column name.",
            "The `grid` command now accepts a column name",
        ),
        ("(Breaking change!) `mkdir -v` now returns a table", "`mkdir -v` now returns a table"),
        ("A new command for cartesian products.", "Adds a new command for cartesian products"),
        ("Fixes the six issues raised in the review:", "Fixes the six issues raised in the review"),
        ("Fixes #1234", ""),  # a reference, not a statement
        ("Closes https://github.com/o/r/issues/9", ""),
        ("Should we also handle X?", ""),  # a question
        ("I think this is right.", ""),
        ("x = foo(bar)", ""),  # code
        ("The tests pass locally and the benchmark looks fine overall.", ""),  # no verb first
    ],
)
def test_statements_of_the_change(sentence: str, statement: str) -> None:
    assert as_statement(sentence) == statement


def test_statements_keep_a_subject_and_are_about_the_title() -> None:
    assert has_subject("The `grid` command now accepts a column name")
    assert not has_subject("Adds a column name to `grid`")
    assert not has_subject("Add support for LLaDA2")  # a verb is no subject
    assert about_the_same("Fixes `hide-env` not hiding variables", "fix hide-env, refactor: rename")
    assert not about_the_same("Use Mistral3Model for Ernie", "Install transformers from main")
    assert sentences("One. Two e.g. three. `Four` five.") == [
        "One.",
        "Two e.g. three.",
        "`Four` five.",
    ]


def _pr(title: str, files: tuple[FileChange, ...] = (), body: str = "") -> PullRequest:
    return PullRequest(repo="o/r", number=1, title=title, body=body, files=files)


_VERSION_FILE = FileChange(
    "pyproject.toml", 1, 1, patch='@@ -1 +1 @@\n-version = "2.11.0"\n+version = "2.12.0"'
)


@pytest.mark.parametrize(
    ("title", "files", "version"),
    [
        ("Release 2.12.0", (), "2.12.0"),
        ("Prepare release v2.12.0", (), "2.12.0"),
        ("chore(release): 1.4.0", (), "1.4.0"),
        ("Bump version to 0.13.0", (), "0.13.0"),
        ("Changelog for 1.20.1", (), "1.20.1"),
        ("Release: v1.0", (), "1.0"),
        ("Prepare the release", (_VERSION_FILE,), "2.12.0"),  # the diff says which
        ("2.12.0", (_VERSION_FILE,), "2.12.0"),  # a bare version the diff sets
        ("2.12.0", (), ""),  # a bare version nothing sets
        ("Bump version to 1.1.0.dev0", (), ""),  # the work after a release
        ("Bump aiohttp from 3.13.3 to 3.13.4", (), ""),  # a dependency's version
        ("Update vLLM minimum supported version to 0.11.0", (), ""),
        # one package of a workspace, named, its version set by the diff
        ("chore: prepare tokio-util v2.12.0", (_VERSION_FILE,), "2.12.0"),
        ("chore: prepare tokio-util v2.12.0", (), ""),
        # a version a test's fixture sets releases nothing
        (
            "Fix formatting of invalid version bump errors",
            (
                FileChange(
                    "tests/it/version.rs",
                    1,
                    1,
                    patch='@@ -1 +1 @@\n-version = "1.2.2"\n+version = "1.2.3"',
                ),
            ),
            "",
        ),
    ],
)
def test_releases(title: str, files: tuple[FileChange, ...], version: str) -> None:
    assert released_version(_pr(title, files)) == version


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("chore: prepare tokio-util v0.7.19", "tokio-util"),
        ("chore: prepare Tokio v1.53.1", "Tokio"),
        ("Prepare release v2.12.0", ""),
        ("Release 2.12.0", ""),
    ],
)
def test_what_a_release_names(title: str, name: str) -> None:
    assert released_name(_pr(title)) == name


def test_a_releases_changelog_items_without_areas_or_references() -> None:
    changelog = FileChange(
        "tokio-util/CHANGELOG.md",
        4,
        0,
        patch="@@ -1,3 +1,7 @@\n+# 0.7.19\n+### Added\n+- io: add `write_all_vectored` ([#7768], [#8159])\n"
        "+- sync: add `DropGuard::token` for tokens ([#8226](https://x/8226))\n",
    )
    assert changelog_items(_pr("chore: prepare tokio-util v0.7.19", (changelog,))) == (
        "add `write_all_vectored`",
        "add `DropGuard::token` for tokens",
    )


@pytest.mark.parametrize(
    ("title", "body", "expected"),
    [
        (
            "Fix Tutel with tensor parallelism",
            "Results were silently wrong under TP.",
            Severity.HARM,
        ),
        (
            "Ensure full commit pins resolve",
            "An attacker could push a branch named like the SHA.",
            Severity.HARM,
        ),
        ("Fix riscv64 musl TLS segfaults", "", Severity.FAILURE),
        ("Fix the error message of `load`", "It now names the file.", Severity.NONE),
        # a test plan's crash is how it was checked, not what users saw
        ("Tidy the loader", "## Test plan\nThe old test crashes without it.", Severity.NONE),
    ],
)
def test_what_a_fix_spared_its_users(title: str, body: str, expected: Severity) -> None:
    assert severity(title, body) is expected


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ("## Release notes\n(Breaking change!) `mkdir -v` now returns a table.", "breaking"),
        ("## User-facing changes\n`watch`'s closure argument is deprecated.", "deprecation"),
        ("## Release notes\nBy default, the first row is now read as the header.", "default"),
        ("- [x] BC-breaking change", "breaking"),
        ("## Release notes\nNo breaking changes.", None),
        ("## Breaking changes\nNone", None),
        ("## Release notes\nFixes a breaking change in `glob -i`.", None),  # a repair
        ("## Release notes\nSilences a deprecation warning.", None),
        ("## Summary\nThis is a breaking change.", None),  # only release notes count
    ],
)
def test_what_a_prs_own_release_notes_announce(body: str, kind: str | None) -> None:
    said = said_in_notes(body)
    assert (said.kind if said else None) == kind


def _new_page(path: str, text: str) -> FileChange:
    lines = text.splitlines()
    patch = f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join("+" + line for line in lines)
    return FileChange(path, len(lines), 0, patch=patch)


_HARBOR_PAGE = """---
title: Harbor
---
# Harbor Integration for Training LLMs with Environments

[Harbor](https://www.harborframework.com) is a framework for running agentic tasks in sandboxes. It decouples a task.

> [!NOTE]
> The integration lives at `trl.experimental.harbor`.
"""


@pytest.mark.parametrize(
    ("files", "title", "intro"),
    [
        (  # a new page beside the code it documents: its opening sentence, links as text
            [_new_page("docs/source/harbor.md", _HARBOR_PAGE), FileChange("trl/harbor.py", 90, 0)],
            "Add experimental Harbor integration",
            "Harbor is a framework for running agentic tasks in sandboxes",
        ),
        (  # a docs-only PR: the page is the change, not context for one
            [_new_page("docs/source/harbor.md", _HARBOR_PAGE)],
            "Add experimental Harbor integration",
            "",
        ),
        (  # a page about something else than the title names
            [_new_page("SECURITY.md", "The bar is a reproducible PoC with a concrete impact."),
             FileChange("src/x.py", 9, 0)],
            "Add security policy",
            "",
        ),
        (  # an edited page is no new page
            [FileChange("docs/harbor.md", 3, 1, patch="@@ -1,3 +1,5 @@\n+Harbor is a framework for running agentic tasks in sandboxes."),
             FileChange("trl/harbor.py", 90, 0)],
            "Add Harbor integration",
            "",
        ),
        (  # reStructuredText: its directives and underlines are no prose
            [_new_page("docs/nunchaku.rst", "Nunchaku Lite\n=============\n\n.. note:: x\n\nNunchaku Lite is a quantization backend for loading prequantized checkpoints."),
             FileChange("src/diffusers/quantizers/nunchaku.py", 200, 0)],
            "Add Nunchaku Lite single-file quantization",
            "Nunchaku Lite is a quantization backend for loading prequantized checkpoints",
        ),
    ],
)  # fmt: skip
def test_a_new_docs_page_says_what_its_subject_is(
    files: list[FileChange], title: str, intro: str
) -> None:
    assert docs_intro(files, title) == intro
