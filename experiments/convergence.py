"""GA versus greedy convergence: ga-thesis (population 100, mutation 0.1) against the greedy
baseline — candidates and entropy left after each guess on MERRY (50 runs) and over all
2,309 answers (3 runs), guess-count histograms, and MERRY over 200 seeds.  P0, seed 0.

    python experiments/convergence.py [--jobs 2] [--games K]

Writes (under --out DIR, default experiments/out/convergence/; with --write-docs the tracked
experiments/results/ and docs/figures/) convergence_merry.png, convergence_all.png, histograms.png,
evolution_merry.png, convergence.json and convergence.md (the summary the docs quote) and
convergence_figures.json: per figure, the numbers it is drawn from (each figure is drawn from
that record, so tests/test_study_figures.py redraws it from the tracked file).
"""

from __future__ import annotations

import time

import numpy as np
from _study import figure, markdown_table, parse, parser, write_json, write_text

from evo_wordle import Context
from evo_wordle.game import Settings
from evo_wordle.plots.common import as_json
from evo_wordle.plots.compare import compare_data, plot_histograms
from evo_wordle.plots.convergence import convergence_data, plot_convergence
from evo_wordle.plots.evolution import evolution_data, plot_evolution

PARAMS = {"population": 100, "mutation": 0.1}
LISTS = (None, "nyt")
#: evolution_data's per-run lists, not drawn (its counts per guess count and distinct sequences are)
PER_RUN = ("scores", "sequences")


def drawn(data: dict) -> dict:
    """The numbers a figure is drawn from, as JSON (what convergence_figures.json keeps)."""
    return as_json({k: v for k, v in data.items() if k not in PER_RUN})


def markdown(data: dict) -> str:
    """convergence.md from the JSON main() writes beside it (per-guess medians, bench means, the
    MERRY runs), so a test rebuilds the tracked table from the tracked JSON."""
    g = data["per_guess"]
    rows = [[k, f"{gc:.1f}", f"{bc:.1f}", f"{gb:.3f}", f"{bb:.3f}"]
            for k, gc, bc, gb, bb in zip(g["guess"], g["ga_candidates"], g["greedy_candidates"], g["ga_bits"],
                                         g["greedy_bits"])]
    table = markdown_table(["guesses made", "ga-thesis candidates (geo. mean, median of runs)",
                            "greedy candidates", "ga-thesis bits left", "greedy bits left"], rows)
    summary = [f"- {name}: mean {b['mean']:.4f}, {100 * b['fail_rate']:.2f} % over 6"
               for name, b in data["bench"].items()]
    summary.append(f"- MERRY over 200 seeds: mean {data['merry_200_mean']:.3f}, {data['merry_200']['distinct']} "
                   f"distinct sequences, most frequent seen {data['merry_200']['most_frequent']} times")
    summary.append(f"- MERRY 50 runs: median candidates after guess 1..3: "
                   f"{np.round(data['merry_50']['ga_candidates'], 1).tolist()}, greedy "
                   f"{np.round(data['merry_50']['greedy_candidates'], 1).tolist()}")
    return "\n".join([table, "", *summary]) + "\n"


def main() -> None:
    args = parse(parser(__doc__, "convergence"))
    ctx, settings = Context(), Settings()
    lines = []
    t = time.perf_counter()
    figures = {}
    merry = convergence_data(ctx, "ga-thesis", settings, PARAMS, answer="merry", runs=50, seed=0)
    figures["convergence_merry.png"] = drawn(merry)
    plot_convergence(figures["convergence_merry.png"], figure(args, "convergence_merry.png"))
    lines.append(f"MERRY, 50 runs: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    every = convergence_data(ctx, "ga-thesis", settings, PARAMS, runs=3, games=args.games, seed=0, jobs=args.jobs,
                             lists=LISTS)
    figures["convergence_all.png"] = drawn(every)
    plot_convergence(figures["convergence_all.png"], figure(args, "convergence_all.png"))
    lines.append(f"all puzzles, 3 runs: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    hist = compare_data(ctx, ["ga-thesis", "greedy"], settings, {"ga-thesis": PARAMS}, games=args.games, seed=0,
                        jobs=args.jobs, lists=LISTS)
    figures["histograms.png"] = drawn(hist)
    plot_histograms(figures["histograms.png"], figure(args, "histograms.png"))
    lines.append(f"histograms: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    evo = evolution_data(ctx, "ga-thesis", settings, PARAMS, "merry", runs=200, seed=0)
    figures["evolution_merry.png"] = drawn(evo)
    plot_evolution(figures["evolution_merry.png"], figure(args, "evolution_merry.png"))
    lines.append(f"MERRY, 200 seeds: {time.perf_counter() - t:.1f} s")

    record = {
        "bench": {name: {"mean": hist[name]["mean"], "fail_rate": hist[name]["fail_rate"]} for name in hist["solvers"]},
        "merry_200_mean": evo["mean"],
        "merry_200": {"distinct": len(evo["top"]), "most_frequent": evo["top"][0][1]},
        "per_guess": {"guess": [int(k) for k in every["guess"]],
                      "ga_candidates": [float(every["ga_candidates"]["median"][k]) for k in every["guess"]],
                      "greedy_candidates": [float(every["baseline_candidates"][k]) for k in every["guess"]],
                      "ga_bits": [float(every["ga_bits"]["median"][k]) for k in every["guess"]],
                      "greedy_bits": [float(every["baseline_bits"][k]) for k in every["guess"]]},
        "merry_50": {"ga_candidates": [float(x) for x in merry["ga_candidates"]["median"][1:4]],
                     "greedy_candidates": [float(x) for x in merry["baseline_candidates"][1:4]]},
        "seconds": lines}
    text = markdown(record)
    write_text(args.results / "convergence.md", text)
    print(text + "\n" + "\n".join(f"- {x}" for x in lines))
    write_json(args.results / "convergence.json", record)
    write_json(args.results / "convergence_figures.json", figures)


if __name__ == "__main__":
    main()
