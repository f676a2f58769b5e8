"""The thesis's population-size table (Figure 5.5): ga-thesis, mutation 0.1, populations
10-500, all 2,309 answers, 3 seeds.  Also the speed check of the sweep machinery.

    python experiments/population_table.py [--jobs 2] [--fresh]

Writes (under --out DIR, default experiments/out/; with --write-docs the tracked
experiments/results/ and docs/figures/) population/{sweep.json,results.csv,table.md,comparison.md} and
docs/figures/population_lines.png.  Games are capped at 30 guesses, as the thesis played
every game until solved (no game comes near the cap).
"""

from __future__ import annotations

from pathlib import Path

from _study import figures_folder, markdown_table, parse, parser, pm, run, write_text

from evo_wordle.game import Settings
from evo_wordle.plots.common import Plotted
from evo_wordle.plots.sweep import plot_lines
from evo_wordle.sweep import SweepSpec

#: Thesis Figure 5.5: population -> (mean guesses, % over 6).
THESIS = {10: (4.737, 8.7), 25: (4.764, 8.7), 50: (4.718, 9.2), 100: (4.707, 7.5), 250: (4.699, 8.5),
          500: (4.722, 8.8)}


def comparison(summary: list[dict]) -> str:
    """population/comparison.md from the sweep's summary (``summarize`` of population/): the
    measured rows beside the thesis's, so a test rebuilds the tracked table from the tracked sweep."""
    rows = []
    for s in summary:
        mean, over = THESIS[s["population"]]
        rows.append([s["population"], pm(s), f"{100 * s['fail_rate']:.2f}", s["worst_guesses"], f"{mean:.3f}",
                     f"{over:.1f}",
                     f"{s['mean'] - mean:+.3f}"])
    table = markdown_table(["population", "mean ± 95 % (3 seeds)", "% over 6", "worst", "thesis mean",
                            "thesis % over 6", "difference"], rows)
    return table + "\n"


def figures(spec: SweepSpec, summary: list[dict], folder: Path) -> dict[str, Plotted]:
    """The study's figure by file name, drawn into ``folder`` from the sweep alone (spec and
    ``summarize`` of population/), so tests/test_study_figures.py redraws it from the tracked sweep."""
    return {"population_lines.png": plot_lines(spec, summary, folder / "population_lines.png")}


def main() -> None:
    args = parse(parser(__doc__, "population_table"))
    spec, summary, out = run(args, "population", "ga-thesis",
                             {"population": list(THESIS), "mutation": [0.1]}, seeds=3,
                             settings=Settings(max_guesses=30))
    text = comparison(summary)
    write_text(args.results / "population" / "comparison.md", text)
    print(text, end="")
    figures(spec, summary, figures_folder(args))


if __name__ == "__main__":
    main()
