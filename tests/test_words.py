"""Bundled word lists: sizes, hashes, and validation of user lists."""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest

from evo_wordle.errors import EvoWordleError
from evo_wordle.words import load_words

HASHES = {
    "allowed.txt": ("feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579", 12972),
    "answers.txt": ("c495f6cbc36475358a89e30ac16bd5c0c05073c8c7647bb6c35dd01f7bae6e32", 2309),
    "answers-original.txt": ("f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee", 2315),
}


@pytest.mark.parametrize("name", sorted(HASHES))
def test_bundled_list_hash_and_size(name):
    text = resources.files("evo_wordle.wordlists").joinpath(name).read_text()
    digest, size = HASHES[name]
    assert hashlib.sha256(text.encode()).hexdigest() == digest
    assert len(text.split()) == size


def test_loaded_lists():
    nyt = load_words()
    assert (len(nyt), len(nyt.answers), nyt.length) == (12972, 2309, 5)
    original = load_words(answers="original")
    assert set(original.answers) - set(nyt.answers) == {"agora", "fibre", "lynch", "pupal", "slave", "wench"}
    assert nyt.allowed[nyt.index("Crane")] == "crane"
    assert list(nyt.allowed) == sorted(nyt.allowed)


@pytest.mark.parametrize(
    "allowed, answers, message",
    [
        ("abc\nabcd\n", None, "mixes word lengths"),
        ("abc\na1c\n", None, "non-letter"),
        ("abc\nabc\n", None, "duplicate"),
        ("abc\nbcd\n", "xyz\n", "not in the allowed list"),
        ("", None, "empty"),
    ],
)
def test_invalid_lists_are_rejected(tmp_path, allowed, answers, message):
    a = tmp_path / "allowed.txt"
    a.write_text(allowed)
    kwargs = {"allowed": a}
    if answers is not None:
        b = tmp_path / "answers.txt"
        b.write_text(answers)
        kwargs["answers"] = b
    with pytest.raises(EvoWordleError, match=message):
        load_words(**kwargs)


def test_custom_lists_of_another_length(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("TEA\neat\nate\ntee\n")
    words = load_words(allowed=a)
    assert words.length == 3 and words.allowed == ("ate", "eat", "tea", "tee")
    assert words.answers == words.allowed  # no separate answer list: every word may be the answer
    with pytest.raises(EvoWordleError, match="not an allowed word"):
        words.index("cat")
    with pytest.raises(EvoWordleError, match="3-letter"):
        words.index("cats")


def test_missing_file(tmp_path):
    with pytest.raises(EvoWordleError, match="not found"):
        load_words(answers=tmp_path / "nope.txt")


def test_explicit_answer_list_must_match_custom_length(tmp_path):
    a = tmp_path / "six.txt"
    a.write_text("planet\nbanana\n")
    with pytest.raises(EvoWordleError, match="5 letters but allowed words have 6"):
        load_words(allowed=a, answers="nyt")
