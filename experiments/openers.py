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

import numpy as np
from _study import figure, markdown_table, parse, parser, run

from evo_wordle import Context
from evo_wordle.plots.common import COLOURS, new_figure, save

THESIS_GREEDY = {"rates": 3.842, "tales": 3.773}


def top_naive_starters(ctx: Context, n: int = 10) -> list[str]:
    """The ``n`` words of most entropy over all allowed words (naive's P0 openers)."""
    bits = ctx.entropy(ctx.all_words)
    order = np.lexsort((ctx.all_words, -bits))[:n]
    return [ctx.words.allowed[i] for i in order]


def main() -> None:
    args = parse(parser(__doc__, "openers"))
    ctx = Context()
    top = top_naive_starters(ctx)
    openers = ["rates", "tales", *[w for w in top if w not in THESIS_GREEDY]]
    results = {}
    for solver in ("greedy", "naive"):
        _, summary, _ = run(args, f"openers-{solver}", solver, {"opener": openers}, seeds=1)
        results[solver] = {s["opener"]: s for s in summary}
    bits = dict(zip(openers, ctx.entropy(openers)))
    rows = []
    for w in openers:
        g, n = results["greedy"][w], results["naive"][w]
        rank = top.index(w) + 1 if w in top else "-"
        thesis = f"{THESIS_GREEDY[w]:.3f}" if w in THESIS_GREEDY else "-"
        rows.append([w.upper(), rank, f"{bits[w]:.4f}", f"{g['mean']:.4f}", f"{100 * g['fail_rate']:.2f}", thesis,
                     f"{n['mean']:.4f}", f"{100 * n['fail_rate']:.2f}"])
    table = markdown_table(["opener", "entropy rank", "bits (P0)", "greedy mean", "greedy % over 6",
                            "thesis greedy", "naive mean", "naive % over 6"], rows)
    (args.results / "openers.md").write_text(table + "\n")
    print(table)
    fig, (ax,) = new_figure(9, 4.2)
    x = np.arange(len(openers))
    for i, solver in enumerate(("greedy", "naive")):
        ax.bar(x + (i - 0.5) * 0.4, [results[solver][w]["mean"] for w in openers], width=0.4,
               color=COLOURS[i + 1 if i else 1], label=solver)
    ax.set_xticks(x, [w.upper() for w in openers], rotation=45)
    lo = min(results[s][w]["mean"] for s in results for w in openers)
    ax.set_ylim(lo - 0.15, None)
    ax.set_ylabel("mean guesses (2,309 answers, P0)" if not args.games else f"mean guesses ({args.games} answers)")
    ax.set_title("Openers: greedy (priority x entropy) and naive (max entropy)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    save(fig, figure(args, "openers.png"), {s: {w: results[s][w]["mean"] for w in openers} for s in results})


if __name__ == "__main__":
    main()
