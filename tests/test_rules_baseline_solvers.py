"""Rule tests of the two floor solvers the literature compares with, ``letter-frequency`` and
``random`` (evo_wordle/solvers/letter_frequency.py and random_solver.py): the score of every
word worked out by hand, and the random draw's pool, seed and opener (their targeted tests for
mutation testing)."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle.game import GameState, Settings
from evo_wordle.solvers import make_solver
from evo_wordle.solvers.letter_frequency import letter_presence

from .small_lists import IGHT, small_context

ONLY = Settings(candidates="answers", guess_from="candidates")
ANY = Settings(candidates="answers", guess_from="allowed")


@pytest.fixture(scope="module")
def small():
    """20 answers (the -ight family and 10 bundled ones) among 40 allowed words."""
    return small_context("rules-baselines", IGHT, slice(0, 10), slice(0, 300), 20)


def by_hand(ctx, guess: int, candidates) -> float:
    """Each distinct letter of the guess counts the candidates that contain it."""
    word = ctx.words.allowed[guess]
    pool = [ctx.words.allowed[c] for c in candidates]
    return float(sum(sum(letter in w for w in pool) for letter in set(word)))


def test_presence_is_one_per_distinct_letter(small):
    presence = letter_presence(small)
    assert presence.shape == (len(small.words.allowed), 26) and presence.dtype == np.float32
    for i, word in enumerate(small.words.allowed):
        assert presence[i].tolist() == [float(chr(97 + k) in word) for k in range(26)]


@pytest.mark.parametrize("settings", [ONLY, ANY])
def test_letter_frequency_scores_every_word_by_hand(small, settings):
    solver = make_solver("letter-frequency", small, settings)
    state = GameState.start(small, settings)
    for candidates in (state.candidates, state.candidates[::3], state.candidates[:1]):
        here = GameState(small, np.asarray(candidates))
        guesses = here.guessable(settings.guess_from)
        scores = solver.scores(guesses, here)
        assert scores.tolist() == [by_hand(small, g, here.candidates) for g in guesses]


def test_letter_frequency_plays_the_best_word_by_hand(small):
    state = GameState.start(small, ANY)
    solver = make_solver("letter-frequency", small, ANY)
    guess = solver.choose(state)
    scores = [by_hand(small, g, state.candidates) for g in range(len(small.words.allowed))]
    assert scores[guess] == max(scores)
    assert guess == min(g for g in range(len(scores)) if scores[g] == max(scores))  # ties: first word
    after = state.after(guess, int(small.table[guess, state.candidates[0]]))
    second = solver.choose(after)
    scores = [by_hand(small, g, after.candidates) for g in range(len(small.words.allowed))]
    assert scores[second] == max(scores)


def test_random_draws_from_the_guessable_pool_alone(small):
    for settings in (ONLY, ANY):
        state = GameState.start(small, settings)
        solver = make_solver("random", small, settings)
        solver.reset(np.random.default_rng(0))
        pool = set(state.guessable(settings.guess_from).tolist())
        drawn = [solver.choose(state) for _ in range(6000)]
        assert set(drawn) == pool  # every word of the pool, and no other
        counts = np.bincount(drawn, minlength=len(small.words.allowed))[sorted(pool)]
        assert counts.min() > 0.6 * 6000 / len(pool)  # uniform, roughly (seeded: the same draws every run)
    only = make_solver("random", small, ONLY)
    only.reset(np.random.default_rng(0))
    narrowed = GameState(small, state.candidates[:2])
    assert {only.choose(narrowed) for _ in range(50)} == set(state.candidates[:2].tolist())


def test_random_is_seeded(small):
    state = GameState.start(small, ANY)
    runs = []
    for seed in (5, 5, 6):
        solver = make_solver("random", small, ANY)
        solver.reset(np.random.default_rng(seed))
        runs.append([solver.choose(state) for _ in range(20)])
    assert runs[0] == runs[1] and runs[0] != runs[2]


def test_random_plays_a_fixed_opener_on_the_first_turn_only(small):
    opener = small.words.index("eight")
    solver = make_solver("random", small, ANY, opener="eight")
    solver.reset(np.random.default_rng(1))
    state = GameState.start(small, ANY)
    assert {solver.choose(state) for _ in range(20)} == {opener}
    later = state.after(opener, int(small.table[opener, small.words.index("light")]))
    assert later.turn == 1
    assert len({solver.choose(later) for _ in range(200)}) > 1  # drawn again after the first turn
    free = make_solver("random", small, ANY)
    free.reset(np.random.default_rng(1))
    assert len({free.choose(state) for _ in range(50)}) > 1  # no fixed opener: drawn every game


def test_random_is_declared_stochastic_so_benches_repeat_it():
    from evo_wordle.cli.bench_cmds import repeats
    from evo_wordle.solvers import SOLVERS

    assert SOLVERS["random"].stochastic is True and SOLVERS["letter-frequency"].stochastic is False
    assert repeats("random", Settings(), 5) == 5
    assert repeats("letter-frequency", Settings(), 5) == 1
