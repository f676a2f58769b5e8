"""The pattern table ``table[guess, answer]``: vectorised builder and its on-disk cache.

Building: every row is a sum of at most ``L`` precomputed answer-length vectors
("components").  A letter that occurs once in the guess contributes ``3^k·trit`` with trit 2
if the answer has it at that position, 1 if the answer has it elsewhere, else 0.  A letter
repeated in the guess contributes one vector for the whole group of its positions, computed
with the exact duplicate-letter rule.  Rows are then gathered and added in chunks by two
threads (numpy drops the GIL in ``take`` and ``add``), straight into a memory-mapped file.

Caching: ``<cache>/patterns-<digest>.npy`` plus a ``.json`` sidecar holding a checksum.
Writes go to a temporary file renamed into place; a truncated, corrupt or mismatched file is
rebuilt with a one-line notice.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .errors import EvoWordleError
from .words import WordSet

CACHE_VERSION = 1
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


def default_cache_dir() -> Path:
    """The cache folder: ``$EVO_WORDLE_CACHE``, else the user cache folder."""
    env = os.environ.get("EVO_WORDLE_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("evo-wordle"))


def _checksum(table: np.ndarray) -> int:
    """A cheap whole-file checksum: any single changed byte changes it."""
    flat = np.asarray(table).reshape(-1).view(np.uint8)
    head = flat[: len(flat) // 8 * 8].view(np.uint64)
    total = int(head.sum(dtype=np.uint64))
    tail = flat[len(flat) // 8 * 8 :]
    return (total + int(tail.sum(dtype=np.uint64)) * 0x9E3779B97F4A7C15) % 2**64


def cache_paths(words: WordSet, cache_dir: Path | None = None) -> tuple[Path, Path]:
    """(table .npy, metadata .json) paths of a word list's pattern table in the cache."""
    root = cache_dir or default_cache_dir()
    stem = f"patterns-v{CACHE_VERSION}-{words.digest[:16]}"
    return root / f"{stem}.npy", root / f"{stem}.json"


def _notice(msg: str) -> None:
    print(f"evo-wordle: {msg}", file=sys.stderr)


def _validate(words: WordSet, npy: Path, meta: Path) -> np.ndarray:
    """Open a cached table, raising ValueError if anything about it is off."""
    info = json.loads(meta.read_text())
    if info.get("digest") != words.digest or info.get("version") != CACHE_VERSION:
        raise ValueError("it was built for another word list")
    table = np.load(npy, mmap_mode="r")
    n = len(words)
    if table.shape != (n, n) or table.dtype != pattern_dtype(words.length):
        raise ValueError(f"it has shape {table.shape} and dtype {table.dtype}")
    if _checksum(table) != info.get("checksum"):
        raise ValueError("its checksum does not match")
    return table


def _progress_bar(total: int):
    from tqdm import tqdm

    return tqdm(total=total, desc="pattern table", unit="rows", disable=None, leave=False)


def write_table(words: WordSet, npy: Path, meta: Path) -> np.ndarray:
    """Build the table into a temporary file next to ``npy`` and rename it into place."""
    try:
        npy.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=npy.parent, prefix=".patterns-", suffix=".npy.tmp")
        os.close(fd)
    except OSError as exc:
        raise EvoWordleError(f"cache directory {npy.parent} is not writable: {exc.strerror}") from None
    try:
        n = len(words)
        mm = np.lib.format.open_memmap(tmp, mode="w+", dtype=pattern_dtype(words.length), shape=(n, n))
        with _progress_bar(n) as bar:
            build_table(words.letters, out=mm, progress=bar.update)
        checksum = _checksum(mm)
        mm.flush()
        del mm
        os.replace(tmp, npy)
        meta_tmp = meta.with_suffix(".json.tmp")
        meta_tmp.write_text(
            json.dumps({"version": CACHE_VERSION, "digest": words.digest, "n": n, "checksum": checksum})
        )
        os.replace(meta_tmp, meta)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return np.load(npy, mmap_mode="r")


def load_table(words: WordSet, cache_dir: Path | None = None, rebuild: bool = False) -> np.ndarray:
    """The pattern table for ``words`` (memory-mapped), building or repairing the cache as needed."""
    npy, meta = cache_paths(words, cache_dir)
    if not rebuild and npy.exists():
        try:
            return _validate(words, npy, meta)
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            _notice(f"cached pattern table {npy} is unusable ({exc}); rebuilding")
    start = time.perf_counter()
    table = write_table(words, npy, meta)
    if not rebuild:
        _notice(f"built pattern table {npy} in {time.perf_counter() - start:.2f} s")
    return table
