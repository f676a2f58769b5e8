"""Pattern-table rules: every cell equals the plain colouring for any word length, ``build_table``
fills and returns the array it was given, and the cache notices any changed byte.

No ``ctx`` fixture here: these tests build small tables themselves, so a changed builder is seen."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from evo_wordle import table as tbl
from evo_wordle.table import build_table, compute_rows, load_table, pattern_dtype
from evo_wordle.words import WordSet, load_words
from tests.reference import reference_pattern

NYT = load_words()


def _letters(words) -> np.ndarray:
    return WordSet(tuple(sorted(words)), tuple(sorted(words)), label="t").letters


def _reference(words) -> list[list[int]]:
    return [[reference_pattern(g, a) for a in words] for g in words]


DUPLICATES = ["abbey", "babes", "eerie", "three", "geese", "allee", "lleal", "mamma", "llama", "sassy", "asses",
              "crane", "tares", "speed", "abide", "lolly", "hello", "kayak", "array", "radar", "eagle", "emcee"]


def test_cells_equal_the_reference_on_repeated_letters():
    words = sorted(w for w in DUPLICATES if NYT.contains(w))
    assert len(words) >= 18
    got = build_table(_letters(words))
    assert got.dtype == np.uint8 and got.tolist() == _reference(words)


@pytest.mark.parametrize("words", [
    ["aaaa", "abab", "baba", "abba", "aabb", "bbbb", "abcd", "dcba", "cabd", "aaab"],  # 4 letters, 81 codes
    ["aaaaaa", "ababab", "bababa", "abbaab", "aabbcc", "ccbbaa", "abcabc", "bcabca", "aaabbb", "cbacba"],  # 729
    ["aab", "aba", "baa", "abc", "cab", "bca", "aaa", "ccc"],
])
def test_cells_equal_the_reference_for_other_lengths(words):
    words = sorted(words)
    got = build_table(_letters(words))
    assert got.dtype == pattern_dtype(len(words[0]))
    assert got.tolist() == _reference(words)


def test_pattern_dtype_fits_every_code():
    assert pattern_dtype(5) == np.uint8 and pattern_dtype(4) == np.uint8
    assert pattern_dtype(6) == np.uint16 and pattern_dtype(8) == np.uint16


def test_build_table_fills_and_returns_the_given_array():
    letters = NYT.letters[:300]
    out = np.full((300, 300), 7, dtype=np.uint8)
    got = build_table(letters, out=out)
    assert got is out
    fresh = build_table(letters)
    assert fresh.shape == (300, 300) and np.array_equal(out, fresh)
    words = NYT.allowed[:300]
    for g in (0, 191, 192, 299):  # rows on both sides of a chunk boundary
        assert out[g].tolist() == [reference_pattern(words[g], a) for a in words]


def test_build_reports_progress_for_every_row():
    done = []
    build_table(NYT.letters[:500], threads=2, progress=done.append)
    assert sum(done) == 500 and max(done) <= tbl.CHUNK_ROWS
    assert np.array_equal(build_table(NYT.letters[:500], threads=1), build_table(NYT.letters[:500], threads=3))


def test_compute_rows_match_the_reference():
    rng = np.random.default_rng(2)
    words = NYT.allowed
    guesses = rng.choice(len(words), 12, replace=False)
    answers = rng.choice(len(words), 400, replace=False)
    rows = compute_rows(NYT.letters[guesses], NYT.letters[answers])
    assert rows.dtype == np.uint8
    assert rows.tolist() == [[reference_pattern(words[g], words[a]) for a in answers] for g in guesses]


def test_checksum_sees_every_byte():
    base = np.arange(8 * 5 + 3, dtype=np.uint8)  # a tail that is not a whole 8-byte word
    ref = tbl._checksum(base)
    for i in (0, 7, 8, 39, 40, 42):
        changed = base.copy()
        changed[i] ^= 1
        assert tbl._checksum(changed) != ref, i
    assert 0 <= ref < 2**64


def test_checksum_format_is_stable():
    """Sidecars written earlier must still validate: the sum of the 8-byte words, plus the sum of
    the leftover bytes times 0x9E3779B97F4A7C15, mod 2^64."""
    data = np.arange(8 * 5 + 3, dtype=np.uint8) * 7
    words = data[:40].view(np.uint64)
    want = (int(words.sum(dtype=np.uint64)) + int(data[40:].sum()) * 0x9E3779B97F4A7C15) % 2**64
    assert tbl._checksum(data) == want


def test_default_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("EVO_WORDLE_CACHE", str(tmp_path / "c"))
    assert tbl.default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("EVO_WORDLE_CACHE")
    assert "evo-wordle" in str(tbl.default_cache_dir())


def test_cache_is_written_once_then_loaded(tmp_path, capsys):
    path = tmp_path / "w.txt"
    path.write_text("\n".join(NYT.allowed[:120]) + "\n")
    words = load_words(allowed=path, answers=path)
    cache = tmp_path / "cache"
    built = np.array(load_table(words, cache))
    assert "built pattern table" in capsys.readouterr().err
    assert built.tolist() == _reference(words.allowed)
    npy, meta = tbl.cache_paths(words, cache)
    info = json.loads(meta.read_text())
    assert info["n"] == 120 and info["digest"] == words.digest and info["version"] == tbl.CACHE_VERSION
    again = load_table(words, cache)
    assert capsys.readouterr().err == "" and np.array_equal(again, built)
    assert sorted(os.listdir(cache)) == sorted([npy.name, meta.name])
    rebuilt = load_table(words, cache, rebuild=True)  # asked for: rebuilt silently
    assert capsys.readouterr().err == "" and np.array_equal(rebuilt, built)
