"""Do other genes pay once the lookahead plays?  The board-genes grid point, with lookahead.

``board_genes.py`` found, without lookahead, a (weight, bonus) grid point that saves about 0.02
guesses a set on Octordle and Quordle over the shipped genes.  The shipped files play with their
lookahead (``rollout``), whose own gain may overlap that.  This study plays the shipped genes and
the given grid point, both with the same lookahead reach, on the file's validation board sets
(never its test sets) and reports both means and the set-by-set difference (95 % interval).

    python experiments/board_genes_deep.py --boards 8 --weight -0.5 --bonus 3 [--reach 20000]
        [--sets 1000] [--jobs 2] [--out DIR]

The opener and ``late`` stay the file's.  Results are identical for any --jobs
(board_goals.play).  Writes board_genes_deep.json under --out (default
experiments/out/board_genes_deep, untracked); the registry (``reproduce.py --only
board-genes-deep-octordle board-genes-deep-quordle``) holds the figures the docs quote.
"""

from __future__ import annotations

import argparse
import os
import time

from _study import add_output_args, summary_dir, write_json
from board_genes import shipped
from board_goals import check_reaches, play
from board_headroom import NAMES, _context

from evo_wordle.boards import GENES
from evo_wordle.evolve.metaga import file_sets
from evo_wordle.stats import paired


def measure(boards: int, weight: float, bonus: float, reach: int | None, count: int, jobs: int) -> dict:
    """The shipped genes and (weight, bonus) at one reach on the file's first ``count`` validation sets."""
    ctx = _context()
    doc, genes, settings = shipped(ctx, boards)
    reach = int(doc["params"].get("rollout", 0)) if reach is None else reach
    sets = file_sets(ctx, doc, "validation")[:count]
    rows, base = {}, None
    for label, played in (("shipped", genes), ("grid", [genes[0], weight, bonus, genes[3]])):
        start = time.perf_counter()
        scores, lost = play(played, settings, sets, reach, jobs)
        rows[label] = {"genes": {"opener": played[0], "weight": played[1], "bonus": played[2], "late": played[3]},
                       "mean": float(scores.mean()), "lost": int(lost.sum()),
                       "seconds": round(time.perf_counter() - start, 1)}
        if base is None:
            base = scores
        else:
            rows[label]["minus_shipped"] = paired(scores, base)
    return {"file": NAMES[boards], "reach": reach, "sets": len(sets), "part": "validation",
            "settings": settings.as_dict(), **rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=8, choices=sorted(NAMES), help="board count (default: 8)")
    parser.add_argument("--weight", type=float, required=True, help="the grid point's weight gene")
    parser.add_argument("--bonus", type=float, required=True, help="the grid point's bonus gene")
    parser.add_argument("--reach", type=int, help="lookahead reach for both (default: the file's own)")
    parser.add_argument("--sets", type=int, default=1000, help="validation sets (default: 1000, all of them)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "board_genes_deep")
    args = parser.parse_args()
    if not 2 <= args.sets <= 100_000 or args.jobs < 1:
        parser.error("--sets must be 2…100000 and --jobs ≥ 1")
    if args.reach is not None:
        check_reaches(parser, "--reach", [args.reach], [args.boards])
    for name in ("weight", "bonus"):
        low, high = GENES[name]
        if not low <= getattr(args, name) <= high:
            parser.error(f"--{name} must lie in the gene's range {low:g}…{high:g}")
    results = summary_dir(args)
    out = measure(args.boards, args.weight, args.bonus, args.reach, args.sets, args.jobs)
    out["load_average"] = os.getloadavg()[0]
    write_json(results / "board_genes_deep.json", out)
    diff = out["grid"]["minus_shipped"]
    print(f"{out['file']}, reach {out['reach']:,}, {out['sets']} validation sets: "
          f"shipped {out['shipped']['mean']:.4f}, grid ({args.weight:g}, {args.bonus:g}) {out['grid']['mean']:.4f}, "
          f"grid − shipped {diff['mean']:+.4f} [{diff['low']:+.4f}, {diff['high']:+.4f}]")


if __name__ == "__main__":
    main()
