"""The code index: names a source tree defines → the directories that define them, as
features of the trained classifier (classify/code_index.py)."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

from helpers import run_cli
from prdigest.classify import load_profile
from prdigest.classify.code_index import (
    CodeIndex,
    build_code_index,
    definitions,
    is_code_name,
    load_code_index,
)
from prdigest.classify.evaluate import accuracies, classify_rows, train_on
from prdigest.classify.features import Sample, symbolic_tokens
from prdigest.classify.model import load_model, save_model
from prdigest.classify.training_labels import WorksheetRow
from prdigest.errors import ConfigError
from prdigest.sources.records import parse_record
from prdigest.store import open_store

PYTHON_SOURCE = """
import torch

DEFAULT_TIMEOUT = 30
_private_table: dict = {}

class ShardedOptimizer:
    def step_closure(self):
        pass

async def gather_results():
    pass

def helper():  # plain names are English more often than code: not indexed
    pass
"""

NATIVE_SOURCE = """
namespace torch_jit_mobile {
struct TORCH_API TypeParser {
  TypeParser(std::string pythonStr);
};
class C10_API DynamicType;
enum class OpCode { LOAD_CONST };
using TypePtr = std::shared_ptr<Type>;
TORCH_API c10::TypePtr parseType(const std::string& pythonStr);
static inline void reset_state() {}
}
"""


def _tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_code_names_are_identifier_shaped() -> None:
    assert is_code_name("type_parser") and is_code_name("GetLivenessMap")
    assert is_code_name("THPVariableCheck") and is_code_name("_foo_bar")
    assert not is_code_name("parser") and not is_code_name("Fix") and not is_code_name("CUDA")


def test_definitions_in_python_and_cpp() -> None:
    assert definitions("torch/distributed/optim/sharded_optim.py", PYTHON_SOURCE) == {
        "sharded_optim",
        "DEFAULT_TIMEOUT",
        "_private_table",
        "ShardedOptimizer",
        "step_closure",
        "gather_results",
    }
    assert definitions("torch/csrc/jit/mobile/type_parser.h", NATIVE_SOURCE) == {
        "type_parser",
        "torch_jit_mobile",
        "TypeParser",
        "DynamicType",
        "OpCode",
        "TypePtr",
        "parseType",
        "reset_state",
    }
    assert definitions("torch/utils/model_dump/__init__.py", "") == {"model_dump"}
    assert definitions("docs/source/notes.rst", "def fake_function(): pass") == set()


def test_a_source_tree_is_indexed_by_directory(tmp_path: Path) -> None:
    root = _tree(
        tmp_path / "repo",
        {
            "torch/csrc/jit/mobile/type_parser.h": NATIVE_SOURCE,
            "torch/distributed/optim/sharded_optim.py": PYTHON_SOURCE,
            "torch/nn/common_types.py": "shared_helper = 1\n",
            "torch/fx/common_types.py": "shared_helper = 2\n",
            "test/jit/common_types.py": "shared_helper = 3\n",
            "third_party/fmt/format.h": "class FormatSpec {};\n",
            ".git/hooks/pre_commit.py": "def hook_name(): pass\n",
        },
    )
    index = build_code_index(root, max_directories=2)
    assert index.where("TypeParser") == ("torch/csrc/jit/mobile",)
    assert index.where("step_closure") == ("torch/distributed/optim",)
    assert index.where("shared_helper") == ()  # defined in 3 directories: too common
    assert index.where("FormatSpec") == () and index.where("hook_name") == ()  # skipped dirs
    title = "[jit] Make `TypeParser::parseType` faster; use step_closure (#65175)"
    assert index.lookup(title) == [
        ("TypeParser", ("torch/csrc/jit/mobile",)),
        ("parseType", ("torch/csrc/jit/mobile",)),
        ("step_closure", ("torch/distributed/optim",)),
    ]
    assert index.tokens(title) == [
        "__code_torch/csrc",
        "__code_torch/csrc/jit",
        "__code_torch/csrc/jit/mobile",
        "__code_torch/distributed",
        "__code_torch/distributed/optim",
    ]
    assert index.tokens("Fix a typo in the parser (#1)") == []


def test_archives_index_installed_headers_at_their_include_path(tmp_path: Path) -> None:
    wheel = tmp_path / "torch-0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("torch/include/torch/csrc/jit/mobile/type_parser.h", NATIVE_SOURCE)
        archive.writestr("torch/include/c10/core/TensorImpl.h", "struct C10_API TensorImpl {};")
        archive.writestr("torch/utils/model_dump/__init__.py", "def burn_in_info(): pass\n")
        archive.writestr("torch-0.0.dist-info/METADATA", "Name: torch\n")
    index = build_code_index(wheel)
    assert index.where("TypeParser") == ("torch/csrc/jit/mobile",)
    assert index.where("TensorImpl") == ("c10/core",)
    assert index.where("model_dump") == ("torch/utils/model_dump",)
    assert index.source == wheel.name  # a name, not a path of the machine that built it

    sdist = tmp_path / "torch-0.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        data = PYTHON_SOURCE.encode()
        info = tarfile.TarInfo("torch-0.0/torch/distributed/optim/sharded_optim.py")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    assert build_code_index(sdist).where("ShardedOptimizer") == ("torch/distributed/optim",)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing", "code source .*missing not found"),
        (lambda p: _write(p / "notes.txt", b"hello"), "neither a directory nor an archive"),
        (lambda p: _write(p / "broken.whl", b"PK\x03\x04 not a zip"), "cannot read code source"),
        (lambda p: _tree(p / "empty", {"README.md": "# no code"}), "found no Python or C/C"),
    ],
)
def test_bad_code_sources_are_one_clear_error(tmp_path: Path, make, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as raised:
        build_code_index(make(tmp_path))
    assert "give a source tree (a clone), a package archive" in str(raised.value.fix)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_a_corrupt_index_in_arrays_is_refused() -> None:
    with pytest.raises(ValueError, match="does not list"):
        CodeIndex("x", ["a/b"], ["foo_bar"], np.array([0, 1]), np.array([3], dtype=np.int32))
    with pytest.raises(ValueError, match="offsets"):
        CodeIndex("x", ["a/b"], ["foo_bar"], np.array([0]), np.array([0], dtype=np.int32))


# -- with the trained model -----------------------------------------------------------------------
@pytest.fixture
def worksheet(worksheet_rows: list) -> list:
    return worksheet_rows


def test_a_model_carries_its_index_through_its_file(worksheet: list, tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo", {"torch/csrc/jit/runtime/static/impl.h": NATIVE_SOURCE})
    code = build_code_index(root)
    profile = load_profile("pytorch")
    rows = worksheet[:600]
    titles = ["[SR] Speed up TypeParser", "Fix parseType for tuples", "TypeParser: skip spaces"]
    rows += [WorksheetRow(0, "0" * 10, "jit", None, "Untopiced", title) for title in titles]
    model = train_on(rows, profile, "m", code)
    assert "__code_torch/csrc/jit/runtime" in model.featurizer.vectorizers["symbols"].vocabulary_
    path = tmp_path / "m.prdm"
    save_model(model, path)
    loaded = load_model(path)
    assert loaded.featurizer.code is not None
    assert loaded.featurizer.code.where("TypeParser") == ("torch/csrc/jit/runtime/static",)
    samples = [Sample(row.title) for row in worksheet[600:800]] + [Sample("Make OpCode smaller")]
    for a, b in zip(model.guess(samples), loaded.guess(samples), strict=True):
        assert (a.area, a.kind) == (b.area, b.kind)
        assert a.area_confidence == pytest.approx(b.area_confidence, abs=1e-5)
    # a name the labels never contained still reaches the model, through its directory
    unseen = Sample("Make OpCode smaller")
    assert "__code_torch/csrc/jit" in symbolic_tokens(unseen, loaded.featurizer.hints, None, code)


def test_cli_trains_with_code_and_explains_with_it(
    worksheet: list, worksheet_csv: Path, tmp_path: Path
) -> None:
    root = _tree(tmp_path / "repo", {"torch/csrc/jit/mobile/type_parser.h": NATIVE_SOURCE})
    model = tmp_path / "m.prdm"
    trained = run_cli(
        "classify",
        "train",
        "--labels",
        str(worksheet_csv),
        "--out",
        str(model),
        "--code",
        str(root),
    )
    assert trained.exit_code == 0, trained.output
    assert "code index of 8 names" in trained.output
    db = tmp_path / "store.db"
    record = {
        "number": 70477,
        "sha": "a" * 40,
        "title": "[jit][edge] Have TypeParser return const reference (#70477)",
        "committed_at": "2022-01-05T10:00:00Z",
        "files": [],
    }
    store = open_store(str(db))
    store.upsert_pull_requests(
        "pytorch/pytorch", [parse_record(record, "pytorch/pytorch", "jsonl", "t:1")]
    )
    store.close()
    explained = run_cli(
        "classify", "explain", "pytorch/pytorch", "70477", "--model", str(model), db=db
    )
    assert explained.exit_code == 0, explained.output
    assert "code: TypeParser → torch/csrc/jit/mobile" in explained.output


def test_cli_code_option_errors(tmp_path: Path, worksheet: list, worksheet_csv: Path) -> None:
    out = tmp_path / "m.prdm"
    missing = run_cli(
        "classify", "train", "--labels", str(worksheet_csv), "--out", str(out), "--code", "nowhere"
    )
    assert missing.exit_code == 1
    assert missing.output.count("\n") == 1 and "code source nowhere not found" in missing.output
    assert not out.exists()
    alone = run_cli("classify", "eval", "--labels", str(worksheet_csv), "--code", str(tmp_path))
    assert alone.exit_code == 2 and "--code and --no-code go with --folds" in alone.output
    both = run_cli(
        "classify",
        "train",
        "--labels",
        str(worksheet_csv),
        "--out",
        str(out),
        "--code",
        "x",
        "--no-code",
    )
    assert both.exit_code == 2 and "not both" in both.output


def test_an_index_file_round_trips_and_the_cli_writes_one(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo", {"torch/csrc/jit/mobile/type_parser.h": NATIVE_SOURCE})
    out = tmp_path / "code.npz"
    written = run_cli("classify", "index", "--code", str(root), "--out", str(out))
    assert written.exit_code == 0, written.output
    assert "indexed 8 code names in 1 directories" in written.output
    loaded = build_code_index(out)  # `--code FILE.npz` reads an index file
    built = build_code_index(root)
    assert (loaded.source, loaded.names, loaded.directories) == (
        "repo",
        built.names,
        built.directories,
    )
    assert loaded.where("TypeParser") == ("torch/csrc/jit/mobile",)
    wrong = run_cli("classify", "index", "--code", str(root), "--out", str(tmp_path / "code.bin"))
    assert wrong.exit_code == 1 and "does not end in .npz" in wrong.output


def test_a_corrupt_index_file_is_one_clear_error(tmp_path: Path) -> None:
    bad = _write(tmp_path / "bad.npz", b"PK\x03\x04 truncated")
    with pytest.raises(ConfigError, match="bad.npz is not a readable code index") as raised:
        load_code_index(bad)
    assert "prdigest classify index" in str(raised.value.fix)
    other = tmp_path / "other.npz"
    np.savez_compressed(other, something=np.zeros(3))
    with pytest.raises(ConfigError, match="not a readable code index .KeyError."):
        build_code_index(other)


def test_the_pytorch_profile_trains_with_its_code_index_unless_told_not_to(
    worksheet: list, worksheet_csv: Path, tmp_path: Path
) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("".join(worksheet_csv.read_text(encoding="utf-8").splitlines(True)[:400]))
    with_index, without = tmp_path / "with.prdm", tmp_path / "without.prdm"
    assert (
        run_cli("classify", "train", "--labels", str(labels), "--out", str(with_index)).exit_code
        == 0
    )
    assert (
        run_cli(
            "classify", "train", "--labels", str(labels), "--out", str(without), "--no-code"
        ).exit_code
        == 0
    )
    code = load_model(with_index).featurizer.code
    assert code is not None and code.source.startswith("torch-2.11.0")
    assert load_model(without).featurizer.code is None


# -- PyTorch's own code: the index the pytorch profile ships, and the wheel it came from ------
@pytest.fixture(scope="module")
def shipped() -> CodeIndex:
    path = load_profile("pytorch").code_index_path
    assert path is not None, "the pytorch profile names no code index"
    return load_code_index(path)


def test_pytorchs_code_places_the_names_titles_use(shipped: CodeIndex) -> None:
    assert len(shipped) > 30_000
    assert "torch/csrc/jit/mobile" in shipped.where("type_parser")
    assert "c10/core" in shipped.where("TensorImpl")
    assert "torch/linalg" in shipped.where("householder_product")
    assert "torch/utils/model_dump" in shipped.where("model_dump")
    assert shipped.where("forward") == ()  # not identifier-shaped
    assert shipped.where("__init__") == ()


def test_the_shipped_index_is_what_the_wheel_gives() -> None:
    """The profile's file is reproducible from PyTorch's package (scripts/test.sh fetches it)."""
    wheel = os.environ.get("PRDIGEST_TORCH_WHEEL", "")
    if not wheel or not Path(wheel).exists():
        pytest.skip(
            "PyTorch's wheel is not available: set PRDIGEST_TORCH_WHEEL (scripts/test.sh does)"
        )
    rebuilt = build_code_index(wheel)
    path = load_profile("pytorch").code_index_path
    assert path is not None
    shipped = load_code_index(path)
    assert (rebuilt.source, rebuilt.names, rebuilt.directories) == (
        shipped.source,
        shipped.names,
        shipped.directories,
    )
    assert (rebuilt.offsets == shipped.offsets).all() and (rebuilt.places == shipped.places).all()


def test_pytorchs_code_helps_on_rows_the_model_never_saw(
    shipped: CodeIndex, worksheet: list
) -> None:
    import hashlib

    def held_out(row) -> bool:
        return int(hashlib.sha256(row.commit_hash.encode()).hexdigest(), 16) % 5 == 0

    train = [r for r in worksheet if not held_out(r)]
    test = [r for r in worksheet if held_out(r)]
    profile = load_profile("pytorch")
    with_code = accuracies(classify_rows(test, profile, train_on(train, profile, "c", shipped)))
    without = accuracies(classify_rows(test, profile, train_on(train, profile, "p")))
    assert with_code[0].value >= without[0].value - 0.005
    assert with_code[1].value >= without[1].value - 0.005
    assert with_code[1].value > 0.70
