"""Task 4: a population × mutation sweep of `ga-thesis`, summarised and plotted from Python.

    python examples/sweep_population_mutation.py --out runs/pop-mut --seeds 3

The sweep is resumable (rerun the same command to finish it); its rows land in
``OUT/results.csv``.  The heatmap and the line plot are written next to them.  Without
``--out`` everything goes to a new temporary folder.  ``--quick`` (or
EVO_WORDLE_EXAMPLES_QUICK=1) runs a 2 × 2 grid on 8 games.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from evo_wordle.plots.sweep import heatmap_data, plot_heatmap, plot_lines
from evo_wordle.sweep import SweepSpec, format_report, load_sweep, run_sweep, summarize


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="sweep folder (default: a new temporary folder)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--quick", action="store_true", default=bool(os.environ.get("EVO_WORDLE_EXAMPLES_QUICK")))
    args = parser.parse_args(argv)

    out = Path(args.out or tempfile.mkdtemp(prefix="evo-wordle-sweep-"))
    if args.quick:
        grid, seeds, games = {"population": [10, 50], "mutation": [0.0, 0.3]}, 1, 8
    else:
        grid = {"population": [10, 50, 100, 250], "mutation": [0.0, 0.1, 0.2, 0.3]}
        seeds, games = args.seeds, args.games
    spec = SweepSpec(solver="ga-thesis", grid=grid, seeds=seeds, games=games)
    outcome = run_sweep(spec, out, jobs=args.jobs)
    print(f"{outcome.ran} benches run, {outcome.skipped} already there")

    spec, rows = load_sweep(out)
    summary = summarize(spec, rows)
    print(format_report(spec, summary))
    cells = heatmap_data(spec, summary, x="population", y="mutation")  # the numbers the heatmap draws
    print("mean guesses (rows: mutation, columns: population):")
    print(cells["mean"])
    heat = plot_heatmap(spec, summary, out / "heatmap.png", x="population", y="mutation")
    lines = plot_lines(spec, summary, out / "lines.png", x="population", hue="mutation")
    print(f"wrote {heat.path} and {lines.path}")


if __name__ == "__main__":
    main()
