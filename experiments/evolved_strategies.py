"""Evolved strategies against greedy, naive and the published optima, on every answer.

Prints a markdown table and writes evolved_strategies.{json,md} and two figures,
evolve_hist.png (guess histograms) and evolve_convergence.png (the meta-GA's best and mean
training fitness and the held-out fitness per generation) to --out DIR (default
experiments/out/evolved_strategies/); --write-docs writes the tracked copies the docs cite
(experiments/results/, docs/figures/).

    python experiments/evolved_strategies.py [--out DIR | --write-docs]

The shipped strategies come from data/strategies/*.json (their provenance holds the command,
seed and runtime that produced them); the ga-tree commands in docs/evolve.md rebuild the trees.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from _study import add_output_args, output_dirs, write_json

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.evolve.strategy import Strategy, load_strategy_file
from evo_wordle.game import Settings
from evo_wordle.plots import style
from evo_wordle.plots.common import new_figure

ROOT = Path(__file__).resolve().parent.parent
STRATS = ROOT / "data" / "strategies"
P0X = Settings.problem("P0", guess_from="allowed")
P0 = Settings.problem("P0")
KNOWN = Settings(candidates="answers", guess_from="allowed")
HARD = KNOWN.with_(hard=True)

#: Published figures (mean guesses) quoted for comparison, never computed here.
PUBLISHED = {
    "P0": ("thesis greedy", 3.773),
    "known": ("proven optimum, SALET (Selby)", 3.4201),
    "hard": ("best known, SALET", 3.5076),
    "original": ("proven optimum, SALET, 2,315 answers", 3.4212),
}


def bench(ctx: Context, label: str, solver: str, settings: Settings, params: dict, group: str) -> dict:
    t = time.perf_counter()
    r = run_bench(ctx, solver, settings, None, 0, params)
    row = {"group": group, "label": label, "games": r.games, "mean": round(r.mean_guesses, 4),
           "over_6": int((r.scores() > 6).sum()), "worst_guesses": r.worst_guesses, "histogram": r.histogram,
           "seconds": round(time.perf_counter() - t, 2)}
    print(f"| {group} | {label} | {row['mean']:.4f} | {row['over_6']} | {row['worst_guesses']} | {row['seconds']} |",
          flush=True)
    return row


def short(label: str) -> str:
    """Legend text: the label up to its first parenthesis or comma detail."""
    return label.replace(" (tree replay)", ", tree").split(" (")[0][:40]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="skip the slow all-allowed naive baselines")
    add_output_args(ap, "evolved_strategies")
    args = ap.parse_args()
    res, figs = output_dirs(args)
    ctx = Context()
    orig = Context(answers="original")
    rows = []
    print("| setting | solver | mean | over 6 | worst | seconds |\n|---|---|---|---|---|---|")
    p0 = STRATS / "p0-evolved.json"
    rows.append(bench(ctx, "greedy (TALES, candidates only)", "greedy", P0, {"opener": "tales"}, "P0"))
    rows.append(bench(ctx, "strategy, default genome (before evolution)", "strategy", P0X,
                      {"strategy": Strategy()}, "P0"))
    genome, prov, _ = load_strategy_file(p0)
    rows.append(bench(ctx, "strategy, evolved genome, no tree (computes every decision)", "strategy", P0X,
                      {"strategy": genome}, "P0"))
    rows.append(bench(ctx, "strategy file p0-evolved.json (tree replay)", "strategy", P0X, {"strategy": p0}, "P0"))
    if not args.quick:
        rows.append(bench(ctx, "naive max entropy (SALET, any allowed guess)", "naive", KNOWN,
                          {"opener": "salet"}, "known"))
    rows.append(bench(ctx, "strategy, uniform weights (default genome, SALET)", "strategy", KNOWN,
                      {"strategy": Strategy(steepness=0.0)}, "known"))
    rows.append(bench(ctx, "ga-search tree (answers-known-salet.json)", "strategy", KNOWN,
                      {"strategy": STRATS / "answers-known-salet.json"}, "known"))
    rows.append(bench(ctx, "naive max entropy, hard mode (SALET, legal guesses)", "naive", HARD,
                      {"opener": "salet"}, "hard"))
    rows.append(bench(ctx, "ga-search tree, hard mode", "strategy", HARD,
                      {"strategy": STRATS / "answers-known-hard-salet.json"}, "hard"))
    rows.append(bench(orig, "ga-search tree, original 2,315 answers", "strategy", KNOWN,
                      {"strategy": STRATS / "original-answers-salet.json"}, "original"))
    for group, (label, value) in PUBLISHED.items():
        print(f"| {group} | published: {label} | {value:.4f} | | | |")

    log = json.loads((STRATS / "p0-evolved.log.json").read_text())
    out = {"rows": rows, "published": PUBLISHED, "p0_genome": genome.as_dict(), "p0_plain": genome.describe(),
           "p0_provenance": {k: v for k, v in prov.items() if k != "logbook"}, "p0_logbook": log}
    write_json(res / "evolved_strategies.json", out)
    # seconds stay in the JSON: a table the docs cite holds only figures that a rerun reproduces
    md = ["| setting | solver | mean | over 6 | worst |", "|---|---|---|---|---|"]
    md += [f"| {r['group']} | {r['label']} | {r['mean']:.4f} | {r['over_6']} | {r['worst_guesses']} |" for r in rows]
    md += [f"| {g} | published: {label} | {v:.4f} | | |" for g, (label, v) in PUBLISHED.items()]
    md += ["", f"Evolved P0 genome in words: {genome.describe()}"]
    (res / "evolved_strategies.md").write_text("\n".join(md) + "\n")
    print("\n" + genome.describe())

    figs.mkdir(parents=True, exist_ok=True)
    with style.context():
        fig, axes = new_figure(12, 5.2, ncols=2)
        for ax, group in zip(axes, ("P0", "known")):
            chosen = [r for r in rows if r["group"] == group]
            width = 0.8 / max(len(chosen), 1)
            for i, r in enumerate(chosen):
                ks = np.array(sorted(int(k) for k in r["histogram"]))
                colour = style.BASELINE if r["label"].startswith(("greedy", "naive")) else \
                    style.SERIES[[0, 2, 3, 4][i % 4]]
                ax.bar(ks + (i - (len(chosen) - 1) / 2) * width, [r["histogram"][str(k)] for k in ks], width,
                       color=colour, label=f"{r['label']}: mean {r['mean']:.3f}")
            ax.set_title("answers unknown (P0)" if group == "P0" else "answer list known, any allowed guess")
            ax.set_xlabel("guesses (fewer is better)")
            ax.set_ylabel("answers")
            ax.grid(axis="x", visible=False)
            style.legend_below(ax, ncol=1)  # below the axes: long labels are never cut off
        caption = style.caption_text(n="all 2,309 answers per strategy",
                                     extra="deterministic replays (no seed); genomes and trees from data/strategies/")
        style.add_caption(fig, caption)
        fig.savefig(figs / "evolve_hist.png", dpi=150)

        fig, axes = new_figure(6.5, 4.4)
        ax = axes[0]
        gens = [r["gen"] for r in log]
        ax.plot(gens, [r["best"] for r in log], color=style.SERIES[0], marker="o", label="best (training sample)")
        ax.plot(gens, [r["mean"] for r in log], color=style.SERIES[2], marker=".", label="population mean (training)")
        ax.plot(gens, [r["holdout"] for r in log], color=style.SERIES[3], marker="s",
                label="generation best on the held-out sample")
        ax.set_xlabel("generation")
        ax.set_ylabel("mean guesses + penalty per game over 6\n(lower is better)")
        ax.set_title("meta-GA convergence (P0)")
        ax.legend()
        style.add_caption(fig, style.caption_text(solver="evolve-strategy", seed=prov.get("seed", 1),
                                                  n=f"{len(log)} generations", settings=prov.get("settings", {})))
        fig.savefig(figs / "evolve_convergence.png", dpi=150)

if __name__ == "__main__":
    main()
