"""Does ``ga-search --boards N`` pay?  The shipped multi-board policies with and without the search.

For each board count, plays the shipped file (dordle-evolved, quordle-evolved: its genes and its
lookahead, as ``bench --strategy NAME`` plays them) and the same file with the decision search on
top (``bench --solver ga-search --strategy NAME``: 60 words per decision, no generations) on the
first K of the test board sets the file records (sets its evolution never saw), and reports both
means and the set-by-set difference search − file with its 95 % interval.

    python experiments/board_search.py [--boards 2 4] [--sets 400 150] [--jobs 2] [--out DIR]

(≈ 12 min on 2 cores at load 2 with the defaults.)  Writes board_search.json under --out
(default experiments/out/board_search, untracked); --write-docs writes nothing else: no doc
quotes a figure the registry does not hold, and the registry (``reproduce.py --only
board-search``) is how the docs' figures are checked.
"""

from __future__ import annotations

import argparse
import time

from _study import add_output_args, summary_dir, write_json

from evo_wordle import Context
from evo_wordle.artefacts import settings_of
from evo_wordle.bench import run_bench
from evo_wordle.boards import BOARD_SEARCH_DEFAULTS, POLICY_NAME
from evo_wordle.evolve.metaga import file_test_sets
from evo_wordle.evolve.strategy import resolve_strategy_path
from evo_wordle.game import lost, scores_of
from evo_wordle.stats import paired
from evo_wordle.tune import load_params

NAMES = {2: "dordle-evolved", 4: "quordle-evolved", 8: "octordle-evolved"}


def measure(ctx: Context, boards: int, sets: int, jobs: int) -> dict:
    """The file's policy and the searched one on its first ``sets`` test sets."""
    path = resolve_strategy_path(NAMES[boards])
    doc = load_params(path)
    settings = settings_of(doc["made_for"], str(path))
    played = file_test_sets(ctx, doc)[:sets]
    search, generations = BOARD_SEARCH_DEFAULTS
    out: dict = {"file": path.name, "sets": len(played), "settings": doc["made_for"], "search_population": search,
                 "search_generations": generations}
    scores = {}
    searched = {"search": search, "search_generations": generations}
    for label, extra in (("without_search", {}), ("with_search", searched)):
        start = time.perf_counter()
        result = run_bench(ctx, POLICY_NAME, settings, played, 0, {**doc["params"], **extra}, jobs=jobs)
        scores[label] = scores_of(result.records, settings)
        out[label] = {"mean": float(scores[label].mean()), "failures": sum(lost(r, settings) for r in result.records),
                      "seconds": round(time.perf_counter() - start, 1)}
    out["search_gain"] = paired(scores["with_search"], scores["without_search"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[2, 4], choices=sorted(NAMES),
                        help="board counts (default: 2 4)")
    parser.add_argument("--sets", type=int, nargs="+", default=[400, 150],
                        help="test sets per board count, in the order of --boards (default: 400 150)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "board_search")
    args = parser.parse_args()
    if len(args.sets) != len(args.boards) or min(args.sets) < 2:
        parser.error("give one --sets value (at least 2) per board count")
    results = summary_dir(args)
    ctx = Context()
    summary = {str(b): measure(ctx, b, k, args.jobs) for b, k in zip(args.boards, args.sets)}
    write_json(results / "board_search.json", {"boards": summary})


if __name__ == "__main__":
    main()
