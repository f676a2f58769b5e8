"""The greedy opener comparison: greedy with RATES vs TALES (the thesis: 3.842 vs 3.773) and
with each of the ten best naive (maximum-entropy) starters, and naive with the same openers.
P0 (any allowed word may be the answer, guesses from the candidates), all 2,309 answers.
Both solvers are deterministic, so one seed suffices.

    python experiments/openers.py [--jobs 2]

Writes (under --out DIR, default experiments/out/; with --write-docs the tracked
experiments/results/ and docs/figures/) openers-greedy/, openers-naive/, openers.md and
docs/figures/openers.png.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from _study import either, figure, markdown_table, parse, parser, run, write_text

from evo_wordle import Context
from evo_wordle.plots import style
from evo_wordle.plots.common import Plotted, new_figure, save
from evo_wordle.solvers.base import BASELINE_OPENER
from evo_wordle.sweep import SweepSpec

THESIS_GREEDY = {"rates": 3.842, "tales": 3.773}


def top_naive_starters(ctx: Context, n: int = 10) -> list[str]:
    """The ``n`` words of most entropy over all allowed words (naive's P0 openers)."""
    bits = ctx.entropy(ctx.all_words)
    order = np.lexsort((ctx.all_words, -bits))[:n]
    return [ctx.words.allowed[i] for i in order]


def comparison(results: dict[str, dict[str, dict]], openers: list[str], top: list[str],
               bits: dict[str, float]) -> str:
    """openers.md from each solver's sweep summary by opener (``summarize`` of openers-SOLVER/), the
    naive ranking ``top`` and each opener's P0 bits, so a test rebuilds the tracked table from the
    tracked sweeps (the bits and ranks come from the word lists, not from a game)."""
    rows = []
    for w in openers:
        g, n = results["greedy"][w], results["naive"][w]
        rank = top.index(w) + 1 if w in top else "-"
        thesis = f"{THESIS_GREEDY[w]:.3f}" if w in THESIS_GREEDY else "-"
        rows.append([w.upper(), rank, f"{bits[w]:.4f}", f"{g['mean']:.4f}", f"{100 * g['fail_rate']:.2f}", thesis,
                     f"{n['mean']:.4f}", f"{100 * n['fail_rate']:.2f}"])
    table = markdown_table(["opener", "entropy rank", "bits (P0)", "greedy mean", "greedy % over 6",
                            "thesis greedy", "naive mean", "naive % over 6"], rows)
    return table + "\n"


def main() -> None:
    args = parse(parser(__doc__, "openers"))
    ctx = Context()
    top = top_naive_starters(ctx)
    openers = ["rates", "tales", *[w for w in top if w not in THESIS_GREEDY]]
    results, specs = {}, {}
    for solver in ("greedy", "naive"):
        specs[solver], summary, _ = run(args, f"openers-{solver}", solver, {"opener": openers}, seeds=1)
        results[solver] = {s["opener"]: s for s in summary}
    text = comparison(results, openers, top, dict(zip(openers, ctx.entropy(openers))))
    write_text(args.results / "openers.md", text)
    print(text, end="")
    plot_openers(results, specs, openers, figure(args, "openers.png"))


@style.styled
def plot_openers(results: dict[str, dict[str, dict]], specs: dict[str, SweepSpec], openers: list[str],
                 path: Path) -> Plotted:
    """openers.png from each solver's sweep summary by opener (as :func:`comparison` takes them)
    and its sweep spec: mean guesses per opener (left) and the difference to the same solver with
    the baseline opener (right); seed and N in the caption as the sweeps record them, so
    tests/test_study_figures.py redraws it from the tracked sweeps."""
    fig, (ax, dx) = new_figure(12, 4.6, ncols=2)
    x = np.arange(len(openers))
    colours = style.solver_colours(["greedy", "naive"])
    base = BASELINE_OPENER
    for i, solver in enumerate(("greedy", "naive")):
        means = np.array([results[solver][w]["mean"] for w in openers])
        ax.bar(x + (i - 0.5) * 0.4, means, width=0.4, color=colours[solver], label=solver)
        diff = means - results[solver][base]["mean"]
        dx.bar(x + (i - 0.5) * 0.4, diff, width=0.4, color=colours[solver], label=solver)
    for a in (ax, dx):
        a.set_xticks(x, [w.upper() for w in openers], rotation=45)
        a.grid(axis="x", visible=False)
    ax.set_ylim(0, None)  # bars from zero; the differences are the right panel, not a cut axis
    ax.set_ylabel("mean guesses (lower is better)")
    ax.set_title("Mean guesses per opener (axis from 0; colours as on the right)")
    dx.axhline(0, color="black", linewidth=0.8)
    dx.set_ylabel(f"mean guesses minus the same solver with {base.upper()}\n(below 0: better than {base.upper()})")
    dx.set_title(f"Difference to the baseline opener {base.upper()}")
    dx.legend(loc="upper left")
    seeds = {s["seeds"] for r in results.values() for s in r.values()}
    games = {s["games_per_seed"] for r in results.values() for s in r.values()}
    base_seeds = {spec.base_seed for spec in specs.values()}
    runs = "one run each" if seeds == {1} else f"{either(seeds)} runs each"
    seed = f"{either(base_seeds)} (both solvers deterministic: {runs})"
    caption = style.caption_text(seed=seed,
                                 n=f"{either(games)} answers per opener",
                                 settings=next(iter(specs.values())).settings,
                                 extra="greedy = priority x entropy, naive = max entropy")
    return save(fig, path, {s: {w: results[s][w]["mean"] for w in openers} for s in results}, caption)


if __name__ == "__main__":
    main()
