"""Multi-board strategy evolution (Dordle, Quordle, Octordle): the registered runs with their figures.

For each board count, runs exactly the command below (seed 0; answers known, guesses from any
allowed word; 1,000 training and 1,000 validation board sets, μ 8, λ 16, 12 generations; the
winner (``--select validated``: the best on the validation sets of every genome scored there),
with the lookahead ``--rollout R`` (R = 200, 1000, 200 for 2, 4, 8 boards; not evolved), and
without it, and plain summed entropy on 5,000 never-seen test sets), writing the winner as
NAME-evolved.json (dordle, quordle, octordle; a parameter file with its provenance and logbook),
replays that file on the test sets it records (as ``bench --strategy NAME`` plays it: the
summed-entropy solver with the file's parameters; the replayed mean must equal the evolution's
test mean, else the script fails), and draws:

* multiboard_convergence.png — per board count, the generation's best and the population mean
  on the training sets, and the generation's best on the validation sets;
* multiboard_hist.png — per board count, guesses per test set, evolved against summed entropy.

    evo-wordle evolve-strategy --boards N --candidates answers --generations 12 --mu 8 --lambda 16 \\
        --train-sets 1000 --validation-sets 1000 --test-sets 5000 --rollout R --select validated --seed 0 \\
        --jobs 2 --quiet --json --out NAME-evolved.json

Usage: python experiments/multiboard_evolution.py [--boards 2 4 8] [--generations 12] [--out DIR]
(≈ 5 min for Dordle, 9 min for Quordle and 6 for Octordle on 2 cores at load 2–3, 25 min in all).
Writes summary.json, the figures and strategies/NAME-evolved.json under --out (default
experiments/out/multiboard_evolution, untracked); --write-docs writes the figures into docs/figures/
and the strategy files into data/strategies/ (the shipped ones) instead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from _study import ROOT, add_output_args, output_dirs, write_json

from evo_wordle import Context
from evo_wordle.artefacts import settings_of
from evo_wordle.bench import run_bench
from evo_wordle.boards import POLICY_NAME
from evo_wordle.evolve.metaga import file_test_sets
from evo_wordle.plots.metaga import plot_board_histograms, plot_metaga_convergence
from evo_wordle.tune import load_params

#: The shipped file of each board count is data/strategies/NAME-evolved.json.
NAMES = {2: "dordle", 4: "quordle", 8: "octordle"}
#: The winner's lookahead (``--rollout``, not evolved), chosen on board sets drawn with other seeds
#: than this run's (docs/evolve.md); Dordle's 1,000 would cost 0.5 s a set.
ROLLOUT = {2: 200, 4: 1000, 8: 200}


def file_name(boards: int) -> str:
    return f"{NAMES.get(boards, f'{boards}-boards')}-evolved.json"


def command(boards: int, args: argparse.Namespace) -> list[str]:
    return [sys.executable, "-m", "evo_wordle", "evolve-strategy", "--boards", str(boards), "--candidates", "answers",
            "--generations", str(args.generations), "--mu", "8", "--lambda", "16",
            "--train-sets", str(args.train_sets), "--validation-sets", str(args.train_sets),
            "--test-sets", str(args.test_sets), "--rollout", str(ROLLOUT.get(boards, 0)), "--select", "validated",
            "--seed", "0",
            "--jobs", str(args.jobs), "--quiet", "--json",
            "--out", file_name(boards)]


def replay(ctx: Context, path: Path, jobs: int) -> dict:
    """The file's policy on the test sets it records, played by the bench's summed-entropy solver."""
    doc = load_params(path)
    settings = settings_of(doc["made_for"], str(path))
    result = run_bench(ctx, POLICY_NAME, settings, file_test_sets(ctx, doc), 0, doc["params"], jobs=jobs)
    return {"file": path.name, "test_mean": result.mean_guesses, "games": result.games,
            "histogram": result.histogram}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[2, 4, 8], help="board counts (default: 2 4 8)")
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
    strategies = ROOT / "data" / "strategies" if args.write_docs else results / "strategies"
    figures.mkdir(parents=True, exist_ok=True)  # before the work: a bad folder fails first
    strategies.mkdir(parents=True, exist_ok=True)
    ctx = Context()
    runs: dict = {}
    for boards in args.boards:
        argv = command(boards, args)
        print("running " + " ".join(argv[2:]), file=sys.stderr, flush=True)
        # run in the strategies folder, so the file's recorded command names it without a path
        out = subprocess.run(argv, check=True, capture_output=True, text=True, cwd=strategies).stdout
        run = json.loads(out)
        path = strategies / file_name(boards)
        print(f"wrote {path}", file=sys.stderr)
        run["logbook"] = load_params(path)["provenance"]["logbook"]
        run["command"] = "evo-wordle " + " ".join(argv[3:])
        run["replayed"] = replay(ctx, path, args.jobs)
        if run["replayed"]["test_mean"] != run["evolved"]["test_mean"]:
            raise SystemExit(f"{path.name} replays to {run['replayed']['test_mean']} on its test sets, "
                             f"not the evolution's {run['evolved']['test_mean']}")
        runs[boards] = run
    write_json(results / "summary.json", {"boards": {str(b): r for b, r in runs.items()}})
    for plotted in draw(runs_from_files({b: strategies / file_name(b) for b in runs}), figures).values():
        print(f"wrote {plotted.path}", file=sys.stderr)


def runs_from_files(paths: dict[int, Path]) -> dict[int, dict]:
    """What the figures draw of each board count, read back from the strategy file the run wrote
    (its settings, board sets, fitness, test histograms and logbook): the figures then show the
    shipped files' own record, and tests/test_study_figures.py redraws them from the tracked files."""
    runs = {}
    for boards, path in paths.items():
        doc = load_params(path)
        prov, made = doc["provenance"], doc["made_for"]
        run = {"settings": doc["settings"], "split": prov["sets"], "fitness": prov["fitness"],
               "evolved": prov["evolved"], "summed_entropy": prov["summed_entropy"], "logbook": prov["logbook"],
               "word_lists": {"allowed": None, "answers": None, "label": made["answers"],
                              "allowed_sha256": made["allowed_sha256"], "answers_sha256": made["answers_sha256"]}}
        if doc["params"].get("rollout"):
            run["rollout"] = doc["params"]["rollout"]
        runs[boards] = run
    return runs


def draw(runs: dict[int, dict], folder: Path) -> dict:
    """multiboard_convergence.png and multiboard_hist.png of ``runs`` (:func:`runs_from_files`) in ``folder``."""
    return {"multiboard_convergence.png": plot_metaga_convergence(runs, folder / "multiboard_convergence.png"),
            "multiboard_hist.png": plot_board_histograms(runs, folder / "multiboard_hist.png")}


if __name__ == "__main__":
    main()
