"""Feedback colouring: the fast paths against the reference, and the text forms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evo_wordle import patterns
from evo_wordle.errors import EvoWordleError
from evo_wordle.table import compute_rows
from tests.reference import reference_pattern


def _codes(words: list[str]) -> np.ndarray:
    return (np.frombuffer("".join(words).encode(), dtype=np.uint8) - ord("a")).reshape(len(words), -1)


def test_documented_examples():
    # ROARS vs EULER: only the first R is yellow.
    assert patterns.to_digits(patterns.score("roars", "euler")) == "10000"
    # ASSES vs PASSE: yellow yellow green yellow grey.
    assert patterns.to_letters(patterns.score("asses", "passe")) == "YYGYB"
    assert patterns.score("crane", "crane") == 242


def test_score_matches_reference_on_100k_random_pairs(ctx):
    rng = np.random.default_rng(2024)
    words = ctx.words.allowed
    pairs = rng.integers(len(words), size=(100_000, 2))
    fast = np.asarray(ctx.table)[pairs[:, 0], pairs[:, 1]]
    slow = np.array([reference_pattern(words[g], words[a]) for g, a in pairs])
    assert np.array_equal(fast, slow)


def test_every_pair_of_repeated_letter_answers(ctx):
    """All guess × answer pairs among answers with a repeated letter (the hard cases)."""
    reps = [w for w in ctx.words.answers if len(set(w)) < len(w)]
    assert len(reps) > 500
    idx = ctx.words.indices(reps)
    fast = np.asarray(ctx.table)[np.ix_(idx, idx)]
    slow = np.array([[reference_pattern(g, a) for a in reps] for g in reps])
    assert np.array_equal(fast, slow)


@settings(max_examples=2000, deadline=None)
@given(
    guess=st.text(alphabet="abcde", min_size=5, max_size=5),
    answers=st.lists(st.text(alphabet="abcde", min_size=5, max_size=5), min_size=1, max_size=20),
)
def test_vectorised_rows_match_reference_on_dense_duplicates(guess, answers):
    """A five-letter alphabet forces many repeated letters in both words."""
    rows = compute_rows(_codes([guess]), _codes(answers))[0]
    assert rows.tolist() == [reference_pattern(guess, a) for a in answers]
    assert [patterns.score(guess, a) for a in answers] == rows.tolist()


@given(st.integers(min_value=0, max_value=242))
def test_text_forms_round_trip(code):
    assert patterns.parse(patterns.to_digits(code)) == code
    assert patterns.parse(patterns.to_letters(code)) == code
    assert patterns.parse(patterns.to_emoji(code)) == code
    assert patterns.encode(patterns.decode(code)) == code


def test_parse_accepts_variants():
    assert patterns.parse("gybbx") == patterns.parse("21000")
    assert patterns.parse("🟩🟨⬜⬜⬛") == patterns.parse("21000")
    assert patterns.parse("🟩 🟨 ⬛ ⬛ ⬛") == 2 * 81 + 27
    assert patterns.parse("2 1 0 0 0") == 2 * 81 + 27


@pytest.mark.parametrize("bad", ["2011", "201100", "abcde", "20x1?", ""])
def test_parse_rejects_bad_text(bad):
    with pytest.raises(EvoWordleError):
        patterns.parse(bad)


def test_tiles_show_letters_and_colours():
    plain = patterns.tiles("roars", patterns.score("roars", "euler"), color=False)
    assert plain == "RY OB AB RB SB"
    coloured = patterns.tiles("roars", 81, color=True)
    assert "\x1b[" in coloured and " R " in coloured
