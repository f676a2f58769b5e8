"""How far should a shipped multi-board policy's lookahead reach?  Chosen on validation sets.

The lookahead (``rollout``, :mod:`evo_wordle.boards`) is one exact step of policy improvement in
states whose boards' candidate counts multiply to at most its reach.  The evolution fixes the
reach for the winner (``evolve-strategy --rollout N``: 200 for Octordle, 1000 for Quordle); a
wider one covers more states, one step earlier, at a cost in time.  This study replays a shipped
file (``NAME-evolved``) with each reach on the validation board sets its evolution selected on
(never its test sets) and reports each reach's mean, its set-by-set difference from the file's
own reach (95 % interval) and its seconds.  ``bench --rollout N`` and ``board_goals.py --rollout
N`` then measure the chosen reach on test sets.

    python experiments/board_reach.py [--boards 8] [--reach 200 1000 5000 20000 100000]
        [--sets 1000] [--jobs 2] [--out DIR]

A reach deeper than the policy plays on ``--boards`` (``boards.check_rollout``: 25,291 on 4, 12,663
on 2) is refused before any set is played, so ``--boards 4`` or ``2`` need their own ``--reach`` list.

Results are identical for any --jobs (board_goals.play: each set played alone, chunks in
order); the seconds depend on the machine and its load.  Writes board_reach.json under --out
(default experiments/out/board_reach, untracked); the registry (``reproduce.py --only
board-reach``) holds the figures the docs quote.
"""

from __future__ import annotations

import argparse
import os
import time

from _study import add_output_args, summary_dir, write_json
from board_genes import shipped
from board_goals import check_reaches, play
from board_headroom import NAMES, _context

from evo_wordle.evolve.metaga import file_sets
from evo_wordle.stats import paired


def measure(boards: int, reaches: list[int], count: int, jobs: int) -> dict:
    """Each reach on the file's first ``count`` validation sets, against the file's own reach."""
    ctx = _context()
    doc, genes, settings = shipped(ctx, boards)
    own = int(doc["params"].get("rollout", 0))
    sets = file_sets(ctx, doc, "validation")[:count]
    rows, base = {}, None
    for reach in dict.fromkeys([own, *reaches]):  # the file's own reach first: the reference
        start = time.perf_counter()
        scores, lost = play(genes, settings, sets, reach, jobs)
        row = {"mean": float(scores.mean()), "lost": int(lost.sum()),
               "seconds": round(time.perf_counter() - start, 1)}
        if base is None:
            base = scores
        else:
            row["minus_own"] = paired(scores, base)
        rows[str(reach)] = row
    return {"file": NAMES[boards], "own_reach": own, "sets": len(sets), "part": "validation",
            "settings": settings.as_dict(), "reach": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=8, choices=sorted(NAMES), help="board count (default: 8)")
    parser.add_argument("--reach", type=int, nargs="+", default=[200, 1000, 5000, 20000, 100000],
                        help="lookahead reaches to compare (default: 200 1000 5000 20000 100000)")
    parser.add_argument("--sets", type=int, default=1000, help="validation sets (default: 1000, all of them)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "board_reach")
    args = parser.parse_args()
    if not 2 <= args.sets <= 100_000 or args.jobs < 1:
        parser.error("--sets must be 2…100000 and --jobs ≥ 1")
    check_reaches(parser, "--reach", args.reach, [args.boards])
    results = summary_dir(args)
    out = measure(args.boards, args.reach, args.sets, args.jobs)
    out["load_average"] = os.getloadavg()[0]
    write_json(results / "board_reach.json", out)
    for reach, row in out["reach"].items():
        diff = row.get("minus_own")
        extra = f"  {diff['mean']:+.4f} ± {diff['ci95']:.4f}" if diff else "  (the file's own reach)"
        print(f"reach {int(reach):>6,}: mean {row['mean']:.4f}, lost {row['lost']}, {row['seconds']:.0f} s{extra}")


if __name__ == "__main__":
    main()
