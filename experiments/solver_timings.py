"""Timings of the issue-3 speed goals, as ratios to the greedy bench timed in the same run.

    EVO_WORDLE_CACHE=... python experiments/solver_timings.py [--repeats 5] [--all] [--out DIR]

Each run builds a fresh solver (empty memo), so a timing includes every decision of the
bench.  Prints median, min and max over the repeats, the load average and the ratio to the
reference (greedy TALES, one process); writes DIR/solver_timings.json (default
experiments/out/solver_timings/).  ``--all`` adds one full bench of every other baseline
solver (informational, no goal).
"""

from __future__ import annotations

import argparse
import sys

from _study import add_output_args, output_dirs, write_json
from _timing import Reference, header, line, load_average, paired

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.game import Settings

#: (label, solver, settings, opener, goal in seconds); the greedy goal (1 s) is the reference's
GOALS = [
    ("naive TARES, full bench", "naive", Settings(), "tares", 2.0),
    ("naive, answers known, guesses from all 12,972 (own opener)", "naive",
     Settings(candidates="answers", guess_from="allowed"), None, 5.0),
]

OTHERS = ["random", "letter-frequency", "position-rank", "low-position-rank", "average-position-rank",
          "two-preset", "letter-entropy", "hybrid", "hybrid-two-preset", "max-prune"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--all", action="store_true", help="also time every other baseline solver once")
    add_output_args(ap, "solver_timings")
    args = ap.parse_args(argv)
    results, _ = output_dirs(args)
    ctx = Context()
    facts = header(ctx)
    ref = Reference(ctx)
    rows = []
    for label, solver, settings, opener, goal in GOALS:
        params = {"opener": opener} if opener else {}
        row = paired(label, lambda: run_bench(ctx, solver, settings, solver_params=params),  # noqa: B023
                     ref, args.repeats, solver=solver, goal=goal)
        rows.append(row)
        print(line(row) + f"  goal {goal:.0f} s: {'met' if row['median'] <= goal else 'NOT met'}", flush=True)
    if args.all:
        for solver in OTHERS:
            rows.append(paired(f"{solver}, full bench (own opener)", lambda: run_bench(ctx, solver, Settings()),  # noqa: B023
                               ref, 1, solver=solver))
            print(line(rows[-1]), flush=True)
    reference = ref.summary()
    print(line(reference) + f"  goal 1 s: {'met' if reference['median'] <= 1 else 'NOT met'}", flush=True)
    write_json(results / "solver_timings.json",
               {**facts, "load_after": load_average(), "reference": reference, "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
