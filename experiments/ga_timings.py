"""Timings of the word GAs as ratios to the greedy bench timed in the same run.

    python experiments/ga_timings.py [--repeat 3] [--jobs 1 2] [--out DIR]

Full 2,309-puzzle benches and the per-generation operators: median, min and max over the
repeats, the load average, and each bench's ratio to the reference (greedy TALES, one
process).  Targets (issue 4): ga-thesis N = 100, mutation 0.3 ≤ 5 s on 2 cores; N = 500
≤ 15 s.  Writes DIR/ga_timings.json (default experiments/out/ga_timings/).
"""

from __future__ import annotations

import argparse
from functools import partial

import numpy as np
from _study import add_output_args, output_dirs, write_json
from _timing import Reference, header, line, load_average, paired, timed

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.ga.fitness import answer_weights, dynamic_fitness, expected_fitness
from evo_wordle.ga.operators import roulette
from evo_wordle.game import GameState, Settings

BENCHES = [("ga-thesis", {"population": 100, "mutation": 0.3}), ("ga-thesis", {"population": 500, "mutation": 0.1}),
           ("ga-first", {})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--skip-ga", action="store_true", help="skip the slower card-GA bench")
    add_output_args(parser, "ga_timings")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    ctx = Context()
    facts = header(ctx)
    run_bench(ctx, "ga-thesis", Settings(), answers=ctx.words.answer_index[:10])  # warm caches
    ref = Reference(ctx)
    rows = []
    for name, params in BENCHES + ([] if args.skip_ga else [("ga", {})]):
        for jobs in args.jobs:
            run = partial(run_bench, ctx, name, Settings(), seed=0, solver_params=params, jobs=jobs)
            label = f"{name} {' '.join(f'{k}={v}' for k, v in params.items()) or 'defaults'} jobs={jobs}"
            rows.append(paired(label, run, ref, args.repeat, solver=name, params=params, jobs=jobs))
            print(line(rows[-1]), flush=True)

    rng = np.random.default_rng(0)
    pop = rng.integers(len(ctx.words), size=1000)
    state = GameState.start(ctx, Settings()).after(ctx.words.index("tales"), 0)
    fit = rng.random(1000) + 0.01
    weights = answer_weights(ctx, "allowed")
    from deap import tools

    from evo_wordle.ga.creator import individual

    inds = [individual(w, f) for w, f in zip(pop.tolist(), fit.tolist())]
    ops = [
        (f"dynamic fitness, 1,000 individuals x {len(state.candidates)} candidates",
         lambda: dynamic_fitness(ctx, pop, state.candidates), 21),
        ("expected fitness, same", lambda: expected_fitness(ctx, pop, state.candidates, weights), 21),
        ("numpy roulette, 1,000 draws from 1,000", lambda: roulette(fit, 1000, rng), 101),
        ("deap tools.selRoulette, same", lambda: tools.selRoulette(inds, 1000), 5),
    ]
    for label, fn, repeats in ops:
        rows.append({"label": label, **timed(fn, repeats)})
        print(line(rows[-1]), flush=True)
    reference = ref.summary()
    print(line(reference))
    deap_ratio = rows[-1]["median"] / rows[-2]["median"]
    print(f"deap selRoulette / numpy roulette: {deap_ratio:.0f}x")
    write_json(results / "ga_timings.json", {**facts, "load_after": load_average(), "reference": reference,
                                             "rows": rows, "deap_over_numpy_roulette": deap_ratio})


if __name__ == "__main__":
    main()
