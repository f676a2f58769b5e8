"""The guess-count histogram of a bench (the thesis's Figure 5.1): bars per guess count,
mean guesses and fail rate in the title, solver, opener, seed, N and setting in the caption."""

from __future__ import annotations

from pathlib import Path

from ..wording import count
from .common import new_figure, save
from .style import FAILED, SOLVED, caption_text, styled


@styled
def plot_histogram(summary: dict, path: str | Path, title: str | None = None) -> Path:
    """Save a bar chart of ``summary["histogram"]`` (a ``BenchResult.summary()``) to ``path``.

    Bars within the win limit are bluish green, bars beyond it (failures count as the cap)
    vermillion, as in every figure of the package.
    """
    from matplotlib.patches import Patch

    hist = {int(k): v for k, v in summary["histogram"].items()}
    settings = summary.get("settings", {})
    boards = int(settings.get("boards", 1))
    win_limit = 6 if boards == 1 else boards + 5
    cap = int(settings.get("max_guesses", max(hist)))
    xs = list(range(1, max(cap, max(hist)) + 1))
    ys = [hist.get(x, 0) for x in xs]
    fig, (ax,) = new_figure(7, 4)
    bars = ax.bar(xs, ys, color=[SOLVED if x <= win_limit else FAILED for x in xs])
    ax.bar_label(bars, labels=[str(y) if y else "" for y in ys], fontsize=8)
    ax.set_xticks(xs)
    ax.set_xlabel("guesses (failures count as the cap; fewer is better)")
    ax.set_ylabel("games")
    ax.legend(handles=[Patch(color=SOLVED, label=f"solved within {win_limit}"),
                       Patch(color=FAILED, label=f"over {win_limit} (or not solved)")], loc="upper right")
    opener = settings.get("opener")
    head = title or f"{summary['solver']}" + (f" ({opener.upper()})" if opener else "")
    ax.set_title(f"{head}: mean {summary['mean_guesses']:.3f}, "
                 f"fail {100 * summary['fail_rate']:.2f} % over {win_limit}, {count(summary['games'], 'game')}")
    caption = caption_text(solver=summary["solver"], opener=opener or "chosen per game", seed=settings.get("seed"),
                           n=count(summary["games"], "game", fmt=","), settings=settings)
    return save(fig, path, {"histogram": hist}, caption).path
