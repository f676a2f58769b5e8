"""Task 1: one GA game with its DEAP logbook and a hall of fame per decision.

    python examples/ga_game_logbook.py --answer merry --seed 3

Every generation is one logbook record (``nevals``, best/mean fitness, the word played and
its fitness); every decision keeps its own hall of fame (fitness values only compare within
a turn).  ``--quick`` (or EVO_WORDLE_EXAMPLES_QUICK=1) uses a small population.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from evo_wordle import Context
from evo_wordle.game import GameState, Settings, play
from evo_wordle.patterns import to_emoji
from evo_wordle.solvers import make_solver


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answer", default="merry")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--quick", action="store_true", default=bool(os.environ.get("EVO_WORDLE_EXAMPLES_QUICK")))
    args = parser.parse_args(argv)

    ctx = Context()
    settings = Settings()
    ga = make_solver("ga", ctx, settings, **({"population": 60} if args.quick else {}))
    ga.reset(np.random.default_rng(args.seed))
    answer = ctx.words.index(args.answer)
    record = play(ga, GameState.start(ctx, settings), answer, settings)

    for guess in record.guesses:
        print(to_emoji(int(ctx.table[guess, answer])), ctx.words[guess].upper())
    print(f"solved in {len(record.guesses)}" if record.solved else "not solved")
    print()
    print(ga.logbook)  # DEAP's Logbook: one line per generation
    print()
    for hof in ga.halls_of_fame:  # one tools.HallOfFame per decision, printed as words
        print(hof)


if __name__ == "__main__":
    main()
