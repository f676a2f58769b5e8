"""Rules of the modules that keep files safe (evo_wordle/files.py, evo_wordle/cachedir.py): a read
never goes past its cap, not by one byte; a write never goes through a symlink; a cache folder
others may write is refused; a damaged cache never gives a figure.  Where a rule depends on who
runs the tests (root may write anywhere), the ownership or mode is monkeypatched instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evo_wordle import files
from evo_wordle.errors import EvoWordleError

# ------------------------------------------------------------------------------ capped reads


@pytest.mark.parametrize("size", [0, 1, 99, 100])
def test_a_file_of_at_most_the_cap_is_read_whole(tmp_path: Path, size: int):
    path = tmp_path / "f"
    path.write_bytes(b"x" * size)
    assert files.read_capped(path, 100, "list") == b"x" * size


def test_one_byte_over_the_cap_is_refused(tmp_path: Path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 101)
    with pytest.raises(EvoWordleError, match=r"^list .* is too large \(101 bytes; at most 100 bytes\)$"):
        files.read_capped(path, 100, "list")


def test_a_stream_is_read_up_to_its_cap_and_refused_one_byte_beyond(tmp_path: Path):
    r, w = os.pipe()
    os.write(w, b"y" * 100)
    os.close(w)
    try:
        assert files.read_capped(f"/dev/fd/{r}", 100, "list", streams=True) == b"y" * 100
    finally:
        os.close(r)
    r, w = os.pipe()
    os.write(w, b"y" * 101)
    os.close(w)
    try:
        with pytest.raises(EvoWordleError, match=r"too large \(more than 100 bytes\)$"):
            files.read_capped(f"/dev/fd/{r}", 100, "list", streams=True)
    finally:
        os.close(r)
