"""Plot commands write real images, and the numbers handed to matplotlib are the data's."""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
import pytest

from evo_wordle.bench import run_bench
from evo_wordle.cli import main
from evo_wordle.errors import EvoWordleError
from evo_wordle.game import GameState, Settings
from evo_wordle.plots.compare import compare_data, plot_histograms
from evo_wordle.plots.convergence import convergence_data, plot_convergence
from evo_wordle.plots.evolution import evolution_data, plot_evolution
from evo_wordle.plots.sweep import plot_heatmap, plot_lines
from evo_wordle.sweep import SweepSpec, load_sweep, restrict, run_sweep, summarize

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory, cache_dir):
    """ga-thesis, population 5,20 x mutation 0,0.3, 2 seeds, 20 games."""
    out = tmp_path_factory.mktemp("plots") / "sweep"
    spec = SweepSpec(solver="ga-thesis", grid={"population": [5, 20], "mutation": [0.0, 0.3]}, seeds=2, games=20)
    run_sweep(spec, out, jobs=2)
    return out


def csv_means(out) -> dict:
    """Mean of the per-seed means and mean fail rate per (population, mutation), straight from the CSV."""
    groups: dict = {}
    with open(out / "results.csv", newline="") as fh:
        for r in csv.DictReader(fh):
            groups.setdefault((int(r["population"]), float(r["mutation"])), []).append(
                (float(r["mean"]), float(r["fail_rate"])))
    return {k: (np.mean([m for m, _ in v]), np.mean([f for _, f in v]), len(v)) for k, v in groups.items()}


def is_image(path) -> bool:
    data = path.read_bytes()
    return len(data) > 1000 and (data.startswith(PNG) or b"<svg" in data[:500])


def test_heatmap_matches_csv(sweep_dir, tmp_path):
    out = tmp_path / "heat.png"
    assert main(["plot", "heatmap", str(sweep_dir), "--out", str(out)]) == 0
    assert is_image(out)
    spec, rows = load_sweep(sweep_dir)
    plotted = plot_heatmap(spec, summarize(spec, rows), tmp_path / "heat.svg")
    assert is_image(plotted.path)
    expected = csv_means(sweep_dir)
    shown = np.asarray(plotted.figure.axes[0].images[0].get_array())  # what imshow received
    assert plotted.data["x_values"] == [5, 20] and plotted.data["y_values"] == [0.0, 0.3]
    for r, mut in enumerate([0.0, 0.3]):
        for c, pop in enumerate([5, 20]):
            mean, fail, n = expected[(pop, mut)]
            assert n == 2
            assert shown[r, c] == pytest.approx(mean)
            assert plotted.data["fail_rate"][r, c] == pytest.approx(fail)
    texts = [t.get_text() for t in plotted.figure.axes[0].texts]
    mean, fail, _ = expected[(20, 0.3)]
    assert f"{mean:.3f}\n{100 * fail:.1f} %" in texts


def test_figures_of_an_unfinished_sweep_do_not_claim_every_seed(sweep_dir, tmp_path):
    """A heatmap of a sweep stopped part-way said "2 seeds × 20 games" in its title and caption while
    a cell held one seed (and a population had no cell at all); it now says 1-2 of 2, unfinished.
    Its long title, cut at both ends on a one-column heatmap, is wrapped to the figure's width."""
    spec, rows = load_sweep(sweep_dir)
    summary = summarize(spec, rows)
    full = plot_heatmap(spec, summary, tmp_path / "full.png")
    assert "2 seeds × 20 games" in full.figure.axes[0].get_title().replace("\n", " ")
    assert "unfinished" not in full.data["caption"]
    part = [r for r in rows if r["population"] == 20][:3]  # population 5 missing, one cell with one seed
    plotted = plot_heatmap(spec, summarize(spec, part), tmp_path / "part.png")
    title = plotted.figure.axes[0].get_title().replace("\n", " ")
    assert "1-2 of 2 seeds (unfinished sweep)" in title and "2 seeds ×" not in title
    assert "N = 1-2 of 2 seeds (unfinished sweep)" in plotted.data["caption"]
    width = plotted.figure.get_figwidth() * 72 / 6  # characters of a 12 pt title that fit, roughly
    assert all(len(line) <= width for line in plotted.figure.axes[0].get_title().splitlines())
    lines = plot_lines(spec, summarize(spec, part), tmp_path / "lines.png", hue="mutation")
    assert "unfinished sweep" in lines.data["caption"]


def _frames(ax) -> dict:
    """The cell frames drawn on a heatmap: (row, column) → line style, from the Rectangles."""
    from matplotlib.patches import Rectangle

    return {(round(p.get_y() + p.get_height() / 2), round(p.get_x() + p.get_width() / 2)): p.get_linestyle()
            for p in ax.patches if isinstance(p, Rectangle) and not p.get_fill()}


def test_heatmap_marks_and_names_the_reports_best_cell(sweep_dir, tmp_path):
    """The heatmap marked no best cell: the reader had to compare the printed means.  The
    report's best (lowest mean) is now framed and named in the caption."""
    from evo_wordle.sweep import best_config

    spec, rows = load_sweep(sweep_dir)
    summary = summarize(spec, rows)
    best = best_config(summary)
    plotted = plot_heatmap(spec, summary, tmp_path / "heat.png")

    def cell(s: dict) -> tuple[int, int]:
        return [0.0, 0.3].index(s["mutation"]), [5, 20].index(s["population"])

    tied = [cell(s) for s in summary if s is not best and s["mean"] == best["mean"]]  # 20 games: ties happen
    assert plotted.data["best"] == cell(best) and plotted.data["tied"] == tied
    assert _frames(plotted.figure.axes[0]) == {cell(best): "-", **dict.fromkeys(tied, "--")}
    assert (f"outlined: the best cell, population={best['population']}, mutation={best['mutation']} "
            f"(lowest mean, {best['mean']:.3f} guesses)") in plotted.data["caption"]
    assert ("tied on the mean" in plotted.data["caption"]) == bool(tied)


def test_heatmap_says_when_cells_tie_on_the_best_mean(tmp_path):
    """Equal means: the report's rule (lower fail rate, then grid order) picks the framed cell;
    the tied cells are framed dashed and the caption says it is a tie."""
    spec = SweepSpec("ga-thesis", {"population": [10, 50], "mutation": [0.0, 0.1]}, seeds=2, games=30)
    cells = {(10, 0.0): (4.7, 0.07), (50, 0.0): (4.65, 0.06), (10, 0.1): (4.65, 0.05), (50, 0.1): (4.8, 0.08)}
    summary = [{"population": p, "mutation": m, "seeds": 2, "games": 60, "mean": mean, "ci95": 0.05,
                "ci_basis": "seeds", "fail_rate": fail, "win_rate": 1 - fail, "worst_guesses": 9, "seconds": 1.0}
               for (p, m), (mean, fail) in cells.items()]
    plotted = plot_heatmap(spec, summary, tmp_path / "tie.png")
    assert plotted.data["best"] == (1, 0) and plotted.data["tied"] == [(0, 1)]
    assert _frames(plotted.figure.axes[0]) == {(1, 0): "-", (0, 1): "--"}
    assert ("outlined: the best cell, population=10, mutation=0.1 (lowest mean, 4.650 guesses); tied on the "
            "mean: [population=50, mutation=0.0] (dashed), best by its lower fail rate as in the report"
            ) in plotted.data["caption"].replace("\n", " ")


def test_lines_match_csv(sweep_dir, tmp_path):
    out = tmp_path / "lines.svg"
    assert main(["plot", "lines", str(sweep_dir), "--out", str(out)]) == 0
    assert is_image(out)
    spec, rows = load_sweep(sweep_dir)
    plotted = plot_lines(spec, summarize(spec, rows), tmp_path / "lines.png")
    expected = csv_means(sweep_dir)
    ax = plotted.figure.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["mutation 0.0", "mutation 0.3"]
    for series, mut in zip(plotted.data["series"], [0.0, 0.3]):
        assert series["x"] == [5, 20]
        assert series["mean"] == pytest.approx([expected[(5, mut)][0], expected[(20, mut)][0]])
        seeds = {}
        for r in rows:
            if r["mutation"] == mut:
                seeds.setdefault(r["population"], []).append(r["mean"])
        half = [12.706 * np.std(seeds[p], ddof=1) / np.sqrt(2) for p in (5, 20)]
        assert series["ci95"] == pytest.approx(half)
    plotted_y = [np.asarray(line.get_ydata(), dtype=float) for line in ax.lines]
    for series in plotted.data["series"]:  # each mean line was handed to matplotlib as such
        assert any(len(y) == 2 and np.allclose(y, series["mean"]) for y in plotted_y)


def remaining(ctx, settings, answer, guesses) -> list[int]:
    """Candidates left before and after each guess, by direct filtering (independent of trace())."""
    cand = GameState.start(ctx, settings).candidates
    out = [len(cand)]
    for g in guesses:
        if g == answer:
            out.append(1)
            break
        cand = cand[ctx.table[g, cand] == ctx.table[g, answer]]
        out.append(len(cand))
    return out


def test_convergence_one_puzzle(ctx, tmp_path):
    settings = Settings(candidates="answers")
    idx = ctx.words.index("merry")
    data = convergence_data(ctx, "ga-thesis", settings, {"population": 20}, answer="merry", runs=6, seed=3)
    plotted = plot_convergence(data, tmp_path / "conv.png")
    assert is_image(plotted.path)
    # Same games as the bench with the same seed.
    bench = run_bench(ctx, "ga-thesis", settings, np.full(6, idx), seed=3, solver_params={"population": 20})
    length = data["runs"].shape[1]
    for run, rec in zip(data["runs"], bench.records):
        counts = remaining(ctx, settings, idx, rec.guesses)
        counts += [counts[-1]] * (length - len(counts))
        assert np.allclose(2.0 ** run, counts)
    greedy = run_bench(ctx, "greedy", settings, [idx]).records[0]
    base = remaining(ctx, settings, idx, greedy.guesses)
    assert np.allclose(data["baseline_candidates"][: len(base)], base)
    ax_cand = plotted.figure.axes[0]
    ydata = [np.asarray(line.get_ydata()) for line in ax_cand.lines]
    assert any(np.allclose(y, np.median(2.0 ** data["runs"], axis=0)) for y in ydata)
    assert any(np.allclose(y, data["baseline_candidates"]) for y in ydata)
    assert ax_cand.get_yscale() == "log"
    # Logbook panel: one point per generation, best >= mean.
    fit = data["fitness"]
    assert fit is not None and np.all(fit["best"] >= fit["mean"])
    assert sum(fit["n"]) == sum(len(r.guesses) for r in bench.records)


def test_convergence_all_puzzles_cli(tmp_path, cache_dir):
    out = tmp_path / "all.png"
    assert main(["plot", "convergence", "--solver", "ga-thesis", "--population", "10", "--games", "15",
                 "--runs", "2", "--candidates", "answers", "--out", str(out)]) == 0
    assert is_image(out)


def test_histograms_match_benches(ctx, tmp_path):
    settings = Settings(candidates="answers")
    data = compare_data(ctx, ["greedy", "naive"], settings, games=40, seed=1)
    plotted = plot_histograms(data, tmp_path / "hist.png")
    assert is_image(plotted.path)
    left = plotted.figure.axes[0]
    heights = [p.get_height() for p in left.patches]
    for i, name in enumerate(["greedy", "naive"]):
        res = run_bench(ctx, name, settings, games=40, seed=1)  # `compare --seed 1 --games 40`
        hist = {int(k): v for k, v in res.histogram.items()}
        share = [100 * hist.get(k, 0) / 40 for k in data["k"]]
        assert heights[i * len(data["k"]):(i + 1) * len(data["k"])] == pytest.approx(share)
        within = [100 * sum(r.solved and len(r.guesses) <= k for r in res.records) / 40 for k in data["k"]]
        assert plotted.figure.axes[1].lines[i].get_ydata() == pytest.approx(within)
        assert data[name]["mean"] == pytest.approx(res.mean_guesses)


def test_histograms_cli(tmp_path, cache_dir):
    out = tmp_path / "h.svg"
    assert main(["plot", "histograms", "--solvers", "ga-thesis,greedy", "--population", "10", "--candidates",
                 "answers", "--games", "20", "--out", str(out)]) == 0
    assert is_image(out)


def test_evolution_matches_games(ctx, tmp_path):
    settings = Settings(candidates="answers")
    data = evolution_data(ctx, "ga-thesis", settings, {"population": 10}, "merry", runs=30, seed=2)
    plotted = plot_evolution(data, tmp_path / "evo.png", top=5)
    assert is_image(plotted.path)
    idx = ctx.words.index("merry")
    res = run_bench(ctx, "ga-thesis", settings, np.full(30, idx), seed=2, solver_params={"population": 10})
    hist = {int(k): v for k, v in res.histogram.items()}
    assert data["counts"] == [hist.get(k, 0) for k in data["k"]]
    assert [p.get_height() for p in plotted.figure.axes[0].patches] == data["counts"]
    seqs = Counter(tuple(ctx.words.allowed[g].upper() for g in r.guesses) for r in res.records)
    if plotted.data["shown_kind"] == "endings":
        assert max(seqs.values()) == 1
        seqs = Counter(seq[-3:] for seq in seqs.elements())
    for seq, n in plotted.data["shown"]:
        assert seqs[seq] == n
    assert plotted.data["shown"][0][1] == max(seqs.values())
    widths = [p.get_width() for p in plotted.figure.axes[1].patches]
    assert widths == [n for _, n in plotted.data["shown"]][::-1]
    out = tmp_path / "evo.svg"
    assert main(["plot", "evolution", "--solver", "ga-thesis", "--answer", "merry", "--runs", "10",
                 "--out", str(out)]) == 0
    assert is_image(out)


def test_bad_plot_input_is_one_line(sweep_dir, tmp_path, capsys):
    assert main(["plot", "heatmap", str(sweep_dir), "--out", str(tmp_path / "x.jpg")]) == 2
    assert "--out must end in" in capsys.readouterr().err
    assert main(["plot", "heatmap", str(sweep_dir), "--x", "elite", "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no parameter 'elite'" in err


def test_lines_put_numbers_in_order_when_ints_and_floats_mix(tmp_path, cache_dir):
    """`--mutation 0,0.1,0.3` parses to an int and floats: the axis was sorted by type name, so
    0.1 and 0.3 stood left of 0 and the line zig-zagged back to it."""
    spec = SweepSpec(solver="ga-thesis", grid={"population": [5], "mutation": [0, 0.1, 0.3]}, seeds=1, games=5)
    run_sweep(spec, tmp_path / "s", jobs=1)
    spec, rows = load_sweep(tmp_path / "s")
    plotted = plot_lines(spec, summarize(spec, rows), tmp_path / "lines.png", x="mutation", hue="population")
    ax = plotted.figure.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "0.1", "0.3"]
    assert list(ax.get_xticks()) == pytest.approx([0, 0.1, 0.3])  # a linear axis of the values themselves
    (xs,) = [np.asarray(line.get_xdata(), dtype=float) for line in ax.lines if len(line.get_xdata()) == 3]
    assert list(xs) == pytest.approx([0, 0.1, 0.3]) and (np.diff(xs) > 0).all()


def test_a_point_without_an_interval_draws_no_error_bar(tmp_path):
    """A series with a point of one seed beside points of two: the point without an interval got a
    yerr of 0, and matplotlib drew its two caps on the mean, a bar that read as "± 0" (known
    exactly).  It now draws nothing there, as the docstring promises; nor at a point of two seeds
    whose interval is over one bench's games (seeds that were copies: summarize's ci_basis "games"),
    which the axis would have called an interval over seeds."""
    spec = SweepSpec("ga-thesis", {"population": [10, 50, 100, 250], "mutation": [0.0]}, seeds=2, games=30)
    rows = [(10, 2, 0.05, "seeds"), (50, 1, 0.2, "games"), (100, 2, 0.08, "seeds"), (250, 2, 0.3, "games")]
    summary = [{"population": p, "mutation": 0.0, "seeds": n, "games": 30 * n, "mean": 4.6 + p / 1000, "ci95": ci,
                "ci_basis": basis, "fail_rate": 0.05, "win_rate": 0.95, "worst_guesses": 9, "seconds": 1.0}
               for p, n, ci, basis in rows]
    plotted = plot_lines(spec, summary, tmp_path / "lines.png", hue="mutation")
    (bars,) = plotted.figure.axes[0].containers
    _, caps, (ranges,) = bars.lines
    spans = sorted((round(float(a[0, 1]), 6), round(float(a[1, 1]), 6)) for a in ranges.get_segments() if len(a))
    assert spans == [(4.56, 4.66), (4.62, 4.78)]  # 10 ± 0.05 and 100 ± 0.08; nothing at 50 or 250
    drawn = [y for cap in caps for y in np.asarray(cap.get_ydata(), dtype=float) if np.isfinite(y)]
    assert sorted(round(y, 6) for y in drawn) == [4.56, 4.62, 4.66, 4.78]  # no cap at 50's mean, 4.65
    assert plotted.data["series"][0]["ci_basis"] == ["seeds", "games", "seeds", "games"]


@pytest.fixture(scope="module")
def capped_dir(tmp_path_factory, cache_dir):
    """greedy, max_guesses 3,6 x hard off/on, 1 seed, 8 games: a sweep over the guess cap."""
    out = tmp_path_factory.mktemp("plots") / "capped"
    run_sweep(SweepSpec(solver="greedy", grid={"max_guesses": [3, 6], "hard": [False, True]}, seeds=1, games=8),
              out, jobs=1)
    return out


def test_sweep_figures_do_not_rank_guess_caps_against_each_other(capped_dir, tmp_path, capsys):
    """A heatmap or line plot with the guess cap on an axis shaded (or drew) the lower cap as better:
    a failed game scores the cap, so a lower cap lowers the mean by itself.  Such a figure is now
    refused in one line that says why and how to draw one cap (--where max_guesses=N)."""
    refused = [["heatmap", "--x", "hard", "--y", "max_guesses"], ["heatmap", "--x", "max_guesses", "--y", "hard"],
               ["lines", "--x", "hard", "--hue", "max_guesses"], ["lines", "--x", "max_guesses", "--hue", "hard"]]
    for args in refused:
        assert main(["plot", args[0], str(capped_dir), *args[1:], "--out", str(tmp_path / "x.png")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "different max_guesses (3, 6)" in err and "--where max_guesses=" in err
        assert not (tmp_path / "x.png").exists()
    spec, rows = load_sweep(capped_dir)
    with pytest.raises(EvoWordleError, match="a lower cap lowers the mean"):
        plot_lines(spec, summarize(spec, rows), tmp_path / "x.png", x="hard", hue="max_guesses")
    # the cap not drawn but varied: the third-key refusal now says how to pick one value
    assert main(["plot", "lines", str(capped_dir), "--x", "hard", "--out", str(tmp_path / "x.png")]) == 2
    assert "also varies max_guesses (plot one value of it, e.g. --where max_guesses=3" in capsys.readouterr().err


def test_plot_where_draws_one_cap_of_a_sweep(capped_dir, tmp_path, capsys):
    """--where max_guesses=3 draws that cap's configurations only, and the caption names the cap."""
    out = tmp_path / "cap3.png"
    assert main(["plot", "lines", str(capped_dir), "--x", "hard", "--where", "max_guesses=3", "--out", str(out)]) == 0
    assert is_image(out)
    spec, rows = load_sweep(capped_dir)
    spec3, summary3 = restrict(spec, summarize(spec, rows), {"max_guesses": 3})
    assert spec3.grid == {"max_guesses": [3], "hard": [False, True]} and spec.grid["max_guesses"] == [3, 6]
    by_hard = {r["hard"]: r["mean"] for r in summarize(spec, rows) if r["max_guesses"] == 3}
    plotted = plot_lines(spec3, summary3, tmp_path / "cap3.svg", x="hard")
    (series,) = plotted.data["series"]
    assert series["x"] == [False, True] and series["mean"] == pytest.approx([by_hard[False], by_hard[True]])
    assert "cap 3" in plotted.data["caption"]
    heat = plot_heatmap(*restrict(spec, summarize(spec, rows), {"max_guesses": 6}), tmp_path / "cap6.png",
                        x="hard", y="max_guesses")
    assert heat.data["y_values"] == [6] and "cap 6" in heat.data["caption"]
    for bad, said in [("max_guesses=5", "the sweep's max_guesses is 3, 6"), ("max_guesses=3,6", "one value per key"),
                      ("elite=2", "no parameter 'elite'"), ("max_guesses", "one value per key")]:
        assert main(["plot", "heatmap", str(capped_dir), "--where", bad, "--out", str(tmp_path / "y.png")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err


def _drawn(fig) -> list:
    """Every number and text a figure draws, axes by axes (lines, patches, bands, texts)."""
    out = []
    for ax in fig.axes:
        out.append([line.get_xydata().tolist() for line in ax.get_lines()])
        out.append([(p.get_x(), p.get_y(), p.get_width(), p.get_height()) for p in ax.patches if hasattr(p, "get_x")])
        out.append([c.get_paths()[0].vertices.tolist() for c in ax.collections if c.get_paths()])
        out.append([t.get_text() for t in (*ax.texts, *ax.get_xticklabels(), *ax.get_yticklabels())])
        out.append([t.get_text() for t in ax.get_legend().get_texts()] if ax.get_legend() else None)
        out.append((ax.get_title(), ax.get_xlabel(), ax.get_ylabel()))
    return [*out, [t.get_text() for t in fig.texts]]


@pytest.mark.parametrize("kind", ["convergence-band", "convergence-runs", "histograms", "evolution"])
def test_a_figure_drawn_from_its_saved_json_is_the_same_figure(kind, ctx, tmp_path):
    """experiments/convergence.py keeps each figure's data as JSON (plots.common.as_json) and the
    figure tests redraw it from there: plot_histograms multiplied the saved shares, then plain
    lists, by 100 (a list repeated 100 times, not percentages)."""
    import json

    from evo_wordle.plots.common import as_json

    settings = Settings(candidates="answers")
    if kind.startswith("convergence"):
        runs = 6 if kind == "convergence-band" else 2  # a band from 5 runs, each run's line below
        data = convergence_data(ctx, "ga-thesis", settings, {"population": 10}, answer="merry", runs=runs, seed=1)
        plot = plot_convergence
    elif kind == "histograms":
        data, plot = compare_data(ctx, ["greedy", "naive"], settings, games=20, seed=1), plot_histograms
    else:
        data, plot = evolution_data(ctx, "ga-thesis", settings, {"population": 10}, "merry", runs=12, seed=1), \
            plot_evolution
    saved = json.loads(json.dumps(as_json(data)))
    assert _drawn(plot(saved, tmp_path / "saved.png").figure) == _drawn(plot(data, tmp_path / "data.png").figure)


def test_a_caption_never_breaks_between_a_label_and_its_number(tmp_path):
    """textwrap broke a 7-inch figure's caption as "... hard mode, cap" / "5 · word lists ...": the
    cap and its number on two lines.  Lines now break between the caption's items (a too-long item
    inside, but never before a number or "=" nor after "=")."""
    import re

    from evo_wordle.plots.histogram import plot_histogram
    from evo_wordle.plots.style import caption_lines

    settings = {"candidates": "answers", "guess_from": "allowed", "hard": True, "max_guesses": 5, "seed": 0,
                "opener": "tales"}
    summary = {"solver": "ga-thesis", "games": 2309, "mean_guesses": 3.9, "fail_rate": 0.01,
               "histogram": {"2": 100, "3": 900, "4": 1000, "5": 309}, "settings": settings}
    plotted = plot_histogram(summary, tmp_path / "h.png", lists="word lists: allowed my-allowed-list.txt "
                             "(sha256 0123abcd)")
    drawn = plotted.figure.texts[-1].get_text().split("\n")
    assert " ".join(drawn) == plotted.data["caption"]  # every word drawn, in order, each item whole
    assert "answer from answers, guesses from allowed, hard mode, cap 5 ·" in drawn
    for k in range(1, 112):  # every place a long first item can push the rest to
        text = "x" * k + " · opener TALES · seed 0 · N = 2,309 games · P0, cap 5 · " + "a long item " * 12 + "cap 7"
        for width in (40, 64, 112):
            lines = caption_lines(text, width if k <= width else 112)
            assert " ".join(lines) == text
            for line in lines:
                assert not re.search(r"(cap|seed|=)$", line) and not re.match(r"[\d=·]", line), (k, width, lines)
