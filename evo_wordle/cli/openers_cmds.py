"""``openers``: the best fixed opening of K words, evolved, and checked by an exhaustive scan."""

from __future__ import annotations

import argparse
import time

from ..errors import EvoWordleError
from ..progress import progress_bar
from .common import (
    add_candidates_arg,
    add_command,
    add_word_args,
    context_from_args,
    nonnegative_float,
    nonnegative_int,
    positive_int,
    print_json,
    probability,
    seed_int,
)
from .settings_args import warn

#: Single openers searched by default (the best by the objective).
DEFAULT_POOL = 2000
#: A pool with at most this many openings is cheap to scan: the text output says so.
SMALL_SCAN = 200_000
UNITS = {"remaining": "candidates left on average", "entropy": "bits", "game": "guesses on average"}


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "openers", help="evolve the best fixed opening of K words (checked by a scan)",
        description="Find the K words to always open with: the opening whose K feedbacks together leave "
        "the fewest candidates on average (or tell the most bits, or need the fewest guesses over the "
        "whole game: --objective game). A GA searches the --pool best single "
        "openers; --scan also scores every K-subset of that pool, shows whether the GA found the exact "
        "best and how much faster it was.",
        examples=[("evo-wordle openers --words 2 --scan", "the best pair among the 2,000 best openers, "
                   "by GA and by an exhaustive scan of its 1,999,000 pairs"),
                  ("evo-wordle openers --words 3 --seed 1", "a three-word opening (no scan: too many triples)"),
                  ("evo-wordle openers --objective entropy --pool 300 --json", "most bits, JSON with the logbook"),
                  ("evo-wordle openers --objective game --pool 100 --scan", "fewest guesses over whole games "
                   "(the pair, then entropy-greedy to the end) among 4,950 pairs")],
    )
    add_candidates_arg(p, default="answers")
    p.add_argument("--words", type=positive_int, default=2, metavar="K",
                   help="words in the opening (default: %(default)s)")
    p.add_argument("--pool", type=nonnegative_int, default=None, metavar="N",
                   help="search among the N best single openers by the same objective, 0 = every allowed word "
                   f"(default: {DEFAULT_POOL}, or every word of a shorter list)")
    p.add_argument("--objective", choices=["remaining", "entropy", "game"], default="remaining",
                   help="remaining: fewest candidates left on average; entropy: most bits; game: fewest guesses "
                   "on average over whole games (the opening, then the entropy-greedy endgame; slow, so use a "
                   "small --pool; the pool is still ranked by remaining) (default: %(default)s)")
    p.add_argument("--guess-from", dest="guess_from", choices=["candidates", "allowed"], default=None,
                   help="with --objective game: the endgame guesses words that fit the feedback (default) "
                   "or any allowed word")
    p.add_argument("--scan", action="store_true",
                   help="also score every K-subset of the pool (the exact best over the pool) and compare")
    g = p.add_argument_group("GA")
    g.add_argument("--population", type=positive_int, default=400, metavar="N", help="(default: %(default)s)")
    g.add_argument("--generations", type=nonnegative_int, default=1000, metavar="N",
                   help="at most this many generations in all (default: %(default)s)")
    g.add_argument("--patience", type=positive_int, default=60, metavar="N",
                   help="generations without progress before a restart (default: %(default)s)")
    g.add_argument("--restarts", type=nonnegative_int, default=2, metavar="N",
                   help="fresh populations after a stall (default: %(default)s)")
    g.add_argument("--pressure", type=nonnegative_float, default=2.0, metavar="X",
                   help="roulette weights fitness**X (default: %(default)s)")
    g.add_argument("--mutpb", type=probability, default=0.9, metavar="P", help="mutation share (default: %(default)s)")
    g.add_argument("--cxpb", type=probability, default=0.6, metavar="P", help="crossover share (default: %(default)s)")
    g.add_argument("--seed", type=seed_int, default=0, metavar="S", help="seed of the GA (default: 0)")
    p.add_argument("--json", action="store_true", help="print the result (with the GA's logbook) as JSON")
    add_word_args(p)
    p.set_defaults(func=cmd_openers)


def cmd_openers(args: argparse.Namespace) -> int:
    from ..evolve.openings import OpeningGA, count_subsets, evolve, make_problem, scan

    if args.guess_from is not None and args.objective != "game":
        raise EvoWordleError("--guess-from is for --objective game (the endgame's guesses)")
    guess_from = args.guess_from or "candidates"
    ctx = context_from_args(args)
    params = OpeningGA(population=args.population, generations=args.generations, cxpb=args.cxpb,
                       mutpb=args.mutpb, pressure=args.pressure, patience=args.patience, restarts=args.restarts,
                       elite=min(4, args.population - 1))
    n_words = len(ctx.words)
    if args.pool is not None and args.pool > n_words:
        warn(f"--pool {args.pool:,} is more than the {n_words:,} allowed words: searching all of them (--pool 0)")
    asked = DEFAULT_POOL if args.pool is None else args.pool
    pool = n_words if asked == 0 else min(asked, n_words)
    if args.words > pool:
        raise EvoWordleError(f"--words {args.words} needs a pool of at least {args.words} words, not {pool}")
    if ctx.words.n_patterns ** args.words > 2**64:
        raise EvoWordleError(f"{args.words} words of {ctx.words.length} letters have too many joint feedbacks "
                             "to count (at most 2**64)")
    if args.scan and count_subsets(pool, args.words) > 50_000_000:
        raise EvoWordleError(f"--scan of {pool:,} words taken {args.words} at a time is "
                             f"{count_subsets(pool, args.words):,} openings (limit 50,000,000): use a smaller --pool")
    candidates = ctx.candidates(args.candidates)
    problem = make_problem(ctx, candidates, pool, args.objective, guess_from=guess_from)
    cpu = time.process_time()
    ga = evolve(problem.fresh(), args.words, params, seed=args.seed)
    ga_cpu = time.process_time() - cpu
    from ..artefacts import word_lists

    # the lists too: a score of candidates left means nothing without the list it is over
    setting = {"candidates": args.candidates, "n_candidates": len(candidates), "pool": pool,
               "words": args.words, "objective": args.objective, "seed": args.seed,
               "word_lists": word_lists(ctx.words, args.allowed, args.answers)}
    if args.objective == "game":
        setting.update(guess_from=guess_from, hard=False)
    result = {"setting": setting,
              "ga": {**ga.as_dict(), "cpu_seconds": round(ga_cpu, 3)}}
    if args.scan:
        total = count_subsets(pool, args.words)
        cpu = time.process_time()
        with progress_bar(total, "scan", "openings", enabled=not args.json) as bar:
            exact = scan(problem.fresh(), args.words, progress=bar)  # its own memo: an honest time
        scan_cpu = time.process_time() - cpu
        result["scan"] = {**exact.as_dict(), "cpu_seconds": round(scan_cpu, 3)}
        result["ga_found_best"] = abs(ga.score - exact.score) <= 1e-9 * max(1.0, abs(exact.score))
        result["cpu_speedup"] = round(scan_cpu / ga_cpu, 2) if ga_cpu > 0 else None
        result["share_scored"] = ga.evaluations / total
    if args.json:
        print_json(result)
        return 0
    unit = UNITS[args.objective]
    ranked = "remaining" if args.objective == "game" else args.objective
    size = f"{args.words} word" if args.words == 1 else f"{args.words} words"
    lists = f"answer list {setting['word_lists']['label']}" + (f", allowed list {setting['word_lists']['allowed']}"
                                                if setting["word_lists"]["allowed"] else "")
    print(f"fixed opening of {size} over {len(candidates):,} candidates ({args.candidates}; {lists}); "
          f"pool: the {pool:,} best single openers by {ranked}")
    if args.objective == "game":
        source = "candidates left" if guess_from == "candidates" else "every allowed word"  # not "the allowed"
        print(f"scored by whole games: the opening, then entropy-greedy guesses from {source} "
              "to the end (hard mode off)")
    print(f"GA (seed {args.seed}): {' '.join(w.upper() for w in ga.words)}  {ga.score:.4f} {unit}; "
          f"{ga.evaluations:,} openings scored, {ga_cpu:.2f} s CPU")
    for words, score in ga.hall_of_fame[1:]:
        print(f"  runner-up: {' '.join(w.upper() for w in words)}  {score:.4f}")
    if args.scan:
        ex = result["scan"]
        print(f"scan: {' '.join(w.upper() for w in ex['words'])}  {ex['score']:.4f} {unit}; "
              f"{ex['evaluations']:,} openings scored, {ex['cpu_seconds']:.2f} s CPU")
        verdict = "found the scan's best opening" if result["ga_found_best"] else "MISSED the scan's best opening"
        if result["ga_found_best"] and sorted(ga.words) != sorted(ex["words"]):  # equal scores, other words
            verdict = "found an opening that ties the scan's best (same score, other words)"
        ratio = result["cpu_speedup"]
        speed = (f"{ratio:.1f}x less CPU than the scan" if ratio and ratio >= 1
                 else "more CPU than the scan (a pool this small is best scanned)")
        print(f"the GA {verdict}; it scored {100 * result['share_scored']:.2f} % of the openings and used {speed}")
    elif count_subsets(pool, args.words) <= SMALL_SCAN:
        # not "in about a second": 161,700 triples took 9 s of CPU, 199,396 pairs 3 s (measured)
        when = "" if args.objective == "game" else ", in seconds"
        print(f"(only {count_subsets(pool, args.words):,} openings in this pool: --scan scores them all, "
              f"exactly{when})")
    return 0
