"""Timings of the word GAs: full 2,309-puzzle benches and the per-generation operators.

    python experiments/ga_timings.py [--repeat 3] [--jobs 1 2]

Prints medians.  Targets (issue 4): ga-thesis N = 100, mutation 0.3 ≤ 5 s on 2 cores;
N = 500 ≤ 15 s.  Timings depend on machine load: say how loaded the machine was.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from functools import partial

import numpy as np

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.ga.fitness import answer_weights, dynamic_fitness, expected_fitness
from evo_wordle.ga.operators import roulette
from evo_wordle.game import GameState, Settings


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--skip-ga", action="store_true", help="skip the slower card-GA bench")
    args = parser.parse_args()
    ctx = Context()
    ctx.table  # noqa: B018
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")

    runs = [("ga-thesis", {"population": 100, "mutation": 0.3}), ("ga-thesis", {"population": 500, "mutation": 0.1})]
    runs.append(("ga-first", {}))
    if not args.skip_ga:
        runs.append(("ga", {}))
    run_bench(ctx, "ga-thesis", Settings(), answers=ctx.words.answer_index[:10])  # warm caches
    for name, params in runs:
        for jobs in args.jobs:
            run = partial(run_bench, ctx, name, Settings(), seed=0, solver_params=params, jobs=jobs)
            sec = median_time(run, args.repeat)
            print(f"bench {name:9s} {params!s:38s} jobs={jobs}: median {sec:6.2f} s over {args.repeat} runs")

    rng = np.random.default_rng(0)
    pop = rng.integers(len(ctx.words), size=1000)
    state = GameState.start(ctx, Settings()).after(ctx.words.index("tales"), 0)
    fit = rng.random(1000) + 0.01
    sec = median_time(lambda: dynamic_fitness(ctx, pop, state.candidates), 21)
    print(f"dynamic fitness, 1,000 individuals × {len(state.candidates)} candidates: {sec * 1e3:.2f} ms")
    weights = answer_weights(ctx, "allowed")
    sec = median_time(lambda: expected_fitness(ctx, pop, state.candidates, weights), 21)
    print(f"expected fitness, same: {sec * 1e3:.2f} ms")
    sec = median_time(lambda: roulette(fit, 1000, rng), 101)
    print(f"numpy roulette, 1,000 draws from 1,000: {sec * 1e6:.0f} µs")
    from deap import tools

    from evo_wordle.ga.creator import individual

    inds = [individual(w, f) for w, f in zip(pop.tolist(), fit.tolist())]
    sec = median_time(lambda: tools.selRoulette(inds, 1000), 5)
    print(f"deap tools.selRoulette, same: {sec * 1e3:.1f} ms")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
