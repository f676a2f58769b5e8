"""How many games does `tune` need to reach the best point of the thesis's population × mutation grid?

The grid (population 10 … 500 × mutation 0 … 0.4, ga-thesis, answers known) is played on the
training answers of the tune split with the very games and seeds every tune trial plays, so a
grid point's value is exactly what a trial with those parameters scores.  Then tune studies
(TPE + median pruning, several seeds) search the same ranges; for each we count the training
games played until a finished trial scores at or below the grid's best point.

    python experiments/tune_vs_grid.py [--out DIR] [--write-docs]    # ≈ 10–30 min on 2 cores

"At or below the grid's best point" on the training games is a strict test: that point is the
minimum of 30 noisy means, so it is partly luck.  The script therefore also compares the two
*choices* on games neither search saw: after ``--budget`` (default 1/3) of the grid's games, each
study's incumbent (its best finished trial so far) and the grid's chosen point are benched on the
validation answers of the same split with the same seeds (``--heldout-repeats`` per answer), and
their difference gets a 95 % interval answer by answer (each answer's mean over its seeds: one
answer's games are not independent games, :func:`heldout_difference`); every grid point is
benched there too, so the incumbent can be ranked among them.

Writes into --out (default experiments/out/tune_vs_grid, untracked): grid.json,
grid-heldout.json, one study per seed, summary.json; --write-docs also copies summary.json to
experiments/results/tune-vs-grid.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from evo_wordle.bench import derived_seeds
from evo_wordle.files import atomic_write_text
from evo_wordle.game import Settings
from evo_wordle.stats import paired
from evo_wordle.tune import TuneSpec, games_played, open_study, optimize, parse_space, play_scores, training_plan

POPULATIONS = (10, 25, 50, 100, 250, 500)
MUTATIONS = (0.0, 0.1, 0.2, 0.3, 0.4)
SPACES = {"ranges": "population=10:500:log,mutation=0:0.4",
          "points": f"population={'|'.join(map(str, POPULATIONS))},mutation={'|'.join(map(str, MUTATIONS))}"}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out" / "tune_vs_grid",
                   help="folder for the results (created; default: experiments/out/tune_vs_grid, untracked)")
    p.add_argument("--write-docs", action="store_true",
                   help="also write the tracked copy experiments/results/tune-vs-grid.json")
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="tune seeds (default: 0 1 2)")
    p.add_argument("--trials", type=int, default=30, help="trials per tune study (default: 30)")
    p.add_argument("--split-seed", type=int, default=0)
    p.add_argument("--pruner", choices=["median", "halving", "none"], default="median",
                   help="the studies' pruner (default: median)")
    p.add_argument("--space", choices=["ranges", "points"], default="ranges",
                   help="what the studies search: the grid's ranges (population 10:500 log, mutation 0:0.4; "
                   "default) or the grid's own 30 points (categorical: the same candidates as the grid)")
    p.add_argument("--heldout-repeats", type=int, default=5,
                   help="bench seeds per held-out answer (default: 5)")
    p.add_argument("--budget", type=float, default=1 / 3,
                   help="share of the grid's games after which each study's incumbent is benched on the "
                   "held-out answers (default: 1/3)")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    def spec(seed: int) -> TuneSpec:
        # The grid plays with seed 0's games; every study uses the same games (split seed and game
        # seed fixed), only the sampler seed differs, so the comparison is like for like.
        return TuneSpec("ga-thesis", parse_space(SPACES[args.space]),
                        Settings(candidates="answers").as_dict(), seed=0, split_seed=args.split_seed,
                        pruner=args.pruner)

    base = spec(0)
    ctx = base.context()
    plan = training_plan(base, base.split(ctx).train)
    n_train = sum(len(a) for a, _ in plan)
    grid_file = args.out / "grid.json"
    grid = json.loads(grid_file.read_text()) if grid_file.exists() else {}
    t0 = time.perf_counter()
    for pop, mut in itertools.product(POPULATIONS, MUTATIONS):
        key = f"{pop},{mut}"
        if key not in grid:
            scores = np.concatenate([play_scores(ctx, base, {"population": pop, "mutation": mut}, a, s)
                                     for a, s in plan])
            grid[key] = float(scores.mean())
            atomic_write_text(grid_file, json.dumps(grid, indent=1))
            print(f"grid population {pop} mutation {mut}: {grid[key]:.4f}", file=sys.stderr, flush=True)
    best_key = min(grid, key=grid.get)
    best = grid[best_key]
    grid_games = len(grid) * n_train
    # Held-out games: the validation answers, each played with --heldout-repeats bench seeds, the
    # same games for every grid point and every incumbent (paired comparisons).
    heldout = base.split(ctx).validation
    hseeds = [int(x) for x in derived_seeds(args.split_seed, args.heldout_repeats)]

    def heldout_scores(params: dict) -> np.ndarray:
        """Scores on the held-out games: one row per bench seed, one column per answer."""
        return np.stack([play_scores(ctx, base, params, heldout, s) for s in hseeds])

    hgrid_file = args.out / f"grid-heldout-{len(hseeds)}.json"
    hgrid = json.loads(hgrid_file.read_text()) if hgrid_file.exists() else {}
    for pop, mut in itertools.product(POPULATIONS, MUTATIONS):
        key = f"{pop},{mut}"
        if key not in hgrid:
            hgrid[key] = float(heldout_scores({"population": pop, "mutation": mut}).mean())
            atomic_write_text(hgrid_file, json.dumps(hgrid, indent=1))
    pop, mut = best_key.split(",")
    grid_choice = heldout_scores({"population": int(pop), "mutation": float(mut)})
    budget = args.budget * len(grid) * n_train
    rows = []
    for seed in args.seeds:
        stem = f"study-{seed}" if args.space == "ranges" else f"study-{args.space}-{seed}"
        url = f"sqlite:///{(args.out / f'{stem}.db').resolve()}"
        optimize(base.as_dict(), url, "vs-grid", args.trials, seed)
        study = open_study(base, url, "vs-grid")
        played, reached_at = 0, None
        for t in sorted(study.trials, key=lambda t: t.number):
            played += t.user_attrs.get("games", 0)
            if reached_at is None and t.value is not None and t.state.name == "COMPLETE" and t.value <= best:
                reached_at = (t.number, played, t.params, t.value)
        incumbent, spent = incumbent_at(study, budget)
        at_budget = None
        if incumbent is not None:
            mine = heldout_scores(incumbent.params)
            at_budget = {"games": spent, "share_of_grid": spent / grid_games, "trial": incumbent.number,
                         "params": incumbent.params, "train_value": incumbent.value,
                         "heldout_mean": float(mine.mean()),
                         "heldout_rank_among_grid": 1 + sum(int(v < mine.mean()) for v in hgrid.values()),
                         "minus_grid_choice": heldout_difference(mine, grid_choice)}
        rows.append({"sampler_seed": seed, "trials": len(study.trials), "games_played": games_played(study),
                     "points_played": len({json.dumps(t.params, sort_keys=True) for t in study.trials
                                           if t.user_attrs.get("games", 0)}),
                     "reached": None if reached_at is None else {
                         "trial": reached_at[0], "games": reached_at[1], "params": reached_at[2],
                         "value": reached_at[3], "share_of_grid": reached_at[1] / grid_games},
                     "at_budget": at_budget})
    reached = sorted(r["reached"]["share_of_grid"] if r["reached"] else math.inf for r in rows)
    summary = {"pruner": args.pruner, "space": args.space, "space_text": SPACES[args.space],
               "trials_per_study": args.trials,
               "reached_within_budget": sum(x <= args.budget for x in reached),
               # the median study's share of the grid's games (None: the median study never reached it)
               "median_share_to_reach": (float(np.median(reached)) if reached and math.isfinite(np.median(reached))
                                         else None),
               "setting": "ga-thesis, answers known (candidates answers), guesses from candidates; "
               f"training answers of split seed {args.split_seed} ({n_train} games per full bench)",
               "grid": {"points": len(grid), "games": grid_games, "best": best_key, "best_value": best},
               "heldout": {"answers": "validation", "answers_count": len(heldout), "seeds": hseeds,
                           "games": len(heldout) * len(hseeds), "budget_share": args.budget,
                           "grid_choice_mean": float(grid_choice.mean()),
                           "grid_best_point": min(hgrid, key=hgrid.get), "grid_best_value": min(hgrid.values())},
               "studies": rows, "seconds": time.perf_counter() - t0}
    atomic_write_text(args.out / "summary.json", json.dumps(summary, indent=2))
    print(f"grid: {len(grid)} points, {grid_games} games; best population,mutation = {best_key}: {best:.4f}")
    med = summary["median_share_to_reach"]
    print(f"tune ({args.space}, {args.pruner} pruning): {summary['reached_within_budget']} of {len(rows)} studies "
          f"reached it within {100 * args.budget:.1f} % of the grid's games; the median study "
          + ("did not reach it" if med is None else f"after {100 * med:.1f} %"))
    for r in rows:
        if r["reached"]:
            x = r["reached"]
            print(f"tune seed {r['sampler_seed']}: reached {x['value']:.4f} at trial {x['trial']} after "
                  f"{x['games']} games = {100 * x['share_of_grid']:.1f} % of the grid's games ({x['params']})")
        else:
            print(f"tune seed {r['sampler_seed']}: did not reach the grid's best in {r['trials']} trials "
                  f"({r['games_played']} games)")
    h = summary["heldout"]
    print(f"held out ({h['answers_count']} validation answers × {len(hseeds)} seeds): the grid's choice {best_key} "
          f"scores "
          f"{h['grid_choice_mean']:.4f}; the best grid point there is {h['grid_best_point']} "
          f"({h['grid_best_value']:.4f})")
    for r in rows:
        b = r["at_budget"]
        if b is None:
            print(f"tune seed {r['sampler_seed']}: no finished trial within {100 * args.budget:.1f} % "
                  "of the grid's games")
            continue
        d = b["minus_grid_choice"]
        print(f"tune seed {r['sampler_seed']}: after {100 * b['share_of_grid']:.1f} % of the grid's games, incumbent "
              f"{b['params']} scores {b['heldout_mean']:.4f} held out (rank {b['heldout_rank_among_grid']} among the "
              f"grid's {len(grid)} points); minus the grid's choice {d['mean']:+.4f} "
              f"[{d['low']:+.4f}, {d['high']:+.4f}]")
    print(f"wrote {args.out / 'summary.json'}", file=sys.stderr)
    if args.write_docs:
        tracked = Path(__file__).resolve().parent / "results" / "tune-vs-grid.json"
        atomic_write_text(tracked, json.dumps(summary, indent=2) + "\n")
        print(f"wrote {tracked}", file=sys.stderr)
    return 0


def heldout_difference(mine: np.ndarray, grid_choice: np.ndarray) -> dict:
    """``mine − grid_choice`` on the held-out games (seeds × answers, the same games on both sides)
    with its 95 % interval, paired answer by answer: each answer's difference is its mean over the
    seeds.  The games of one answer are not independent (the answer plays in all of them), so the
    interval is over the answers (``games`` in the result counts them), not over answers × seeds,
    which treated one answer's seeds as more answers; the mean is the same either way."""
    mine, grid_choice = np.asarray(mine, dtype=float), np.asarray(grid_choice, dtype=float)
    if mine.ndim != 2 or mine.shape != grid_choice.shape:
        raise ValueError(f"held-out scores must be seeds × answers on both sides, not {mine.shape} and "
                         f"{grid_choice.shape}")
    return paired(mine.mean(axis=0), grid_choice.mean(axis=0))


def incumbent_at(study, budget: float):
    """The best finished trial among those the study ran before ``budget`` training games were
    played (a trial that would cross the budget is left out), and the games those trials played."""
    played, best = 0, None
    for t in sorted(study.trials, key=lambda t: t.number):
        games = t.user_attrs.get("games", 0)
        if played + games > budget:
            break
        played += games
        if t.state.name == "COMPLETE" and (best is None or t.value < best.value):
            best = t
    return best, played


if __name__ == "__main__":
    sys.exit(main())
