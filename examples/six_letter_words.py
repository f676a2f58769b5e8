"""Task 5: a six-letter word list end to end, from a Python list to a GA-vs-greedy bench, an
evolved strategy and the best fixed two-word opening.

    python examples/six_letter_words.py --words 1500 --games 200

The list is the most frequent six-letter English words known to ``wordfreq`` (a dependency,
offline).  ``Context(allowed=[...])`` checks it like a list file; the pattern table is built
and cached; every allowed word may be the answer.  The `ga` solver has no TALES here, so it
opens with the word of most entropy (printed).  Then the meta-GA evolves a strategy genome on
this list (its default opener SALET is not a six-letter word: it starts from the list's word of
most entropy), trained, selected and tested on three disjoint parts of the answers, and the
opening GA finds the best fixed pair of opening words.  ``--quick`` (or
EVO_WORDLE_EXAMPLES_QUICK=1) uses 300 words, 6 games and a two-generation evolution.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from wordfreq import top_n_list

from evo_wordle import Context
from evo_wordle.bench import run_bench, sample_answers
from evo_wordle.evolve.metaga import EvolveConfig, MetaGA, play_records, split_means
from evo_wordle.evolve.openings import OpeningGA, evolve, make_problem
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

    # A strategy evolved for this list: fitness on training answers, winner chosen on validation
    # answers, reported once on test answers it never saw.
    third = len(ctx.words) // 3
    cfg = EvolveConfig(settings=settings.with_(guess_from="allowed"), train_size=min(third, 100),
                       holdout_size=min(third, 100), mu=4, lambda_=6, generations=2 if args.quick else 6,
                       seed=args.seed, pool=100)
    meta = MetaGA(ctx, cfg)
    strategy = meta.run()
    records = play_records(ctx, strategy, cfg.settings, ctx.words.answer_index, cfg.pool)
    scores = np.array([r.score(cfg.settings.max_guesses) for r in records])
    means = split_means(ctx.words.answer_index, scores, meta.split)
    print(f"evolved strategy (opener {strategy.opener.upper()}): test mean {means['test']:.3f}, "
          f"train {means['train']:.3f}, validation {means['validation']:.3f}; {meta.split.describe()}")

    # The best fixed two-word opening among the 200 best single openers.
    problem = make_problem(ctx, ctx.words.answer_index, pool_size=min(200, len(ctx.words)))
    pair = evolve(problem, 2, OpeningGA(population=100), seed=args.seed)
    print(f"best fixed opening: {' '.join(w.upper() for w in pair.words)}, "
          f"{pair.score:.3f} candidates left on average")


if __name__ == "__main__":
    main()
