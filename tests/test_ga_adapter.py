"""Both operator styles in the GA toolbox: DEAP's standard operators on individuals and the
package's vectorised ones; parent selection separate from the choice of the guess."""

from __future__ import annotations

import numpy as np
import pytest
from deap import tools

from evo_wordle.bench import run_bench
from evo_wordle.errors import EvoWordleError
from evo_wordle.ga import adapter
from evo_wordle.game import GameState, Settings, play
from evo_wordle.solvers import make_solver

ANSWERS = slice(3, 2309, 230)  # 10 answers


def _games(ctx, name, register=(), seed=4, **params):
    solver = make_solver(name, ctx, Settings(), **params) if isinstance(name, str) else name
    for alias, fn, kw in register:
        solver.toolbox.register(alias, fn, **kw)
    out = []
    for k, answer in enumerate(ctx.words.answer_index[ANSWERS]):
        solver.reset(np.random.default_rng([seed, k]))
        out.append(play(solver, GameState.start(ctx, Settings()), int(answer), Settings()).guesses)
    return out, solver


@pytest.mark.parametrize(
    "select, kw",
    [
        (tools.selTournament, {"tournsize": 3}),
        (tools.selRoulette, {}),
        (tools.selBest, {}),
        (tools.selStochasticUniversalSampling, {}),
        (tools.selLexicase, {}),
        (tools.selDoubleTournament, {"fitness_size": 3, "parsimony_size": 1.4, "fitness_first": True}),
    ],
)
def test_deap_selection_operators_plug_in_unchanged(ctx, select, kw):
    games, solver = _games(ctx, "ga", [("select", select, kw)], population=60)
    again, _ = _games(ctx, "ga", [("select", select, kw)], population=60)
    assert games == again  # DEAP draws from `random`, which reset() seeds per game
    assert all(len(g) <= 9 for g in games) and np.mean([len(g) for g in games]) < 5.5
    assert not adapter.is_vectorised(solver.toolbox.select)
    assert solver.describe()["operators"]["select"].startswith(f"deap.tools.{select.__module__.split('.')[-1]}")


def test_deap_selection_as_the_guess_choice(ctx):
    games, _ = _games(ctx, "ga", [("choose", tools.selBest, {})], population=60, pressure=1.0)
    assert np.mean([len(g) for g in games]) < 5.0


def test_per_individual_evaluate_gives_the_same_games(ctx):
    """A DEAP-style evaluate (individual -> 1-tuple) computing the package's fitness must
    play exactly the games of the vectorised fast path."""
    for name in ("ga-thesis", "ga"):
        fast, _ = _games(ctx, name, population=40)
        solver = make_solver(name, ctx, Settings(), population=40)
        vectorised_evaluate = solver.toolbox.evaluate  # bound to this solver's game state

        def per_individual(ind, fn=vectorised_evaluate):
            return (float(fn(np.array([ind[0]]))[0]),)

        slow, slow_solver = _games(ctx, solver, [("evaluate", per_individual, {})])
        assert not adapter.is_vectorised(slow_solver.toolbox.evaluate)
        assert slow == fast


def test_deap_mate_and_mutate_on_individuals(ctx):
    n = len(ctx.words)

    def swap(ind1, ind2):
        ind1[0], ind2[0] = ind2[0], ind1[0]
        return ind1, ind2

    games, _ = _games(
        ctx, "ga-thesis",
        [("mate", swap, {}), ("mutate", tools.mutUniformInt, {"low": 0, "up": n - 1, "indpb": 1.0})],
        population=30, crossover="recombine",
    )
    assert all(g for g in games)


def test_position_crossovers_and_real_mutations_are_refused(ctx):
    solver = make_solver("ga", ctx, Settings(), population=20)
    for fn in (tools.cxTwoPoint, tools.cxOnePoint, tools.cxUniform):
        with pytest.raises(EvoWordleError, match="recombine"):
            solver.toolbox.register("mate", fn, **({"indpb": 0.5} if fn is tools.cxUniform else {}))
    with pytest.raises(EvoWordleError, match="mutUniformInt"):
        solver.toolbox.register("mutate", tools.mutGaussian, mu=0, sigma=1, indpb=1)
    solver.toolbox.register("select", tools.selTournament, tournsize=3)  # selection stays allowed


def test_bad_operator_results_are_clear_errors(ctx):
    solver = make_solver("ga-thesis", ctx, Settings(), population=10)
    solver.toolbox.register("evaluate", lambda ind: 0.5)  # not a tuple
    solver.reset(np.random.default_rng(0))
    with pytest.raises(EvoWordleError, match="1-tuple"):
        solver.choose(GameState.start(ctx, Settings()))
    solver = make_solver("ga-thesis", ctx, Settings(), population=10, crossover="recombine")
    solver.toolbox.register("mutate", lambda ind: (ind + [3],))
    solver.reset(np.random.default_rng(0))
    state = GameState.start(ctx, Settings())
    guess = solver.choose(state)
    with pytest.raises(EvoWordleError, match="one-gene"):
        for _ in range(20):
            solver.choose(state.after(guess, int(ctx.table[guess, ctx.words.index("merry")])))


def _vec(fn):
    return adapter.vectorised(fn)


BAD_RESULTS = [
    # a vectorised operator's words were used unchecked: -1 wrapped to the last word, floats were cast
    ("mutate", _vec(lambda w: w * 0 - 1), "mutate gave word index -1, outside 0..12971"),
    ("mutate", _vec(lambda w: w + 0.5), "a vectorised mutate must return a 1-D array of word indices"),
    ("mutate", _vec(lambda w: w[:-1]), "a vectorised mutate returned"),
    ("mate", _vec(lambda a, b: (a, b * 0 + 99999)), "mate gave word index 99999"),
    ("mate", _vec(lambda a, b: a), "a vectorised mate must return two arrays"),
    ("choose", _vec(lambda w, k, f: np.array([99999])), "choose gave word index 99999"),
    ("select", _vec(lambda w, k, f: w[:0]), "select returned no words"),
    # a fitness that breaks selection: NaN, infinite, too few values, negative or all zero for roulette
    ("evaluate", lambda ind: (float("nan"),), "evaluate gave a fitness of nan"),
    ("evaluate", _vec(lambda w: np.full(len(w), np.inf)), "evaluate gave a fitness of inf"),
    ("evaluate", _vec(lambda w: np.ones(len(w) - 1)), "returned 39 fitness values of shape \\(39,\\) for 40 words"),
    ("evaluate", lambda ind: (-1.0,), r"roulette needs fitness values of at least 0, one of them above 0 "
                                      r"\(evaluate gave -1 to -1\); shift the fitness, or select and choose"),
    ("evaluate", _vec(lambda w: np.zeros(len(w))), r"one of them above 0 \(evaluate gave 0 to 0\); shift"),
]


@pytest.mark.parametrize("alias, fn, message", BAD_RESULTS, ids=[f"{a}-{m[:30]}" for a, _, m in BAD_RESULTS])
def test_bad_vectorised_results_and_fitness_are_clear_errors(ctx, alias, fn, message):
    solver = make_solver("ga", ctx, Settings(), population=40)
    solver.toolbox.register(alias, fn)
    with pytest.raises(EvoWordleError, match=message):
        run_bench(ctx, solver, answers=ctx.words.answer_index[ANSWERS], seed=0)


def test_negative_fitness_is_fine_where_selection_does_not_weigh_it(ctx):
    """Tournament and best only compare fitness values: a negative one plays as its order says."""
    solver = make_solver("ga", ctx, Settings(), population=40, selection="tournament", choice="best")
    solver.toolbox.register("evaluate", _vec(lambda w: -np.arange(len(w), dtype=float)))
    result = run_bench(ctx, solver, answers=ctx.words.answer_index[ANSWERS], seed=0)
    assert result.games == len(ctx.words.answer_index[ANSWERS]) and 1 <= result.mean_guesses <= 9


def test_parent_selection_does_not_change_the_guess_rule(ctx):
    solver = make_solver("ga", ctx, Settings(), selection="tournament")
    assert solver.toolbox.select.keywords["method"] == "tournament"
    assert solver.toolbox.choose.keywords["method"] == "roulette"
    assert solver.describe()["choice"] == "roulette"
    assert make_solver("ga-first", ctx, Settings()).toolbox.choose.keywords["method"] == "best"


def test_default_ga_bench_is_unchanged(ctx):
    """A short run of the default `ga` pins its games (the full bench, seed 0, is the registry's
    figure ga-default-seed0)."""
    import hashlib

    from evo_wordle.bench import sample_answers

    r = run_bench(ctx, "ga", Settings(), sample_answers(ctx.words.answer_index, 60, 0), seed=0)
    assert r.mean_guesses == pytest.approx(3.5 + 5 / 60)
    assert [ctx.words.allowed[g] for g in r.records[5].guesses] == ["tales", "ollie", "belle"]
    # every guess of the 60 games, as played since a generation with no eligible elite breeds
    # the whole population (stop 33)
    played = repr([x.guesses for x in r.records]).encode()
    assert hashlib.sha256(played).hexdigest()[:16] == "72c88c95fdf87047"
