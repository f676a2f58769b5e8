"""A factory *function* given to run_sweep is checked before the folder exists, as a Solver
class is: its parameters are known only by calling it, so the sweep builds each configuration's
solver up front as its tasks would (no game played); a bad value used to be found by the first
task, after sweep.json and results.csv were written."""

from __future__ import annotations

import pytest

import evo_wordle.sweep as sweep
from evo_wordle.errors import EvoWordleError
from evo_wordle.ga.solvers import CardGA

from .small_lists import IGHT


def sized_ga(ctx, settings, population=30):
    """A factory function (module level: it travels to workers)."""
    return CardGA(ctx, settings, population=population)


def not_a_solver(ctx, settings, population=30):
    """A factory function that builds no Solver."""
    return population


@pytest.fixture
def lists(tmp_path) -> str:
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w}\n" for w in sorted(set(IGHT) | {"crane", "spill"})))
    return str(words)


@pytest.fixture
def ran(monkeypatch) -> list:
    """Task lists made (the tasks run in worker processes, where no counter reaches)."""
    made: list = []
    real = sweep.SweepSpec.tasks
    monkeypatch.setattr(sweep.SweepSpec, "tasks", lambda self: made.append(self) or real(self))
    return made


def test_a_bad_parameter_of_a_factory_function_is_refused_before_the_folder(lists, tmp_path, ran):
    out = tmp_path / "sweep"
    for factory, grid, said in ((sized_ga, {"population": [30, 0]}, "population"),
                                (not_a_solver, {"population": [30]}, "returned int, not a Solver")):
        spec = sweep.SweepSpec(solver=factory, grid=grid, seeds=1, games=2, allowed=lists, answers=lists)
        with pytest.raises(EvoWordleError, match=said):
            sweep.run_sweep(spec, out, jobs=1)
        assert not ran and not out.exists()
    good = sweep.SweepSpec(solver=sized_ga, grid={"population": [30, 40]}, seeds=1, games=2, allowed=lists,
                           answers=lists)
    sweep.run_sweep(good, out, jobs=1)
    assert len(ran) == 1 and (out / "results.csv").read_text().count("\n") == 3
