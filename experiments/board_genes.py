"""Has the meta-GA found the best policy of its family?  Gene-space headroom of the shipped
multi-board files.

Issue 17's goals are unmet (see docs/evolve.md).  ``board_headroom.py`` asks whether a single
decision, the second guess, is where the gap lies; this study asks whether other *genes* would
close it: is the shipped opener and (weight, bonus) the best the summed-entropy family offers?

For each shipped file (``NAME-evolved``): 2·K board sets are drawn (seeded) from the answers its
evolution trained and was selected on (its split's training and validation parts; no test
answer is ever played), K to *select* and K *fresh*.  On the select sets, the shipped genes,
every (weight, bonus) of a grid (the file's opener and ``late``) and every opener of the
meta-GA's own pool (the file's genes) play without lookahead.  The best grid point and the best
opener are then measured against the shipped genes on the fresh sets, set by set, with a 95 %
interval: the best of many noisy means favours luck, the fresh sets do not.

    python experiments/board_genes.py [--boards 8 4 2] [--sets 10000] [--weights -1 ... 0]
        [--bonuses 0 ... 4.5] [--openers 40] [--seed 0] [--jobs 2] [--out DIR]

Results are identical for any --jobs (every candidate plays the same sets; the policy is
deterministic).  Writes board_genes.json under --out (default experiments/out/board_genes,
untracked); the registry (``reproduce.py --only board-genes``) holds the figures the docs quote.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from _study import add_output_args, summary_dir, write_json
from board_headroom import NAMES, _context

from evo_wordle import Context
from evo_wordle.artefacts import settings_of
from evo_wordle.boards import GENES, draw_answers
from evo_wordle.evolve.metaga import BOARD_GENE_NAMES, EvolveConfig, MetaGA, genome_scores
from evo_wordle.evolve.strategy import resolve_strategy_path
from evo_wordle.split import recorded_split
from evo_wordle.stats import paired
from evo_wordle.tune import load_params

WEIGHTS = [-1.0, -0.75, -0.5, -0.25, 0.0]
BONUSES = [0.0, 1.0, 2.0, 3.0, 4.5]


def shipped(ctx: Context, boards: int) -> tuple[dict, list, object]:
    """The shipped file, its genes (opener, weight, bonus, late) and its game settings."""
    doc = load_params(resolve_strategy_path(NAMES[boards]))
    genes = [doc["params"][name] for name in BOARD_GENE_NAMES]
    return doc, genes, settings_of(doc["made_for"], NAMES[boards])


def draw_sets(ctx: Context, doc: dict, boards: int, sets: int, seed: int) -> dict[str, np.ndarray]:
    """K select and K fresh board sets from the file's training and validation answers."""
    split = recorded_split(doc["provenance"]["split"], ctx.words)
    pool = np.concatenate([split.part("train"), split.part("validation")])
    select, fresh = np.random.SeedSequence([seed, boards]).spawn(2)
    return {"select": draw_answers(None, boards, sets, select, pool=pool),
            "fresh": draw_answers(None, boards, sets, fresh, pool=pool)}


def opener_pool(ctx: Context, settings, size: int) -> list[str]:
    """The words the meta-GA's opener gene may jump to (its own pool, ``--openers``)."""
    ga = MetaGA(ctx, EvolveConfig(settings=settings, openers=size, train_sets=1, holdout_sets=1))
    return [ctx.words.allowed[int(g)] for g in ga.opener_pool()]


def _scores(task: tuple) -> np.ndarray:
    """One candidate's game lengths on the given sets in the file's game (a worker task)."""
    genes, settings, sets = task
    return genome_scores(_context(), genes, settings, sets, 0)


def _run(tasks: list, jobs: int) -> list[np.ndarray]:
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(_scores, tasks))
    return [_scores(t) for t in tasks]


def _gain(scores: np.ndarray, base: np.ndarray) -> dict:
    """Guesses saved per set (base − candidate, so positive is better) with its 95 % interval."""
    d = paired(base, scores)
    return {"mean": d["mean"], "low": d["low"], "high": d["high"]}


def measure(ctx: Context, boards: int, sets: int, weights: list, bonuses: list, openers: int,
            seed: int, jobs: int) -> dict:
    """The gene-space headroom of one shipped file (see the module's docstring)."""
    start = time.perf_counter()
    doc, genes, settings = shipped(ctx, boards)
    draws = draw_sets(ctx, doc, boards, sets, seed)
    opener, _, _, late = genes
    grid = [[opener, w, b, late] for w in weights for b in bonuses]
    pool = [[word, *genes[1:]] for word in opener_pool(ctx, settings, openers)]
    candidates = [genes, *grid, *pool]
    scores = _run([(c, settings, draws["select"]) for c in candidates], jobs)
    means = [float(s.mean()) for s in scores]
    best_grid = 1 + int(np.argmin(means[1:1 + len(grid)]))
    best_opener = 1 + len(grid) + int(np.argmin(means[1 + len(grid):]))
    fresh = _run([(candidates[i], settings, draws["fresh"]) for i in (0, best_grid, best_opener)], jobs)
    return {
        "file": NAMES[boards], "sets": sets, "seed": seed, "genes": dict(zip(BOARD_GENE_NAMES, genes)),
        "shipped_select": means[0], "shipped_fresh": float(fresh[0].mean()),
        "grid": [{"weight": c[1], "bonus": c[2], "mean": m} for c, m in zip(grid, means[1:])],
        "openers": [{"opener": c[0], "mean": m} for c, m in zip(pool, means[1 + len(grid):])],
        "best_grid": {"weight": candidates[best_grid][1], "bonus": candidates[best_grid][2],
                      "select_gain": means[0] - means[best_grid], "fresh_gain": _gain(fresh[1], fresh[0])},
        "best_opener": {"opener": candidates[best_opener][0], "select_gain": means[0] - means[best_opener],
                        "fresh_gain": _gain(fresh[2], fresh[0])},
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, nargs="+", default=[8, 4, 2], choices=sorted(NAMES),
                        help="board counts (default: 8 4 2)")
    parser.add_argument("--sets", type=int, default=10_000, help="board sets to select on, and as many fresh ones")
    parser.add_argument("--weights", type=float, nargs="+", default=WEIGHTS, help="the grid's weight values")
    parser.add_argument("--bonuses", type=float, nargs="+", default=BONUSES, help="the grid's bonus values")
    parser.add_argument("--openers", type=int, default=40, help="the meta-GA's opener pool size (default: 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "board_genes")
    args = parser.parse_args()
    if not 2 <= args.sets <= 100_000 or not 1 <= args.openers <= 1000 or args.seed < 0 or args.jobs < 1:
        parser.error("--sets must be 2…100000, --openers 1…1000, --seed ≥ 0 and --jobs ≥ 1")
    for name, values in (("weight", args.weights), ("bonus", args.bonuses)):
        low, high = GENES[name]
        if any(not low <= v <= high for v in values):
            parser.error(f"every --{name}s value must lie in the gene's range {low:g}…{high:g}")
    results = summary_dir(args)
    ctx = _context()
    summary = {str(b): measure(ctx, b, args.sets, args.weights, args.bonuses, args.openers, args.seed, args.jobs)
               for b in args.boards}
    write_json(results / "board_genes.json", {"boards": summary})


if __name__ == "__main__":
    main()
