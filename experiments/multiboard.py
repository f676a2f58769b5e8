"""N-dle with the summed-entropy policy against Fetterman's "Solving N-dle using Information Entropy".

Setting of the paper: answers known (candidates = the 2,309 answers), guesses from all 12,972
allowed words, answers drawn with replacement, 10,000 random sets per board count.  Each run is
shown with both tie rules: ``alphabetical`` (the paper's plain rule: its figures) and
``candidates`` (the default: among equal sums prefer a word that may still be an answer).
The one-board row plays all 2,309 answers (no sampling), as the paper's Figure 3 does.

Usage:
  python experiments/multiboard.py                         # 1, 2, 4, 8 boards, 10,000 sets, 2 jobs
  python experiments/multiboard.py --boards 4 --games 2000 --jobs 1 --ties candidates
  python experiments/multiboard.py --repeats 3             # median wall time over 3 runs

Rows also go to DIR/multiboard.json (--out DIR, default experiments/out/multiboard/).

Paper: 1-dle 3.6410 (all answers), 2-dle 4.9477, Quordle 7.0954, Octordle 10.932 (10,000 sets);
targets here: Quordle ≤ 7.10, Octordle ≤ 10.95.
"""

from __future__ import annotations

import argparse
import json
import statistics

from _study import add_output_args, output_dirs, write_json

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.boards import POLICY_NAME, TIE_RULES, draw_answers
from evo_wordle.game import Settings

PAPER = {1: 3.6410, 2: 4.9477, 4: 7.0954, 8: 10.932}
TARGET = {4: 7.10, 8: 10.95}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--games", type=int, default=10_000, help="board sets per run (N > 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ties", choices=TIE_RULES, nargs="+", default=list(TIE_RULES))
    parser.add_argument("--repeats", type=int, default=1, help="runs per row; the median time is shown")
    parser.add_argument("--json", action="store_true", help="print one JSON object per row")
    add_output_args(parser, "multiboard")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    rows = []

    ctx = Context()
    ctx.table  # noqa: B018 - load before timing
    if not args.json:
        print(f"{'boards':>6} {'ties':<13}{'sets':>7}{'mean':>9}{'paper':>8}{'target':>8}{'win':>8}"
              f"{'worst':>5}{'median s':>10}{'ms/set':>8}  histogram")
    for n in args.boards:
        settings = Settings(candidates="answers", guess_from="allowed", boards=n,
                            max_guesses=9 if n == 1 else n + 5)
        for ties in args.ties:
            times, result = [], None
            for _ in range(args.repeats):
                # one board: all 2,309 answers (deterministic, no sampling); N boards: seeded sets
                answers = ctx.words.answer_index if n == 1 else draw_answers(ctx, n, args.games, args.seed)
                result = run_bench(ctx, POLICY_NAME, settings, answers, args.seed, {"ties": ties}, jobs=args.jobs)
                times.append(result.seconds)
            seconds = statistics.median(times)
            row = {
                "boards": n, "ties": ties, "sets": result.games, "seed": args.seed, "jobs": args.jobs,
                "mean_guesses": round(result.mean_guesses, 4), "paper": PAPER.get(n), "target": TARGET.get(n),
                "win_rate": result.win_rate, "worst_guesses": result.worst_guesses, "median_seconds": round(seconds, 1),
                "histogram": result.histogram,
            }
            rows.append(row)
            if args.json:
                print(json.dumps(row))
                continue
            paper = f"{PAPER[n]:.4f}" if n in PAPER else "-"
            target = f"≤{TARGET[n]:.2f}" if n in TARGET else "-"
            ms = 1000 * seconds / result.games
            hist = " ".join(f"{k}:{v}" for k, v in result.histogram.items())
            print(f"{n:>6} {ties:<13}{result.games:>7}{result.mean_guesses:>9.4f}{paper:>8}{target:>8}"
                  f"{result.win_rate:>8.2%}{result.worst_guesses:>5}{seconds:>10.1f}{ms:>8.2f}  {hist}", flush=True)
    write_json(results / "multiboard.json", rows)


if __name__ == "__main__":
    main()

