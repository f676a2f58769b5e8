"""Rule tests of evo_wordle/context.py: what a Context accepts, how words and indices become
allowed-word indices (never wrapping, never a float or a bool), who may be the answer, what
travels to worker processes (the module's targeted tests for mutation testing)."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from evo_wordle import Context
from evo_wordle.entropy import entropies
from evo_wordle.errors import EvoWordleError
from evo_wordle.words import WordSet

ALLOWED = ("bight", "eight", "fight", "light", "might", "night", "right", "sight", "tales", "crane")
ANSWERS = ("eight", "light", "night", "crane")


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Context:
    return Context(allowed=list(ALLOWED), answers=list(ANSWERS), cache_dir=tmp_path_factory.mktemp("ctx"))


def refused(call, *args, **kwargs) -> str:
    with pytest.raises(EvoWordleError) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_lists_from_python_and_from_a_wordset(small, tmp_path):
    assert list(small.words.allowed) == sorted(ALLOWED) and sorted(small.words.answers) == sorted(ANSWERS)
    ready = Context(words=small.words)
    assert ready.words is small.words and ready.cache_dir is None
    assert Context(allowed=tuple(ALLOWED), cache_dir=str(tmp_path)).cache_dir == tmp_path
    assert isinstance(Context(allowed=list(ALLOWED), cache_dir=str(tmp_path)).cache_dir, Path)


def test_what_a_context_refuses(small):
    assert refused(Context, allowed=list(ALLOWED), words=small.words) == \
        "give either words=WordSet(...) or allowed/answers lists, not both"
    assert refused(Context, answers=list(ANSWERS), words=small.words) == \
        "give either words=WordSet(...) or allowed/answers lists, not both"
    for name in ("allowed", "answers"):
        assert refused(Context, **{name: 5}) == \
            f"{name} must be a file name, a list name, a sequence of words or None, not int"
        assert refused(Context, **{name: b"tales"}) == \
            f"{name} must be a file name, a list name, a sequence of words or None, not bytes"
    assert refused(Context, allowed=list(ALLOWED), cache_dir=3) == "cache_dir must be a folder name or None, not int"
    assert refused(Context, words=list(ALLOWED)) == "words must be a WordSet (see load_words), not list"


def test_only_the_lists_and_the_cache_folder_travel(small):
    small.table  # noqa: B018 - derived data that must not travel
    state = small.__getstate__()
    assert set(state) == {"words", "cache_dir"}
    assert state["words"] is small.words and state["cache_dir"] == small.cache_dir
    copy = pickle.loads(pickle.dumps(small))
    assert copy.words.allowed == small.words.allowed and copy.cache_dir == small.cache_dir
    assert "table" not in copy.__dict__
    assert np.array_equal(copy.table, small.table)


def test_cache_root_follows_the_environment(tmp_path, monkeypatch, small):
    assert small.cache_root == small.cache_dir
    free = Context(words=small.words)
    monkeypatch.setenv("EVO_WORDLE_CACHE", str(tmp_path / "one"))
    assert free.cache_root == tmp_path / "one"
    monkeypatch.setenv("EVO_WORDLE_CACHE", str(tmp_path / "two"))
    assert free.cache_root == tmp_path / "two"  # read each time


def test_all_words_and_candidates(small):
    n = len(ALLOWED)
    assert small.all_words.tolist() == list(range(n)) and small.all_words.dtype == np.int64
    assert small.candidates().tolist() == list(range(n))
    assert small.candidates("allowed").tolist() == list(range(n))
    assert [small.words.allowed[i] for i in small.candidates("answers")] == sorted(ANSWERS)
    assert refused(small.candidates, "nyt") == "candidates must be allowed or answers, not 'nyt'"


def test_word_indices_of_arrays(small):
    n = len(ALLOWED)
    for dtype in (np.int64, np.int32, np.uint8):
        out = small.word_indices(np.array([0, 3, n - 1], dtype=dtype))
        assert out.tolist() == [0, 3, n - 1] and out.dtype == np.int64
    assert small.word_indices(np.array([], dtype=np.int64)).tolist() == []
    assert refused(small.word_indices, np.array([0, n]), "guess") == \
        f"guess index {n} is outside 0 … {n - 1} (the allowed list)"
    assert refused(small.word_indices, np.array([-1, 0]), "answer") == \
        f"answer index -1 is outside 0 … {n - 1} (the allowed list)"
    assert refused(small.word_indices, np.array([0.0, 1.0])) == "word 0.0 is neither a word nor a whole-number index"
    assert refused(small.word_indices, np.array([True])) == "word True is neither a word nor a whole-number index"
    assert refused(small.word_indices, np.zeros((1, 2), dtype=np.int64)) == \
        "word array([0, 0]) is neither a word nor a whole-number index"
    assert refused(small.word_indices, [np.float32(2.5)]) == "word 2.5 is neither a word nor a whole-number index"


def test_word_indices_of_sequences(small):
    n = len(ALLOWED)
    index = {w: i for i, w in enumerate(small.words.allowed)}
    assert small.word_indices(["tales", 0, np.int64(n - 1), "crane"]).tolist() == [index["tales"], 0, n - 1,
                                                                                   index["crane"]]
    assert small.word_indices(iter([1, 2])).tolist() == [1, 2]
    assert small.word_indices(range(0)).tolist() == []
    assert refused(small.word_indices, [0, n], "guess") == f"guess index {n} is outside 0 … {n - 1} (the allowed list)"
    assert refused(small.word_indices, [-1]) == f"word index -1 is outside 0 … {n - 1} (the allowed list)"
    assert refused(small.word_indices, [1.0]) == "word 1.0 is neither a word nor a whole-number index"
    assert refused(small.word_indices, [True]) == "word True is neither a word nor a whole-number index"
    assert refused(small.word_indices, [np.bool_(False)], "guess") == \
        "guess False is neither a word nor a whole-number index"
    assert "zzzzz" in refused(small.word_indices, ["zzzzz"])


def test_one_string_or_a_non_sequence_is_refused_with_the_plural(small):
    assert refused(small.word_indices, "tales", "guess") == "expected a sequence of guesses, not one string 'tales'"
    assert refused(small.word_indices, b"tales", "answer") == "expected a sequence of answers, not one string b'tales'"
    assert refused(small.word_indices, 5, "candidate") == "expected a sequence of candidates, not int"
    assert refused(small.word_indices, 5) == "expected a sequence of words, not int"


def test_entropy_is_the_tables_bits(small):
    guesses = ["tales", "light"]
    idx = small.word_indices(guesses)
    assert np.array_equal(small.entropy(guesses), entropies(small.table, idx, small.all_words,
                                                            n_patterns=small.words.n_patterns))
    answers = small.candidates("answers")
    assert np.array_equal(small.entropy(guesses, answers), entropies(small.table, idx, answers,
                                                                     n_patterns=small.words.n_patterns))
    assert not np.array_equal(small.entropy(guesses), small.entropy(guesses, answers))
    assert "candidate index" in refused(small.entropy, guesses, [len(ALLOWED)])
    assert "guess index" in refused(small.entropy, [len(ALLOWED)])


def test_a_wordset_goes_through_unchanged(small):
    words = WordSet(("aa", "bb", "ab"), ("aa",))
    assert Context(words=words).words is words


def test_the_first_bad_index_is_named(small):
    n = len(ALLOWED)
    assert refused(small.word_indices, np.array([0, n + 2, -1])) == \
        f"word index {n + 2} is outside 0 … {n - 1} (the allowed list)"
    assert refused(small.word_indices, np.array([-3, n])) == f"word index -3 is outside 0 … {n - 1} (the allowed list)"


def test_the_table_and_frequencies_are_loaded_once(small):
    assert small.table is small.table
    assert small.frequencies is small.frequencies
    assert small.priority is small.priority and small.all_words is small.all_words


def test_a_single_index_is_no_sequence(small):
    assert refused(small.word_indices, np.array(3)) == "expected a sequence of words, not ndarray"
    assert refused(small.word_indices, np.int64(3), "guess") == "expected a sequence of guesses, not int64"
