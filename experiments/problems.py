"""The thesis's problems P0-P3 for greedy, naive and ga-thesis (population 100, mutation 0.1):
P0 any allowed word may be the answer, P1 the answer list is known, P2/P3 the same with
daily play (past answers leave later games).  All 2,309 answers; greedy and naive are
deterministic (1 seed; in P2/P3 the seed only orders the days), ga-thesis uses 3 seeds.

    python experiments/problems.py [--jobs 2]

Writes (under --out DIR, default experiments/out/; with --write-docs the tracked
experiments/results/ and docs/figures/) problems-*/ and problems.md, docs/figures/problems.png.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from _study import either, figure, markdown_table, parse, parser, pm, run, write_text

from evo_wordle.plots import style
from evo_wordle.plots.common import Plotted, new_figure, save
from evo_wordle.sweep import SweepSpec

PROBLEMS = ["P0", "P1", "P2", "P3"]
SOLVERS = [("greedy", {}, 1), ("naive", {}, 1), ("ga-thesis", {"population": [100], "mutation": [0.1]}, 3)]


def comparison(results: dict[str, dict[str, dict]]) -> str:
    """problems.md from each solver's sweep summary by problem (``summarize`` of problems-SOLVER/),
    so a test rebuilds the tracked table from the tracked sweeps."""
    rows = [[p, *(f"{pm(results[s][p])} ({100 * results[s][p]['fail_rate']:.2f} %)" for s, _, _ in SOLVERS)]
            for p in PROBLEMS]
    table = markdown_table(["problem", *(f"{s}: mean ± 95 % {interval_basis(results[s].values())} (% over 6)"
                                         for s, _, _ in SOLVERS)], rows)
    return table + "\n"


def interval_basis(summaries) -> str:
    """What a column's ± is over: its seeds, or one run's games (greedy and naive run once).  The
    table printed both as a bare ±, so ga-thesis's ± 0.025 over 3 seeds stood beside greedy's
    ± 0.032 over 2,309 games as if the two were alike."""
    bases = {(s["ci_basis"], s["seeds"]) for s in summaries}
    if len(bases) != 1:
        return "over seeds or games (mixed)"
    basis, seeds = bases.pop()
    return f"over {seeds} seeds" if basis == "seeds" else "over one run's games"


def main() -> None:
    args = parse(parser(__doc__, "problems"))
    results, specs = {}, {}
    for solver, grid, seeds in SOLVERS:
        specs[solver], summary, _ = run(args, f"problems-{solver}", solver, {"problem": PROBLEMS, **grid}, seeds=seeds)
        results[solver] = {s["problem"]: s for s in summary}
    text = comparison(results)
    write_text(args.results / "problems.md", text)
    print(text, end="")
    plot_problems(results, specs, figure(args, "problems.png"))


@style.styled
def plot_problems(results: dict[str, dict[str, dict]], specs: dict[str, SweepSpec], path: Path) -> Plotted:
    """problems.png from each solver's sweep summary by problem (as :func:`comparison` takes them)
    and its sweep spec: bars of the means, error bars only for solvers with repeated seeds (their
    95 % interval over seeds), seed, N and seeds in the caption as the sweeps record them, so
    tests/test_study_figures.py redraws it from the tracked sweeps."""
    fig, (ax,) = new_figure(8, 4.4)
    x = np.arange(len(PROBLEMS))
    colours = style.solver_colours([s for s, _, _ in SOLVERS])
    for i, (solver, _, _) in enumerate(SOLVERS):
        means = [results[solver][p]["mean"] for p in PROBLEMS]
        seeds = min(results[solver][p]["seeds"] for p in PROBLEMS)
        bars = ax.bar(x + (i - 1) * 0.27, means, width=0.27, color=colours[solver], label=solver)
        ax.bar_label(bars, labels=[f"{m:.2f}" for m in means], fontsize=7, padding=-11, color="white")
        if seeds > 1:  # error bars only from repeated seeds (greedy and naive run once)
            errs = [results[solver][p]["ci95"] for p in PROBLEMS]
            ax.errorbar(x + (i - 1) * 0.27, means, yerr=errs, fmt="none", capsize=3, color="black",
                        linewidth=1, label=f"{solver}: 95 % interval over {seeds} seeds")
    ax.set_xticks(x, PROBLEMS)
    ax.set_ylim(0, None)  # bars start at zero: their lengths compare honestly
    ax.set_ylabel("mean guesses (lower is better)")
    ax.set_title("Problems P0-P3: mean guesses over all answers")
    ax.grid(axis="x", visible=False)
    style.legend_below(ax, ncol=4)
    games = either(results[s][p]["games_per_seed"] for s, _, _ in SOLVERS for p in PROBLEMS)
    base = either(specs[s].base_seed for s, _, _ in SOLVERS)
    caption = style.caption_text(seed=f"{base} (SeedSequence base)", n=f"{games} answers per run",
                                 extra="P0 any allowed word may be the answer, P1 the answer list is known, "
                                 "P2/P3 daily play; greedy opens with TALES (P0, P2) or its own best word")
    return save(fig, path, {s: {p: results[s][p]["mean"] for p in PROBLEMS} for s, _, _ in SOLVERS}, caption)


if __name__ == "__main__":
    main()
