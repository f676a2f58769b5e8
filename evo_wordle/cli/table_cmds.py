"""Foundation commands: ``table``, ``entropy``, ``rank``, ``pattern``."""

from __future__ import annotations

import argparse
import time

import numpy as np

from .. import patterns
from ..table import cache_paths, load_table
from .common import (
    add_candidates_arg,
    add_command,
    add_word_args,
    color_enabled,
    context_from_args,
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
        description="Rank opening words by entropy, or by priority x entropy (the greedy baseline's score: "
        "the thesis's word-frequency priority times the entropy).",
        examples=[("evo-wordle rank --top 5", "the five openers of most entropy over all allowed words"),
                  ("evo-wordle rank --by priority --top 5", "the greedy's openers: RATES, TEARS, RAISE, TALES, CARES"),
                  ("evo-wordle rank --candidates answers --json", "when the answer list is known, as JSON")],
    )
    add_candidates_arg(p)
    p.add_argument("--top", type=positive_int, default=10, metavar="N", help="words to list (default: %(default)s)")
    p.add_argument("--by", choices=["entropy", "priority"], default="entropy",
                   help="entropy alone, or priority x entropy as the greedy scores (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print a JSON list of {word, entropy, priority, score}")
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
    bits = ctx.entropy(idx, ctx.candidates(args.candidates))
    result = {ctx.words.allowed[i]: float(b) for i, b in zip(idx, bits)}
    if args.json:
        print_json(result)
    else:
        for word, b in result.items():
            print(f"{word.upper()}  {b:.8f}")
    return 0


def cmd_rank(args: argparse.Namespace) -> int:
    ctx = context_from_args(args)
    bits = ctx.entropy(ctx.all_words, ctx.candidates(args.candidates))
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
