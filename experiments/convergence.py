"""GA versus greedy convergence: ga-thesis (population 100, mutation 0.1) against the greedy
baseline — candidates and entropy left after each guess on MERRY (50 runs) and over all
2,309 answers (3 runs), guess-count histograms, and MERRY over 200 seeds.  P0, seed 0.

    python experiments/convergence.py [--jobs 2] [--games K]

Writes (under --out DIR, default experiments/out/convergence/; with --write-docs the tracked
experiments/results/ and docs/figures/) convergence_merry.png, convergence_all.png, histograms.png,
evolution_merry.png and experiments/results/convergence.md.
"""

from __future__ import annotations

import time

import numpy as np
from _study import figure, markdown_table, parse, parser, write_json, write_text

from evo_wordle import Context
from evo_wordle.game import Settings
from evo_wordle.plots.compare import compare_data, plot_histograms
from evo_wordle.plots.convergence import convergence_data, plot_convergence
from evo_wordle.plots.evolution import evolution_data, plot_evolution

PARAMS = {"population": 100, "mutation": 0.1}
LISTS = (None, "nyt")


def main() -> None:
    args = parse(parser(__doc__, "convergence"))
    ctx, settings = Context(), Settings()
    lines = []
    t = time.perf_counter()
    merry = convergence_data(ctx, "ga-thesis", settings, PARAMS, answer="merry", runs=50, seed=0)
    plot_convergence(merry, figure(args, "convergence_merry.png"))
    lines.append(f"MERRY, 50 runs: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    every = convergence_data(ctx, "ga-thesis", settings, PARAMS, runs=3, games=args.games, seed=0, jobs=args.jobs,
                             lists=LISTS)
    plot_convergence(every, figure(args, "convergence_all.png"))
    lines.append(f"all puzzles, 3 runs: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    hist = compare_data(ctx, ["ga-thesis", "greedy"], settings, {"ga-thesis": PARAMS}, games=args.games, seed=0,
                        jobs=args.jobs, lists=LISTS)
    plot_histograms(hist, figure(args, "histograms.png"))
    lines.append(f"histograms: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    evo = evolution_data(ctx, "ga-thesis", settings, PARAMS, "merry", runs=200, seed=0)
    plot_evolution(evo, figure(args, "evolution_merry.png"))
    lines.append(f"MERRY, 200 seeds: {time.perf_counter() - t:.1f} s")

    rows = []
    for k in every["guess"]:
        rows.append([k, f"{every['ga_candidates']['median'][k]:.1f}", f"{every['baseline_candidates'][k]:.1f}",
                     f"{every['ga_bits']['median'][k]:.3f}", f"{every['baseline_bits'][k]:.3f}"])
    table = markdown_table(["guesses made", "ga-thesis candidates (geo. mean, median of runs)",
                            "greedy candidates", "ga-thesis bits left", "greedy bits left"], rows)
    summary = [f"- {name}: mean {hist[name]['mean']:.4f}, {100 * hist[name]['fail_rate']:.2f} % over 6"
               for name in hist["solvers"]]
    summary.append(f"- MERRY over 200 seeds: mean {evo['mean']:.3f}, {len(evo['top'])} distinct sequences, "
                   f"most frequent seen {evo['top'][0][1]} times")
    summary.append(f"- MERRY 50 runs: median candidates after guess 1..3: "
                   f"{np.round(merry['ga_candidates']['median'][1:4], 1).tolist()}, greedy "
                   f"{np.round(merry['baseline_candidates'][1:4], 1).tolist()}")
    text = "\n".join([table, "", *summary]) + "\n"
    write_text(args.results / "convergence.md", text)
    print(text + "\n" + "\n".join(f"- {x}" for x in lines))
    write_json(args.results / "convergence.json", {
        "bench": {name: {"mean": hist[name]["mean"], "fail_rate": hist[name]["fail_rate"]} for name in hist["solvers"]},
        "merry_200_mean": evo["mean"], "seconds": lines})


if __name__ == "__main__":
    main()
