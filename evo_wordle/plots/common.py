"""Shared plotting helpers: figures without pyplot (no global backend state), checked output paths.

Every plot function in this package returns a :class:`Plotted` holding the figure and the
exact numbers handed to matplotlib, so tests and users can check a figure against its data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OutputError
from ..outputs import IMAGE_FORMATS, check_file
from .style import SERIES, add_caption

FORMATS = IMAGE_FORMATS
#: The series colours of :mod:`evo_wordle.plots.style` (studied solver first, baseline second).
COLOURS = SERIES


@dataclass
class Plotted:
    """A saved figure and the data drawn on it (keys documented by each plot function)."""

    path: Path
    figure: object = field(repr=False)
    data: dict


def check_output(path: str | Path) -> Path:
    """An image path with a known extension in an existing writable folder (else a one-line error)."""
    return check_file(path, "--out", FORMATS)


def new_figure(width: float, height: float, ncols: int = 1, nrows: int = 1):
    """A Figure (Agg canvas, no pyplot) and its axes."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes.ravel()


def save(fig, path: str | Path, data: dict, caption: str | None = None) -> Plotted:
    """Write ``fig`` (PNG at 150 dpi, or SVG/PDF) with ``caption`` at its foot and return it
    with its data (``data["caption"]`` is the caption drawn)."""
    path = check_output(path)
    if caption:
        add_caption(fig, caption)
        data = {**data, "caption": caption}
    try:
        fig.savefig(path, dpi=150)
    except (OSError, ValueError) as exc:
        raise OutputError(f"cannot write plot {path}: {exc}") from None
    return Plotted(path, fig, data)
