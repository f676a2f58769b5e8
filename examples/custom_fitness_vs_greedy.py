"""Task 2: a custom fitness and a DEAP selection in the `ga` solver, benchmarked against greedy.

    python examples/custom_fitness_vs_greedy.py --games 200 --seed 0

The fitness is written the DEAP way, one individual at a time, returning a 1-tuple: the
word's entropy over the candidates still possible (read from ``ga.state``), a bonus for a
word that may itself be the answer.  Parents are chosen by ``tools.selTournament``; the guess
is still chosen by the solver's own ``choose`` (roulette).  Both solvers play the same seeded
sample of answers.  ``--quick`` (or EVO_WORDLE_EXAMPLES_QUICK=1) plays 6 games.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from deap import tools

from evo_wordle import Context
from evo_wordle.bench import run_bench, sample_answers
from evo_wordle.game import Settings
from evo_wordle.solvers import make_solver


def custom_ga(ctx: Context, settings: Settings, **params):
    """A factory (so that `run_bench(..., jobs=2)` can rebuild it in worker processes)."""
    ga = make_solver("ga", ctx, settings, **params)
    state = ga.state  # the game as the GA sees it: candidates, feedback, generator

    def evaluate(individual):
        word = individual[0]
        cand = state.candidates
        bits = float(ctx.entropy([word], cand)[0])
        possible = bool(np.isin(word, cand))
        return (np.exp(bits + 0.5 * possible),)  # positive, as roulette needs

    ga.toolbox.register("evaluate", evaluate)
    ga.toolbox.register("select", tools.selTournament, tournsize=3)
    return ga


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", default=bool(os.environ.get("EVO_WORDLE_EXAMPLES_QUICK")))
    args = parser.parse_args(argv)

    ctx = Context()
    settings = Settings()
    answers = sample_answers(ctx.words.answer_index, 6 if args.quick else args.games, args.seed)
    params = {"population": 40, "generations_per_guess": 1}
    mine = run_bench(ctx, custom_ga, settings, answers, seed=args.seed, solver_params=params)
    greedy = run_bench(ctx, "greedy", settings, answers, seed=args.seed, solver_params={"opener": "tales"})
    for name, result in (("custom GA", mine), ("greedy", greedy)):
        print(f"{name:10s} mean {result.mean_guesses:.3f} guesses, {100 * result.fail_rate:.1f} % over 6, "
              f"{result.games} games, {result.seconds:.1f} s")
    print("recorded:", {k: mine.params[k] for k in ("class", "population", "operators")})


if __name__ == "__main__":
    main()
