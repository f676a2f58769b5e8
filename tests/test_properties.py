"""Property-based checks (hypothesis) of the invariants every figure rests on.

Deterministic: the ``evo-wordle`` profile in conftest.py derandomizes and bounds the examples,
so CI sees the same cases every run."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from evo_wordle.entropy import entropies, pattern_counts
from evo_wordle.evolve.exact import ExactSolver
from evo_wordle.game import GameState, Settings, hard_mode_mask
from evo_wordle.patterns import decode, score
from evo_wordle.table import build_table
from evo_wordle.words import WordSet
from tests.reference import reference_pattern

N_ALLOWED = 12972


@st.composite
def word_pairs(draw):
    """Two words of one length (1–7) over a small alphabet, so repeated letters are common."""
    length = draw(st.integers(1, 7))
    alphabet = draw(st.sampled_from(["ab", "abc", "abcde", "eelst"]))
    word = st.text(alphabet=alphabet, min_size=length, max_size=length)
    return draw(word), draw(word)


@given(word_pairs())
def test_feedback_equals_the_plain_reference(pair):
    guess, answer = pair
    assert score(guess, answer) == reference_pattern(guess, answer)


@given(st.lists(st.text(alphabet="abcd", min_size=4, max_size=4), min_size=2, max_size=12, unique=True))
def test_built_table_equals_the_plain_reference(words):
    words = sorted(words)
    letters = WordSet(tuple(words), tuple(words), label="h").letters
    assert build_table(letters).tolist() == [[reference_pattern(g, a) for a in words] for g in words]


@given(st.integers(0, N_ALLOWED - 1), st.lists(st.integers(0, N_ALLOWED - 1), min_size=1, max_size=30))
def test_table_cells_equal_the_plain_reference(ctx, guess, answers):
    words = ctx.words.allowed
    assert [int(ctx.table[guess, a]) for a in answers] == [reference_pattern(words[guess], words[a]) for a in answers]


candidate_sets = st.lists(st.integers(0, N_ALLOWED - 1), min_size=1, max_size=300, unique=True).map(sorted)
guess_lists = st.lists(st.integers(0, N_ALLOWED - 1), min_size=1, max_size=20)


@given(guess_lists, candidate_sets)
def test_partition_sizes_sum_to_the_candidates(ctx, guesses, candidates):
    counts = pattern_counts(ctx.table, np.array(guesses), np.array(candidates))
    assert counts.shape == (len(guesses), 243)
    assert counts.sum(axis=1).tolist() == [len(candidates)] * len(guesses)
    assert (counts >= 0).all()


@given(guess_lists, candidate_sets)
def test_entropy_is_at_most_log2_candidates_and_the_partition_formula(ctx, guesses, candidates):
    h = entropies(ctx.table, np.array(guesses), np.array(candidates))
    n = len(candidates)
    assert np.all(h >= 0) and np.all(h <= np.log2(n) + 1e-9)
    for g, value in zip(guesses, h):
        _, sizes = np.unique(ctx.table[g, candidates], return_counts=True)
        p = sizes / n
        assert abs(value - float(-(p * np.log2(p)).sum())) < 1e-9


@given(st.integers(0, 2308), st.lists(st.integers(0, N_ALLOWED - 1), min_size=1, max_size=4))
def test_hard_mode_legality_is_closed_under_feedback(ctx, answer_pos, guesses):
    """Every word still consistent with the feedback (the answer included) is hard-mode legal."""
    answer = int(ctx.words.answer_index[answer_pos])
    state = GameState.start(ctx, Settings(hard=True))
    for g in guesses:
        state = state.after(g, int(ctx.table[g, answer]))
    legal = hard_mode_mask(ctx, state.history)
    assert legal[answer]
    assert legal[state.candidates].all()
    # and each revealed green letter sits in place in every legal word
    for g, p in state.history:
        for pos, t in enumerate(decode(p)):
            if t == 2:
                assert (ctx.words.letters[legal, pos] == ctx.words.letters[g, pos]).all()


@given(st.lists(st.integers(0, 2308), min_size=2, max_size=7, unique=True), st.booleans())
def test_every_tree_path_is_consistent_with_its_answer(ctx, positions, from_set):
    answers = np.sort(ctx.words.answer_index[positions])
    solver = ExactSolver(ctx, None if from_set else answers)
    tree = solver.tree(answers)
    assert sorted(tree) == answers.tolist()
    assert sum(len(p) for p in tree.values()) == solver.cost(answers)
    for answer, path in tree.items():
        assert path[-1] == answer
        remaining = answers
        for g in path:
            remaining = remaining[ctx.table[g, remaining] == ctx.table[g, answer]]
        assert remaining.tolist() == [answer]
