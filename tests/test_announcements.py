"""What a PR announces to its users (analyze/announcements.py), on real titles of executorch
and ao: breaking changes, deprecations and changed defaults, and what is none of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from digest_weeks import load
from editorial_repo import announces_break
from prdigest.analyze.announcements import announce, migration_hint
from prdigest.models import FileChange, PullRequest
from prdigest.timeutil import parse_datetime

_LIBRARY = (FileChange("torchao/quantization/quant_api.py", 10, 2),)


def _pr(title: str, labels: tuple[str, ...] = (), body: str = "", files=_LIBRARY) -> PullRequest:
    return PullRequest(
        repo="o/r",
        number=1,
        sha="a" * 40,
        title=title,
        body=body,
        merged_at=parse_datetime("2026-02-10T00:00:00Z"),
        files=files,
        labels=labels,
        source="jsonl",
    )


@pytest.mark.parametrize(
    ("title", "kind", "why"),
    [
        ("Java Remove generateFromPos API", "breaking", "removes a public API"),
        ("[bc-breaking] remove old GPTQ implementation", "breaking", "marked BC-breaking"),
        ("drop PyTorch<2.9 support", "breaking", "drops a supported version"),
        ("Drop Python 3.10 support, require Python 3.11+", "breaking", "drops a supported version"),
        ("Drop support for PyTorch 2.5 and before", "breaking", "drops a supported version"),
        ("End support for Python 3.9", "breaking", "drops a supported version"),
        ("Remove support for VkSemaphore", "breaking", "drops support"),
        (
            "Delete deprecated Int4CPULayout and related code",
            "breaking",
            "removes a deprecated API",
        ),
        ("Remove old `change_linear_weights_to_*` APIs", "breaking", "removes an old API"),
        ("Drop old quantization flows", "breaking", "removes an old API"),
        (
            "Move int8 matmul kernels into the int8 workflow and drop them from public API",
            "breaking",
            "removes an API from the public API",
        ),
        ("Rename AOPerModuleConfig to ModuleFqnToConfig", "breaking", "renames a public API"),
        ("Deprecate ET_LOG{,_MSG}_AND_RETURN_IF_FALSE", "deprecation", "deprecates an API"),
        ("Deprecate MPS backend", "deprecation", "deprecates an API"),
        ("[xnn update prep] deprecate sdpa", "deprecation", "deprecates an API"),
        (
            "Qualcomm AI Engine Direct - Phase out QCIR flow since it is no longer…",
            "deprecation",
            "deprecates an API",
        ),
        ("Mark call as deprecated", "deprecation", "adds a deprecation"),
        ("add deprecation warning to `torchao.autoquant`", "deprecation", "adds a deprecation"),
        ("Experimental folder deprecation part 2/x", "deprecation", "a deprecation"),
        ("Move intx configs to version 2 by default", "default", "changes a default"),
        ("Default to file load mode in module", "default", "changes a default"),
    ],
)
def test_real_titles_that_announce(title: str, kind: str, why: str) -> None:
    said = announce(_pr(title))
    assert said is not None, title
    assert (said.kind, said.why) == (kind, why)


def test_a_titles_raised_minimum_is_a_break_where_the_pr_changes_what_installs_it() -> None:
    """Executorch's #7599 raises numpy's floor in pyproject.toml and the CI requirements:
    its title announces a break. The same words over library code alone are a version
    gate in code (`min JAX for collective streams`), nothing users must meet."""
    title = "Upgrade numpy version requirement to 2.0"
    manifests = (
        FileChange(".ci/docker/requirements-ci.txt", 4, 7),
        FileChange("pyproject.toml", 2, 5),
        FileChange("install_requirements.py", 1, 1),
    )
    said = announce(_pr(title, files=manifests))
    assert said is not None
    assert (said.kind, said.why) == ("breaking", "raises a minimum version")
    assert announce(_pr(title)) is None  # `_LIBRARY`: quant_api.py alone


@pytest.mark.parametrize(
    "title",
    [
        "Remove unused variable",
        "Remove no longer used `is_not_dype_exception` function",
        "Remove unused cpp variable, breaking style checks",
        "Fix deprecated unittest asserts in executorch",
        "Replace usage of deprecated `distutils.(file|dir)_util`",
        "Use const_data_ptr/mutable_data_ptr instead of deprecated data_ptr",
        "Stop using deprecated executorch PassManager",
        "Suppress deprecation warnings from #4074 and #4100",
        "Update comment on deprecation warning to point inernal users to use safer API",
        "Remove deprecation annotations from ObjC/Swift bindings.",
        "Remove deprecated jcenter() repository from Android build config",
        "Delete deprecated test files that only tested exir.capture behavior",
        "remove deprecated guard_size_oblivious from stride sorting logic in exir.",
        "[ROCm] fix build for newer hipblaslt BC-breaking change",
        "[Benchmark]Deprecate v2",
        "Drop torch 2.7 and add 2.10 in CI",
        "switch CI to target PyTorch 2.11, drop older versions",
        "Remove torch == 2.6 CUDA 2.6 and CPU 2.6 CI test configurations",
        "[tosa-tools] Remove v0.80 usage from ET",
        "Lower cmake minimum version requirement to 3.24",
        "rename MXTensor params",
        "rename MXTensor's _scale_e8m0 to scale",
        "Rename `_is_fbgemm_genai_gpu_available`",
        "Arm backend: Rename test_arm_baremetal.sh to test_arm_backend.sh",
        "Arm backend: Add aten.relu_.default to quantization_annotator",
        "Update default executor runner with new optional options",
        'Revert "Deprecate MPS backend"',
    ],
)
def test_real_titles_that_announce_nothing(title: str) -> None:
    assert announce(_pr(title)) is None


def test_a_changed_default_of_a_script_or_a_test_is_no_news() -> None:
    scripts = (FileChange("install_executorch.py", 1, 1), FileChange("backends/arm/test/x.py"))
    assert announce(_pr("Disable -v in install_executorch.py by default", files=scripts)) is None
    assert announce(_pr("Disable -v in the runner by default")) is not None


def test_labels_and_labelled_kinds_announce_whatever_the_title() -> None:
    said = announce(_pr("Tidy the quantizer", labels=("topic: bc breaking",)))
    assert said is not None and said.kind == "breaking" and "bc breaking" in said.why
    said = announce(_pr("Tidy the quantizer", labels=("deprecation",)))
    assert said is not None and said.kind == "deprecation"
    assert announce(_pr("Tidy the quantizer"), "bc_breaking", kind_by_label=True) is not None
    # a kind the classifier read from the wording is judged here again
    assert announce(_pr("Tidy the quantizer"), "bc_breaking") is None


def test_the_announcement_in_the_prs_own_words() -> None:
    said = announce(_pr("Java Remove generateFromPos API"))
    assert said is not None
    assert said.sentence == "Java: removes generateFromPos API."
    assert said.subject == "Java generateFromPos API removed"
    said = announce(_pr("Add CUDA 13.2 support and drop unsupported 12.8/12.9"))
    assert (
        said is not None
        and said.sentence == "Adds CUDA 13.2 support and drops unsupported 12.8/12.9."
    )
    said = announce(_pr("Rename AOPerModuleConfig to ModuleFqnToConfig"))
    assert said is not None and said.subject == "AOPerModuleConfig renamed to ModuleFqnToConfig"
    said = announce(_pr("drop PyTorch 2.8 support from the code"))
    assert said is not None and said.subject == "PyTorch 2.8 support dropped from the code"
    said = announce(
        _pr("Move int8 matmul kernels into the int8 workflow and drop them from public API")
    )
    assert said is not None and said.subject == ""  # `them dropped …` says nothing


def test_what_users_should_do_is_quoted_from_the_body() -> None:
    body = (  # #8451's description, as landed
        "ET_LOG_MSG_AND_RETURN_IF_FALSE is renamed to ET_CHECK_OR_RETURN_FALSE and moved. "
        "ET_LOG_AND_RETURN_FALSE is deprecated in favor of ET_CHECK_OR_RETURN_FALSE with a "
        "descriptive message.\n\nDifferential Revision: D12345"
    )
    said = announce(_pr("Deprecate ET_LOG{,_MSG}_AND_RETURN_IF_FALSE", body=body))
    assert said is not None
    assert said.hint.startswith("ET_LOG_MSG_AND_RETURN_IF_FALSE is renamed to")
    assert migration_hint("Test Plan:\nuse the new API instead.\n") == ""  # no prose there


@pytest.mark.parametrize(
    ("fixture", "repo"), [("executorch_jsonl", "pytorch/executorch"), ("ao_jsonl", "pytorch/ao")]
)
def test_every_announcement_the_editorial_check_reads_is_caught(
    fixture: str, repo: str, request: pytest.FixtureRequest
) -> None:
    """The check's detector (tests/editorial_repo.py) is the bar: every PR it reads as
    announcing a break or a deprecation, the analysis reads so too."""
    path: Path = request.getfixturevalue(fixture)
    missed = [
        f"#{pr.number} {pr.title}"
        for pr in load(str(path), repo)
        if pr.number is not None and announces_break(pr.title, pr.labels) and announce(pr) is None
    ]
    assert missed == []
