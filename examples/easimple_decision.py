"""Task 3: one decision made with DEAP's own `algorithms.eaSimple` on the GA's toolbox.

    python examples/easimple_decision.py --seed 1

After TALES got its feedback against the answer, the `ga` solver's toolbox (fitness,
selection, crossover and mutation, all reading the game through ``ga.state``) is handed to
``deap.algorithms.eaSimple``, which evolves DEAP individuals (one gene: a word index).  The
best individual of the hall of fame is the guess.  ``--quick`` (or
EVO_WORDLE_EXAMPLES_QUICK=1) evolves a small population for few generations.
"""

from __future__ import annotations

import argparse
import os
import random

import numpy as np
from deap import algorithms, tools

from evo_wordle import Context
from evo_wordle.game import GameState, Settings
from evo_wordle.patterns import to_emoji
from evo_wordle.solvers import make_solver


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answer", default="merry")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", default=bool(os.environ.get("EVO_WORDLE_EXAMPLES_QUICK")))
    args = parser.parse_args(argv)

    ctx = Context()
    settings = Settings()
    ga = make_solver("ga", ctx, settings)
    ga.reset(np.random.default_rng(args.seed))  # also seeds `random`, which DEAP draws from
    random.seed(args.seed)

    tales, answer = ctx.words.index("tales"), ctx.words.index(args.answer)
    pattern = int(ctx.table[tales, answer])
    state = GameState.start(ctx, settings).after(tales, pattern)
    ga.state.observe(state)  # the operators now see this feedback
    print(f"TALES {to_emoji(pattern)}: {len(state.candidates)} candidates left")

    n, generations = (30, 3) if args.quick else (150, 10)
    population = ga.toolbox.population(n)
    hof = tools.HallOfFame(5)
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    stats.register("max", max)
    stats.register("mean", np.mean)
    population, logbook = algorithms.eaSimple(
        population, ga.toolbox, cxpb=0.7, mutpb=0.2, ngen=generations, stats=stats, halloffame=hof, verbose=False
    )
    print(logbook)
    print("hall of fame:", ", ".join(f"{ctx.words[ind[0]].upper()} {ind.fitness.values[0]:.4f}" for ind in hof))
    guess = hof[0][0]
    print(f"guess: {ctx.words[guess].upper()} ({'a' if guess in state.candidates else 'not a'} candidate)")


if __name__ == "__main__":
    main()
