"""The thesis's mutation table (Figure 5.7) and the full population x mutation grid:
ga-thesis, populations 10-500 x mutation 0-0.4, all 2,309 answers, 3 seeds (90 benches).

    python experiments/mutation_table.py [--jobs 2] [--games K]

Writes (under --out DIR, default experiments/out/; with --write-docs the tracked
experiments/results/ and docs/figures/) mutation/{…, comparison.md} and docs/figures/mutation_heatmap.png,
docs/figures/mutation_lines.png.  Games are capped at 30 guesses (the thesis played until solved).
"""

from __future__ import annotations

from pathlib import Path

from _study import figures_folder, markdown_table, parse, parser, pm, run, write_text

from evo_wordle.game import Settings
from evo_wordle.plots.common import Plotted
from evo_wordle.plots.sweep import plot_heatmap, plot_lines
from evo_wordle.sweep import SweepSpec

#: Thesis Figure 5.7 at population 100: mutation -> (mean guesses, % over 6); mutation 0 "about 4.6".
THESIS = {0.0: (4.6, None), 0.1: (4.760, 8.3), 0.2: (4.852, 10.8), 0.3: (4.951, 13.2), 0.4: (5.086, 15.5)}
POPULATIONS = [10, 25, 50, 100, 250, 500]


def comparison(summary: list[dict]) -> str:
    """mutation/comparison.md from the sweep's summary (``summarize`` of mutation/): population 100's
    rows beside the thesis's, so a test rebuilds the tracked table from the tracked sweep."""
    rows = []
    for s in summary:
        if s["population"] != 100:
            continue
        mean, over = THESIS[s["mutation"]]
        rows.append([s["mutation"], pm(s), f"{100 * s['fail_rate']:.2f}", s["worst_guesses"], f"{mean:.3f}",
                     "-" if over is None else f"{over:.1f}", f"{s['mean'] - mean:+.3f}"])
    table = markdown_table(["mutation (N = 100)", "mean ± 95 % (3 seeds)", "% over 6", "worst", "thesis mean",
                            "thesis % over 6", "difference"], rows)
    return table + "\n"


def figures(spec: SweepSpec, summary: list[dict], folder: Path) -> dict[str, Plotted]:
    """The study's figures by file name, drawn into ``folder`` from the sweep alone (spec and
    ``summarize`` of mutation/), so tests/test_study_figures.py redraws them from the tracked sweep."""
    return {"mutation_heatmap.png": plot_heatmap(spec, summary, folder / "mutation_heatmap.png"),
            "mutation_lines.png": plot_lines(spec, summary, folder / "mutation_lines.png")}


def main() -> None:
    args = parse(parser(__doc__, "mutation_table"))
    spec, summary, out = run(args, "mutation", "ga-thesis",
                             {"population": POPULATIONS, "mutation": list(THESIS)}, seeds=3,
                             settings=Settings(max_guesses=30))
    text = comparison(summary)
    write_text(args.results / "mutation" / "comparison.md", text)
    print(text, end="")
    figures(spec, summary, figures_folder(args))


if __name__ == "__main__":
    main()
