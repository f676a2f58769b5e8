"""Invariants of the GA operators: neighbours, mutation, roulette, crossover, fitness."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from evo_wordle.entropy import entropies
from evo_wordle.ga import operators as ops
from evo_wordle.ga.config import GAConfig
from evo_wordle.ga.creator import individual
from evo_wordle.ga.fitness import EPS, FirstKnowledge, dynamic_fitness, first_fitness, static_entropy, static_fitness
from evo_wordle.ga.toolbox import GAState, make_toolbox
from evo_wordle.game import GameState, Settings
from evo_wordle.patterns import parse
from evo_wordle.solvers import make_solver


def _state_after(ctx, answer: str, guesses: list[str]) -> GameState:
    state = GameState.start(ctx, Settings())
    a = ctx.words.index(answer)
    for g in guesses:
        gi = ctx.words.index(g)
        state = state.after(gi, int(ctx.table[gi, a]))
    return state


def _hamming(ctx, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    letters = ctx.words.letters
    return (letters[a] != letters[b]).sum(axis=1)


def test_neighbour_index_matches_brute_force(ctx):
    index = ops.neighbour_index(ctx)
    assert ops.neighbour_index(ctx) is index  # cached on the context
    assert len(index.words) == index.start[-1]
    assert np.all(_hamming(ctx, index.source, index.words) == 1)
    rng = np.random.default_rng(7)
    letters = ctx.words.letters
    for w in rng.choice(len(ctx.words), size=40, replace=False):
        brute = np.flatnonzero((letters != letters[w]).sum(axis=1) == 1)
        assert np.array_equal(np.sort(index.of(w)), brute)
    assert index.degree(ctx.words.index("ivory")) == 0  # the thesis's example of a word that cannot mutate
    black = {ctx.words.allowed[i] for i in index.of(ctx.words.index("black"))}
    assert {"block", "flack", "slack", "blank", "clack"} <= black


def test_mutants_are_one_letter_neighbours_or_the_parent(ctx):
    index = ops.neighbour_index(ctx)
    rng = np.random.default_rng(1)
    words = rng.integers(len(ctx.words), size=3000)
    out = ops.mutate_words(words, index, rng)
    dist = _hamming(ctx, words, out)
    has = index.start[words + 1] > index.start[words]
    assert np.all(dist[has] == 1) and np.all(out[~has] == words[~has])
    # the thesis's variant: letters a–y only, limited tries -> sometimes the parent stays
    out = ops.mutate_words(words, index, rng, skip_letter=25, tries=100, letters=25)
    changed = out != words
    assert np.all(_hamming(ctx, words[changed], out[changed]) == 1)
    pos = np.argmax(ctx.words.letters[words[changed]] != ctx.words.letters[out[changed]], axis=1)
    assert np.all(ctx.words.letters[out[changed], pos] != 25)


def test_mutation_restricted_to_consistent_words(ctx):
    state = _state_after(ctx, "black", ["tales"])
    mask = np.zeros(len(ctx.words), dtype=bool)
    mask[state.candidates] = True
    index = ops.neighbour_index(ctx)
    rng = np.random.default_rng(2)
    words = rng.choice(state.candidates, size=2000)
    out = ops.mutate_words(words, index, rng, word_mask=mask)
    changed = out != words
    assert changed.any()
    assert mask[out].all() and np.all(_hamming(ctx, words[changed], out[changed]) == 1)


def test_toolbox_mutate_on_individual_returns_one_tuple(ctx):
    gs = GAState(ctx, Settings(), np.random.default_rng(0))
    tb = make_toolbox(GAConfig(), ctx, gs)
    ind = individual(ctx.words.index("black"), 1.0)
    result = tb.mutate(ind)
    assert isinstance(result, tuple) and len(result) == 1 and result[0] is ind
    assert _hamming(ctx, np.array([ctx.words.index("black")]), np.array([ind[0]]))[0] == 1
    assert not ind.fitness.valid


def test_roulette_frequencies_match_fitness_share():
    fitness = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
    n = 200_000
    picks = ops.roulette(fitness, n, np.random.default_rng(123))
    observed = np.bincount(picks, minlength=len(fitness))
    expected = n * fitness / fitness.sum()
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < 18.47  # chi-square, 4 degrees of freedom, p = 0.001


def test_pressure_extremes_give_uniform_and_greedy_weights_never_nan():
    """--pressure 0 with a zero fitness (0 · log 0) and a huge pressure (p · log f overflowing to
    ±inf, inf − inf) made every weight NaN: roulette then drew the first individual every time,
    not a random one nor the fittest (openers --pressure 1e308 printed numpy warnings too)."""
    rng = np.random.default_rng(0)
    with_zero = np.array([0.0, 1.0, 2.0])
    assert np.array_equal(ops.scaled_weights(with_zero, 0.0), np.full(3, 1 / 3))
    assert set(np.unique(ops.roulette(with_zero, 300, rng, pressure=0.0)).tolist()) == {0, 1, 2}
    for f in (np.array([0.1, 0.102, 0.05]), np.array([20.0, 30.0, 25.0]), np.array([0.0, 0.3, 0.2])):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no stray numpy warning on stderr
            w = ops.scaled_weights(f, 1e308)
        assert np.isfinite(w).all() and w[np.argmax(f)] == 1.0  # the fittest, as the greedy limit
        assert (ops.roulette(f, 50, rng, pressure=1e308) == np.argmax(f)).all()
    finite = np.array([0.5, 1.0, 3.0])  # ordinary pressures: the weights as before, f**p normalised
    assert np.allclose(ops.scaled_weights(finite, 50.0), finite**50 / (finite**50).sum())


def test_pressure_moves_from_random_to_greedy():
    fitness = np.array([1.0, 1.5, 2.0])
    rng = np.random.default_rng(5)
    uniform = np.bincount(ops.roulette(fitness, 60_000, rng, pressure=0.0), minlength=3) / 60_000
    assert np.allclose(uniform, 1 / 3, atol=0.01)
    greedy = np.bincount(ops.roulette(fitness, 10_000, rng, pressure=60.0), minlength=3) / 10_000
    assert greedy[2] > 0.99
    assert np.isfinite(ops.scaled_weights(np.array([1e-6, 5.0]), 1000.0)).all()


def test_tournament_and_best():
    fitness = np.array([0.1, 5.0, 0.2, 0.3])
    assert np.all(ops.best(fitness, 2) == [1, 3])
    wins = ops.tournament(fitness, 5000, np.random.default_rng(0), size=4)
    # the best of four draws with replacement is word 1 with probability 1 - (3/4)**4
    assert abs((wins == 1).mean() - (1 - 0.75**4)) < 0.03


@pytest.mark.parametrize("kind", ["uniform", "recombine"])
def test_crossover_children_consistent_with_all_feedback(ctx, kind):
    state = _state_after(ctx, "merry", ["tales", "corny"])
    gs = GAState(ctx, Settings(), np.random.default_rng(3))
    gs.observe(state)
    tb = make_toolbox(GAConfig(crossover=kind), ctx, gs)
    rng = np.random.default_rng(4)
    p1 = rng.choice(state.candidates, size=300)
    p2 = rng.choice(state.candidates, size=300)
    c1, c2 = tb.mate(p1, p2)
    children = np.concatenate([c1, c2])
    for guess, pattern in state.history:
        assert np.all(ctx.table[guess, children] == pattern)
    if kind == "recombine":
        letters = ctx.words.letters
        from_parents = ((letters[c1] == letters[p1]) | (letters[c1] == letters[p2])).all(axis=1)
        assert from_parents.mean() > 0.3  # most pairs here have a recombinant child


def test_recombine_takes_letters_from_parents(ctx):
    state = GameState.start(ctx, Settings())
    mask = np.ones(len(ctx.words), dtype=bool)
    p1 = np.array([ctx.words.index("black")])
    p2 = np.array([ctx.words.index("slick")])
    rng = np.random.default_rng(0)
    kids = {ctx.words.allowed[ops.recombine_children(ctx, p1, p2, mask, state.candidates, rng)[0]] for _ in range(60)}
    assert kids <= {"slack", "blick"}  # every position from a parent, neither parent itself
    assert "slack" in kids


def test_fitness_functions(ctx):
    state = _state_after(ctx, "merry", ["tales"])
    words = np.array([ctx.words.index(w) for w in ("merry", "berry", "xylyl", "merry")])
    dyn = dynamic_fitness(ctx, words, state.candidates)
    ref = entropies(ctx.table, words, state.candidates) * ctx.priority[words] + EPS
    assert np.allclose(dyn, ref) and dyn[0] == dyn[3]
    stat = static_fitness(ctx)
    assert np.allclose(stat[words], entropies(ctx.table, words, ctx.all_words) * ctx.priority[words] + EPS)
    assert (stat > 0).all()
    # the thesis's example: P at 1, R somewhere but not at 3, A and K grey
    know = FirstKnowledge(5)
    know.update(ctx.words.letters[ctx.words.index("parka")], parse("20100"))
    H = static_entropy(ctx)
    preys, space = ctx.words.index("preys"), ctx.words.index("space")
    f = first_fitness(ctx, np.array([preys, space]), know, H)
    assert np.allclose(f, [H[preys] + 7, H[space] - 2])
    assert abs(H[preys] - 5.10480) < 1e-4 and abs(H[space] - 5.29281) < 1e-4


@pytest.mark.parametrize("masked", [False, True])
def test_mutation_is_uniform_over_neighbours(ctx, masked):
    index = ops.neighbour_index(ctx)
    black = ctx.words.index("black")
    nbrs = index.of(black)
    mask = np.ones(len(ctx.words), dtype=bool)
    if masked:
        mask[nbrs[0]] = False  # one neighbour excluded: the others stay uniform
    n = 40_000
    out = ops.mutate_words(np.full(n, black), index, np.random.default_rng(9), word_mask=mask if masked else None)
    allowed = nbrs[mask[nbrs]]
    assert set(np.unique(out)) == set(allowed.tolist())
    observed = np.array([(out == w).sum() for w in allowed])
    expected = n / len(allowed)
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < 24.3  # chi-square with at most 7 degrees of freedom, p = 0.001


def _expected_cost_reference(ctx, guess: int, candidates, weights) -> float:
    """The expected fitness's cost model, written out with dictionaries (no numpy tricks)."""
    from evo_wordle.ga.fitness import EXPECTED_MODEL as m

    total = sum(weights[c] for c in candidates)
    prob = {c: weights[c] / total for c in candidates}
    h_now = -sum(p * np.log2(p) for p in prob.values())
    mass: dict[int, float] = {}
    for c in candidates:
        pat = int(ctx.table[guess, c])
        mass[pat] = mass.get(pat, 0.0) + prob[c]
    h = -sum(p * np.log2(p) for p in mass.values())
    rem = max(h_now - h, 0.0)
    p_win = prob.get(guess, 0.0)
    return 1 + (1 - min(1.0, m["bonus"] * p_win)) * (1 + m["k1"] * rem + m["k2"] * np.log2(1 + rem))


@pytest.mark.parametrize("rule", ["allowed", "answers"])
def test_expected_fitness_matches_written_out_cost(ctx, rule):
    from evo_wordle.ga.fitness import answer_weights, expected_cost, expected_fitness

    state = _state_after(ctx, "merry", ["tales"])
    cand = state.candidates
    weights = answer_weights(ctx, rule)
    if rule == "allowed":  # frequency prior: common words outweigh rare ones
        assert weights[ctx.words.index("merry")] > 10 * weights[ctx.words.index("xylyl")]
    else:
        assert np.all(weights == weights[0])
    words = np.array([cand[0], cand[len(cand) // 2], ctx.words.index("crony"), ctx.words.index("xylyl"), cand[0]])
    got = expected_cost(ctx, words, cand, weights)
    ref = [_expected_cost_reference(ctx, int(w), cand.tolist(), weights) for w in words]
    assert np.allclose(got, ref, rtol=1e-9)
    fit = expected_fitness(ctx, words, cand, weights)
    assert np.allclose(fit, np.exp(-np.array(ref))) and (fit > 0).all() and fit[0] == fit[4]
    # a word that cannot be the answer cannot finish the game now: it costs at least 2
    assert got[3] >= 2.0 and (ctx.table[words[3], cand] != ctx.words.solved).all()


def test_expected_fitness_start_state_is_shared_and_blockwise(ctx):
    """Before any feedback the fitness comes from a per-context table: the same numbers as a
    direct evaluation over all candidates (which runs blockwise)."""
    from evo_wordle.ga.fitness import answer_weights, expected_fitness

    state = GAState(ctx, Settings())
    state.observe(GameState.start(ctx, Settings()))
    words = np.array([ctx.words.index(w) for w in ("tales", "salet", "xylyl", "tales")])
    direct = expected_fitness(ctx, words, ctx.all_words, answer_weights(ctx, "allowed"))
    first = state.dynamic(words, "expected")
    assert np.allclose(first, direct)
    again = state.dynamic(words[:2], "expected")  # served from the table
    assert np.array_equal(again, first[:2])
    assert direct[0] > direct[2]  # TALES leaves fewer guesses than XYLYL


def test_expected_fitness_with_full_pressure_is_its_argmin(ctx):
    """At very high pressure, with a population that holds every candidate (distinct, 1000 >
    715 after TALES), the GA guesses the candidate of least expected cost."""
    from evo_wordle.ga.fitness import answer_weights, expected_cost

    ga = make_solver("ga", ctx, Settings(), fitness="expected", pressure=1e6, population=1000)
    ga.reset(np.random.default_rng(0))
    state = _state_after(ctx, "merry", ["tales"])
    ga.choose(GameState.start(ctx, Settings()))
    guess = ga.choose(state)
    cost = expected_cost(ctx, state.candidates, state.candidates, answer_weights(ctx, "allowed"))
    assert guess == state.candidates[np.argmin(cost)]
