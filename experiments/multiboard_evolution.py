"""Multi-board strategy evolution (Dordle, Quordle): the registered runs with their figures.

For each board count, runs exactly the command below (seed 0; answers known, guesses from any
allowed word; 1,000 training and 1,000 validation board sets, μ 8, λ 16, 12 generations; the
winner and plain summed entropy on 5,000 never-seen test sets) with ``--log``, and draws:

* multiboard_convergence.png — per board count, the generation's best and the population mean
  on the training sets, and the generation's best on the validation sets;
* multiboard_hist.png — per board count, guesses per test set, evolved against summed entropy.

    evo-wordle evolve-strategy --boards N --candidates answers --generations 12 --mu 8 --lambda 16 \\
        --train-sets 1000 --validation-sets 1000 --test-sets 5000 --seed 0 --jobs 2 --quiet --json

Usage: python experiments/multiboard_evolution.py [--boards 2 4] [--generations 12] [--out DIR]
(≈ 6 min for Dordle and 20 min for Quordle on 2 cores at load 2–9).  Writes summary.json and
the figures under --out (default experiments/out/multiboard_evolution, untracked); --write-docs
writes the figures into docs/figures/ instead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from _study import add_output_args, output_dirs, write_json

from evo_wordle.plots.metaga import plot_board_histograms, plot_metaga_convergence


def command(boards: int, args: argparse.Namespace, log: Path) -> list[str]:
    return [sys.executable, "-m", "evo_wordle", "evolve-strategy", "--boards", str(boards), "--candidates", "answers",
            "--generations", str(args.generations), "--mu", "8", "--lambda", "16",
            "--train-sets", str(args.train_sets), "--validation-sets", str(args.train_sets),
            "--test-sets", str(args.test_sets), "--seed", "0", "--jobs", str(args.jobs), "--quiet", "--json",
            "--log", str(log)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[2, 4], help="board counts (default: 2 4)")
    parser.add_argument("--generations", type=int, default=12, help="meta-GA generations (default: 12)")
    parser.add_argument("--train-sets", type=int, default=1000,
                        help="training and validation board sets (default: 1000)")
    parser.add_argument("--test-sets", type=int, default=5000, help="test board sets (default: 5000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "multiboard_evolution")
    args = parser.parse_args()
    results, figures = output_dirs(args)
    if args.write_docs:  # the summary stays untracked; only the figures are cited
        results = args.out
    figures.mkdir(parents=True, exist_ok=True)  # before the work: a bad folder fails first
    runs: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for boards in args.boards:
            log = Path(tmp) / f"log-{boards}.json"
            argv = command(boards, args, log)
            print("running " + " ".join(argv[2:]), file=sys.stderr, flush=True)
            out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
            run = json.loads(out)
            run["logbook"] = json.loads(log.read_text())
            run["command"] = "evo-wordle " + " ".join(argv[3:-2])
            runs[boards] = run
    write_json(results / "summary.json", {"boards": {str(b): r for b, r in runs.items()}})
    for plotted in (plot_metaga_convergence(runs, figures / "multiboard_convergence.png"),
                    plot_board_histograms(runs, figures / "multiboard_hist.png")):
        print(f"wrote {plotted.path}", file=sys.stderr)


if __name__ == "__main__":
    main()
