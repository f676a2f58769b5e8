"""Pattern-table rules: every cell equals the plain colouring for any word length, ``build_table``
fills and returns the array it was given, and the cache notices any changed byte.

No ``ctx`` fixture here: these tests build small tables themselves, so a changed builder is seen."""

from __future__ import annotations

import contextlib
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
    base = np.arange(8 * tbl.CHECK_WIDTH * 3 + 8 * 5 + 3, dtype=np.uint64).astype(np.uint8)  # a tail too
    ref = tbl.checksum(base)
    for i in (0, 7, 8, 8 * tbl.CHECK_WIDTH, len(base) - 44, len(base) - 3, len(base) - 1):
        changed = base.copy()
        changed[i] ^= 1
        assert tbl.checksum(changed) != ref, i
    assert len(ref) == 64 and int(ref, 16) >= 0


def test_checksum_sees_position():
    """Swapping two different values anywhere (same row, same column, same byte lane) is seen."""
    base = (np.arange(8 * tbl.CHECK_WIDTH * 4, dtype=np.uint64) * 2654435761 % 251).astype(np.uint8)
    ref = tbl.checksum(base)
    for i, j in ((0, 1), (0, 8), (0, 8 * tbl.CHECK_WIDTH), (5, 8 * tbl.CHECK_WIDTH + 13), (3, len(base) - 1)):
        swapped = base.copy()
        assert swapped[i] != swapped[j]
        swapped[[i, j]] = swapped[[j, i]]
        assert tbl.checksum(swapped) != ref, (i, j)


def test_checksum_format_is_stable():
    """The sidecar's checksum: sha256 of the row sums and column sums of the bytes read as a
    (rows, CHECK_WIDTH) matrix of little-endian 64-bit words, then the leftover bytes."""
    import hashlib

    data = (np.arange(8 * tbl.CHECK_WIDTH * 2 + 11, dtype=np.uint64) * 7 % 256).astype(np.uint8)
    m = data[: 16 * tbl.CHECK_WIDTH].view(np.uint64).reshape(2, tbl.CHECK_WIDTH)
    want = hashlib.sha256(m.sum(axis=1, dtype=np.uint64).tobytes() + m.sum(axis=0, dtype=np.uint64).tobytes()
                          + data[16 * tbl.CHECK_WIDTH :].tobytes()).hexdigest()
    assert tbl.checksum(data) == want


def test_default_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("EVO_WORDLE_CACHE", str(tmp_path / "c"))
    assert tbl.default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("EVO_WORDLE_CACHE")
    assert "evo-wordle" in str(tbl.default_cache_dir())


def test_cache_is_written_once_then_loaded(tmp_path, capsys):
    path = tmp_path / "w.txt"
    path.write_text("\n".join(NYT.allowed[:120]) + "\n")
    words = load_words(allowed=path, answers=path)
    cache = tmp_path / "not" / "yet" / "cache"  # missing parents are created
    built = np.array(load_table(words, cache))
    err = capsys.readouterr().err
    assert "built pattern table" in err and "unusable" not in err  # no cache yet is not a damaged cache
    npy, _ = tbl.cache_paths(words, cache)
    assert npy.name == f"patterns-v{tbl.CACHE_VERSION}-{words.digest[:16]}.npy"  # the on-disk name
    assert built.tolist() == _reference(words.allowed)
    npy, meta = tbl.cache_paths(words, cache)
    info = json.loads(meta.read_text())
    assert info["n"] == 120 and info["digest"] == words.digest and info["version"] == tbl.CACHE_VERSION
    again = load_table(words, cache)
    assert capsys.readouterr().err == "" and np.array_equal(again, built)
    assert sorted(n for n in os.listdir(cache) if not n.endswith(".lock")) == sorted([npy.name, meta.name])
    inode = npy.stat().st_ino
    rebuilt = load_table(words, cache, rebuild=True)  # asked for: rebuilt silently, even from a good cache
    assert capsys.readouterr().err == "" and np.array_equal(rebuilt, built)
    assert npy.stat().st_ino != inode  # a new file was written and renamed into place


def test_a_failed_write_reports_its_own_error(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("\n".join(NYT.allowed[:50]) + "\n")
    words = load_words(allowed=path, answers=path)
    npy, meta = tbl.cache_paths(words, tmp_path / "cache")
    meta.mkdir(parents=True)  # the sidecar cannot be renamed onto a folder
    from evo_wordle.errors import EvoWordleError

    with pytest.raises(EvoWordleError, match="Is a directory"):
        tbl.write_table(words, npy, meta)
    assert not [f for f in npy.parent.iterdir() if f.name.startswith(".patterns-")]  # no temporary left


def test_a_cache_of_the_wrong_shape_is_rebuilt_even_with_a_matching_checksum(tmp_path, capsys):
    path = tmp_path / "w.txt"
    path.write_text("\n".join(NYT.allowed[:60]) + "\n")
    words = load_words(allowed=path, answers=path)
    cache = tmp_path / "cache"
    good = np.array(load_table(words, cache))
    npy, meta = tbl.cache_paths(words, cache)
    np.save(npy, good[:-1, :-1])  # same dtype, wrong shape, and a sidecar that vouches for it
    info = json.loads(meta.read_text())
    info["checksum"] = tbl.checksum(good[:-1, :-1])
    meta.write_text(json.dumps(info))
    capsys.readouterr()
    again = load_table(words, cache)
    assert "unusable" in capsys.readouterr().err and again.shape == (60, 60)


def test_an_unwritable_cache_folder_is_a_clear_error(tmp_path):
    from evo_wordle.errors import EvoWordleError

    path = tmp_path / "w.txt"
    path.write_text("\n".join(NYT.allowed[:30]) + "\n")
    words = load_words(allowed=path, answers=path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(EvoWordleError, match="not writable"):
        load_table(words, blocker / "cache")


def test_a_damaged_table_written_while_waiting_for_the_lock_is_rebuilt(tmp_path, monkeypatch, capsys):
    """No file at the first look; another process writes a damaged one before our lock is granted:
    it is rebuilt (and equals the reference), not returned nor an error."""
    path = tmp_path / "w.txt"
    path.write_text("\n".join(NYT.allowed[:40]) + "\n")
    words = load_words(allowed=path, answers=path)
    cache = tmp_path / "cache"
    npy, _ = tbl.cache_paths(words, tbl.prepare(cache))
    real_lock = tbl.lock

    @contextlib.contextmanager
    def racing_lock(root, name):
        if not npy.exists():
            npy.write_bytes(b"not a numpy file at all")  # the other process's torn write
        with real_lock(root, name):
            yield

    monkeypatch.setattr(tbl, "lock", racing_lock)
    got = load_table(words, cache)
    want = [[reference_pattern(g, a) for a in words.allowed] for g in words.allowed]
    assert np.array(got).tolist() == want

