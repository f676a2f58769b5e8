"""The pattern table: equal to the reference, and a cache that repairs itself."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evo_wordle.table import build_table, cache_paths, load_table
from evo_wordle.words import load_words
from tests.reference import reference_pattern


def test_full_table_rows_equal_reference(ctx):
    table = ctx.table
    words = ctx.words.allowed
    assert table.shape == (12972, 12972) and table.dtype == np.uint8
    rng = np.random.default_rng(7)
    rows = np.concatenate([[0, len(words) - 1, ctx.words.index("asses"), ctx.words.index("roars")],
                           rng.integers(len(words), size=6)])
    for g in rows:
        expected = [reference_pattern(words[g], a) for a in words]
        assert table[g].tolist() == expected, words[g]
    assert np.all(np.diagonal(table) == 242)


def test_threads_do_not_change_the_result(ctx):
    letters = ctx.words.letters[:700]
    assert np.array_equal(build_table(letters, threads=1), build_table(letters, threads=2))


@pytest.fixture
def small(tmp_path):
    allowed = tmp_path / "allowed.txt"
    allowed.write_text("\n".join(load_words().allowed[:400]) + "\n")
    return load_words(allowed=allowed, answers=allowed), tmp_path / "cache"


def _rebuilt(capsys) -> bool:
    return "rebuilding" in capsys.readouterr().err


def test_cache_round_trip(small, capsys):
    words, cache = small
    first = np.array(load_table(words, cache))
    npy, meta = cache_paths(words, cache)
    assert npy.exists() and meta.exists()
    capsys.readouterr()
    again = load_table(words, cache)
    assert isinstance(again, np.memmap)  # loaded memory-mapped, not rebuilt
    assert not _rebuilt(capsys)
    assert np.array_equal(first, again)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "sidecar", "other-list"])
def test_damaged_cache_is_rebuilt(small, capsys, damage):
    words, cache = small
    good = np.array(load_table(words, cache))
    npy, meta = cache_paths(words, cache)
    raw = bytearray(npy.read_bytes())
    if damage == "truncate":
        npy.write_bytes(raw[: len(raw) // 2])
    elif damage == "flip":
        raw[-1000] ^= 0x5A
        npy.write_bytes(bytes(raw))
    elif damage == "garbage":
        npy.write_bytes(b"not a numpy file at all")
    elif damage == "sidecar":
        meta.write_text("{ torn")
    else:
        info = json.loads(meta.read_text())
        info["digest"] = "0" * 64
        meta.write_text(json.dumps(info))
    capsys.readouterr()
    repaired = load_table(words, cache)
    assert _rebuilt(capsys)
    assert np.array_equal(np.array(repaired), good)
    capsys.readouterr()
    load_table(words, cache)
    assert not _rebuilt(capsys)  # the repaired cache is valid again


def test_different_lists_use_different_files(small):
    words, cache = small
    other = load_words()
    assert cache_paths(words, cache)[0] != cache_paths(other, cache)[0]


def test_no_temporary_files_left(small):
    words, cache = small
    load_table(words, cache, rebuild=True)
    assert sorted(p.suffix for p in cache.iterdir()) == [".json", ".lock", ".npy"]  # the lock is empty
