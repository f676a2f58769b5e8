"""Figures fit for a paper: one palette with fixed meanings, a caption with seed and N on every
figure, axes that say which way is better, error bars only from repeats, no hidden bands."""

from __future__ import annotations

import matplotlib.colors as mcolors
import numpy as np
import pytest

from evo_wordle.game import Settings
from evo_wordle.plots import style
from evo_wordle.plots.compare import compare_data, plot_histograms
from evo_wordle.plots.convergence import convergence_data, plot_convergence
from evo_wordle.plots.evolution import evolution_data, plot_evolution
from evo_wordle.plots.sweep import plot_lines
from evo_wordle.sweep import SweepSpec, load_sweep, run_sweep, summarize

PALETTE = {mcolors.to_hex(c) for c in (*style.OKABE_ITO.values(), style.NEUTRAL)}


def _caption(fig) -> str:
    texts = [t.get_text() for t in fig.texts]
    assert texts, "no caption"
    return texts[-1]


def _data_colours(fig) -> set[str]:
    out = set()
    for ax in fig.axes:
        for patch in ax.patches:
            out.add(mcolors.to_hex(patch.get_facecolor()))
        for line in ax.get_lines():
            if line.get_linestyle() not in ("None", ":"):
                out.add(mcolors.to_hex(line.get_color()))
    return out - {"#000000", "#808080", "#ffffff"}


def test_palette_has_fixed_meanings_and_no_yellow():
    assert style.OKABE_ITO["yellow"] not in style.SERIES
    assert style.SERIES[0] == style.STUDIED and style.SERIES[1] == style.BASELINE
    assert style.SOLVED not in style.SERIES and style.FAILED not in style.SERIES
    colours = style.solver_colours(["ga", "greedy", "naive"])
    assert colours["greedy"] == style.BASELINE and len(set(colours.values())) == 3
    assert style.setting_text(Settings().as_dict()) == "P0"
    assert style.setting_text(Settings(candidates="answers", hard=True).as_dict()) == "P1, hard mode"


def test_histograms_caption_colours_and_directions(ctx, tmp_path):
    data = compare_data(ctx, ["ga-thesis", "greedy"], Settings(), {"ga-thesis": {"population": 20}}, games=20,
                        seed=4)
    plotted = plot_histograms(data, tmp_path / "h.png")
    caption = _caption(plotted.figure)
    assert "seed 4" in caption and "N = 20 puzzles" in caption and "P0" in caption and "greedy TALES" in caption
    assert _data_colours(plotted.figure) <= PALETTE
    assert style.BASELINE.lower() in _data_colours(plotted.figure)  # greedy is the baseline colour
    labels = [ax.get_xlabel() + ax.get_ylabel() for ax in plotted.figure.axes]
    assert all("better" in text for text in labels)


def test_convergence_with_three_runs_draws_each_run_and_warns_about_fitness(ctx, tmp_path):
    data = convergence_data(ctx, "ga-thesis", Settings(), {"population": 20}, runs=3, games=10, seed=2)
    plotted = plot_convergence(data, tmp_path / "c.png")
    fig = plotted.figure
    candidates = fig.axes[0]
    run_lines = [ln for ln in candidates.get_lines() if ln.get_linewidth() < 1]
    assert len(run_lines) == 3  # every run visible, not a sliver of a 10-90 % band
    assert any("each of 3 runs" in t.get_text() for t in candidates.get_legend().get_texts())
    assert any("TALES" in t.get_text() for t in candidates.get_legend().get_texts())
    assert "NOT comparable" in fig.axes[2].get_xlabel()
    assert "seed 2" in _caption(fig) and "3 runs x 10 puzzles" in _caption(fig)
    assert _data_colours(fig) <= PALETTE


def test_evolution_has_a_colour_legend(ctx, tmp_path):
    data = evolution_data(ctx, "ga-thesis", Settings(), {"population": 20}, "merry", runs=6, seed=1)
    plotted = plot_evolution(data, tmp_path / "e.png")
    legend = [t.get_text() for t in plotted.figure.axes[0].get_legend().get_texts()]
    assert legend == ["solved within 6", "over 6 (or not solved)"]
    bars = plotted.figure.axes[0].patches
    for k, bar in zip(data["k"], bars):
        assert mcolors.to_hex(bar.get_facecolor()) == (style.SOLVED if k <= 6 else style.FAILED).lower()
    assert "seed 1" in _caption(plotted.figure) and "N = 6 runs on MERRY" in _caption(plotted.figure)


@pytest.fixture(scope="module")
def one_seed_sweep(tmp_path_factory, cache_dir):
    out = tmp_path_factory.mktemp("style") / "sweep"
    spec = SweepSpec(solver="ga-thesis", grid={"population": [5, 20], "mutation": [0.0, 0.3]}, seeds=1, games=10)
    run_sweep(spec, out, jobs=1)
    return out


def test_lines_draw_no_error_bars_from_one_seed_and_dodge_series(one_seed_sweep, tmp_path):
    spec, rows = load_sweep(one_seed_sweep)
    plotted = plot_lines(spec, summarize(spec, rows), tmp_path / "l.png")
    ax = plotted.figure.axes[0]
    assert not ax.containers  # one seed: the interval would come from games, not repeats
    xs = [tuple(np.round(line.get_xdata(), 6)) for line in ax.get_lines()]
    assert len(xs) == 2 and xs[0] != xs[1]  # the two series sit side by side, not on top
    assert "lower is better" in ax.get_ylabel()
    assert "1 seed x 10 answers" in _caption(plotted.figure)


def test_a_caption_names_word_lists_other_than_the_default(ctx, tmp_path):
    """Captions never named the word lists: a figure over a custom list read like one over the
    bundled allowed list and NYT answers.  Other lists are now named, with a sha256 prefix."""
    from evo_wordle import Context
    from evo_wordle.artefacts import list_digests
    from evo_wordle.words import load_words

    assert style.lists_text(ctx.words) is None and style.lists_text(load_words(None, "nyt")) is None
    original = load_words(None, "original")
    assert style.lists_text(original, None, "original") == (
        f"word lists: answers original (sha256 {list_digests(original)['answers_sha256'][:8]})")
    answers = list(ctx.words.answers[:40])
    allowed = sorted(set(answers) | set(ctx.words.allowed[:60]))
    (tmp_path / "mine.txt").write_text("\n".join(allowed) + "\n")
    (tmp_path / "picked.txt").write_text("\n".join(answers) + "\n")
    alone = load_words(str(tmp_path / "mine.txt"))
    digest = list_digests(alone)["allowed_sha256"][:8]
    assert style.lists_text(alone, str(tmp_path / "mine.txt")) == (
        f"word lists: allowed mine.txt (sha256 {digest}), answers: every allowed word")
    small = Context(allowed=str(tmp_path / "mine.txt"), answers=str(tmp_path / "picked.txt"))
    lists = (str(tmp_path / "mine.txt"), str(tmp_path / "picked.txt"))
    data = compare_data(small, ["greedy", "naive"], Settings(candidates="answers"), games=20, seed=1, lists=lists)
    caption = _caption(plot_histograms(data, tmp_path / "h.png").figure)
    picked = list_digests(small.words)["answers_sha256"][:8]
    assert f"word lists: allowed mine.txt (sha256 {digest}), answers picked.txt (sha256 {picked})" in caption
    data = evolution_data(small, "ga-thesis", Settings(candidates="answers"), {"population": 5}, answers[0], runs=3,
                          lists=lists)
    assert f"answers picked.txt (sha256 {picked})" in _caption(plot_evolution(data, tmp_path / "e.png").figure)


def test_histogram_with_a_cap_below_the_win_limit_draws_its_failures_as_failures(tmp_path, monkeypatch):
    """With --max-guesses 4 the games not solved score 4, the cap, and were drawn in the solved
    colour inside the cap's bar under a "solved within 6" legend."""
    import evo_wordle.plots.histogram as histogram

    drawn = []
    real = histogram.save
    monkeypatch.setattr(histogram, "save", lambda fig, *a, **k: drawn.append(fig) or real(fig, *a, **k))
    summary = {"solver": "greedy", "games": 50, "mean_guesses": 3.7, "fail_rate": 0.18, "histogram": {"3": 15, "4": 35},
               "settings": {"max_guesses": 4, "boards": 1, "candidates": "allowed"}}
    histogram.plot_histogram(summary, tmp_path / "h.png")
    ax = drawn[0].axes[0]
    bars = {(round(p.get_x() + p.get_width() / 2), mcolors.to_hex(p.get_facecolor())): p.get_height()
            for p in ax.patches if p.get_height()}
    green, red = mcolors.to_hex(style.SOLVED), mcolors.to_hex(style.FAILED)
    assert bars == {(3, green): 15, (4, green): 26, (4, red): 9}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["solved within 4 (the cap)", "not solved within 4"]
    assert "fail 18.00 % not solved within 4" in ax.get_title()


def test_histogram_of_repeated_runs_says_runs_x_puzzles(tmp_path, monkeypatch, cache_dir):
    """`bench --repeat 2 --games 5 --plot` captioned "N = 10 games": 5 puzzles played twice
    read as 10 puzzles."""
    import evo_wordle.plots.histogram as histogram
    from evo_wordle.cli import main

    captions = []
    real = histogram.save
    monkeypatch.setattr(histogram, "save", lambda fig, path, data, caption=None: captions.append(caption)
                        or real(fig, path, data, caption))
    bench = ["bench", "--solver", "random", "--games", "5", "--plot"]
    assert main([*bench, str(tmp_path / "r.png"), "--repeat", "2"]) == 0
    assert main([*bench, str(tmp_path / "o.png")]) == 0
    assert "N = 2 runs x 5 puzzles" in captions[0] and "N = 5 games" in captions[1]


def _whole_ticks(axis) -> list[float]:
    """The major tick values shown on ``axis`` (within its view)."""
    lo, hi = sorted(axis.get_view_interval())
    return [t for t in axis.get_majorticklocs() if lo - 1e-9 <= t <= hi + 1e-9]


def test_a_histogram_of_a_few_games_has_whole_game_ticks(tmp_path, monkeypatch):
    """Three games (one per bar) drew 0.2, 0.4, … games on the y axis."""
    import evo_wordle.plots.histogram as histogram

    drawn = []
    real = histogram.save
    monkeypatch.setattr(histogram, "save", lambda fig, *a, **k: drawn.append(fig) or real(fig, *a, **k))
    summary = {"solver": "greedy", "games": 3, "mean_guesses": 4.333, "fail_rate": 0.0,
               "histogram": {"3": 1, "4": 1, "6": 1}, "settings": {"max_guesses": 9, "boards": 1}}
    histogram.plot_histogram(summary, tmp_path / "h.png")
    drawn[0].canvas.draw()
    ticks = _whole_ticks(drawn[0].axes[0].yaxis)
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_count_axes_of_other_figures_have_whole_ticks(ctx, tmp_path):
    """The Logbook panel's generations (a game of a few guesses) count in whole numbers too."""
    data = convergence_data(ctx, "ga-thesis", Settings(candidates="answers"), {"population": 10},
                            answer="merry", runs=1, seed=0)
    plotted = plot_convergence(data, tmp_path / "c.png")
    plotted.figure.canvas.draw()
    ticks = _whole_ticks(plotted.figure.axes[2].xaxis)
    assert ticks and all(float(t).is_integer() for t in ticks)
