"""Breaking changes judged from what a PR says and changes (issue 19, class 1): the files'
diffs (`patch` in JSONL records) are stored, read for the public names a PR removes or
renames, and weighed against the title. Through the real entry points: `prdigest sync
--jsonl` of a file written here, then `prdigest digest`: a break is told in the digest's
Breaking changes section, a deprecation in Deprecations, and the PR's brief (`digest
--format json`) announces it with the names it removes or renames (`surface`) and what
users should do (`migration`)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from helpers import one_error_line, run_cli
from prdigest.store import open_store
from prdigest.timeutil import parse_datetime

REPO = "acme/trainer"
WEEK = "2026-W07"  # 2026-02-09 .. 2026-02-15


def _record(number: int, title: str, files: list[dict[str, Any]], *, body: str = "",
            day: int = 10) -> dict[str, Any]:  # fmt: skip
    return {
        "repo": REPO,
        "number": number,
        "sha": f"{number:040x}",
        "parents": [f"{number - 1:040x}"],
        "title": title,
        "body": body,
        "author_name": "A",
        "author_email": f"a{number}@example.com",
        "committed_at": f"2026-02-{day:02d}T12:00:00Z",
        "authored_at": f"2026-02-{day:02d}T11:00:00Z",
        "files": files,
    }


def _file(path: str, patch: str | None) -> dict[str, Any]:
    lines = (patch or "").splitlines()
    entry: dict[str, Any] = {
        "path": path,
        "additions": sum(1 for line in lines if line.startswith("+")),
        "deletions": sum(1 for line in lines if line.startswith("-")),
    }
    if patch is not None:
        entry["patch"] = patch
    return entry


# "[ROCm] Remove check for hip support …" whose body says ROCm now supports it: enables
ENABLEMENT = _record(
    101,
    "[ROCm] Remove check for hip support for symmetric memory",
    [_file("trainer/distributed/symmetric_memory.py", (
        "@@ -40,9 +40,6 @@ def enable_symm_mem(group):\n"
        "     if group is None:\n"
        "         group = default_group()\n"
        "-    if torch.version.hip:\n"
        "-        raise RuntimeError(\"symmetric memory is not supported on ROCm\")\n"
        "-\n"
        "     return _enable(group)\n"
    ))],
    body="ROCm now supports symmetric memory, so the check is no longer needed.",
)  # fmt: skip
# "Deprecate …" whose diff deletes the classes and the config fields: breaks
DEPRECATE_BUT_DELETE = _record(
    102,
    "Deprecate expert tensor parallel",
    [
        _file("trainer/distributed/expert_parallel.py", (
            "@@ -80,20 +80,6 @@ class ExpertParallel(ParallelStyle):\n"
            "         return module\n"
            " \n"
            " \n"
            "-class ExpertTensorParallel(ExpertParallel):\n"
            "-    def __init__(self, tp_mesh):\n"
            "-        super().__init__()\n"
            "-        self.tp_mesh = tp_mesh\n"
            "-\n"
            "-    def _partition_fn(self, name, module, mesh):\n"
            "-        return module\n"
            "-\n"
            "-\n"
            " class ReordererSequenceParallel(ParallelStyle):\n"
        )),
        _file("trainer/config/job_config.py", (
            "@@ -300,8 +300,6 @@ class Parallelism:\n"
            "     expert_parallel_degree: int = 1\n"
            "-    expert_tensor_parallel_degree: int = 1\n"
            "-    etp_mesh_axis: str = \"etp\"\n"
            "     context_parallel_degree: int = 1\n"
        )),
    ],
    body="Expert tensor parallel is rarely used and complicates the mesh. Use expert "
    "parallel with tensor parallel instead.",
)  # fmt: skip
# CLI flags dropped, "breaking" said nowhere: breaks
DROPPED_FLAGS = _record(
    103,
    "Simplify parallelism setup in the llama example",
    [_file("examples/llama/train.py", (
        "@@ -20,14 +20,6 @@ def build_parser():\n"
        "     parser = argparse.ArgumentParser()\n"
        "     parser.add_argument(\"--steps\", type=int, default=100)\n"
        "-    parser.add_argument(\"--use_tp\", action=\"store_true\")\n"
        "-    parser.add_argument(\n"
        "-        \"--tp_size\",\n"
        "-        type=int,\n"
        "-        default=1,\n"
        "-    )\n"
        "     return parser\n"
    ))],
    body="The example now reads the parallelism from the mesh.",
)  # fmt: skip
# a config field renamed, "breaking" said nowhere: breaks
RENAMED_FIELD = _record(
    104,
    "Tidy the checkpoint settings",
    [_file("trainer/config.py", (
        "@@ -10,7 +10,7 @@ class CheckpointConfig:\n"
        "     enable: bool = False\n"
        "-    checkpoint_dir: str = \"checkpoints\"\n"
        "+    checkpoint_folder: str = \"checkpoints\"\n"
        "     interval: int = 500\n"
    ))],
)  # fmt: skip
# a title that removes an "API" whose diff touches only tests and private code: no break
INTERNAL_ONLY = _record(
    105,
    "Remove the legacy runner API",
    [
        _file("tests/test_runner.py", (
            "@@ -1,6 +1,3 @@\n"
            "-def test_legacy_runner():\n"
            "-    assert run_legacy() == 0\n"
            "-\n"
            " def test_runner():\n"
        )),
        _file("trainer/_runner_impl.py", (
            "@@ -1,5 +1,2 @@\n"
            "-def run_legacy():\n"
            "-    return 0\n"
            "-\n"
            " def run():\n"
        )),
    ],
)  # fmt: skip
# a name added on Monday and removed on Thursday of the same week: unreleased, no break
ADDED_IN_WINDOW = _record(
    106,
    "Add the warmup_schedule API",
    [_file("trainer/schedules.py", (
        "@@ -1,3 +1,6 @@\n"
        " import math\n"
        "+\n"
        "+def warmup_schedule(step):\n"
        "+    return min(1.0, step / 100)\n"
    ))],
    day=9,
)  # fmt: skip
REMOVED_IN_WINDOW = _record(
    107,
    "Remove the warmup_schedule API",
    [_file("trainer/schedules.py", (
        "@@ -1,6 +1,3 @@\n"
        " import math\n"
        "-\n"
        "-def warmup_schedule(step):\n"
        "-    return min(1.0, step / 100)\n"
    ))],
    day=12,
)  # fmt: skip
# no diff at all (a source without patches): the description names what goes
BODY_ONLY = _record(
    108,
    "Pick the communication backend with one option",
    [{"path": "trainer/comm.py", "additions": 12, "deletions": 9}],
    body="`--comm.mode torchcomms` replaces `--comm.use_torchcomms`. Pass "
    "`--comm.mode torchcomms` instead of the old switch.",
)  # fmt: skip
# "deprecate v1 of X" whose diff deletes v1's deprecation warning for a hard check: v1 is gone
ENDED_DEPRECATION = _record(
    109,
    "deprecate v1 of `QuantConfig`",
    [_file("trainer/quant_api.py", (
        "@@ -50,12 +50,7 @@ def _quantize(module, config):\n"
        "-    if config.version == 1:\n"
        "-        warnings.warn(\n"
        "-            \"version 1 of QuantConfig is deprecated and will be removed, use version 2\"\n"
        "-        )\n"
        "-        return _quantize_v1(module, config)\n"
        "+    assert config.version == 2, \"only version 2 of QuantConfig is supported\"\n"
        "     return _quantize_v2(module, config)\n"
    ))],
)  # fmt: skip
# functions defined under a module-level `if` are module-level functions all the same
CONDITIONAL_DEFS = _record(
    120,
    "delete the old triton quantize kernel",
    [_file("trainer/kernels.py", (
        "@@ -10,9 +10,3 @@ if has_triton():\n"
        "     import triton\n"
        " \n"
        "-    @triton.jit\n"
        "-    def quantize_kernel(x_ptr, n):\n"
        "-        pass\n"
        "-\n"
        "-    def triton_quantize(x):\n"
        "-        return quantize_kernel[(1,)](x, x.numel())\n"
    ))],
)  # fmt: skip
# a package removed: the callout says so once, not module by module
REMOVED_PACKAGE = _record(
    121,
    "Remove `trainer/legacy`",
    [_file(f"trainer/legacy/{name}.py", f"@@ -1,2 +0,0 @@\n-def {name}_step():\n-    pass\n")
     for name in ("runner", "loop", "hooks", "utils")],
)  # fmt: skip
# an environment variable renamed, in a "fix" PR: users setting the old one are broken
ENV_RENAMED = _record(
    122,
    "Fix the skip-loading switch",
    [_file("trainer/ops.py", (
        "@@ -3,4 +3,4 @@ import os\n"
        " \n"
        "-if os.environ.get(\"TRAINER_SKIP_SO\"):\n"
        "+if os.environ.get(\"TRAINER_FORCE_SKIP_SO\") == \"1\":\n"
        "     load_libraries = False\n"
    ))],
)  # fmt: skip
# the same variable, now read through a helper: still read, nothing breaks
ENV_THROUGH_HELPER = _record(
    123,
    "Read environment switches through one helper",
    [_file("trainer/flags.py", (
        "@@ -3,4 +3,4 @@ import os\n"
        " \n"
        "-DEBUG = os.environ.get(\"TRAINER_DEBUG\") == \"1\"\n"
        "+DEBUG = env_flag(\"TRAINER_DEBUG\")\n"
        " \n"
    ))],
)  # fmt: skip
# a title removing support whose Python diff is only a test: the C++ it deletes is
# where the API was, so the title's word stands
CPP_REMOVAL = _record(
    124,
    "Remove support for VkSemaphore",
    [
        _file("tests/test_vulkan.py", "@@ -1,3 +1,1 @@\n-def test_semaphore():\n-    pass\n"),
        {"path": "runtime/vulkan/Semaphore.cpp", "additions": 0, "deletions": 80},
    ],
)  # fmt: skip
# a field of a config module's class dropped, "breaking" said nowhere: breaks
CONFIG_MODULE_FIELD = _record(
    125,
    "Tidy the parallelism section",
    [_file("trainer/config/job_config.py", (
        "@@ -310,6 +310,5 @@ class Parallelism:\n"
        "     context_parallel_degree: int = 1\n"
        "-    enable_async_tensor_parallel: bool = False\n"
        "     pipeline_parallel_degree: int = 1\n"
    ))],
)  # fmt: skip
FILLER = [
    _record(110 + i, f"Speed up the data loader, step {i}", [_file(f"trainer/data/loader{i}.py", (
        "@@ -5,3 +5,4 @@ def load(batch):\n     x = batch\n+    x = x.pin_memory()\n     return x\n"
    ))])
    for i in range(3)
]  # fmt: skip
# "Move X to prototype" whose diff makes the old import path warn: a deprecation, unnamed
WARNS_NOW = _record(
    126,
    "Move six workflows to prototype",
    [_file("trainer/quantization/workflows.py", (
        "@@ -10,6 +10,10 @@ class Int8Workflow:\n"
        "     def __init__(self, bits=8):\n"
        "+        warnings.warn(\n"
        "+            \"Int8Workflow is deprecated and will be removed in 0.17; \"\n"
        "+            \"use trainer.prototype.Int8Workflow instead\"\n"
        "+        )\n"
        "         self.bits = bits\n"
    ))],
)  # fmt: skip
# a library line that only silences a deprecation warning of a dependency warns no user
SILENCES = _record(
    127,
    "Quieter start-up",
    [_file("trainer/__init__.py", (
        "@@ -1,3 +1,4 @@\n"
        " import warnings\n"
        "+warnings.filterwarnings(\"ignore\", message=\"torch.ao is deprecated and will be removed\")\n"
        " from .core import *\n"
    ))],
)  # fmt: skip
ALL = [ENABLEMENT, WARNS_NOW, SILENCES, DEPRECATE_BUT_DELETE, DROPPED_FLAGS, RENAMED_FIELD, INTERNAL_ONLY,
       ADDED_IN_WINDOW, REMOVED_IN_WINDOW, BODY_ONLY, ENDED_DEPRECATION, CONDITIONAL_DEFS,
       REMOVED_PACKAGE, ENV_RENAMED, ENV_THROUGH_HELPER, CPP_REMOVAL, CONFIG_MODULE_FIELD,
       *FILLER]  # fmt: skip


def _digest(tmp_path: Path, records: list[dict[str, Any]]) -> str:
    source = tmp_path / "prs.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    db = tmp_path / "s.db"
    synced = run_cli("sync", REPO, "--jsonl", str(source), db=db)
    assert synced.exit_code == 0, synced.output
    result = run_cli("digest", REPO, "--week", WEEK, "--writer", "deterministic", db=db)
    assert result.exit_code == 0, result.output
    return result.stdout


def _briefs(db: Path) -> dict[int, dict[str, Any]]:
    """The window's briefs, as `digest --format json` holds them, by PR number."""
    result = run_cli("digest", REPO, "--week", WEEK, "--writer", "deterministic",
                     "--format", "json", db=db)  # fmt: skip
    assert result.exit_code == 0, result.output
    return {int(number): brief for number, brief in json.loads(result.stdout)["briefs"].items()}


# the digest's sections that tell what users must act on, and what each tells
_ANNOUNCING = {"Breaking changes": "breaking", "Deprecations": "deprecation"}


def _flagged(markdown: str) -> dict[int, tuple[str, str]]:
    """PR number → (`breaking` or `deprecation`, the bullet that tells it) for the PRs
    the digest's Breaking changes and Deprecations sections tell."""
    out: dict[int, tuple[str, str]] = {}
    section = ""
    for line in markdown.splitlines():
        heading = re.match(r"^###\s+(?:\d+\.\s+)?(.+?)\s*$", line)
        if heading:
            section = heading.group(1)
        elif section in _ANNOUNCING and line.lstrip().startswith("*"):
            for number in re.findall(r"PR#(\d+)", line):
                out.setdefault(int(number), (_ANNOUNCING[section], line))
    return out


@dataclass(frozen=True)
class Week:
    flagged: dict[int, tuple[str, str]]
    briefs: dict[int, dict[str, Any]]

    def breaking(self, number: int) -> str:
        """The bullet of a PR told as a breaking change, its brief announcing one."""
        assert self.briefs[number]["announced"] == "breaking", self.briefs[number]
        assert number in self.flagged, f"#{number} is in no Breaking changes section"
        kind, line = self.flagged[number]
        assert kind == "breaking", line
        return line

    def unflagged(self, number: int) -> None:
        """A PR that announces nothing and is told as no break or deprecation."""
        assert number not in self.flagged, self.flagged[number]
        assert self.briefs[number]["announced"] == "", self.briefs[number]


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Week:
    """The digest of every record above, one week."""
    folder = tmp_path_factory.mktemp("breaking")
    markdown = _digest(folder, ALL)
    return Week(_flagged(markdown), _briefs(folder / "s.db"))


def test_a_removed_check_for_what_is_now_supported_is_no_break(week: Week) -> None:
    week.unflagged(101)


def test_a_deprecation_whose_diff_deletes_the_names_is_a_break_naming_them(week: Week) -> None:
    line = week.breaking(102)
    brief = week.briefs[102]
    for name in ("ExpertTensorParallel", "Parallelism.expert_tensor_parallel_degree"):
        assert name in brief["surface"]["removed"], brief["surface"]
        assert f"`{name}`" in line, line
    # the migration, in the PR's words, told with the break
    assert brief["migration"] == "Use expert parallel with tensor parallel instead."
    assert "Use expert parallel with tensor parallel instead" in line, line


def test_dropped_cli_flags_break_without_the_word(week: Week) -> None:
    line = week.breaking(103)
    assert week.briefs[103]["surface"]["removed"] == ["--use_tp", "--tp_size"]
    assert "`--use_tp`" in line and "`--tp_size`" in line, line
    assert "`--steps`" not in line


def test_a_field_of_a_config_module_breaks_without_the_word(week: Week) -> None:
    line = week.breaking(125)
    assert "removes `Parallelism.enable_async_tensor_parallel`" in line, line


def test_a_renamed_config_field_breaks_and_says_to_what(week: Week) -> None:
    line = week.breaking(104)
    old, new = "CheckpointConfig.checkpoint_dir", "CheckpointConfig.checkpoint_folder"
    assert week.briefs[104]["surface"]["renamed"] == [[old, new]]
    assert f"renames `{old}` → `{new}`" in line, line


def test_removing_test_and_private_code_is_no_break(week: Week) -> None:
    week.unflagged(105)


def test_removing_what_the_same_window_added_is_no_break(week: Week, tmp_path: Path) -> None:
    week.unflagged(107)
    # alone in its week, the same removal of a released name breaks
    alone = _flagged(_digest(tmp_path, [REMOVED_IN_WINDOW, *FILLER]))
    assert 107 in alone, alone
    kind, line = alone[107]
    assert kind == "breaking" and "`warmup_schedule`" in line, line
    assert _briefs(tmp_path / "s.db")[107]["surface"]["removed"] == ["warmup_schedule"]


def test_without_a_diff_the_description_names_what_breaks(week: Week) -> None:
    line = week.breaking(108)
    old, new = "--comm.use_torchcomms", "--comm.mode"
    assert week.briefs[108]["surface"]["renamed"] == [[old, new]]
    # the flags as users type them, the old and the new
    assert f"renames `{old}` → `{new}`" in line, line
    assert "Pass `--comm.mode torchcomms` instead of the old switch" in line, line


def test_a_deprecation_that_deletes_the_old_warning_ends_it(week: Week) -> None:
    line = week.breaking(109)
    assert week.briefs[109]["kind_evidence"]["why"] == "removes what its deprecation warned of"
    assert re.search(r"(?i)\bremov", line), line  # told as gone, not only deprecated


def test_a_diff_that_adds_a_deprecation_warning_deprecates(week: Week) -> None:
    assert week.briefs[126]["announced"] == "deprecation", week.briefs[126]
    assert week.flagged.get(126, ("", ""))[0] == "deprecation", week.flagged.get(126)
    week.unflagged(127)  # silencing a warning warns no user


def test_functions_under_a_module_level_if_are_public(week: Week) -> None:
    assert "`triton_quantize`" in week.breaking(120)


def test_a_renamed_environment_variable_breaks(week: Week) -> None:
    line = week.breaking(122)
    assert "renames `TRAINER_SKIP_SO` → `TRAINER_FORCE_SKIP_SO`" in line, line
    week.unflagged(123)  # still read, through a helper


def test_a_removal_in_code_the_reading_does_not_read_keeps_the_titles_word(week: Week) -> None:
    week.breaking(124)


def test_the_callout_names_a_removed_package_once(week: Week) -> None:
    line = week.breaking(121)
    assert "Removes `trainer/legacy`" in line, line
    # its modules are the package's: not named again, whole or by their last part
    assert "trainer.legacy." not in line, line
    for module in ("runner", "loop", "hooks", "utils"):
        assert f"`{module}`" not in line, line


def test_patches_are_stored_once_and_resynced_when_they_arrive(tmp_path: Path, db_url: str) -> None:
    """Both stores (SQLite, PostgreSQL): a file synced without diffs, then with them,
    ends with each file's diff in `files` and none left in the stored payload."""
    plain = [
        {**r, "files": [{k: v for k, v in f.items() if k != "patch"} for f in r["files"]]}
        for r in ALL
    ]
    source = tmp_path / "prs.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in plain), encoding="utf-8")
    assert run_cli("--db", db_url, "sync", REPO, "--jsonl", str(source)).exit_code == 0
    with_patches = tmp_path / "prs-patches.jsonl"
    with_patches.write_text("".join(json.dumps(r) + "\n" for r in ALL), encoding="utf-8")
    second = run_cli("--db", db_url, "sync", REPO, "--jsonl", str(with_patches))
    assert second.exit_code == 0, second.output
    # every record with a diff is updated; the one without (BODY_ONLY) is unchanged
    assert f"{len(ALL) - 1} updated, 1 unchanged" in second.stderr, second.stderr
    store = open_store(db_url)
    try:
        prs = store.merged_between(REPO, parse_datetime("2026-02-01"), parse_datetime("2026-03-01"))
    finally:
        store.close()
    patches = {(pr.number, f.path): f.patch for pr in prs for f in pr.files if f.patch}
    assert patches[(103, "examples/llama/train.py")] == DROPPED_FLAGS["files"][0]["patch"]
    assert len(patches) == sum(1 for r in ALL for f in r["files"] if "patch" in f)
    assert all(
        "patch" not in f for pr in prs for f in (pr.raw or {}).get("files", [])
    )  # kept once, in `files`


def _git(repo: Path, *args: str, date: str = "2026-02-02T12:00:00Z") -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.com",
        "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.com",
        "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date,
    }  # fmt: skip
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)


TRAIN = """import argparse


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
{flags}    return parser
"""


def test_a_clone_gives_the_same_diff_reading(tmp_path: Path) -> None:
    """`sync --git` reads each Python file's diff from the clone: the flags a commit drops
    are named as the JSONL's patches would name them."""
    repo = tmp_path / "clone"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    script = repo / "trainer" / "train.py"
    script.parent.mkdir()
    flags = '    parser.add_argument("--use_tp", action="store_true")\n'
    flags += '    parser.add_argument(\n        "--tp_size",\n        type=int,\n    )\n'
    script.write_text(TRAIN.format(flags=flags))
    (repo / "README.md").write_text("trainer\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Add the trainer (#1)")
    script.write_text(TRAIN.format(flags=""))
    (repo / "README.md").write_text("trainer, simpler\n")
    _git(repo, "commit", "-qam", "Simplify the trainer's options (#2)", date="2026-02-10T12:00:00Z")
    _git(repo, "config", "diff.context", "0")  # a user's setting: the diffs keep GitHub's 3
    db = tmp_path / "s.db"
    synced = run_cli("sync", REPO, "--git", str(repo), db=db)
    assert synced.exit_code == 0, synced.output
    patches = sqlite3.connect(db).execute("SELECT path, patch FROM files WHERE patch IS NOT NULL")
    stored = list(patches)
    assert [path for path, _ in stored] == ["trainer/train.py"] * 2  # not README.md's
    assert stored[1][1].startswith("@@ -4,9 +4,4 @@")  # 3 lines of context, not 0
    result = run_cli("digest", REPO, "--week", WEEK, "--writer", "deterministic", db=db)
    assert result.exit_code == 0, result.output
    kind, line = _flagged(result.stdout)[2]
    assert kind == "breaking" and "`--use_tp`" in line and "`--tp_size`" in line, line
    assert _briefs(db)[2]["surface"]["removed"] == ["--use_tp", "--tp_size"]


def test_a_patch_that_is_not_text_is_one_clear_error(tmp_path: Path) -> None:
    bad = {**FILLER[0], "files": [{**FILLER[0]["files"][0], "patch": 5}]}
    source = tmp_path / "prs.jsonl"
    source.write_text(json.dumps(FILLER[1]) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    result = run_cli("sync", REPO, "--jsonl", str(source), db=tmp_path / "s.db")
    assert result.exit_code == 1
    assert one_error_line(result).startswith(
        f"Error: {source}:2: bad record: the patch of trainer/data/loader0.py is not text"
    ), result.stderr
