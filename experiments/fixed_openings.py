"""Fixed opening sequences: does the GA find the exact best two-word opening, and how fast?

The pool is the ``--pool`` best single openers (expected candidates left over the NYT answers).
Every pair of the pool is scored once (the scan: the exact best over the pool); then the GA
(`evo-wordle openers` defaults, or ``--population``/``--patience``) runs once per seed.
Reported: how many seeds found the scan's best pair, the GA's CPU seconds (median, spread)
against the scan's, measured in the same run, the share of pairs the GA scored, and the load
average.  With ``--longer K ...`` the GA also evolves K-word openings (no scan: too many
subsets) for the first three seeds.

``--objective game`` scores whole games (mean guesses; the opening, then the entropy-greedy
endgame from the candidates, hard mode off) and writes ``fixed_openings_game.{md,json}``; the
scan and every GA run start with an empty endgame memo, so each pays for its own groups.

Usage: python experiments/fixed_openings.py [--objective remaining|entropy|game] [--pool 2000]
       [--seeds 0 1 ... 9] [--longer 3 4] [--population N] [--patience N] [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from _study import add_output_args, output_dirs, write_json
from _study import write_text as write_file

from evo_wordle import Context
from evo_wordle.evolve.openings import OBJECTIVES, OpeningGA, evolve, make_problem, scan

UNITS = {"remaining": "candidates left", "entropy": "bits", "game": "mean guesses"}


def timed(fn):
    start = time.process_time()
    result = fn()
    return result, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pool", type=int, default=2000, help="best single openers searched (default: 2000)")
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(10)), help="GA seeds (default: 0-9)")
    parser.add_argument("--longer", type=int, nargs="*", default=[3, 4], help="also evolve K-word openings")
    parser.add_argument("--objective", choices=OBJECTIVES, default="remaining",
                        help="what an opening is scored by (default: remaining; game: mean guesses of whole games)")
    parser.add_argument("--population", type=int, default=OpeningGA.population,
                        help=f"GA population (default: {OpeningGA.population})")
    parser.add_argument("--patience", type=int, default=OpeningGA.patience,
                        help=f"GA generations without progress before a restart (default: {OpeningGA.patience})")
    add_output_args(parser, "fixed_openings")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    name = "fixed_openings" if args.objective == "remaining" else f"fixed_openings_{args.objective}"
    unit = UNITS[args.objective]
    params = OpeningGA(population=args.population, patience=args.patience)
    ctx = Context()
    load = [os.getloadavg()[0]]
    problem = make_problem(ctx, ctx.candidates("answers"), args.pool, args.objective)
    exact, scan_cpu = timed(lambda: scan(problem.fresh(), 2))  # fresh: an empty endgame memo
    print(f"scan of {exact.evaluations:,} pairs: {' '.join(exact.words).upper()} {exact.score:.4f} "
          f"{unit}, {scan_cpu:.1f} s CPU", flush=True)
    runs = []
    for seed in args.seeds:
        found, cpu = timed(lambda s=seed: evolve(problem.fresh(), 2, params, seed=s))
        hit = abs(found.score - exact.score) <= 1e-9
        runs.append({"seed": seed, "words": found.words, "score": found.score, "evaluations": found.evaluations,
                     "cpu_seconds": cpu, "found_best": hit})
        print(f"GA seed {seed}: {' '.join(found.words).upper()} {found.score:.4f} "
              f"({'best' if hit else 'MISSED'}), {found.evaluations:,} pairs, {cpu:.2f} s CPU", flush=True)
    longer = []
    for k in args.longer:
        for seed in args.seeds[:3]:
            found, cpu = timed(lambda s=seed, k=k: evolve(problem.fresh(), k, params, seed=s))
            longer.append({"words_in_opening": k, "seed": seed, "words": found.words, "score": found.score,
                           "evaluations": found.evaluations, "cpu_seconds": cpu})
            print(f"GA {k} words, seed {seed}: {' '.join(found.words).upper()} {found.score:.4f}, "
                  f"{found.evaluations:,} openings, {cpu:.2f} s CPU", flush=True)
    load.append(os.getloadavg()[0])
    cpus = [r["cpu_seconds"] for r in runs]
    median_cpu = statistics.median(cpus)
    summary = {
        "pool": args.pool, "candidates": "answers", "n_candidates": problem.n, "objective": args.objective,
        "answers": "nyt", "guess_from": problem.guess_from if args.objective == "game" else None, "hard": False,
        "words_in_opening": 2, "population": params.population, "patience": params.patience,
        "restarts": params.restarts,
        "scan": {"words": exact.words, "score": exact.score, "evaluations": exact.evaluations,
                 "cpu_seconds": scan_cpu},
        "ga": runs, "hits": sum(r["found_best"] for r in runs), "seeds": len(runs),
        "ga_cpu_median": median_cpu, "ga_cpu_min": min(cpus), "ga_cpu_max": max(cpus),
        "speedup_median": scan_cpu / median_cpu, "speedup_worst": scan_cpu / max(cpus),
        "share_scored_max": max(r["evaluations"] for r in runs) / exact.evaluations,
        "longer": longer, "load": load,
    }
    print(f"\nthe GA found the exact best pair in {summary['hits']} of {len(runs)} seeds; CPU median "
          f"{median_cpu:.2f} s (range {min(cpus):.2f}-{max(cpus):.2f}) against the scan's {scan_cpu:.1f} s: "
          f"{summary['speedup_median']:.1f}x faster (worst seed {summary['speedup_worst']:.1f}x); at most "
          f"{100 * summary['share_scored_max']:.2f} % of the pairs scored; load {load[0]:.2f} -> {load[1]:.2f}")
    write_json(results / f"{name}.json", summary)
    write_text(results / f"{name}.md", table(summary))


def table(summary: dict) -> str:
    """The deterministic part (words, scores, openings scored) as Markdown: CPU times vary."""
    scan_ = summary["scan"]
    lines = [f"| opening of | method | seeds | best opening found | {UNITS[summary['objective']]} | openings scored |",
             "|---|---|---|---|---|---|",
             f"| 2 words | scan of every pair of the pool | — | {' '.join(scan_['words']).upper()} | "
             f"{scan_['score']:.4f} | {scan_['evaluations']:,} |"]
    runs = summary["ga"]
    sign = -1 if summary["objective"] == "entropy" else 1
    best = min(runs, key=lambda r: (sign * r["score"], r["seed"]))
    evals = [r["evaluations"] for r in runs]
    ties = sorted({" ".join(r["words"]).upper() for r in runs if r["found_best"] and r["words"] != scan_["words"]})
    tied = f"; {', '.join(ties)} {'ties' if len(ties) == 1 else 'tie'}" if ties else ""
    lines.append(f"| 2 words | GA | {runs[0]['seed']}–{runs[-1]['seed']} | {' '.join(best['words']).upper()} "
                 f"(the scan's best in {summary['hits']} of {summary['seeds']} seeds{tied}) | {best['score']:.4f} | "
                 f"{min(evals):,}–{max(evals):,} |")
    for r in summary["longer"]:
        lines.append(f"| {r['words_in_opening']} words | GA | {r['seed']} | {' '.join(r['words']).upper()} | "
                     f"{r['score']:.4f} | {r['evaluations']:,} |")
    return "\n".join(lines) + "\n"


def write_text(path, text: str) -> None:
    write_file(path, text)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
