"""Best-N versus random initialisation: ga-thesis with init random|best x populations
10, 100, 500 at mutation 0.1 and 0.3 (the thesis code's own run: best-N, N = 100, mutation
0.3 -> 4.809, 11.0 % over 6), all answers, 3 seeds.

    python experiments/init_study.py [--jobs 2] [--games K]

Writes (under --out DIR, default experiments/out/; with --write-docs the tracked
experiments/results/ and docs/figures/) init/{…} and docs/figures/init_lines.png (mutation 0.3).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from _study import figures_folder, markdown_table, parse, parser, pm, run, write_text

from evo_wordle.game import Settings
from evo_wordle.plots.common import Plotted
from evo_wordle.plots.sweep import plot_lines
from evo_wordle.sweep import SweepSpec

#: The figure needs one mutation rate: it draws 0.3 (the thesis code's).
FIGURE_MUTATION = 0.3


def comparison(summary: list[dict]) -> str:
    """init/comparison.md from the sweep's summary (``summarize`` of init/): random beside best-N
    per cell, so a test rebuilds the tracked table from the tracked sweep."""
    rows = []
    for mutation in (0.1, 0.3):
        for population in (10, 100, 500):
            cells = {s["init"]: s for s in summary if s["mutation"] == mutation and s["population"] == population}
            if len(cells) == 2:
                r, b = cells["random"], cells["best"]
                rows.append([mutation, population, pm(r), f"{100 * r['fail_rate']:.2f}", pm(b),
                             f"{100 * b['fail_rate']:.2f}", f"{b['mean'] - r['mean']:+.3f}"])
    table = markdown_table(["mutation", "population", "random: mean", "random: % over 6", "best-N: mean",
                            "best-N: % over 6", "best - random"], rows)
    return table + "\n"


def figures(spec: SweepSpec, summary: list[dict], folder: Path) -> dict[str, Plotted]:
    """The study's figure by file name, drawn into ``folder`` from the sweep alone (spec and
    ``summarize`` of init/, sliced at :data:`FIGURE_MUTATION`), so tests/test_study_figures.py
    redraws it from the tracked sweep."""
    sub = replace(spec, grid={**spec.grid, "mutation": [FIGURE_MUTATION]})
    rows = [s for s in summary if s["mutation"] == FIGURE_MUTATION]
    return {"init_lines.png": plot_lines(sub, rows, folder / "init_lines.png", x="population", hue="init")}


def main() -> None:
    args = parse(parser(__doc__, "init_study"))
    spec, summary, out = run(args, "init", "ga-thesis",
                             {"init": ["random", "best"], "population": [10, 100, 500], "mutation": [0.1, 0.3]},
                             seeds=3, settings=Settings(max_guesses=30))
    text = comparison(summary)
    write_text(args.results / "init" / "comparison.md", text)
    print(text, end="")
    figures(spec, summary, figures_folder(args))


if __name__ == "__main__":
    main()
