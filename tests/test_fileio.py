import os
from pathlib import Path

import pytest

from prdigest.errors import ConfigError
from prdigest.fileio import write_atomic


def test_replaces_a_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    target.write_text("old")
    write_atomic(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"], "no temporary file is left behind"


def test_a_fifo_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    write_atomic(fifo, "data")
    assert os.read(reader, 10) == b"data"
    os.close(reader)
    assert fifo.is_fifo()


def test_an_unwritable_place_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot write"):
        write_atomic(tmp_path / "missing" / "out.md", "x")
