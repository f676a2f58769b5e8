"""The entropy solvers' tie rule when guesses may come from the whole allowed list."""

from __future__ import annotations

import numpy as np

from evo_wordle.bench import run_bench
from evo_wordle.game import GameState, Settings
from evo_wordle.solvers import make_solver


def test_two_candidates_left_guess_one_of_them(ctx):
    settings = Settings(candidates="answers", guess_from="allowed")
    solver = make_solver("naive", ctx, settings, opener="soare")
    start = GameState.start(ctx, settings)
    pair = ctx.words.indices(["found", "mound"])
    state = GameState(ctx, np.sort(pair), ((ctx.words.index("soare"), 0),))
    assert solver.pick(state) in set(pair.tolist())
    assert len(start.candidates) == 2309


def test_naive_answers_known_guesses_from_allowed(ctx):
    """Max entropy with the answer list known scores ≈ 3.46 (the issue's reference figure)."""
    settings = Settings(candidates="answers", guess_from="allowed")
    result = run_bench(ctx, "naive", settings, solver_params={"opener": "soare"})
    assert abs(result.mean_guesses - 3.4638) < 0.005
    assert result.fail_rate == 0.0
