"""Rule tests of evo_wordle/words.py: what a word list may hold (letters only, one length of at
most 10, no duplicates, at most 4 MiB as a file), how its errors read, the word <-> index
mapping (whole numbers in range only, never wrapped), the pattern counts of a length, the
letter codes and the digest that keys the pattern-table cache."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from importlib import resources

import numpy as np
import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.words import WordSet, check_words, load_words

MIB = 2**20


def test_words_of_up_to_ten_letters_are_accepted_and_eleven_refused():
    # 3**10 feedback codes still fit in a uint16 cell of the pattern table; 3**11 do not
    ten = ["abcdefghij", "bcdefghijk"]
    assert load_words(ten).length == 10
    with pytest.raises(EvoWordleError, match="words of 11 letters \\(at most 10\\)"):
        load_words(["abcdefghijk", "bcdefghijkl"])


@pytest.mark.parametrize("length, patterns", [(3, 27), (5, 243), (6, 729), (10, 59049)])
def test_a_length_has_three_to_that_power_codes_and_all_green_is_the_last(length, patterns):
    words = WordSet(("a" * length, "b" * length), ("b" * length,))
    assert (words.length, words.n_patterns, words.solved) == (length, patterns, patterns - 1)


def test_a_list_file_of_4_mib_is_read_and_one_byte_more_is_refused(tmp_path):
    head = b"cab\nzoo\n"
    path = tmp_path / "list.txt"
    path.write_bytes(head + b"\n" * (4 * MIB - len(head)))  # blank lines are skipped
    assert load_words(path).allowed == ("cab", "zoo")
    path.write_bytes(head + b"\n" * (4 * MIB + 1 - len(head)))
    with pytest.raises(EvoWordleError, match="too large"):
        load_words(path)


@pytest.mark.parametrize("offset", [0, 4])
def test_a_nul_byte_is_named_with_its_offset_even_the_first_byte(tmp_path, offset):
    path = tmp_path / "list.txt"
    data = b"cab\nzoo\n"
    path.write_bytes(data[:offset] + b"\0" + data[offset:])
    with pytest.raises(EvoWordleError, match=f"holds NUL bytes \\(first at offset {offset}\\)"):
        load_words(path)


def test_a_non_letter_word_is_shown_whole_up_to_20_characters_then_cut():
    twenty, longer = "a" * 19 + "1", "a" * 20 + "1"
    with pytest.raises(EvoWordleError) as err:
        check_words([twenty], "x")
    assert str(err.value).endswith(f"non-letter word: {twenty!r}")
    with pytest.raises(EvoWordleError) as err:
        check_words([longer], "x")
    assert str(err.value).endswith(f"non-letter word: {'a' * 20 + '…'!r}")


def test_answers_outside_the_allowed_list_are_counted_and_the_first_named():
    with pytest.raises(EvoWordleError, match="^1 answer is not in the allowed list \\(first: 'xyz'\\)$"):
        WordSet(("abc", "bcd"), ("xyz",))
    with pytest.raises(EvoWordleError, match="^2 answers are not in the allowed list \\(first: 'xyz'\\)$"):
        WordSet(("abc", "bcd"), ("zzz", "abc", "xyz"))


def test_a_list_of_one_word_is_a_list():
    words = load_words(["cab"], ["CAB"])
    assert words.allowed == words.answers == ("cab",) and words.n_patterns == 27
    assert load_words(["cab"]).answers == ("cab",)


def test_answers_of_another_length_than_the_allowed_words_are_named_with_both():
    for allowed, answers in [(["crane", "slate"], ["cab", "dog"]), (["crane"], ["cab"])]:
        with pytest.raises(EvoWordleError, match="^answers have 3 letters but allowed words have 5$"):
            load_words(allowed, answers)


def test_an_index_is_a_whole_number_from_0_to_n_minus_1_returned_as_a_plain_int():
    words = WordSet(("cab", "dog", "zoo"), ("zoo",))
    for good in (0, 2, np.int64(0), np.int64(2), np.int32(1), np.uint8(2)):
        got = words.check_index(good)
        assert type(got) is int and got == int(good)
    for bad, message in [(-1, "index -1 is outside 0 … 2"), (3, "index 3 is outside 0 … 2"),
                         (np.int64(-1), "index -1 is outside"), (np.int64(3), "index 3 is outside"),
                         (True, "not a whole-number index"), (False, "not a whole-number index"),
                         (np.True_, "not a whole-number index"), (1.0, "not a whole-number index"),
                         ("dog", "is a word, not an index")]:
        with pytest.raises(EvoWordleError, match=message):
            words.check_index(bad)
    assert words[np.int64(1)] == "dog" and type(words[0]) is str
    with pytest.raises(EvoWordleError, match="outside"):
        words[-1]  # a negative index never wraps to the end


def test_indexing_by_arrays_lists_and_slices():
    words = WordSet(("zoo", "cab", "dog"), ("zoo",))
    assert words[np.array([[2, 0]])] == ["zoo", "cab"]  # any shape: a flat list
    assert words[[1, 1]] == ["dog", "dog"] and words[(0,)] == ["cab"]
    assert words[-2:] == ["dog", "zoo"]  # a slice keeps Python's meaning
    with pytest.raises(EvoWordleError, match="outside"):
        words[np.array([0, 3])]


def test_letters_are_codes_a_0_to_z_25_one_row_per_word_in_list_order():
    letters = WordSet(("zoo", "cab"), ("zoo",)).letters
    assert letters.dtype == np.uint8
    assert letters.tolist() == [[2, 0, 1], [25, 14, 14]]


def test_the_digest_is_the_sha256_of_the_sorted_list_one_word_a_line():
    assert WordSet(("zoo", "cab"), ("zoo",)).digest == hashlib.sha256(b"cab\nzoo\n").hexdigest()
    bundled = resources.files("evo_wordle.wordlists").joinpath("allowed.txt").read_bytes()
    assert load_words().digest == hashlib.sha256(bundled).hexdigest()


def test_contains_and_index_take_any_case_and_refuse_what_is_not_a_word_of_the_length():
    words = WordSet(("cab", "dog"), ("dog",))
    assert words.contains("CAB") and words.contains("dog")
    assert not words.contains("cat") and not words.contains(3) and not words.contains("cabs")
    assert words.index(" DOG ") == 1 and words.indices(["dog", "cab"]).tolist() == [1, 0]
    for bad, message in [("c4b", "'c4b' is not a 3-letter word"), ("càb", "'càb' is not a 3-letter word"),
                         ("cabs", "is not a 3-letter word"), ("cat", "'cat' is not an allowed word"),
                         (3, "3 is not a word \\(a string of 3 letters\\)")]:
        with pytest.raises(EvoWordleError, match=message):
            words.index(bad)


@pytest.mark.parametrize("typed", [" crane", "crane ", "\tCRANE\n", " Crane  ", "CRANE", "crane"])
def test_a_word_typed_with_stray_spaces_or_capitals_is_found_by_contains_and_index_alike(typed):
    words = WordSet(("crane", "slate"), ("crane",))
    assert words.contains(typed) and words.index(typed) == 0


@pytest.mark.parametrize("typed", ["cr ane", "c rane", "crane.", "", "   ", "\u00a0", " cranes", "crate ", " 5"])
def test_what_index_refuses_contains_says_is_not_a_word(typed):
    words = WordSet(("crane", "slate"), ("crane",))
    assert not words.contains(typed)
    with pytest.raises(EvoWordleError, match=re.escape(repr(typed)) + " is not (a 5-letter|an allowed) word"):
        words.index(typed)


def test_the_label_names_the_answer_list():
    assert load_words().label == "nyt"
    assert load_words(answers="original").label == "original"
    assert load_words(["cab", "dog"]).label == "allowed"  # every allowed word may be the answer
    assert load_words(["cab", "dog"], ["dog"]).label == "answers"


def test_the_label_of_an_answer_file_is_its_path(tmp_path):
    path = tmp_path / "answers.txt"
    path.write_text("dog\n")
    assert load_words(["cab", "dog"], path).label == str(path)
    assert load_words(["cab", "dog"], str(path)).label == str(path)


def test_a_word_set_is_frozen_and_equal_and_hashed_by_its_lists():
    a, b = WordSet(("zoo", "cab"), ("zoo",)), WordSet(("cab", "zoo"), ("zoo",))
    assert a == b and hash(a) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.allowed = ("cab",)
    assert "_index" not in repr(a) and repr(a).count("'zoo'") == 2  # once per list


def test_what_is_not_a_sequence_of_words_is_named():
    for bad in ("crane", b"crane"):
        with pytest.raises(EvoWordleError, match="must be a sequence of words, not one string"):
            check_words(bad, "x")
    with pytest.raises(EvoWordleError, match="allowed must be a file path or a sequence of words, not int"):
        load_words(5)
    with pytest.raises(EvoWordleError, match="answers must be a file path or a sequence of words, not bytes"):
        load_words(["cab"], b"cab")


def test_a_word_set_built_from_python_lists_is_not_labelled_as_the_nyt_list():
    # the label names the answer list in bench summaries and in the made_for block of strategy and
    # tree files: lists given from Python get load_words' name for them, never "nyt"
    allowed, answers = ("cab", "dog", "zoo"), ("dog",)
    assert WordSet(allowed, answers).label == load_words(allowed, answers).label == "answers"
    assert WordSet(allowed, answers, label="mine").label == "mine"
