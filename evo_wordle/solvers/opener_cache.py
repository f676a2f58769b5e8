"""Disk cache of deterministic solvers' default openers (scoring all 12,972 words takes ≈ 1.5 s).

The first guess of a deterministic solver depends only on the solver's parameters, the
settings, the word lists, the word frequencies and the code, so it is computed once and
kept in ``openers.cache`` next to the pattern table.  The key hashes all of these (the code as
the text of every module of the package), so any change computes the opener afresh.  The file
is sealed with its digest (:mod:`evo_wordle.cachedir`): a damaged or planted file is reported in
one line, treated as empty and rewritten (the cache only saves time).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..cachedir import prepare, read_sealed, write_sealed
from ..game import GameState

FILE = "openers.cache"
KIND = "openers"
#: Entries kept at most (oldest dropped first), so custom-list experiments cannot grow it forever.
MAX_ENTRIES = 256


@lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 of every module of the installed package (read once per process, ≈ 5 ms)."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def opener_key(solver, state: GameState) -> str:
    """What the default opener of ``solver`` from ``state`` depends on, hashed."""
    ctx = solver.ctx
    parts = {
        "solver": type(solver).__module__ + "." + type(solver).__qualname__,
        "params": solver.describe(),
        "settings": solver.settings.as_dict(),
        "words": ctx.words.digest,
        "candidates": hashlib.sha256(np.ascontiguousarray(state.candidates, dtype=np.int64).tobytes()).hexdigest(),
        "frequencies": hashlib.sha256(np.ascontiguousarray(ctx.frequencies, dtype=np.float64).tobytes()).hexdigest(),
        "code": code_digest(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def _read(path: Path) -> dict[str, str]:
    payload = read_sealed(path, KIND, limit=MAX_ENTRIES * 256)
    if payload is None:
        return {}
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def _write(path: Path, entries: dict[str, str]) -> None:
    write_sealed(path, KIND, json.dumps(entries, indent=0).encode())


def cached_default_opener(solver, state: GameState) -> int:
    """``solver.default_opener(state)``, from the disk cache when this exact case was seen."""
    path = prepare(solver.ctx.cache_root) / FILE
    key = opener_key(solver, state)
    entries = _read(path)
    word = entries.get(key)
    words = solver.ctx.words
    if word is not None and word in words.allowed:
        return words.index(word)
    guess = int(solver.default_opener(state))
    entries.pop(key, None)
    entries[key] = words.allowed[guess]
    while len(entries) > MAX_ENTRIES:
        entries.pop(next(iter(entries)))
    _write(path, entries)
    return guess
