"""Shared plotting helpers: figures without pyplot (no global backend state), checked output paths.

Every plot function in this package returns a :class:`Plotted` holding the figure and the
exact numbers handed to matplotlib, so tests and users can check a figure against its data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..outputs import IMAGE_FORMATS, check_file

FORMATS = IMAGE_FORMATS
#: Wordle's colours, used consistently: GA green, baseline yellow, then neutrals.
COLOURS = ("#538d4e", "#c9b458", "#3a7ca5", "#d1495b", "#6d6875", "#edae49", "#00798c", "#30638e")


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


def save(fig, path: str | Path, data: dict) -> Plotted:
    """Write ``fig`` (PNG at 110 dpi, or SVG/PDF) and return it with its data."""
    path = check_output(path)
    fig.savefig(path, dpi=110)
    return Plotted(path, fig, data)
