"""Foundation commands: ``table``, ``entropy``, ``rank``, ``pattern``."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from .. import patterns
from ..errors import EvoWordleError
from ..table import cache_paths, load_table
from ..wording import count
from .common import (
    add_candidates_arg,
    add_command,
    add_word_args,
    color_enabled,
    context_from_args,
    nonnegative_int,
    positive_int,
    print_json,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "table", help="build or check the pattern-table cache",
        description="Build the pattern table (every guess against every word, one byte per pair), or check "
        "and load the cached one from $EVO_WORDLE_CACHE (default ~/.cache/evo-wordle).",
        examples=[("evo-wordle table", "build the table once (about 0.5 s), or load and check it"),
                  ("evo-wordle table --rebuild", "build it again even if a valid cache exists")],
    )
    p.add_argument("--rebuild", action="store_true", help="rebuild even if a valid cache exists")
    add_word_args(p)
    p.set_defaults(func=cmd_table)

    p = add_command(
        sub, "entropy", help="bits of information per guess",
        description="Entropy (bits) of each guess's feedback over the candidates: how much a guess "
        "tells you on average when every candidate is equally likely.",
        examples=[("evo-wordle entropy tares black", "TARES 6.19 bits, BLACK 4.14 bits over all allowed words"),
                  ("evo-wordle entropy salet --candidates answers --json", "over the 2,309 answers, as JSON")],
    )
    p.add_argument("word", nargs="+", help="one or more allowed words")
    add_candidates_arg(p)
    p.add_argument("--json", action="store_true", help="print a JSON object word -> bits")
    add_word_args(p)
    p.set_defaults(func=cmd_entropy)

    p = add_command(
        sub, "rank", help="best opening words",
        description="Rank opening words by entropy, by priority x entropy (the greedy baseline's score: "
        "the thesis's word-frequency priority times the entropy), or by the total guesses of their "
        "optimal decision trees (--by tree: the --screen best openers by the partition bound are built "
        "by branch and bound and ranked).",
        examples=[("evo-wordle rank --top 5", "the five openers of most entropy over all allowed words"),
                  ("evo-wordle rank --by priority --top 5", "the greedy's openers: RATES, TEARS, RAISE, TALES, CARES"),
                  ("evo-wordle rank --candidates answers --json", "when the answer list is known, as JSON"),
                  ("evo-wordle rank --by tree --candidates answers --answers original --top 10 --screen 20 "
                   "--trees trees/ --jobs 2",
                   "the best first words by their optimal trees (minutes; resumable from trees/)")],
    )
    add_candidates_arg(p)
    p.add_argument("--top", type=positive_int, default=10, metavar="N", help="words to list (default: %(default)s)")
    p.add_argument("--by", choices=["entropy", "priority", "tree"], default="entropy",
                   help="entropy alone, priority x entropy as the greedy scores, or total guesses of the "
                   "opener's optimal tree (default: %(default)s)")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list of {word, entropy, priority, score} (--by tree: the ranking's records)")
    g = p.add_argument_group("ranking by trees (--by tree)")
    g.add_argument("--guess-from", choices=["allowed", "candidates"], default=None,
                   help="words the trees may guess (default: allowed)")
    g.add_argument("--hard", action="store_true", default=None, help="hard-mode trees")
    g.add_argument("--screen", type=positive_int, default=None, metavar="M",
                   help="openers built in full (default: twice --top): the best by their quick trees "
                   "(see --prescreen)")
    g.add_argument("--prescreen", type=nonnegative_int, default=None, metavar="P",
                   help="openers given a quick tree first (one proposal per node, a fraction of a second "
                   "each), the best P by the partition bound of the first guess (default: ten times "
                   "--screen; 0 = screen by the bound alone)")
    g.add_argument("--width", type=positive_int, default=None, metavar="K",
                   help="try only the K best guesses per node (fast, not a proof; default: exhaustive)")
    g.add_argument("--depth-limit", type=nonnegative_int, default=None, metavar="N",
                   help="every answer within N guesses (default: 6; 0 = no limit)")
    g.add_argument("--trees", default=None, metavar="DIR",
                   help="folder for each opener's tree file and record; a rerun resumes from it")
    g.add_argument("--jobs", type=positive_int, default=None, metavar="J", help="openers built in parallel")
    g.add_argument("--executor", choices=["local", "dask"], default=None,
                   help="where openers are built (default: local)")
    g.add_argument("--scheduler", default=None, metavar="ADDR", help="dask scheduler address (with --executor dask)")
    g.add_argument("--quiet", action="store_true", default=None, help="no progress lines on stderr")
    add_word_args(p)
    p.set_defaults(func=cmd_rank)

    p = add_command(
        sub, "pattern", help="feedback of a guess against an answer",
        description="Show the coloured feedback of GUESS against ANSWER and its code in every text form "
        "(code number, digits 2 green / 1 yellow / 0 grey, letters G/Y/B, emoji); any words of the "
        "list's length, allowed or not.",
        examples=[("evo-wordle pattern asses passe",
                   "code 129  11210  YYGYB: duplicate letters coloured as Wordle does"),
                  ("evo-wordle pattern roars euler", "one R green, the other grey")],
    )
    p.add_argument("guess", help="the word guessed")
    p.add_argument("answer", help="the hidden word")
    add_word_args(p)
    p.set_defaults(func=cmd_pattern)


def cmd_table(args: argparse.Namespace) -> int:
    ctx = context_from_args(args)
    start = time.perf_counter()
    table = load_table(ctx.words, rebuild=args.rebuild, verify=True)  # every byte, whatever the stamp says
    seconds = time.perf_counter() - start
    print(f"path:    {cache_paths(ctx.words)[0]}")
    print(f"shape:   {table.shape[0]} x {table.shape[1]} {table.dtype}")
    print(f"seconds: {seconds:.3f}")
    return 0


def cmd_entropy(args: argparse.Namespace) -> int:
    ctx = context_from_args(args)
    idx = ctx.words.indices(args.word)  # validate words before the table is loaded
    bits = ctx.entropy(idx, ctx.candidates(args.candidates)) + 0.0  # -0.0 bits (−Σ 1·log 1) print as 0
    result = {ctx.words.allowed[i]: float(b) for i, b in zip(idx, bits)}
    if args.json:
        print_json(result)
    else:
        for word, b in result.items():
            print(f"{word.upper()}  {b:.8f}")
    return 0


#: Options of ``rank`` that only ``--by tree`` reads.
TREE_ONLY = ("guess_from", "hard", "screen", "width", "depth_limit", "trees", "jobs", "executor", "scheduler", "quiet")


def cmd_rank(args: argparse.Namespace) -> int:
    if args.by == "tree":
        return cmd_rank_trees(args)
    given = [name for name in TREE_ONLY if getattr(args, name) is not None]
    if given:
        raise EvoWordleError(f"--{given[0].replace('_', '-')} needs --by tree")
    ctx = context_from_args(args)
    bits = ctx.entropy(ctx.all_words, ctx.candidates(args.candidates)) + 0.0  # as in cmd_entropy
    score = bits * ctx.priority if args.by == "priority" else bits
    order = np.lexsort((ctx.all_words, -score))[: args.top]
    rows = [
        {"word": ctx.words.allowed[i], "entropy": float(bits[i]), "priority": float(ctx.priority[i]),
         "score": float(score[i])}
        for i in order
    ]
    if args.json:
        print_json(rows)
    else:
        print(f"{'rank':>4}  {'word':<8}{'entropy':>10}{'priority':>10}{'score':>10}")
        for k, r in enumerate(rows, 1):
            print(f"{k:>4}  {r['word'].upper():<8}{r['entropy']:>10.5f}{r['priority']:>10.4f}{r['score']:>10.5f}")
    return 0


def cmd_rank_trees(args: argparse.Namespace) -> int:
    """``rank --by tree``: build the screened openers' trees and rank them by total guesses."""
    from ..evolve.ranking import rank_by_tree
    from ..executors import make_executor, terminate
    from ..game import Settings
    from ..outputs import check_folder
    from ..progress import progress_bar

    trees = check_folder(args.trees, "--trees") if args.trees is not None else None
    ctx = context_from_args(args)
    settings = Settings(candidates=args.candidates, guess_from=args.guess_from or "allowed", hard=bool(args.hard))
    screen = args.screen or 2 * args.top
    prescreen = 10 * screen if args.prescreen is None else args.prescreen
    depth = 6 if args.depth_limit is None else args.depth_limit or None
    jobs = args.jobs or 1
    executor = make_executor(args.executor or "local", jobs, args.scheduler) \
        if jobs > 1 or args.executor == "dask" else None
    if prescreen and not args.quiet:
        print(f"rank --by tree: quick trees for the {prescreen} best openers by the partition bound, "
              f"then {screen} in full", file=sys.stderr, flush=True)
    bar = progress_bar(screen, "rank --by tree", "openers", not args.quiet)

    def show(record: dict) -> None:
        bar.update(1)
        if not args.quiet:
            bar.write(f"{record['opener'].upper()}: total {record['total_guesses']} "
                      f"(mean {record['mean_guesses']:.4f}, max {record['max_guesses']}) in {record['seconds']:.1f} s",
                      file=sys.stderr)

    try:
        with bar:
            result = rank_by_tree(ctx, settings, args.top, screen, args.width, depth, trees, executor,
                                  (args.allowed, args.answers), show, prescreen=prescreen)
    finally:
        if executor is not None:
            terminate(executor)
    if args.json:
        print_json(result)
        return 0
    how = f"the {args.width} best guesses per node" if args.width else "exhaustive: each total is optimal"
    quick = (f"the {len(result['screened'])} with the best quick trees among the {len(result['prescreen'])} "
             "best by the partition bound" if result["prescreen"] else
             f"the best {len(result['screened'])} by the partition bound")
    limit = f"within {count(depth, 'guess', 'guesses')}" if depth else "no depth limit"
    print(f"trees over {len(ctx.candidates(settings.candidates))} candidates ({settings.candidates} list), guesses "
          f"from {settings.guess_from}{', hard mode' if settings.hard else ''}, {limit}")  # what the totals count
    print(f"openers screened: {quick}; {result['built']} built, {result['reused']} reused ({how})")
    print(f"{'rank':>4}  {'word':<8}{'total':>7}{'mean':>9}{'max':>5}{'bound':>7}")
    for r in result["ranking"]:
        bound = "" if r["lower_bound"] is None else str(r["lower_bound"])
        print(f"{r['rank']:>4}  {r['opener'].upper():<8}{r['total_guesses']:>7}{r['mean_guesses']:>9.4f}"
              f"{r['max_guesses']:>5}{bound:>7}")
    return 0


def cmd_pattern(args: argparse.Namespace) -> int:
    ctx = context_from_args(args)
    n = ctx.words.length
    guess, answer = (patterns.check_word(w, n) for w in (args.guess, args.answer))
    code = patterns.score(guess, answer)
    color = color_enabled()
    if not color:
        print(patterns.PLAIN_LEGEND)
    print(patterns.tiles(guess, code, color=color))
    print(f"code {code}  {patterns.to_digits(code, n)}  {patterns.to_letters(code, n)}  {patterns.to_emoji(code, n)}")
    return 0
