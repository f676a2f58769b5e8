"""evolve-strategy checkpoints: plain JSON (data only, never code), checked field by field.

Checkpoints are files people share, so they are never unpickled: the state of a run is
numbers, words and lists, and the generators' states are stored as what they are
(``random.Random.getstate()`` as a list, numpy's ``bit_generator.state`` as a dict), so a
resumed run continues exactly where the checkpoint left off.  Every field is checked for type
and size before anything uses it; a hostile or damaged file gives one line and nothing runs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..artefacts import list_digests
from ..errors import EvoWordleError
from ..files import atomic_write_text, read_json

FORMAT = "evo-wordle-checkpoint"
VERSION = 1
#: Largest checkpoint read (bytes); a long run's is well under 1 MB.
MAX_BYTES = 64 * 2**20
_ABSENT = object()


def write_checkpoint(path: str | Path, state: dict) -> None:
    """Write ``state`` (JSON-able, see MetaGA.state) atomically and durably."""
    doc = {"format": FORMAT, "version": VERSION, **state}
    atomic_write_text(path, json.dumps(doc, separators=(",", ":")) + "\n", durable=True)


class _Bad(Exception):
    pass


def _num(x: Any, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise _Bad(f"{what} is not a number")
    return x


def _finite(x: Any, what: str) -> float:
    if not math.isfinite(_num(x, what)):
        raise _Bad(f"{what} is not finite")
    return x


def genome_key(ind) -> tuple:
    """A hashable key of a genome (reals rounded), for the fitness caches (here so that a checkpoint
    can check its members against its cache, and the meta-GA keys them the same way)."""
    return tuple(round(v, 10) if isinstance(v, float) else v for v in ind)


def _score(x: Any, what: str, worst: float) -> float:
    """A fitness or validation score: a mean guess count plus a penalty of at least 0, so at
    least 1.  A planted 0, -1 or NaN was taken as the best genome ever seen and chose the winner;
    and at most ``worst`` (every game lost: the cap plus the whole penalty), so a planted 50 is
    no figure either."""
    if not _finite(x, what) >= 1:
        raise _Bad(f"{what} is {x!r}: a mean guess count is at least 1")
    _at_most(x, what, worst)
    return x


def _at_most(x: float, what: str, worst: float) -> None:
    """Refuse a score above ``worst``, the fitness of a run that loses every game (a mean of
    equal fitnesses may round one unit in the last place above it)."""
    if x > worst * (1 + 1e-12):
        raise _Bad(f"{what} is {x!r}: above {worst!r}, the guess cap plus the penalty, which losing every game scores")


def _list(x: Any, what: str, length: int | None = None, most: int | None = None) -> list:
    if not isinstance(x, list):
        raise _Bad(f"{what} is not a list")
    if length is not None and len(x) != length:
        raise _Bad(f"{what} has {len(x)} entries, not {length}")
    if most is not None and len(x) > most:
        raise _Bad(f"{what} has more than {most} entries")
    return x


def _genes(x: Any, what: str, names: list[str], words) -> list:
    genes = _list(x, what, len(names))
    for name, value in zip(names, genes):
        if name == "opener":
            if not isinstance(value, str) or not words.contains(value) or len(value) != words.length:
                raise _Bad(f"{what}: opener is not an allowed word")
            listed = words.allowed[words.index(value)]
            if value != listed:  # "CRANE" would miss the fitness cache and be saved as written
                raise _Bad(f"{what}: opener {value!r} is not written as the word list writes it ({listed!r})")
        elif name == "hard_candidates":
            if not isinstance(value, bool):
                raise _Bad(f"{what}: hard_candidates is not true/false")
        else:
            _finite(value, f"{what}: {name}")
    return genes


def _members(x: Any, what: str, names: list[str], words, worst: float, length: int | None = None,
             most: int | None = None) -> list[tuple[list, tuple]]:
    out = []
    for i, item in enumerate(_list(x, what, length, most)):
        pair = _list(item, f"{what}[{i}]", 2)
        genes = _genes(pair[0], f"{what}[{i}]", names, words)
        fitness = tuple(_score(v, f"{what}[{i}] fitness", worst) for v in _list(pair[1], f"{what}[{i}] fitness", 1))
        out.append((genes, fitness))
    return out


def _cache(x: Any, what: str, names: list[str], words, worst: float) -> dict[tuple, float]:
    out = {}
    for i, item in enumerate(_list(x, what)):
        pair = _list(item, f"{what}[{i}]", 2)
        out[tuple(_genes(pair[0], f"{what}[{i}]", names, words))] = _score(pair[1], f"{what}[{i}] value", worst)
    return out


def _count(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < 0:
        raise _Bad(f"{what} is {x!r}: not a count")
    return x


def _record(rec: Any, what: str, generation: int, worst: float) -> dict:
    """One logbook record (metaga.MetaGA._record), the one of ``generation``: numbers, none NaN
    or negative, since ``--log`` writes the records out as they are; ``gen`` that generation (a
    run records every generation once, in order: a missing, repeated or moved one was written
    out and drawn as a curve no run made), ``nevals`` a count, the scores at least 1 (infinity
    stays: a best before any game counts), ``seconds`` finite."""
    if not isinstance(rec, dict) or not all(isinstance(k, str) for k in rec):
        raise _Bad(f"{what} is not a record")
    for k, v in rec.items():
        if math.isnan(_num(v, f"{what}.{k}")):
            raise _Bad(f"{what}.{k} is NaN")
        if v < 0:
            raise _Bad(f"{what}.{k} is {v!r}: negative")
    if _count(rec.get("gen"), f"{what}.gen") != generation:
        raise _Bad(f"{what}.gen is {rec['gen']!r}, not {generation}: a run records each generation once, in order")
    if "nevals" in rec:
        _count(rec["nevals"], f"{what}.nevals")
    for k in ("best", "mean", "holdout"):
        if k in rec and not rec[k] >= 1:
            raise _Bad(f"{what}.{k} is {rec[k]!r}: a mean guess count is at least 1")
        if k in rec and not math.isinf(rec[k]):
            _at_most(rec[k], f"{what}.{k}", worst)
    if "seconds" in rec:
        _seconds(rec["seconds"], f"{what}.seconds")
    return rec


def _seconds(x: Any, what: str) -> float:
    if not _finite(x, what) >= 0:
        raise _Bad(f"{what} is {x!r}: a time is not negative")
    return x


def _py_rng(x: Any) -> tuple:
    v = _list(x, "py_rng", 3)
    internal = _list(v[1], "py_rng state", 625)
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 2**32 for i in internal):
        raise _Bad("py_rng state holds values that are not 32-bit words")
    if v[0] != 3 or not (v[2] is None or isinstance(v[2], float)) or internal[-1] > 624:
        raise _Bad("py_rng is not a Mersenne Twister state")
    return (3, tuple(internal), v[2])


def read_checkpoint(path: str | Path, fingerprint: dict, words, gene_names: list[str], mu: int,
                    hof_size: int, *, worst: float, defaults: dict | None = None) -> dict:
    """The checked state of a checkpoint made with ``fingerprint`` (the run's configuration);
    one-line EvoWordleError for anything else.  ``worst``: the largest fitness the run can give
    (:func:`~evo_wordle.evolve.metaga.worst_fitness`), above which no score is a game's.
    ``defaults``: settings added since checkpoints began, each with the value that plays as
    before it; a checkpoint without one was made with it."""
    doc = read_json(path, MAX_BYTES, "checkpoint")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise EvoWordleError(f"checkpoint {path} is not an evo-wordle checkpoint (checkpoints are JSON "
                             "since this version; older ones cannot be resumed)")
    if doc.get("version") != VERSION:
        raise EvoWordleError(f"checkpoint {path} has unsupported version {doc.get('version')!r}")
    mine = json.loads(json.dumps(fingerprint))
    theirs = doc.get("config")
    if not isinstance(theirs, dict):
        raise EvoWordleError(f"checkpoint {path} is corrupt (no configuration)")
    older = {k: v for k, v in json.loads(json.dumps(defaults or {})).items() if k in mine}
    theirs = {**older, **theirs, "generations": mine.get("generations")}  # a resumed run may go further
    if theirs != mine:
        # a setting only one side has (and not in defaults) differs even when the other's value is None
        diff = sorted(k for k in set(mine) | set(theirs) if mine.get(k, _ABSENT) != theirs.get(k, _ABSENT))
        raise EvoWordleError(f"checkpoint {path} was made with different settings ({', '.join(diff)})")
    # (checkpoints from before the lists were recorded resume as before)
    if "lists" in doc and doc["lists"] != list_digests(words):
        raise EvoWordleError(f"checkpoint {path} was made with other word lists (their content differs): "
                             "resume it with the lists it was made with")
    try:
        gen = doc.get("generation")
        if not isinstance(gen, int) or isinstance(gen, bool) or gen < 0:
            raise _Bad("generation is not a count")
        logbook = _list(doc.get("logbook"), "logbook", length=gen + 1)
        for i, rec in enumerate(logbook):
            _record(rec, f"logbook[{i}]", i, worst)
        np_rng = doc.get("np_rng")
        if not isinstance(np_rng, dict) or not isinstance(np_rng.get("bit_generator"), str):
            raise _Bad("np_rng is not a generator state")
        cache = _cache(doc.get("cache"), "cache", gene_names, words, worst)
        members = {name: _members(doc.get(name), name, gene_names, words, worst, **size)
                   for name, size in (("population", {"length": mu}), ("hof", {"most": hof_size}))}
        for name, found in members.items():  # each fitness is the training cache's (the run's own)
            for i, (genes, fitness) in enumerate(found):
                key = genome_key(genes)
                if key in cache and cache[key] != fitness[0]:
                    raise _Bad(f"{name}[{i}] fitness {fitness[0]!r} is not the cache's {cache[key]!r}")
        return {
            "generation": gen,
            "population": members["population"],
            "hof": members["hof"],
            "logbook": logbook,
            "cache": cache,
            "hold_cache": _cache(doc.get("hold_cache"), "hold_cache", gene_names, words, worst),
            "py_rng": _py_rng(doc.get("py_rng")),
            "np_rng": np_rng,
            "seconds": _seconds(doc.get("seconds"), "seconds"),
        }
    except _Bad as exc:
        raise EvoWordleError(f"checkpoint {path} is corrupt ({exc})") from None
