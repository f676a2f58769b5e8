"""Entropy speed across shapes: guesses × candidates, the chosen path against every path.

For each shape (m guesses, n candidates, both drawn with a fixed seed from the allowed
words) ``evo_wordle.entropy.entropies`` is timed with the path it picks itself and with each
forced path (``cells``, ``rows``, ``columns``), repeats interleaved so that load changes hit
all of them alike.  Printed per shape: the median time of the chosen path and its ratio to
the fastest path's median (goal ≤ 2), then the worst ratio and the load average; the rows
go to OUT/entropy_shapes.json (default experiments/out/entropy_shapes, untracked).

Usage: python experiments/entropy_shapes.py [--repeats 7] [--quick] [--seed 0] [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
from _study import add_output_args, output_dirs, write_json

from evo_wordle import Context
from evo_wordle.entropy import PATHS, entropies, gather_path

GUESSES = (1, 10, 50, 99, 101, 128, 129, 300, 1000, 3000, 12972)
CANDIDATES = (2, 10, 50, 99, 100, 101, 128, 129, 500, 2309, 12972)
QUICK_GUESSES = (10, 99, 101, 1000)
QUICK_CANDIDATES = (10, 100, 129, 2309)
MAX_CELLS = 40_000_000  # skip shapes whose slowest path takes seconds


def _time(fn, repeats: int) -> float:
    fn()  # warm: page in the cells this shape reads
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(ctx: Context, m: int, n: int, repeats: int, rng: np.random.Generator) -> dict:
    """Median seconds of the chosen path and of each forced path for one shape."""
    table = ctx.table
    guesses = np.sort(rng.choice(len(ctx.words), size=m, replace=False))
    cand = np.sort(rng.choice(len(ctx.words), size=n, replace=False))
    rounds = {p: [] for p in (None, *PATHS)}
    reference = entropies(table, guesses, cand)
    for path in PATHS:
        assert np.array_equal(entropies(table, guesses, cand, path=path), reference), (m, n, path)
    for _ in range(3):  # interleave: each round times every path once (with its own repeats)
        for path in rounds:
            rounds[path].append(_time(lambda p=path: entropies(table, guesses, cand, path=p), max(1, repeats // 3)))
    med = {p: statistics.median(v) for p, v in rounds.items()}
    best = min(med[p] for p in PATHS)
    return {"m": m, "n": n, "chosen": gather_path(m, n, table.shape[0]), "seconds": med[None],
            "best_path": min(PATHS, key=med.__getitem__), "best": best, "ratio": med[None] / best,
            **{p: med[p] for p in PATHS}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7, help="timings per path and shape (median)")
    parser.add_argument("--quick", action="store_true", help="a few shapes around the old cliff only")
    parser.add_argument("--seed", type=int, default=0, help="seed of the drawn guesses and candidates")
    add_output_args(parser, "entropy_shapes")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    ctx = Context()
    rng = np.random.default_rng(args.seed)
    ms, ns = (QUICK_GUESSES, QUICK_CANDIDATES) if args.quick else (GUESSES, CANDIDATES)
    load_before = os.getloadavg()[0]
    rows = []
    print(f"{'guesses':>8} {'cands':>6} {'chosen':>8} {'ms':>9} {'best path':>9} {'best ms':>9} {'ratio':>6}")
    for n in ns:
        for m in ms:
            if m * n > MAX_CELLS:
                continue
            r = measure(ctx, m, n, args.repeats, rng)
            rows.append(r)
            print(f"{m:8d} {n:6d} {r['chosen']:>8} {1e3 * r['seconds']:9.3f} {r['best_path']:>9} "
                  f"{1e3 * r['best']:9.3f} {r['ratio']:6.2f}", flush=True)
    worst = max(rows, key=lambda r: r["ratio"])
    print(f"\nworst chosen/fastest ratio: {worst['ratio']:.2f} at {worst['m']} guesses × {worst['n']} candidates "
          f"(goal ≤ 2); median ratio {statistics.median(r['ratio'] for r in rows):.2f} over {len(rows)} shapes")
    load_after = os.getloadavg()[0]
    print(f"load average (1 min): {load_before:.2f} before, {load_after:.2f} after; seed {args.seed}, "
          f"median of {args.repeats} timings per path")
    write_json(results / "entropy_shapes.json", {
        "seed": args.seed, "repeats": args.repeats, "load": [load_before, load_after], "rows": rows,
        "worst_ratio": worst["ratio"], "worst_shape": [worst["m"], worst["n"]],
    })


if __name__ == "__main__":
    main()
