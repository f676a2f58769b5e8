"""The guess-count histogram of a bench (the thesis's Figure 5.1): bars per guess count,
mean guesses and fail rate in the title."""

from __future__ import annotations

from pathlib import Path

from ..errors import OutputError


def plot_histogram(summary: dict, path: str | Path, title: str | None = None) -> Path:
    """Save a bar chart of ``summary["histogram"]`` (a ``BenchResult.summary()``) to ``path``.

    Bars beyond the win limit (failures count as the cap) are drawn in a second colour.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hist = {int(k): v for k, v in summary["histogram"].items()}
    settings = summary.get("settings", {})
    boards = int(settings.get("boards", 1))
    win_limit = 6 if boards == 1 else boards + 5
    cap = int(settings.get("max_guesses", max(hist)))
    xs = list(range(1, max(cap, max(hist)) + 1))
    ys = [hist.get(x, 0) for x in xs]
    colours = ["#6aaa64" if x <= win_limit else "#c9b458" for x in xs]
    fig, ax = plt.subplots(figsize=(7, 4))
    try:
        bars = ax.bar(xs, ys, color=colours)
        ax.bar_label(bars, labels=[str(y) if y else "" for y in ys], fontsize=8)
        ax.set_xticks(xs)
        ax.set_xlabel("guesses (failures count as the cap)")
        ax.set_ylabel("games")
        opener = settings.get("opener")
        head = title or f"{summary['solver']}" + (f" ({opener.upper()})" if opener else "")
        ax.set_title(
            f"{head}: mean {summary['mean_guesses']:.3f}, "
            f"fail {100 * summary['fail_rate']:.2f} % over {win_limit}, {summary['games']} games"
        )
        fig.tight_layout()
        path = Path(path)
        try:
            fig.savefig(path, dpi=120)
        except (OSError, ValueError) as exc:
            raise OutputError(f"cannot write plot {path}: {exc}") from None
    finally:
        plt.close(fig)
    return path
