"""How often the decision GA of ``ga-search`` proposes the exact best guess (issue 14).

    python experiments/ga_proposals.py [--opener salet] [--answers nyt] [--seed 0] [--out DIR]

Builds the exhaustive branch-and-bound tree for the opener (answers known, guesses from every
allowed word, every answer within 6), then, at every node of that tree below the opener whose
candidates are more than ``ga-search``'s exact limit (6; smaller sets are decided by exact search
inside ga-search, no GA), runs ga-search's decision GA (``GASearchSolver.evolve``, default
population 16 and 4 generations, seeded from the state) and checks against the exact search:

* ``population_holds_best``: the final population (the GA's proposals) holds a best guess — one
  whose optimal subtree total equals the node's optimum within the guesses left (ties count);
* ``population_holds_tree_guess``: it holds the very guess the exhaustive tree plays;
* ``choice_is_best``: the GA's own pick (lowest look-ahead fitness) is a best guess, and
  ``excess``: Σ over nodes of (optimal total after the GA's pick − node optimum);
* ``seeds_hold_best``: the 16 top-entropy words it starts from already hold one (what the
  generations add);
* ``evaluations``: look-ahead evaluations per node (distinct words whose fitness it computed),
  against a scan of every allowed word (12,972); the seeding also scores every allowed word by
  entropy (one vectorised pass), reported as ``entropy_scan``.

Writes DIR/ga-proposals.json (default experiments/out/ga_proposals/, untracked).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _study import add_output_args, output_dirs, write_json

from evo_wordle import Context
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.bnb import INFEASIBLE, TreeSearch
from evo_wordle.evolve.objectives import root_cost
from evo_wordle.evolve.search import GASearchSolver
from evo_wordle.game import GameState, Settings

CAP = 6


def tree_nodes(ctx: Context, paths: dict[int, list[int]], min_size: int) -> list[dict]:
    """The tree's nodes below the opener with more than ``min_size`` candidates: history,
    candidates, the tree's guess and the guesses left."""
    groups: dict[tuple, list[int]] = {}
    guess: dict[tuple, int] = {}
    for answer, path in paths.items():
        history: tuple = ()
        for k, g in enumerate(path):
            if k >= 1:
                groups.setdefault(history, []).append(answer)
                guess[history] = g
            history += ((g, int(ctx.table[g, answer])),)
    return [{"history": h, "cand": np.array(sorted(c), dtype=np.int64), "tree_guess": guess[h], "left": CAP - len(h)}
            for h, c in sorted(groups.items(), key=lambda kv: (len(kv[0]), kv[0])) if len(c) > min_size]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--opener", default="salet")
    p.add_argument("--answers", default="nyt", help="answer list (nyt, original or a file)")
    p.add_argument("--seed", type=int, default=0, help="seed of the decision GAs (default: 0)")
    p.add_argument("--population", type=int, default=16)
    p.add_argument("--generations", type=int, default=4)
    add_output_args(p, "ga_proposals")
    args = p.parse_args()
    settings = Settings(candidates="answers", guess_from="allowed")
    try:  # a bad list, opener or search size is one line before any work (it was a traceback after the tree)
        ctx = Context(answers=args.answers)
        opener = ctx.words.index(args.opener)
        solver = GASearchSolver(ctx, settings, opener=args.opener, population=args.population,
                                generations=args.generations, seed=args.seed)
    except EvoWordleError as exc:
        p.error(str(exc))
    results, _ = output_dirs(args)
    t0 = time.perf_counter()
    search = TreeSearch(ctx, "allowed")
    paths = search.tree(ctx.words.answer_index, None, CAP, opener)
    tree_seconds = time.perf_counter() - t0
    limit = solver.look.exact_limit
    nodes = tree_nodes(ctx, paths, limit)
    t1 = time.perf_counter()
    rows = []
    for node in nodes:
        cand, left = node["cand"], node["left"]
        state = GameState(ctx, cand, node["history"], False)
        before = solver.evaluations
        ga = solver.evolve(state)
        evaluations = solver.evaluations - before
        best = search.search(cand, None, INFEASIBLE, left)

        def optimal(g: int, best: int = best, cand: np.ndarray = cand, left: int = left) -> bool:
            return root_cost(search, cand, int(g), left, best + 1) <= best

        population = [int(g) for g in np.asarray(ga["population"]).tolist()]
        seeds = [int(g) for g in np.asarray(ga["seeds"]).tolist()]
        choice_cost = root_cost(search, cand, int(ga["choice"]), left)
        rows.append({"size": len(cand), "depth": len(node["history"]), "optimum": int(best),
                     "tree_guess": ctx.words.allowed[node["tree_guess"]], "choice": ctx.words.allowed[ga["choice"]],
                     "population_holds_best": any(optimal(g) for g in population),
                     "population_holds_tree_guess": node["tree_guess"] in population,
                     "seeds_hold_best": any(optimal(g) for g in seeds),
                     "choice_is_best": choice_cost == best, "excess": int(choice_cost - best),
                     "evaluations": evaluations, "best_in_population": sum(optimal(g) for g in population)})
    ga_seconds = time.perf_counter() - t1
    n = len(rows)

    def share(key: str) -> dict:
        hits = sum(r[key] for r in rows)
        return {"nodes": hits, "percent": round(100 * hits / n, 1) if n else None}

    evals = np.array([r["evaluations"] for r in rows])
    big = [r for r in rows if r["size"] > 50]
    summary = {
        "opener": args.opener, "answers": args.answers, "seed": args.seed, "population": args.population,
        "generations": args.generations, "exact_limit": limit, "cap": CAP,
        "tree_total": sum(len(p) for p in paths.values()), "tree_seconds": round(tree_seconds, 1),
        "ga_seconds": round(ga_seconds, 1), "nodes": n,
        "nodes_small": sum(1 for h in tree_nodes(ctx, paths, 2)) - n,
        "population_holds_best": share("population_holds_best"),
        "population_holds_tree_guess": share("population_holds_tree_guess"),
        "seeds_hold_best": share("seeds_hold_best"), "choice_is_best": share("choice_is_best"),
        "excess_total": int(sum(r["excess"] for r in rows)),
        "evaluations": {"mean": round(float(evals.mean()), 1) if n else None, "max": int(evals.max()) if n else None,
                        "full_scan": len(ctx.words), "percent_of_scan":
                            round(100 * float(evals.mean()) / len(ctx.words), 2) if n else None},
        "entropy_scan": len(ctx.words),
        "large_nodes": {"size_over": 50, "nodes": len(big),
                        "population_holds_best": sum(r["population_holds_best"] for r in big),
                        "choice_is_best": sum(r["choice_is_best"] for r in big)},
        "rows": rows,
    }
    write_json(results / "ga-proposals.json", summary)
    print(f"{n} GA nodes (> {limit} candidates) of the {summary['tree_total']}-guess {args.opener.upper()} tree: "
          f"population holds a best guess at {summary['population_holds_best']['nodes']} "
          f"({summary['population_holds_best']['percent']} %), the GA's pick is best at "
          f"{summary['choice_is_best']['nodes']}, seeds alone at {summary['seeds_hold_best']['nodes']}; "
          f"{summary['evaluations']['mean']} evaluations per node of {len(ctx.words)}; "
          f"{ga_seconds:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
