"""The guess-count histogram of a bench (the thesis's Figure 5.1): bars per guess count,
mean guesses and fail rate in the title, solver, opener, seed, N and setting in the caption."""

from __future__ import annotations

from pathlib import Path

from ..wording import count, unit
from .common import Plotted, count_axis, new_figure, save
from .style import FAILED, SOLVED, caption_text, styled, won_within


@styled
def plot_histogram(summary: dict, path: str | Path, title: str | None = None, lists: str | None = None) -> Plotted:
    """Save a bar chart of ``summary["histogram"]`` (a ``BenchResult.summary()``, or the JSON
    ``bench --json`` prints) to ``path``; returns the :class:`~evo_wordle.plots.common.Plotted` figure.

    Bars within the win limit are bluish green, bars beyond it (failures count as the cap)
    vermillion, as in every figure of the package; with ``--max-guesses`` at or below the win
    limit the failures, scored as the cap, are the vermillion top of the cap's bar.
    """
    from matplotlib.patches import Patch

    hist = {int(k): v for k, v in summary["histogram"].items()}
    settings = summary.get("settings", {})
    win_limit, won, failed = won_within(settings)
    cap = int(settings.get("max_guesses", max(hist)))
    xs = list(range(1, max(cap, max(hist)) + 1))
    ys = [hist.get(x, 0) for x in xs]
    # With the cap at or below the win limit, the games not solved score the cap beside those
    # solved in as many guesses: that bar is split, its failures stacked in vermillion on top.
    unsolved = round(summary["fail_rate"] * summary["games"]) if cap <= win_limit else 0
    solved = [y - unsolved if x == cap else y for x, y in zip(xs, ys)]
    fig, (ax,) = new_figure(7, 4)
    ax.bar(xs, solved, color=[SOLVED if x <= win_limit else FAILED for x in xs])
    bars = ax.bar(xs, [unsolved if x == cap else 0 for x in xs], bottom=solved, color=FAILED)
    ax.bar_label(bars, labels=[str(y) if y else "" for y in ys], fontsize=8)
    ax.set_ylim(0, 1.1 * max(ys))  # room for the tallest bar's count under the title
    ax.set_xticks(xs)
    ax.set_xlabel("guesses (failures count as the cap; fewer is better)")
    one = unit(settings.get("boards", 1))  # "game", or "board set" on several boards
    ax.set_ylabel(f"{one}s")
    count_axis(ax.yaxis)
    ax.legend(handles=[Patch(color=SOLVED, label=won), Patch(color=FAILED, label=failed)], loc="best")
    opener = settings.get("opener")
    head = title or f"{summary['solver']}" + (f" ({opener.upper()})" if opener else "")
    ax.set_title(f"{head}: mean {summary['mean_guesses']:.3f}, "
                 f"fail {100 * summary['fail_rate']:.2f} % {failed.split(' (')[0]}, {count(summary['games'], one)}")
    caption = caption_text(solver=summary["solver"], opener=opener or "chosen per game", seed=settings.get("seed"),
                           n=_n(summary, settings, one), settings=settings, lists=lists)
    return save(fig, path, {"histogram": hist}, caption)


def _n(summary: dict, settings: dict, one: str) -> str:
    """N as games (board sets on several boards), or as runs × puzzles for ``--repeat`` ("N = 10
    games" of 5 puzzles played twice read as 10 puzzles)."""
    runs = int(settings.get("repeat") or 1)
    if runs > 1 and summary["games"] % runs == 0:
        return f"{runs} runs x {count(summary['games'] // runs, 'puzzle' if one == 'game' else one, fmt=',')}"
    return count(summary["games"], one, fmt=",")
