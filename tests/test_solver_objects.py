"""Any solver object or factory benchmarks: run_bench (jobs 1 and 2), sweeps, plot data."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from deap import tools

from evo_wordle.bench import run_bench
from evo_wordle.errors import EvoWordleError
from evo_wordle.ga.solvers import CardGA
from evo_wordle.game import GameState, Settings, play
from evo_wordle.plots.compare import compare_data
from evo_wordle.plots.convergence import convergence_data
from evo_wordle.solvers import make_solver
from evo_wordle.sweep import SweepSpec, load_sweep, run_sweep

ANSWERS = slice(7, 2309, 190)  # 13 answers


class SmallGA(CardGA):
    """An unregistered subclass: a factory through its constructor."""

    label = "small-ga"

    def __init__(self, ctx, settings, opener=None, **params):
        super().__init__(ctx, settings, opener, **{"population": 30, **params})


def tournament_ga(ctx, settings, **params):
    """A factory: the `ga` solver with DEAP's tournament for parents."""
    ga = make_solver("ga", ctx, settings, **{"population": 30, **params})
    ga.toolbox.register("select", tools.selTournament, tournsize=3)
    return ga


def test_a_solver_object_benches_in_parallel_with_its_parameters(ctx):
    ga = tournament_ga(ctx, Settings())
    answers = ctx.words.answer_index[ANSWERS]
    one = run_bench(ctx, ga, answers=answers, seed=3)
    two = run_bench(ctx, ga, answers=answers, seed=3, jobs=2)
    assert [r.guesses for r in one.records] == [r.guesses for r in two.records]
    for result in (one, two):
        settings = result.summary()["settings"]
        assert settings["class"] == "evo_wordle.ga.solvers.CardGA" and settings["population"] == 30
        assert settings["operators"]["select"] == "deap.tools.selection.selTournament(tournsize=3)"
        assert "choose" not in settings["operators"]  # the package's own: described by `choice`
        assert settings["choice"] == "roulette"
    # the same games as the factory gives, and as the object sent through pickle
    assert [r.guesses for r in run_bench(ctx, tournament_ga, answers=answers, seed=3, jobs=2).records] == \
        [r.guesses for r in one.records]
    copy = pickle.loads(pickle.dumps(ga))
    copy.reset(np.random.default_rng(0))
    ga.reset(np.random.default_rng(0))
    start = GameState.start(ctx, Settings())
    answer = int(answers[0])
    assert play(copy, start, answer, Settings()).guesses == play(ga, start, answer, Settings()).guesses


def test_a_subclass_is_a_factory(ctx):
    answers = ctx.words.answer_index[ANSWERS]
    one = run_bench(ctx, SmallGA, answers=answers, seed=1, solver_params={"pressure": 30.0})
    two = run_bench(ctx, SmallGA, answers=answers, seed=1, solver_params={"pressure": 30.0}, jobs=2)
    assert [r.guesses for r in one.records] == [r.guesses for r in two.records]
    assert one.params["class"] == f"{__name__}.SmallGA" and one.params["pressure"] == 30.0


def test_solvers_that_cannot_travel_or_do_not_fit_are_clear_errors(ctx):
    ga = make_solver("ga", ctx, Settings(), population=20)
    ga.toolbox.register("select", lambda inds, k: inds[:k])
    answers = ctx.words.answer_index[ANSWERS]
    assert run_bench(ctx, ga, answers=answers[:2]).games == 2  # fine in one process
    with pytest.raises(EvoWordleError, match="top level"):
        run_bench(ctx, ga, answers=answers, jobs=2)
    with pytest.raises(EvoWordleError, match="other settings"):
        run_bench(ctx, ga, Settings(hard=True), answers=answers[:2])
    with pytest.raises(EvoWordleError, match="factory"):
        run_bench(ctx, ga, answers=answers[:2], solver_params={"population": 5})
    with pytest.raises(EvoWordleError, match="not a Solver|not int"):
        run_bench(ctx, 42, answers=answers[:2])


def test_sweeps_take_factories_and_objects(ctx, tmp_path):
    spec = SweepSpec(solver=tournament_ga, grid={"pressure": [30.0, 50.0]}, seeds=1, games=4)
    run_sweep(spec, tmp_path / "f", jobs=2)
    saved, rows = load_sweep(tmp_path / "f")
    assert saved.solver == f"factory:{__name__}.tournament_ga" and len(rows) == 2
    assert json.loads((tmp_path / "f" / "sweep.json").read_text())["solver"] == saved.solver
    # the same rows for a name-free run in one process
    again = SweepSpec(solver=tournament_ga, grid={"pressure": [30.0, 50.0]}, seeds=1, games=4)
    run_sweep(again, tmp_path / "g", jobs=1)
    assert sorted(r["mean"] for r in load_sweep(tmp_path / "g")[1]) == sorted(r["mean"] for r in rows)
    def sized(ctx, settings, population=20):
        return make_solver("ga", ctx, settings, population=population)

    SweepSpec(solver=sized, grid={"population": [10]}).validate()
    with pytest.raises(EvoWordleError, match="no parameter 'flavour'"):
        SweepSpec(solver=sized, grid={"flavour": [1]}).validate()
    obj = SmallGA(ctx, Settings())
    run_sweep(SweepSpec(solver=obj, grid={}, seeds=2, games=3), tmp_path / "o", jobs=2)
    saved, rows = load_sweep(tmp_path / "o")
    assert saved.solver.startswith(f"object:{__name__}.SmallGA#") and len(rows) == 2
    with pytest.raises(EvoWordleError, match="fixed"):
        SweepSpec(solver=obj, grid={"population": [10]}).validate()


def test_plot_data_takes_solver_objects(ctx):
    small = SmallGA(ctx, Settings())
    data = compare_data(ctx, ["greedy", small], Settings(), games=6, jobs=2, lists=(None, "nyt"))
    assert data["solvers"] == ["greedy", "small-ga"] and data["small-ga"]["games"] == 6
    serial = compare_data(ctx, ["greedy", small], Settings(), games=6)
    assert serial["small-ga"]["histogram"] == data["small-ga"]["histogram"]
    conv = convergence_data(ctx, tournament_ga, Settings(), runs=2, games=3, jobs=2, lists=(None, "nyt"))
    assert conv["solver"] == "tournament_ga" and len(conv["runs"]) == 2 and conv["fitness"] is not None
