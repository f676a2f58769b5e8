"""Rule tests of evo_wordle/solvers/opener_cache.py: a cached opener is served only for the very
case it was computed for (every part of the key matters), a damaged, foreign or stale entry is
recomputed, and the file stays bounded (the module's targeted tests for mutation testing)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import evo_wordle
from evo_wordle.cachedir import write_sealed
from evo_wordle.game import Settings
from evo_wordle.solvers import opener_cache
from evo_wordle.solvers.opener_cache import FILE, KIND, cached_default_opener, code_digest, opener_key

ALLOWED = ["alpha", "bravo", "charm", "delta", "eagle"]


class Words:
    def __init__(self, digest: str = "w1"):
        self.digest = digest
        self.allowed = list(ALLOWED)

    def index(self, word: str) -> int:
        return self.allowed.index(word)


class Fake:
    """Just what the cache reads of a solver: its context, settings, parameters and opener."""

    def __init__(self, cache: Path, params: str = "p", settings: Settings | None = None,
                 words: Words | None = None, frequencies=(1.0, 2.0, 3.0, 4.0, 5.0), opener: int = 3):
        self.ctx = SimpleNamespace(words=words or Words(), frequencies=np.array(frequencies), cache_root=cache)
        self.settings = settings or Settings(candidates="answers")
        self.params = params
        self.opener = opener
        self.calls = 0

    def describe(self) -> str:
        return self.params

    def default_opener(self, state) -> int:
        self.calls += 1
        return self.opener


class Other(Fake):
    """Another solver class with the same parameters."""


def state(*candidates: int):
    return SimpleNamespace(candidates=np.array(candidates or (0, 1, 2, 3, 4)))


def test_the_key_is_a_digest_of_every_part(tmp_path):
    base = opener_key(Fake(tmp_path), state())
    assert len(base) == 64 and int(base, 16) >= 0
    assert opener_key(Fake(tmp_path), state()) == base  # deterministic
    variants = {
        "solver class": opener_key(Other(tmp_path), state()),
        "parameters": opener_key(Fake(tmp_path, params="q"), state()),
        "settings": opener_key(Fake(tmp_path, settings=Settings(candidates="answers", hard=True)), state()),
        "word lists": opener_key(Fake(tmp_path, words=Words("w2")), state()),
        "candidates": opener_key(Fake(tmp_path), state(0, 1, 2)),
        "frequencies": opener_key(Fake(tmp_path, frequencies=(1.0, 2.0, 3.0, 4.0, 5.5)), state()),
    }
    assert base not in variants.values()
    assert len(set(variants.values())) == len(variants)


def test_the_key_depends_on_the_code(tmp_path, monkeypatch):
    base = opener_key(Fake(tmp_path), state())
    monkeypatch.setattr(opener_cache, "code_digest", lambda: "other code")
    assert opener_key(Fake(tmp_path), state()) != base


def test_the_code_digest_covers_every_module_by_path_and_text():
    root = Path(evo_wordle.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    assert code_digest() == h.hexdigest()
    assert any(p.parent.name == "solvers" for p in root.rglob("*.py"))  # sub-packages are in it


def test_computed_once_then_served_from_disk(tmp_path):
    first = Fake(tmp_path)
    assert cached_default_opener(first, state()) == 3 and first.calls == 1
    assert (tmp_path / FILE).is_file()
    again = Fake(tmp_path, opener=0)  # would say ALPHA if asked
    assert cached_default_opener(again, state()) == 3 and again.calls == 0
    other = Fake(tmp_path, params="q", opener=1)  # another key: computed, and both kept
    assert cached_default_opener(other, state()) == 1 and other.calls == 1
    assert opener_cache._read(tmp_path / FILE) == {
        opener_key(first, state()): "delta", opener_key(other, state()): "bravo"}


def test_an_entry_that_is_not_an_allowed_word_is_recomputed(tmp_path):
    solver = Fake(tmp_path, opener=4)
    write_sealed(tmp_path / FILE, KIND, json.dumps({opener_key(solver, state()): "zzzzz"}).encode())
    assert cached_default_opener(solver, state()) == 4 and solver.calls == 1
    assert opener_cache._read(tmp_path / FILE) == {opener_key(solver, state()): "eagle"}


@pytest.mark.parametrize("payload", [b"[1, 2]", b"{not json", b'"word"', b"[" * 5000 + b"]" * 5000])
def test_a_file_that_is_no_mapping_reads_as_empty(tmp_path, payload):
    write_sealed(tmp_path / FILE, KIND, payload)
    assert opener_cache._read(tmp_path / FILE) == {}
    solver = Fake(tmp_path)
    assert cached_default_opener(solver, state()) == 3 and solver.calls == 1  # recomputed, rewritten
    assert opener_cache._read(tmp_path / FILE) == {opener_key(solver, state()): "delta"}


def test_only_text_entries_are_read(tmp_path):
    write_sealed(tmp_path / FILE, KIND, json.dumps({"a": "alpha", "b": 3, "c": None, "d": ["x"]}).encode())
    assert opener_cache._read(tmp_path / FILE) == {"a": "alpha"}


def test_a_file_of_another_kind_reads_as_empty(tmp_path, capsys):
    write_sealed(tmp_path / FILE, "something else", json.dumps({"a": "alpha"}).encode())
    assert opener_cache._read(tmp_path / FILE) == {}
    assert opener_cache._read(tmp_path / "missing") == {}


def test_the_oldest_entries_go_first_and_a_refreshed_one_moves_last(tmp_path, monkeypatch):
    monkeypatch.setattr(opener_cache, "MAX_ENTRIES", 2)
    path = tmp_path / FILE
    solvers = [Fake(tmp_path, params=str(k), opener=k) for k in range(3)]
    keys = [opener_key(s, state()) for s in solvers]
    write_sealed(path, KIND, json.dumps({keys[0]: "zzzzz"}).encode())  # stale: recomputed and moved last
    cached_default_opener(solvers[1], state())
    assert list(opener_cache._read(path)) == [keys[0], keys[1]]
    cached_default_opener(solvers[0], state())
    assert opener_cache._read(path) == {keys[1]: "bravo", keys[0]: "alpha"}
    assert list(opener_cache._read(path)) == [keys[1], keys[0]]
    cached_default_opener(solvers[2], state())  # a third: the oldest (keys[1]) goes
    assert list(opener_cache._read(path)) == [keys[0], keys[2]]
    assert opener_cache.MAX_ENTRIES == 2


def test_a_full_file_keeps_the_newest_256_entries_and_reads_whole(tmp_path):
    solvers = [Fake(tmp_path, params=f"p{k}", opener=k % 5) for k in range(257)]
    for solver in solvers:
        cached_default_opener(solver, state())
    entries = opener_cache._read(tmp_path / FILE)
    assert len(entries) == 256
    assert list(entries) == [opener_key(s, state()) for s in solvers[1:]]
    last = Fake(tmp_path, params="p256", opener=0)
    assert cached_default_opener(last, state()) == 256 % 5 and last.calls == 0  # served from the full file


def test_the_code_is_read_once_per_process(monkeypatch):
    code_digest.cache_clear()
    first = code_digest()

    def refuse(self):
        raise AssertionError(f"read {self} again")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    assert code_digest() == first
