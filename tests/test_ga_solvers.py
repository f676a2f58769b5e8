"""The GA solvers: configuration errors, determinism, logbook, swappable toolbox, small benches."""

from __future__ import annotations

import numpy as np
import pytest
from deap import tools

from evo_wordle.bench import run_bench
from evo_wordle.cli import build_parser, main
from evo_wordle.cli.common import solver_params
from evo_wordle.errors import EvoWordleError
from evo_wordle.ga.adapter import vectorised
from evo_wordle.ga.config import GAConfig
from evo_wordle.ga.solvers import PARAMS
from evo_wordle.game import GameState, Settings, play
from evo_wordle.patterns import to_digits
from evo_wordle.solvers import make_solver

SAMPLE = slice(0, 2309, 46)  # 51 answers spread over the list


@pytest.mark.parametrize(
    "bad",
    [
        {"population": 0},
        {"mutation": 1.5},
        {"crossover_rate": -0.1},
        {"selection": "lottery"},
        {"crossover": "splice"},
        {"fitness": "vibes"},
        {"init": "worst"},
        {"elite": 2001},
        {"generations_per_guess": 0},
        {"pressure": -1.0},
    ],
)
def test_invalid_config_is_a_user_error(ctx, bad):
    with pytest.raises(EvoWordleError) as err:
        GAConfig(**bad)
    assert "\n" not in str(err.value)
    with pytest.raises(EvoWordleError):
        make_solver("ga", ctx, Settings(), **bad)


def test_unknown_parameter_is_a_user_error(ctx):
    with pytest.raises(EvoWordleError):
        make_solver("ga-thesis", ctx, Settings(), colour="red")


@pytest.mark.parametrize(
    "flags",
    [["--population", "0"], ["--mutation", "2"], ["--crossover-rate", "-1"], ["--elite", "-1"]],
)
def test_cli_invalid_parameters_exit_2_with_one_line(capsys, cache_dir, flags):
    code = main(["bench", "--solver", "ga", "--games", "3", *flags])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "error" in err


@pytest.mark.parametrize("flags", [["--selection", "lottery"], ["--crossover", "splice"], ["--population", "x"]])
def test_cli_unknown_operator_exit_2_with_one_line(capsys, cache_dir, flags):
    with pytest.raises(SystemExit) as exc:
        main(["bench", "--solver", "ga", "--games", "3", *flags])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_flags_reach_every_ga_solver(cache_dir):
    args = build_parser().parse_args(
        ["bench", "--solver", "ga-thesis", "--population", "30", "--mutation", "0.2", "--crossover-rate", "0.5",
         "--init", "best", "--elite", "2", "--generations-per-guess", "3", "--selection", "roulette",
         "--pressure", "2", "--fitness", "dynamic", "--crossover", "recombine"]
    )
    params = solver_params("ga-thesis", args)
    assert set(params) == set(PARAMS)
    assert params["population"] == 30 and params["crossover"] == "recombine"
    for name in ("ga", "ga-first"):
        assert solver_params(name, args) == params
    with pytest.raises(EvoWordleError, match="solver greedy has no --population"):
        solver_params("greedy", args)  # a GA flag is refused by a solver without a population


def _game(ctx, name, answer, seed, **params):
    solver = make_solver(name, ctx, Settings(), **params)
    solver.reset(np.random.default_rng(seed))
    record = play(solver, GameState.start(ctx, Settings()), ctx.words.index(answer), Settings())
    return solver, record


@pytest.mark.parametrize(
    "name, params", [("ga", {}), ("ga", {"pressure": 30.0, "population": 200}), ("ga-thesis", {}), ("ga-first", {})]
)
def test_same_seed_same_game(ctx, name, params):
    s1, r1 = _game(ctx, name, "merry", 3, **params)
    s2, r2 = _game(ctx, name, "merry", 3, **params)
    assert r1.guesses == r2.guesses
    assert [dict(e) for e in s1.logbook] == [dict(e) for e in s2.logbook]
    games = {tuple(_game(ctx, name, "merry", seed, **params)[1].guesses) for seed in range(6)}
    assert len(games) > 1  # stochastic: other seeds play other games


def test_logbook_and_hall_of_fame(ctx):
    solver, record = _game(ctx, "ga", "merry", 1, generations_per_guess=2, population=40)
    log = solver.logbook
    guesses = [e for e in log if e["guess"] is not None]
    assert [e["guess"] for e in guesses] == [ctx.words.allowed[g] for g in record.guesses]
    assert len(log) == 1 + 2 * (len(record.guesses) - 1)  # initial population, then G per guess
    for e in log:
        assert set(e) >= {"gen", "guess_no", "nevals", "candidates", "best", "mean", "std", "diversity", "guess",
                          "guess_fitness", "pattern"}
        assert 1 <= e["diversity"] <= 40 and e["best"] >= e["mean"] > 0
    # nevals: the initial population (TALES is among its best-entropy words); later the
    # parents re-scored under the new feedback plus the first bred generation, then one more
    assert log[0]["nevals"] == 40 and log[2]["nevals"] == 40 and log[1]["nevals"] == 40 + log[1]["diversity"]
    answer = ctx.words.index("merry")
    for g, e in zip(record.guesses, guesses):  # the last one through Solver.finish
        assert e["pattern"] == to_digits(int(ctx.table[g, answer]))
    assert guesses[-1]["pattern"] == "22222"
    # one hall of fame per decision, each holding the word played with its logged fitness
    halls = solver.halls_of_fame
    assert [h.turn for h in halls] == list(range(len(record.guesses)))
    for hof, e in zip(halls, guesses):
        assert isinstance(hof, tools.HallOfFame) and 1 <= len(hof) <= 5
        fits = [ind.fitness.values[0] for ind in hof]
        assert fits == sorted(fits, reverse=True)
        assert fits[0] >= e["guess_fitness"] and fits[0] >= e["best"]
        assert e["guess_fitness"] > 0
        assert str(hof).startswith(f"turn {hof.turn}: ")
    # a random population lacks the opener TALES: it is evaluated (nevals 41) and, having
    # the best fitness under that (empty) feedback, heads the first hall of fame
    other, _ = _game(ctx, "ga", "merry", 1, population=40, init="random")
    first = other.logbook[0]
    assert first["guess"] == "tales" and first["nevals"] == 41 and first["guess_fitness"] > first["best"]
    assert other.halls_of_fame[0].words()[0] == ("tales", first["guess_fitness"])
    rows = solver.hall_of_fame_words()
    assert {r["turn"] for r in rows} == set(range(len(record.guesses))) and rows[0]["word"].isalpha()
    assert solver.hall_of_fame is halls[-1]
    solver.reset(np.random.default_rng(0))
    assert len(solver.logbook) == 0 and len(solver.hall_of_fame) == 0 and solver.halls_of_fame == []


def test_toolbox_operators_are_swappable(ctx):
    solver = make_solver("ga-thesis", ctx, Settings(), population=20)
    picked = []

    @vectorised
    def pick_first(population, k, fitness=None):
        picked.append(len(population))
        return population[np.zeros(k, dtype=np.int64)]

    solver.toolbox.register("select", pick_first)
    solver.toolbox.register("choose", pick_first)
    solver.toolbox.register("mate", vectorised(lambda a, b: (a.copy(), b.copy())))
    solver.toolbox.register("mutate", vectorised(lambda words: words))
    solver.reset(np.random.default_rng(0))
    state = GameState.start(ctx, Settings())
    first = solver.choose(state)
    assert first == solver.population[0] and picked
    # the next generation: copies of the selected parent, then the guess is again population[0]
    state = state.after(first, int(ctx.table[first, ctx.words.index("merry")]))
    second = solver.choose(state)
    assert np.all(solver.population == first) and second == first


def test_small_benches_run_and_jobs_do_not_matter(ctx):
    answers = ctx.words.answer_index[SAMPLE]
    for name in ("ga-thesis", "ga-first"):
        r = run_bench(ctx, name, Settings(), answers=answers, seed=5)
        assert r.games == len(answers) and 2.5 < r.mean_guesses < 7
    r1 = run_bench(ctx, "ga", Settings(), answers=answers[:20], seed=5)
    r2 = run_bench(ctx, "ga", Settings(), answers=answers[:20], seed=5, jobs=2)
    assert [x.guesses for x in r1.records] == [x.guesses for x in r2.records]
    assert r1.mean_guesses < 4.6 and r1.params["pressure"] == make_solver("ga", ctx, Settings()).config.pressure


def test_state_relearns_after_undo(ctx):
    """The assistant may go back a guess: the first GA's knowledge must follow the new line."""
    from evo_wordle.ga.fitness import FirstKnowledge

    solver = make_solver("ga-first", ctx, Settings())
    solver.reset(np.random.default_rng(0))
    answer = ctx.words.index("merry")
    start = GameState.start(ctx, Settings())
    a, b = ctx.words.index("tales"), ctx.words.index("corny")
    one = start.after(a, int(ctx.table[a, answer]))
    two = one.after(b, int(ctx.table[b, answer]))
    for st in (start, one, two):
        solver.choose(st)
    other = start.after(b, int(ctx.table[b, answer]))  # undo twice, play CORNY first instead
    solver.choose(other)
    fresh = FirstKnowledge(5)
    fresh.update(ctx.words.letters[b], int(ctx.table[b, answer]))
    assert solver.state.attempts == [b]
    assert np.array_equal(solver.state.first.colors, fresh.colors)
    assert np.array_equal(solver.state.first.gray, fresh.gray)


def test_operators_using_python_random_stay_reproducible(ctx):
    """DEAP's own operators draw from `random`; reset() seeds it from the game's generator."""
    import random

    @vectorised
    def random_select(population, k, fitness=None):
        return population[np.array([random.randrange(len(population)) for _ in range(k)])]

    games = []
    for _ in range(2):
        solver = make_solver("ga-thesis", ctx, Settings(), population=30)
        solver.toolbox.register("select", random_select)
        solver.toolbox.register("choose", random_select)
        solver.reset(np.random.default_rng(11))
        games.append(play(solver, GameState.start(ctx, Settings()), ctx.words.index("boxer"), Settings()).guesses)
        random.seed()  # disturb the global generator between the two games
    assert games[0] == games[1]


def test_ga_thesis_obeys_hard_mode(ctx):
    """ga-thesis mutates without looking at the feedback, yet in hard mode every guess after
    the first must use the revealed hints."""
    from evo_wordle.game import hard_mode_mask

    settings = Settings(hard=True)
    ga = make_solver("ga-thesis", ctx, settings, mutation=1.0)
    seeds = np.random.SeedSequence(5).spawn(40)
    illegal_before = 0
    for k, answer in enumerate(ctx.words.answer_index[SAMPLE][:40]):
        ga.reset(np.random.default_rng(seeds[k]))
        record = play(ga, GameState.start(ctx, settings), int(answer), settings)
        history: tuple = ()
        for guess in record.guesses:
            assert hard_mode_mask(ctx, history)[guess], ctx.words.allowed[guess]
            history += ((guess, int(ctx.table[guess, answer])),)
        illegal_before += int((~ga.state.hard_legal[ga.population]).sum())
    assert illegal_before > 0  # the population did hold illegal mutants: the filter was needed


def test_ga_thesis_never_repeats_a_guess_unless_asked(ctx):
    """The thesis's mutation never returns an already-guessed word (Fig. 3.8); its published
    code lacks the check, which --no-exclude-guessed restores (and then guesses repeat)."""
    answers = ctx.words.answer_index[::23]
    settings = Settings(max_guesses=30)
    repeats = {}
    for exclude in (True, False):
        result = run_bench(ctx, "ga-thesis", settings, answers=answers, seed=4,
                           solver_params={"mutation": 1.0, "exclude_guessed": exclude})
        repeats[exclude] = sum(len(g.guesses) - len(set(g.guesses)) for g in result.records)
    assert repeats[True] == 0
    assert repeats[False] > 0
    args = build_parser().parse_args(["bench", "--solver", "ga-thesis", "--no-exclude-guessed"])
    assert solver_params("ga-thesis", args)["exclude_guessed"] is False


@pytest.mark.parametrize("population", [10, 12])
def test_population_no_larger_than_the_elite_still_plays(ctx, population):
    """`ga` keeps 10 elites by default; a population of exactly 10 must breed, not crash, when no
    elite qualifies (every word guessed or ruled out), and keep its size."""
    from evo_wordle.bench import run_bench

    answers = ctx.words.answer_index[:4]
    result = run_bench(ctx, "ga", Settings(), answers, seed=0, solver_params={"population": population})
    assert all(r.solved for r in result.records)


def test_a_small_population_plays_with_an_elite_it_can_hold(ctx):
    """Population 2 is legal once the elite fits in it (ga's default elite is 10)."""
    result = run_bench(ctx, "ga", Settings(), ctx.words.answer_index[:5], seed=0,
                       solver_params={"population": 2, "elite": 1})
    assert result.games == 5 and result.params["population"] == 2 and result.params["elite"] == 1
