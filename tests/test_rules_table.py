"""Pattern-table rules: every cell equals the plain colouring for any word length, ``build_table``
fills and returns the array it was given, and the cache notices any changed byte.

No ``ctx`` fixture here: these tests build small tables themselves, so a changed builder is seen."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil

import numpy as np
import pytest

from evo_wordle import table as tbl
from evo_wordle.errors import EvoWordleError
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


#: Sizes of the checksum tests: several 32 KB blocks and a tail (the old checksum folded the
#: bytes into rows of 4,096 64-bit words; the new one must see everything the old one saw).
BLOCK = 8 * 4096


def test_checksum_sees_every_byte():
    base = np.arange(BLOCK * 3 + 8 * 5 + 3, dtype=np.uint64).astype(np.uint8)  # a tail too
    ref = tbl.checksum(base)
    for i in (0, 7, 8, BLOCK, len(base) - 44, len(base) - 3, len(base) - 1):
        changed = base.copy()
        changed[i] ^= 1
        assert tbl.checksum(changed) != ref, i
    assert ref.startswith("xxh3-128:") and len(ref) == len("xxh3-128:") + 32 and int(ref[9:], 16) >= 0


def test_checksum_sees_position():
    """Swapping two different values anywhere (same row, same column, same byte lane) is seen."""
    base = (np.arange(BLOCK * 4, dtype=np.uint64) * 2654435761 % 251).astype(np.uint8)
    ref = tbl.checksum(base)
    for i, j in ((0, 1), (0, 8), (0, BLOCK), (5, BLOCK + 13), (3, len(base) - 1)):
        swapped = base.copy()
        assert swapped[i] != swapped[j]
        swapped[[i, j]] = swapped[[j, i]]
        assert tbl.checksum(swapped) != ref, (i, j)


def test_checksum_sees_changes_that_cancel_in_row_and_column_sums():
    """Two swaps in one byte lane of two rows that undo each other's row and column sums: the
    old folded checksum missed them (same value), the byte-wise hash does not."""
    base = np.zeros(BLOCK * 2, dtype=np.uint8)
    base[[0, 8, BLOCK, BLOCK + 8]] = [1, 2, 2, 1]  # a b / b a at (row 0, row 1) x (word 0, word 1)
    damaged = base.copy()
    damaged[[0, 8, BLOCK, BLOCK + 8]] = [2, 1, 1, 2]
    assert tbl.legacy_checksum(damaged) == tbl.legacy_checksum(base)
    assert tbl.checksum(damaged) != tbl.checksum(base)


def test_checksum_format_is_stable():
    """The sidecar's checksum: ``xxh3-128:`` and the XXH3 128-bit digest of the table's bytes
    in C order, and the same for a table, its flat bytes and a memory-mapped copy."""
    import xxhash

    data = (np.arange(BLOCK * 2 + 11, dtype=np.uint64) * 7 % 256).astype(np.uint8)
    assert tbl.checksum(data) == "xxh3-128:" + xxhash.xxh3_128_hexdigest(data.tobytes())
    t = data[: 120 * 137].reshape(120, 137)
    assert tbl.checksum(t) == tbl.checksum(t.reshape(-1)) != tbl.checksum(t.T)


def test_legacy_checksum_format():
    """evo-wordle <= 0.2's checksum (read once to adopt an old cache): sha256 of the row sums and
    column sums of the bytes read as a (rows, 4096) matrix of 64-bit words, then the leftover."""
    import hashlib

    data = (np.arange(BLOCK * 2 + 11, dtype=np.uint64) * 7 % 256).astype(np.uint8)
    m = data[: 2 * BLOCK].view(np.uint64).reshape(2, 4096)
    want = hashlib.sha256(m.sum(axis=1, dtype=np.uint64).tobytes() + m.sum(axis=0, dtype=np.uint64).tobytes()
                          + data[2 * BLOCK :].tobytes()).hexdigest()
    assert tbl.legacy_checksum(data) == want


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



def _small_words(tmp_path, n: int, start: int = 0):
    path = tmp_path / f"w{n}.txt"
    path.write_text("\n".join(NYT.allowed[start:start + n]) + "\n")
    return load_words(allowed=path, answers=path)


def test_without_fallocate_the_file_is_cut_to_its_exact_size(tmp_path, monkeypatch, capsys):
    """A file system without posix_fallocate: the table file is truncated to header + n² bytes,
    so the next load accepts it instead of rebuilding it."""
    words = _small_words(tmp_path, 40)

    def unsupported(fd, offset, length):
        raise OSError(errno.EOPNOTSUPP, "Operation not supported")

    monkeypatch.setattr(tbl.os, "posix_fallocate", unsupported)
    cache = tmp_path / "cache"
    built = np.array(load_table(words, cache))
    npy, _ = tbl.cache_paths(words, cache)
    with open(npy, "rb") as fh:
        np.lib.format.read_magic(fh)
        np.lib.format.read_array_header_1_0(fh)
        assert npy.stat().st_size == fh.tell() + 40 * 40
    capsys.readouterr()
    assert np.array_equal(load_table(words, cache), built) and capsys.readouterr().err == ""


def test_a_failed_reservation_says_how_many_megabytes(tmp_path, monkeypatch):
    words = _small_words(tmp_path, 1300)  # 1,690,000 cells: 1.69 MB, said as "2 MB"

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tbl.os, "posix_fallocate", full)
    npy, meta = tbl.cache_paths(words, tbl.prepare(tmp_path / "cache"))
    with pytest.raises(EvoWordleError, match=r"cannot reserve 2 MB for the pattern table"):
        tbl.write_table(words, npy, meta)


@pytest.mark.parametrize(("needed", "free", "said"), [(21_500_000, 20_500_000, ("22", "20")),
                                                      (22_500_000, 21_500_000, ("22", "22"))])
def test_megabytes_in_the_space_messages_round_a_half_to_even(tmp_path, monkeypatch, needed, free, said):
    """Sizes are said in whole megabytes of 10^6 bytes, a half rounded to even (21.5 → 22,
    20.5 → 20, 22.5 → 22): the space needed, the space free and the reservation refused."""
    words = _small_words(tmp_path, 30)
    cache = tbl.prepare(tmp_path / "cache")
    npy, meta = tbl.cache_paths(words, cache)
    usage = shutil.disk_usage(cache)
    monkeypatch.setattr(tbl.shutil, "disk_usage", lambda root: usage._replace(free=free))
    with pytest.raises(EvoWordleError, match=rf"needs {said[0]} MB, {said[1]} MB free"):
        tbl._check_space(cache, needed - tbl.SPACE_MARGIN)

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tbl.shutil, "disk_usage", lambda root: usage._replace(free=10**12))
    monkeypatch.setattr(tbl.os, "posix_fallocate", full)
    monkeypatch.setattr(tbl, "table_bytes", lambda n, length: needed)  # a table that size, refused
    with pytest.raises(EvoWordleError, match=rf"cannot reserve {said[0]} MB for the pattern table"):
        tbl.write_table(words, npy, meta)


def test_free_space_must_cover_the_table_and_16_mib(tmp_path, monkeypatch):
    """Needs n² + 4,096 (header) + 16 MiB bytes: 890 words need 792,100 + 4,096 + 16,777,216 =
    17,573,412 bytes, said as "18 MB"; one byte less free is refused."""
    words = _small_words(tmp_path, 890)
    need = 890 * 890 + 4096 + 16 * 2**20
    cache = tbl.prepare(tmp_path / "cache")
    npy, meta = tbl.cache_paths(words, cache)
    usage = shutil.disk_usage(cache)
    monkeypatch.setattr(tbl.shutil, "disk_usage", lambda root: usage._replace(free=need - 1))
    with pytest.raises(EvoWordleError, match=r"needs 18 MB, 18 MB free"):
        tbl.write_table(words, npy, meta)
    monkeypatch.setattr(tbl.shutil, "disk_usage", lambda root: usage._replace(free=need))
    assert tbl.write_table(words, npy, meta).shape == (890, 890)


def test_a_list_too_large_for_512_mib_is_refused_with_the_largest_size():
    """512 MiB of uint8 cells: isqrt(536,870,912) = 23,170 words (23,170² = 536,848,900)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    fake = [a + b + c + d + "z" for a in letters for b in letters for c in letters for d in letters[:2]][:23_171]
    words = WordSet(sorted(fake), sorted(fake[:10]))
    with pytest.raises(EvoWordleError, match=r"a list of 23,171 words needs a 0\.5 GB pattern table; "
                                             r"at most 23,170 words of 5 letters are supported"):
        tbl.check_size(words)
    tbl.check_size(WordSet(sorted(fake[:23_170]), sorted(fake[:10])))  # the largest accepted


def test_a_failed_rename_is_a_one_line_error_and_leaves_no_temporary(tmp_path):
    words = _small_words(tmp_path, 30)
    npy, meta = tbl.cache_paths(words, tbl.prepare(tmp_path / "cache"))
    npy.mkdir()
    (npy / "keep").write_text("x")  # the table cannot be renamed onto a folder that holds a file
    with pytest.raises(EvoWordleError, match=r"cannot write the pattern table in .*: (Is a dir|Directory not empty)"):
        tbl.write_table(words, npy, meta)
    assert not [f for f in npy.parent.iterdir() if f.name.startswith(".patterns-")]


@pytest.mark.parametrize("fault", ["io", "interrupt"])
def test_a_temporary_removed_by_someone_else_before_the_build_fails_still_fails_cleanly(tmp_path, monkeypatch,
                                                                                         fault):
    """Another run's sweep (a build older than STALE_SECONDS) or the user may delete the temporary
    table: the build's own failure still comes out (the one-line error, or the interrupt), not a
    FileNotFoundError from removing the temporary."""
    words = _small_words(tmp_path, 30)
    npy, meta = tbl.cache_paths(words, tbl.prepare(tmp_path / "cache"))

    def vanish(letters, out=None, progress=None):
        for f in npy.parent.iterdir():
            if f.name.startswith(".patterns-"):
                f.unlink()
        raise OSError(errno.EIO, "Input/output error") if fault == "io" else KeyboardInterrupt

    monkeypatch.setattr(tbl, "build_table", vanish)
    with pytest.raises(EvoWordleError if fault == "io" else KeyboardInterrupt) as info:
        tbl.write_table(words, npy, meta)
    if fault == "io":
        assert str(info.value) == f"cannot write the pattern table in {npy.parent}: Input/output error"


def test_a_fortran_order_file_is_rebuilt_even_with_a_matching_checksum(tmp_path, capsys):
    words = _small_words(tmp_path, 60)
    cache = tmp_path / "cache"
    good = np.array(load_table(words, cache))
    npy, meta = tbl.cache_paths(words, cache)
    np.save(npy, np.asfortranarray(good))  # right shape and type, columns first on disk
    info = json.loads(meta.read_text())
    info["checksum"] = tbl.checksum(good.T)  # the file's bytes, read row by row
    meta.write_text(json.dumps(info))
    capsys.readouterr()
    again = load_table(words, cache)
    assert "Fortran order" in capsys.readouterr().err and np.array_equal(np.array(again), good)


def test_a_file_of_the_wrong_size_is_named_with_both_sizes(tmp_path, capsys):
    words = _small_words(tmp_path, 50)
    cache = tmp_path / "cache"
    load_table(words, cache)
    npy, _ = tbl.cache_paths(words, cache)
    size = npy.stat().st_size
    with open(npy, "ab") as fh:
        fh.write(b"1234567")
    capsys.readouterr()
    load_table(words, cache)
    assert f"(it has {size + 7} bytes, not {size}); rebuilding" in capsys.readouterr().err


def test_an_unreadable_header_is_quoted_in_60_characters(tmp_path, monkeypatch, capsys):
    words = _small_words(tmp_path, 20)
    cache = tmp_path / "cache"
    load_table(words, cache)

    def bad_magic(fh):
        raise ValueError("x" * 100)

    monkeypatch.setattr(np.lib.format, "read_magic", bad_magic)
    capsys.readouterr()
    assert load_table(words, cache).shape == (20, 20)  # rebuilt
    assert f"(not a table file: {'x' * 60})" in capsys.readouterr().err


def test_a_table_of_two_byte_cells_is_accepted_when_loaded_again(tmp_path, capsys):
    """Six letters: 3^6 = 729 codes need uint16, so the file is header + 2·n² bytes."""
    letters = "abcdefghij"
    six = sorted({a + b + "cde" + c for a in letters for b in letters for c in "xy"})[:35]
    words = WordSet(six, six[:5])
    cache = tmp_path / "cache"
    built = load_table(words, cache)
    assert built.dtype == np.uint16
    capsys.readouterr()
    assert np.array_equal(load_table(words, cache), built) and capsys.readouterr().err == ""


@pytest.mark.parametrize("kind", ["symlink", "folder"])
def test_a_table_path_that_is_not_a_file_is_named(tmp_path, capsys, kind):
    words = _small_words(tmp_path, 25)
    cache = tmp_path / "cache"
    good = np.array(load_table(words, cache))
    npy, _ = tbl.cache_paths(words, cache)
    if kind == "symlink":
        os.replace(npy, tmp_path / "elsewhere.npy")
        npy.symlink_to(tmp_path / "elsewhere.npy")
    else:
        npy.unlink()
        npy.mkdir()
    capsys.readouterr()
    assert np.array_equal(np.array(load_table(words, cache)), good)
    assert f"(it is a {kind})" in capsys.readouterr().err


def test_512_mib_of_two_byte_cells_hold_16384_words_of_6_letters():
    """Words of 6 letters take uint16 cells: 16,384² × 2 bytes is exactly 512 MiB, accepted;
    one word more is refused, naming 16,384."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    fake = [a + b + c + "zzz" for a in letters for b in letters for c in letters][:16_385]
    tbl.check_size(WordSet(sorted(fake[:16_384]), sorted(fake[:10])))
    with pytest.raises(EvoWordleError, match=r"a list of 16,385 words needs a 0\.5 GB pattern table; "
                                             r"at most 16,384 words of 6 letters are supported"):
        tbl.check_size(WordSet(sorted(fake), sorted(fake[:10])))


def test_legacy_checksum_sums_every_row_of_a_large_table():
    """The old checksum goes through the (rows, 4096) matrix 32 rows at a time: every row of a
    table of 70 rows and a leftover counts once, in its place."""
    import hashlib

    rng = np.random.default_rng(12)
    data = rng.integers(0, 256, BLOCK * 70 + 5, dtype=np.uint8)
    m = data[: 70 * BLOCK].view(np.uint64).reshape(70, 4096)
    want = hashlib.sha256(m.sum(axis=1, dtype=np.uint64).tobytes() + m.sum(axis=0, dtype=np.uint64).tobytes()
                          + data[70 * BLOCK :].tobytes()).hexdigest()
    assert tbl.legacy_checksum(data) == want


def test_an_old_cache_in_a_folder_that_cannot_take_the_new_sidecar_is_still_used(tmp_path, monkeypatch, capsys):
    """Adopting an evo-wordle <= 0.2 cache rewrites its sidecar; where that fails (a read-only
    cache) the table is used all the same, checked the old way again next time."""
    words = _small_words(tmp_path, 40)
    cache = tmp_path / "cache"
    good = np.array(load_table(words, cache))
    npy, meta = tbl.cache_paths(words, cache)
    info = json.loads(meta.read_text())
    info["checksum"] = tbl.legacy_checksum(good)
    meta.write_text(json.dumps(info))

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tbl, "atomic_write_text", refuse)
    capsys.readouterr()
    assert np.array_equal(np.array(load_table(words, cache)), good)
    assert capsys.readouterr().err == "" and json.loads(meta.read_text())["checksum"] == info["checksum"]


def test_cache_files_are_named_and_versioned_as_documented(tmp_path):
    """docs/foundation.md: ``patterns-v2-<sha16>.npy`` and ``.json``, the sidecar's version 2."""
    words = _small_words(tmp_path, 20)
    cache = tmp_path / "cache"
    load_table(words, cache)
    npy, meta = tbl.cache_paths(words, cache)
    assert (npy.name, meta.name) == (f"patterns-v2-{words.digest[:16]}.npy", f"patterns-v2-{words.digest[:16]}.json")
    assert npy.is_file() and json.loads(meta.read_text())["version"] == 2


def test_the_sidecar_is_read_up_to_4096_bytes(tmp_path, capsys):
    """docs/foundation.md caps the sidecar at 4 KB: 4,096 bytes (padded with spaces) are read,
    4,097 are refused and the table rebuilt."""
    words = _small_words(tmp_path, 20)
    cache = tmp_path / "cache"
    good = np.array(load_table(words, cache))
    _, meta = tbl.cache_paths(words, cache)
    text = meta.read_text()
    meta.write_text(text + " " * (4096 - len(text.encode())))
    capsys.readouterr()
    assert np.array_equal(np.array(load_table(words, cache)), good) and capsys.readouterr().err == ""
    meta.write_text(text + " " * (4097 - len(text.encode())))
    assert np.array_equal(np.array(load_table(words, cache)), good)
    assert "too large" in capsys.readouterr().err


@pytest.mark.parametrize("sidecar", ["[]", '"x"', "null", '{"checksum": 7}', "{}"])
def test_a_sidecar_that_is_no_table_description_means_one_line_and_a_rebuild(tmp_path, capsys, sidecar):
    """Not an object, or an object without a string checksum: one notice line, then the table
    is rebuilt (and no second line saying it was built)."""
    words = _small_words(tmp_path, 20)
    cache = tmp_path / "cache"
    good = np.array(load_table(words, cache))
    _, meta = tbl.cache_paths(words, cache)
    meta.write_text(sidecar)
    capsys.readouterr()
    assert np.array_equal(np.array(load_table(words, cache)), good)
    err = capsys.readouterr().err
    assert "its sidecar is not a table description" in err and "rebuilding" in err and len(err.splitlines()) == 1
    assert json.loads(meta.read_text())["checksum"] == tbl.checksum(good)


def test_space_for_header_and_cells_is_reserved_from_the_start(tmp_path, monkeypatch):
    """posix_fallocate reserves exactly header + n² bytes from offset 0, and the file has that size."""
    words = _small_words(tmp_path, 30)
    npy, meta = tbl.cache_paths(words, tbl.prepare(tmp_path / "cache"))
    calls = []
    real = os.posix_fallocate

    def record(fd, offset, length):
        calls.append((offset, length))
        return real(fd, offset, length)

    monkeypatch.setattr(tbl.os, "posix_fallocate", record)
    tbl.write_table(words, npy, meta)
    header = npy.stat().st_size - 30 * 30
    assert calls == [(0, header + 30 * 30)] and header in (64, 128)


def test_a_temporary_file_that_cannot_be_made_names_the_folder(tmp_path, monkeypatch):
    words = _small_words(tmp_path, 30)
    npy, meta = tbl.cache_paths(words, tbl.prepare(tmp_path / "cache"))

    def refuse(path):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tbl, "make_temp", refuse)
    with pytest.raises(EvoWordleError, match=r"^cache folder .*cache is not writable: Permission denied$"):
        tbl.write_table(words, npy, meta)
