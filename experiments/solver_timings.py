"""Median timings of the issue-3 speed goals (pattern table cached and loaded first).

    EVO_WORDLE_CACHE=... python experiments/solver_timings.py [--repeats 5] [--all]

Each run builds a fresh solver (empty memo), so a timing includes every decision of the
bench.  Wall-clock and CPU seconds are both shown: on a shared machine the wall clock is
inflated by other processes, the CPU time much less so.  ``--all`` adds one full bench of
every other registered baseline solver (informational, no goal).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.game import Settings

#: (label, solver, settings, opener, goal in seconds)
GOALS = [
    ("greedy, full 2,309-game bench (TALES)", "greedy", Settings(), "tales", 1.0),
    ("naive TARES, full bench", "naive", Settings(), "tares", 2.0),
    ("naive, answers known, guesses from all 12,972 (own opener)", "naive",
     Settings(candidates="answers", guess_from="allowed"), None, 5.0),
]

OTHERS = ["random", "letter-frequency", "position-rank", "low-position-rank", "average-position-rank",
          "two-preset", "letter-entropy", "hybrid", "hybrid-two-preset", "max-prune"]


def time_bench(ctx: Context, solver: str, settings: Settings, opener: str | None, repeats: int):
    walls, cpus, mean = [], [], None
    params = {"opener": opener} if opener else {}
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        res = run_bench(ctx, solver, settings, solver_params=params)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        mean = res.mean_guesses
    return statistics.median(walls), statistics.median(cpus), mean


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--all", action="store_true", help="also time every other baseline solver once")
    args = ap.parse_args(argv)
    ctx = Context()
    t = time.perf_counter()
    ctx.table  # noqa: B018 - load the cached table outside the timings
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"pattern table loaded in {time.perf_counter() - t:.2f} s; load average {load:.2f} on {os.cpu_count()} cpus")
    print(f"{'run':62s} {'mean':>7} {'wall s':>8} {'cpu s':>7} {'goal':>6}  ok")
    ok_all = True
    for label, solver, settings, opener, goal in GOALS:
        wall, cpu, mean = time_bench(ctx, solver, settings, opener, args.repeats)
        ok = wall <= goal
        ok_all &= ok
        print(f"{label:62s} {mean:7.4f} {wall:8.3f} {cpu:7.3f} {goal:6.1f}  {'yes' if ok else 'NO'}", flush=True)
    if args.all:
        for solver in OTHERS:
            wall, cpu, mean = time_bench(ctx, solver, Settings(), None, 1)
            print(f"{solver + ', full bench (own opener)':62s} {mean:7.4f} {wall:8.3f} {cpu:7.3f} {'-':>6}", flush=True)
    print(f"medians of {args.repeats} runs; wall-clock goals {'all met' if ok_all else 'NOT all met (check the load)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
