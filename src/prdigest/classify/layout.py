"""What a repository's directories conventionally are: CI, build, docs and test plumbing,
containers of components, mirrors of the code (tests, benchmarks), and the fallback areas
the generic profile files plumbing under (`generic.py` derives the rest)."""

from __future__ import annotations

from ..reading import normalize_tag
from .globs import compile_globs
from .rules import AreaRule

ORIGIN = "generic"

CI_DIRS = frozenset(
    (
        ".azure-pipelines .buildkite .ci .circleci .claude .devcontainer .github .gitlab "
        ".husky .idea .vscode ci"
    ).split()
)
BUILD_DIRS = frozenset(
    (
        "build cmake deps dist docker infra packaging requirements scripts shim shim_et "
        "third-party third_party thirdparty tools vendor"
    ).split()
)
DOC_DIRS = frozenset(("doc docs documentation notebooks site tutorial tutorials website").split())
TEST_DIRS = frozenset(
    ("__tests__ androidTest e2e spec specs test testing tests test-data testdata test_data").split()
)
MIRROR_DIRS = frozenset(("bench benchmark benchmarks test tests").split())
# Examples of a component sit under `examples/<component>/`: they are that component's work.
EXAMPLE_DIRS = frozenset(("demo demos example examples sample samples").split())
# Where a component's not-yet-stable half lives (`<pkg>/prototype/<x>` beside `<pkg>/<x>`).
TRIAL_DIRS = frozenset(("contrib experimental incubator labs prototype prototypes").split())
CONTAINERS = frozenset(
    (
        "apps backends cmd components contrib crates examples experimental extension "
        "extensions integrations internal lib libs models modules packages pkg plugins "
        "prototype providers services src"
    ).split()
)
DOC_EXTENSIONS = (".md", ".rst", ".txt", ".adoc", ".ipynb")
FALLBACKS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "Build/CI",
        "CI workflows, build system, packaging and tooling",
        ("ci", "build", "cmake", "lint", "release", "infra", "deps"),
        tuple(f"{d}/**" for d in sorted(CI_DIRS | BUILD_DIRS))
        + (
            "**/CMakeLists.txt",
            "**/*.cmake",
            "**/*.bzl",
            "**/BUCK",
            "**/TARGETS",
            "**/BUILD",
            "**/BUILD.bazel",
        ),
    ),
    (
        "Docs",
        "Documentation, READMEs and tutorials",
        ("doc", "docs", "documentation", "readme"),
        tuple(f"{d}/**" for d in sorted(DOC_DIRS))
        + tuple(f"**/*{ext}" for ext in DOC_EXTENSIONS if ext != ".txt"),
    ),
    # Tests no component claims are filed with CI and the build: readers keep one section
    # for a week's plumbing ("CI and tests"), not two thin ones.
    (
        "Build/CI",
        "Test suites and test utilities",
        ("test", "tests", "testing"),
        (
            "test/**",
            "tests/**",
            "test-data/**",
            "**/test-data/**",
            "spec/**",
            "**/test/**",
            "**/tests/**",
            "**/__tests__/**",
            "**/androidTest/**",  # Android's instrumented tests (`src/androidTest/`)
        ),
    ),
)


FALLBACK_NAMES = tuple(dict.fromkeys(name for name, *_ in FALLBACKS))


def is_plumbing(name: str) -> bool:
    return (
        name in CI_DIRS
        or name in BUILD_DIRS
        or name in DOC_DIRS
        or name in TEST_DIRS
        or name.startswith(".")
    )


def fallback_rules() -> tuple[AreaRule, ...]:
    return tuple(
        AreaRule(
            name=name,
            origin=ORIGIN,
            description=description,
            title_tags=frozenset(normalize_tag(t) for t in tags),
            paths=compile_globs(globs),
            path_globs=globs,
            fallback=True,
        )
        for name, description, tags, globs in FALLBACKS
    ) + (
        AreaRule(
            name="Build/CI",
            origin=ORIGIN,
            description="Repository configuration at the top level",
            paths=compile_globs(["*"]),
            path_globs=("*",),
            fallback=True,
        ),
    )
