"""The pattern table ``table[guess, answer]``: vectorised builder and its on-disk cache.

Building: every row is a sum of at most ``L`` precomputed answer-length vectors
("components").  A letter that occurs once in the guess contributes ``3^k·trit`` with trit 2
if the answer has it at that position, 1 if the answer has it elsewhere, else 0.  A letter
repeated in the guess contributes one vector for the whole group of its positions, computed
with the exact duplicate-letter rule.  Rows are then gathered and added in chunks by two
threads (numpy drops the GIL in ``take`` and ``add``), straight into a memory-mapped file.

Caching: ``<cache>/patterns-v2-<digest>.npy`` plus a ``.json`` sidecar holding a
checksum of every byte in its place (xxh3-128) and a ``.verified`` stamp that lets later loads
skip re-reading a file the kernel says is unchanged since it was checked (docs/foundation.md).
One process builds while others wait on a lock; the build goes to a temporary file renamed into
place; a file that fails any check (truncated, foreign, swapped cells, a folder) is rebuilt with
a one-line notice.
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import shutil
import stat
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import xxhash

from .cachedir import default_cache_dir, lock, notice, prepare, stamp_matches, writable_by_others, write_stamp
from .errors import EvoWordleError
from .files import atomic_write_text, make_temp, read_json
from .words import WordSet

__all__ = ["build_table", "cache_paths", "checksum", "default_cache_dir", "load_table"]

CACHE_VERSION = 2
CHUNK_ROWS = 192


def pattern_dtype(length: int) -> type[np.unsignedinteger]:
    """The smallest unsigned dtype that holds every pattern code of ``length`` letters."""
    return np.uint8 if 3**length <= 256 else np.uint16


def _group_vector(answers: np.ndarray, letter: int, positions: tuple[int, ...], dtype) -> np.ndarray:
    """Contribution of a letter repeated at ``positions`` in the guess, for every answer."""
    length = answers.shape[1]
    green = answers[:, positions] == letter  # (n, k)
    budget = (answers == letter).sum(axis=1) - green.sum(axis=1)
    out = np.zeros(len(answers), dtype=np.int64)
    for k, pos in enumerate(positions):
        weight = 3 ** (length - 1 - pos)
        yellow = ~green[:, k] & (budget > 0)
        budget = budget - yellow
        out += weight * (2 * green[:, k] + yellow)
    return out.astype(dtype)


def components(guesses: np.ndarray, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(vectors, plan)``: each guess's row equals ``vectors[plan[g]].sum(axis=0)``."""
    length = guesses.shape[1]
    dtype = pattern_dtype(length)
    present = np.zeros((26, len(answers)), dtype=bool)
    for pos in range(length):
        present[answers[:, pos], np.arange(len(answers))] = True
    # Row 0 is all zeros (padding); rows 1 + pos*26 + letter are single-letter components.
    vectors = [np.zeros((1 + 26 * length, len(answers)), dtype=dtype)]
    for pos in range(length):
        weight = 3 ** (length - 1 - pos)
        trit = present.astype(dtype) + (answers[:, pos][None, :] == np.arange(26)[:, None])
        vectors[0][1 + pos * 26 : 1 + (pos + 1) * 26] = trit * weight
    plan = np.zeros((len(guesses), length), dtype=np.int64)
    groups: dict[tuple[int, tuple[int, ...]], int] = {}
    extra: list[np.ndarray] = []
    base = 1 + 26 * length
    for g, word in enumerate(guesses):
        seen: dict[int, list[int]] = {}
        for pos, letter in enumerate(word.tolist()):
            seen.setdefault(letter, []).append(pos)
        slot = 0
        for letter, positions in seen.items():
            if len(positions) == 1:
                plan[g, slot] = 1 + positions[0] * 26 + letter
            else:
                key = (letter, tuple(positions))
                if key not in groups:
                    groups[key] = base + len(extra)
                    extra.append(_group_vector(answers, letter, key[1], dtype))
                plan[g, slot] = groups[key]
            slot += 1
    if extra:
        vectors.append(np.stack(extra))
    return np.concatenate(vectors), plan


def compute_rows(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """Patterns for a few guesses (letter codes) against many answers; used for checks."""
    vectors, plan = components(guesses, answers)
    return vectors[plan].sum(axis=1, dtype=np.int64).astype(pattern_dtype(guesses.shape[1]))


def build_table(
    letters: np.ndarray,
    out: np.ndarray | None = None,
    threads: int = 2,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Fill ``out`` (or a new array) with ``table[g, a]`` for all pairs of ``letters``."""
    n, length = letters.shape
    dtype = pattern_dtype(length)
    if out is None:
        out = np.empty((n, n), dtype=dtype)
    vectors, plan = components(letters, letters)

    def work(start: int) -> int:
        stop = min(start + CHUNK_ROWS, n)
        rows = out[start:stop]
        np.take(vectors, plan[start:stop, 0], axis=0, out=rows)
        buf = np.empty_like(rows)
        for slot in range(1, length):
            idx = plan[start:stop, slot]
            np.take(vectors, idx, axis=0, out=buf)
            np.add(rows, buf, out=rows)
        return stop - start

    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for done in pool.map(work, range(0, n, CHUNK_ROWS)):
            if progress is not None:
                progress(done)
    return out


#: Largest table built (bytes): 512 MiB, i.e. at most 23,170 words of ≤ 5 letters (uint8 cells)
#: or 16,384 longer words (uint16).  The bundled list needs 168 MB; a 40,000-word list would
#: need 1.6 GB, which is refused before anything is allocated.
MAX_TABLE_BYTES = 512 * 2**20
#: Free space kept beyond the table itself when building (bytes).
SPACE_MARGIN = 16 * 2**20
#: Prefix of the checksum in the sidecar (the hash that made it).
CHECK_PREFIX = "xxh3-128:"
#: Width (in 64-bit words) of the matrix evo-wordle <= 0.2 folded the table into (its checksum).
LEGACY_WIDTH = 4096


def table_bytes(n: int, length: int) -> int:
    return n * n * np.dtype(pattern_dtype(length)).itemsize


def check_size(words: WordSet) -> None:
    """Refuse a list whose table would exceed :data:`MAX_TABLE_BYTES`, before allocating it."""
    need = table_bytes(len(words), words.length)
    if need > MAX_TABLE_BYTES:
        cell = np.dtype(pattern_dtype(words.length)).itemsize
        most = math.isqrt(MAX_TABLE_BYTES // cell)
        raise EvoWordleError(
            f"a list of {len(words):,} words needs a {need / 1e9:.1f} GB pattern table; "
            f"at most {most:,} words of {words.length} letters are supported"
        )


def checksum(table: np.ndarray) -> str:
    """``xxh3-128:`` and the XXH3 128-bit hash of the table's bytes: every byte counts in its
    place, so any changed, swapped, moved or missing byte is seen (not a defence against someone
    who can write the cache folder: that is refused by cachedir).  One pass at memory speed."""
    flat = np.ascontiguousarray(table).reshape(-1).view(np.uint8)  # no copy for a mapped table
    return CHECK_PREFIX + xxhash.xxh3_128_hexdigest(memoryview(flat))


def legacy_checksum(table: np.ndarray) -> str:
    """The checksum of evo-wordle <= 0.2 (sha256 of the row and column sums of the bytes folded
    into a ``(rows, LEGACY_WIDTH)`` matrix of 64-bit words, then the leftover bytes).  Only used
    once per old cache, to adopt it without a rebuild; it misses some four-cell changes."""
    flat = np.ascontiguousarray(table).reshape(-1).view(np.uint8)
    full = len(flat) // (8 * LEGACY_WIDTH) * (8 * LEGACY_WIDTH)
    m = flat[:full].view(np.uint64).reshape(-1, LEGACY_WIDTH)
    rows = np.empty(len(m), dtype=np.uint64)
    cols = np.zeros(LEGACY_WIDTH, dtype=np.uint64)
    for start in range(0, len(m), 32):
        block = m[start : start + 32]
        np.add.reduce(block, axis=1, out=rows[start : start + 32])
        cols += np.add.reduce(block, axis=0)
    h = hashlib.sha256(rows.tobytes())
    h.update(cols.tobytes())
    h.update(flat[full:].tobytes())
    return h.hexdigest()


def cache_paths(words: WordSet, cache_dir: Path | None = None) -> tuple[Path, Path]:
    """(table .npy, metadata .json) paths of a word list's pattern table in the cache."""
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    stem = f"patterns-v{CACHE_VERSION}-{words.digest[:16]}"
    return root / f"{stem}.npy", root / f"{stem}.json"


def stamp_path(npy: Path) -> Path:
    """The ``.verified`` stamp beside a cached table (see :func:`cachedir.stamp_matches`)."""
    return npy.with_suffix(".verified")


def _meta(words: WordSet, check: str) -> dict:
    return {"version": CACHE_VERSION, "digest": words.digest, "n": len(words), "length": words.length,
            "dtype": np.dtype(pattern_dtype(words.length)).name, "checksum": check}


def _open(words: WordSet, npy: Path, meta: Path, verify: bool = False) -> np.ndarray:
    """Map and verify a cached table; ValueError says what is wrong with it.

    The checksum is computed over the whole file unless its stamp says the kernel has seen no
    change since it was last computed (``verify`` computes it anyway)."""
    mode = os.lstat(npy).st_mode
    if not stat.S_ISREG(mode):
        kind = "symlink" if stat.S_ISLNK(mode) else "folder" if stat.S_ISDIR(mode) else "special file"
        raise ValueError(f"it is a {kind}")
    try:
        info = read_json(meta, 4096, "sidecar")
    except EvoWordleError as exc:
        raise ValueError(f"sidecar: {exc}") from None
    expected = _meta(words, "")
    if not isinstance(info, dict) or not isinstance(info.get("checksum"), str):
        raise ValueError("its sidecar is not a table description")
    if any(info.get(k) != v for k, v in expected.items() if k != "checksum"):
        raise ValueError("it was built for another word list or version")
    n, dtype = len(words), np.dtype(pattern_dtype(words.length))
    with open(npy, "rb") as fh:  # header, stamp and mapping all of this one file
        try:  # the header is checked before anything is mapped
            major, _ = np.lib.format.read_magic(fh)
            read = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
            shape, fortran, found = read(fh)
        except (ValueError, EOFError, SyntaxError, TypeError, OverflowError) as exc:
            raise ValueError(f"not a table file: {str(exc)[:60]}") from None
        offset = fh.tell()
        before = os.fstat(fh.fileno())
        if before.st_uid != os.geteuid() or writable_by_others(before):
            # its checksum would be of the bytes at the check only: the table is mapped, so a
            # write by another user after it changed the figures of a run that trusted it
            raise ValueError("someone else may write it")
        if shape != (n, n) or fortran or found != dtype:
            raise ValueError(f"it holds a {shape} {found} array{' in Fortran order' if fortran else ''}")
        if before.st_size != offset + n * n * dtype.itemsize:
            raise ValueError(f"it has {before.st_size} bytes, not {offset + n * n * dtype.itemsize}")
        table = np.memmap(fh, dtype=dtype, mode="r", offset=offset, shape=(n, n))
        stamp = stamp_path(npy)
        if not verify and stamp_matches(stamp, before, info["checksum"]):
            return table
        started = time.time_ns()
        if info["checksum"].startswith(CHECK_PREFIX):
            if checksum(table) != info["checksum"]:
                raise ValueError("its checksum does not match")
        elif legacy_checksum(table) == info["checksum"]:  # a cache of evo-wordle <= 0.2: adopt it
            info["checksum"] = checksum(table)
            try:
                atomic_write_text(meta, json.dumps(info))
            except OSError:
                pass  # a read-only cache: checked the old way again next time
        else:
            raise ValueError("its checksum does not match")
        write_stamp(stamp, before, os.fstat(fh.fileno()), info["checksum"], started)
    return table


def _progress_bar(total: int):
    from tqdm import tqdm

    return tqdm(total=total, desc="pattern table", unit="rows", disable=None, leave=False)


def _check_space(root: Path, need: int) -> None:
    free = shutil.disk_usage(root).free
    if free < need + SPACE_MARGIN:
        raise EvoWordleError(
            f"not enough free space in {root} to build the pattern table: needs "
            f"{(need + SPACE_MARGIN) / 1e6:.0f} MB, {free / 1e6:.0f} MB free "
            "(free some space or set EVO_WORDLE_CACHE to another folder)"
        )


def write_table(words: WordSet, npy: Path, meta: Path) -> np.ndarray:
    """Build the table into a temporary file next to ``npy`` and rename it into place.

    Space is reserved up front (``posix_fallocate``), so a full disk gives a one-line error
    instead of a SIGBUS half-way; the sidecar is written first (same content for every
    builder of one list), then the table is renamed into place."""
    n, dtype = len(words), pattern_dtype(words.length)
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype(dtype)), "fortran_order": False, "shape": (n, n)}
    need = table_bytes(n, words.length)
    folder = npy.parent
    _check_space(folder, need + 4096)
    try:
        fd, tmp = make_temp(npy)
    except OSError as exc:
        raise EvoWordleError(f"cache folder {folder} is not writable: {exc.strerror}") from None
    try:
        os.fchmod(fd, stat.S_IMODE(os.fstat(fd).st_mode) & ~0o022)  # ours alone to write, whatever the umask
        with os.fdopen(fd, "r+b") as fh:
            np.lib.format.write_array_header_1_0(fh, header)
            offset = fh.tell()
            try:
                os.posix_fallocate(fh.fileno(), 0, offset + need)
            except OSError as exc:
                if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                    raise EvoWordleError(
                        f"cannot reserve {need / 1e6:.0f} MB for the pattern table in {folder}: {exc.strerror}"
                    ) from None
                fh.truncate(offset + need)  # no fallocate on this file system: the free-space check must do
        mm = np.memmap(tmp, dtype=dtype, mode="r+", offset=offset, shape=(n, n))
        with _progress_bar(n) as bar:
            build_table(words.letters, out=mm, progress=bar.update)
        mm.flush()
        check = checksum(mm)
        del mm
        atomic_write_text(meta, json.dumps(_meta(words, check)))
        os.replace(tmp, npy)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise EvoWordleError(f"cannot write the pattern table in {folder}: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return np.memmap(npy, dtype=dtype, mode="r", offset=offset, shape=(n, n))


def load_table(words: WordSet, cache_dir: Path | None = None, rebuild: bool = False,
               verify: bool = False) -> np.ndarray:
    """The pattern table for ``words`` (memory-mapped), building or repairing the cache as needed.

    Concurrent callers wait for one builder (a lock in the cache folder) and then share its file;
    a file that fails any check is rebuilt with a one-line notice.  ``verify`` reads the whole
    file even when its stamp says it is unchanged since its last check."""
    check_size(words)
    root = prepare(cache_dir)
    npy, meta = cache_paths(words, root)
    if not rebuild and os.path.lexists(npy):
        try:
            return _open(words, npy, meta, verify)
        except (OSError, ValueError) as exc:
            problem = exc.strerror if isinstance(exc, OSError) else str(exc)
        with lock(root, npy.name):
            try:  # another process may have repaired it meanwhile
                return _open(words, npy, meta, verify)
            except (OSError, ValueError):
                pass
            notice(f"cached pattern table {npy} is unusable ({problem}); rebuilding")
            return _build(words, npy, meta, quiet=True)
    with lock(root, npy.name):
        if not rebuild and os.path.lexists(npy):
            try:
                return _open(words, npy, meta, verify)
            except (OSError, ValueError):
                pass
        return _build(words, npy, meta, quiet=rebuild)


def _build(words: WordSet, npy: Path, meta: Path, quiet: bool) -> np.ndarray:
    for path in (npy, meta):
        if path.is_dir() and not path.is_symlink():
            try:
                path.rmdir()
            except OSError:
                raise EvoWordleError(f"the cache path {path} is a folder that is not empty; remove it") from None
    start = time.perf_counter()
    table = write_table(words, npy, meta)
    if not quiet:
        notice(f"built pattern table {npy} in {time.perf_counter() - start:.2f} s")
    return table
