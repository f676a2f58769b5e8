"""The study that chose the defaults of ``--solver ga`` (the card's GA).

    python experiments/ga_tuning.py --stage 1   # screen on 500 answers
    python experiments/ga_tuning.py --stage 2   # finalists, all answers, 3 seeds
    python experiments/ga_tuning.py --stage 3   # expected fitness, 3 seeds
    python experiments/ga_tuning.py --agreement 10000 1000 100 30
    python experiments/ga_tuning.py --agreement 100 50 30 --fitness expected

Goal (issue 4): mean ≤ 3.773 (greedy with TALES) and ≤ 1 % of games over 6, with a
stochastic selection.  Stage 1 plays a fixed random sample of 500 answers (sample seed
12345, run seed 0) for a grid of selection pressure, population size, generations per guess
and opener; stage 2 plays every answer with seeds 0, 1, 2 for the finalists, all with the
issue's ``dynamic`` fitness (the score greedy maximises).  Stage 3 does the same with the
``expected`` fitness (exp(−estimated guesses left)).  The greedy baseline is played on the
same answers for comparison.  Results go to stdout and DIR/ga-tuning-stage<N>.json
(``--agreement``: DIR/ga-agreement-<fitness>.json) (--out DIR, default experiments/out/ga_tuning/;
the tracked experiments/results/ only with --write-docs).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from _study import add_output_args, markdown_table, output_dirs, write_json, write_text

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.game import Settings

BASE = {"crossover": "recombine", "selection": "roulette", "fitness": "dynamic", "distinct": True}

STAGE1 = [
    {"opener": "tales", "pressure": p, "population": n, "generations_per_guess": g, "elite": 10}
    for p in (1, 10, 30, 100, 1000)
    for n, g in ((100, 2), (300, 2), (1000, 1))
] + [
    {"opener": "", "pressure": 100, "population": 1000, "generations_per_guess": 1, "elite": 10, "init": "best"},
    {"opener": "tales", "pressure": 100, "population": 300, "generations_per_guess": 2, "elite": 10,
     "distinct": False},
]

FINAL = {"opener": "tales", "population": 1000, "generations_per_guess": 1, "elite": 10}
STAGE2 = [
    {**FINAL, "pressure": 10000},
    {**FINAL, "pressure": 3000},
    {**FINAL, "pressure": 1000},
    {**FINAL, "pressure": 300},
    {**FINAL, "pressure": 100},
    {**FINAL, "pressure": 30},
    {"opener": "tales", "pressure": 100, "population": 100, "generations_per_guess": 2, "elite": 10},
]

STAGE3 = [
    {"opener": "tales", "fitness": "expected", "pressure": p, "population": n, "generations_per_guess": g,
     "elite": 10}
    for p in (30, 50, 100)
    for n, g in ((300, 1), (300, 2), (1000, 1))
] + [{"opener": "tales", "fitness": "expected", "pressure": 1e6, "population": 1000, "generations_per_guess": 1,
      "elite": 10}]


def run(ctx, params: dict, answers, seeds, jobs: int) -> dict:
    means, overs, worst, secs = [], [], 0, 0.0
    for s in seeds:
        t = time.perf_counter()
        solver = params.get("solver", "ga")
        kw = {k: v for k, v in params.items() if k != "solver"}
        r = run_bench(ctx, solver, Settings(), answers=answers, seed=s, solver_params=kw, jobs=jobs)
        secs += time.perf_counter() - t
        scores = r.scores()
        means.append(float(scores.mean()))
        overs.append(float((scores > 6).mean() * 100))
        worst = max(worst, int(scores.max()))
    return {"params": params, "seeds": list(seeds), "mean": float(np.mean(means)), "seed_means": means,
            "over6": float(np.mean(overs)), "over6_seeds": overs, "worst_guesses": worst, "seconds": secs / len(seeds)}


def agreement(ctx, pressures: list[float], step: int = 5, seed: int = 0, fitness: str = "dynamic") -> list[dict]:
    """How often the default GA (at each pressure) picks another word than the argmax of its
    fitness would in the same state (for ``dynamic`` that is greedy's choice): decisions after
    the opener with more than one candidate, every ``step``-th answer."""
    from evo_wordle.ga.fitness import answer_weights, expected_cost
    from evo_wordle.game import GameState
    from evo_wordle.solvers import make_solver

    settings = Settings()
    if fitness == "expected":
        weights = answer_weights(ctx, settings.candidates)

        class ArgMin:
            def choose(self, state):
                cand = state.candidates
                return cand[np.argmin(expected_cost(ctx, cand, cand, weights))]

        greedy = ArgMin()
    else:
        greedy = make_solver("greedy", ctx, settings, opener="tales")
    answers = ctx.words.answer_index[::step]
    seeds = np.random.SeedSequence(seed).spawn(len(answers))
    rows = []
    for pressure in pressures:
        ga = make_solver("ga", ctx, settings, pressure=pressure, fitness=fitness)
        differ = total = 0
        for k, answer in enumerate(answers):
            ga.reset(np.random.default_rng(seeds[k]))
            state = GameState.start(ctx, settings)
            while True:
                guess = ga.choose(state)
                if state.turn > 0 and len(state.candidates) > 1:
                    total += 1
                    differ += guess != greedy.choose(state)
                pattern = int(ctx.table[guess, answer])
                if pattern == ctx.words.solved:
                    break
                state = state.after(guess, pattern)
        print(f"{fitness} pressure {pressure:g}: {differ} of {total} decisions differ from the argmax "
              f"({100 * differ / total:.2f} %)")
        rows.append({"fitness": fitness, "pressure": pressure, "differ": int(differ), "decisions": total,
                     "percent": 100 * differ / total, "answers": len(answers), "step": step, "seed": seed})
    return rows


def describe(params: dict) -> str:
    """A row's configuration: what differs from BASE, greedy for the baseline."""
    if params.get("solver") == "greedy":
        return f"greedy, opener {params.get('opener', 'own')} (baseline)"
    keep = {k: v for k, v in params.items() if BASE.get(k) != v and k not in ("opener", "elite")}
    names = {"pressure": "pressure", "population": "population", "generations_per_guess": "generations/guess"}
    return ", ".join(f"{names.get(k, k)} {v:g}" if isinstance(v, float) else f"{names.get(k, k)} {v}"
                     for k, v in keep.items())


def markdown(rows: list[dict]) -> str:
    """The stage's table as docs/ga.md quotes it (no seconds: those go to the JSON)."""
    return markdown_table(
        ["configuration", "mean", "per seed", "over 6 %", "worst"],
        [[describe(r["params"]), f"{r['mean']:.4f}", " ".join(f"{m:.4f}" for m in r["seed_means"]),
          f"{r['over6']:.2f}", r["worst_guesses"]] for r in rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", type=int, choices=(1, 2, 3), default=1)
    parser.add_argument("--sample", type=int, default=500, help="answers in stage 1 (sample seed 12345)")
    parser.add_argument("--seeds", type=int, nargs="+", help="run seeds (stage 1: 0; stages 2, 3: 0 1 2)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", metavar="TEXT", help="run only configurations whose JSON contains TEXT")
    parser.add_argument("--no-baseline", action="store_true", help="skip the greedy baseline row")
    parser.add_argument("--agreement", type=float, nargs="+", metavar="PRESSURE",
                        help="instead: how often the default ga at these pressures departs from greedy")
    parser.add_argument("--fitness", choices=("dynamic", "expected"), default="dynamic",
                        help="the GA fitness for --agreement")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON to FILE")
    add_output_args(parser, "ga_tuning")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    ctx = Context()
    if args.agreement:
        write_json(results / f"ga-agreement-{args.fitness}.json", agreement(ctx, args.agreement, fitness=args.fitness))
        return
    if args.stage == 1:
        rng = np.random.default_rng(12345)
        answers = np.sort(rng.choice(ctx.words.answer_index, size=args.sample, replace=False))
        grid, seeds = STAGE1, args.seeds or [0]
    else:
        answers, grid, seeds = None, STAGE2 if args.stage == 2 else STAGE3, args.seeds or [0, 1, 2]
    rows = []
    print(f"{'configuration':100s} {'mean':>6s} {'>6 %':>5s} {'worst':>5s} {'s/run':>6s}")
    if not args.no_baseline:
        rows.append(run(ctx, {"solver": "greedy", "opener": "tales"}, answers, [0], args.jobs))
        print(f"{'greedy, opener tales (baseline)':100s} {rows[0]['mean']:6.3f} {rows[0]['over6']:5.2f} "
              f"{rows[0]['worst_guesses']:5d} {rows[0]['seconds']:6.1f}", flush=True)
    for extra in grid:
        params = {**BASE, **extra}
        if args.only and args.only not in json.dumps(params):
            continue
        row = run(ctx, params, answers, seeds, args.jobs)
        rows.append(row)
        row["over6_games"] = [round(x * len(answers if answers is not None else ctx.words.answer_index) / 100)
                              for x in row["over6_seeds"]]
        label = json.dumps({k: v for k, v in params.items() if k not in BASE or BASE[k] != v})
        print(f"{label:100s} {row['mean']:6.3f} {row['over6']:5.2f} {row['worst_guesses']:5d} {row['seconds']:6.1f}  "
              f"{' '.join(f'{m:.4f}' for m in row['seed_means'])}  over-6 games {row['over6_games']}", flush=True)
    write_json(results / f"ga-tuning-stage{args.stage}.json", rows)
    write_text(results / f"ga-tuning-stage{args.stage}.md", markdown(rows) + "\n")
    if args.json:
        write_text(args.json, json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
