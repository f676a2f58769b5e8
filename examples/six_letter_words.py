"""Task 5: a six-letter word list end to end, from a Python list to a GA-vs-greedy bench.

    python examples/six_letter_words.py --words 1500 --games 200

The list is the most frequent six-letter English words known to ``wordfreq`` (a dependency,
offline).  ``Context(allowed=[...])`` checks it like a list file; the pattern table is built
and cached; every allowed word may be the answer.  The `ga` solver has no TALES here, so it
opens with the word of most entropy (printed).  ``--quick`` (or EVO_WORDLE_EXAMPLES_QUICK=1)
uses 300 words and 6 games.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from wordfreq import top_n_list

from evo_wordle import Context
from evo_wordle.bench import run_bench, sample_answers
from evo_wordle.game import GameState, Settings, play
from evo_wordle.solvers import make_solver


def six_letter_words(n: int) -> list[str]:
    """The ``n`` most frequent six-letter words made of ASCII letters only."""
    words = [w for w in top_n_list("en", 100_000) if len(w) == 6 and w.isascii() and w.isalpha()]
    return words[:n]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", type=int, default=1500)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", default=bool(os.environ.get("EVO_WORDLE_EXAMPLES_QUICK")))
    args = parser.parse_args(argv)
    n_words, games = (300, 6) if args.quick else (args.words, args.games)

    ctx = Context(allowed=six_letter_words(n_words))
    settings = Settings()
    print(f"{len(ctx.words)} words of {ctx.words.length} letters; best by entropy: "
          f"{ctx.words[int(np.argmax(ctx.entropy(ctx.all_words)))].upper()}")

    ga = make_solver("ga", ctx, settings, population=60)
    print(f"ga opener: {ga.describe()['opener'].upper()}")
    ga.reset(np.random.default_rng(args.seed))
    answer = ctx.words.index(ctx.words[len(ctx.words) // 2])
    record = play(ga, GameState.start(ctx, settings), answer, settings)
    print("one game:", " ".join(ctx.words[g].upper() for g in record.guesses))

    answers = sample_answers(ctx.words.answer_index, games, args.seed)
    for name, params in (("ga", {"population": 60}), ("greedy", {})):
        result = run_bench(ctx, name, settings, answers, seed=args.seed, solver_params=params)
        print(f"{name:7s} mean {result.mean_guesses:.3f} guesses over {result.games} games, "
              f"{100 * result.fail_rate:.1f} % over 6, opener {result.params['opener']}")


if __name__ == "__main__":
    main()
