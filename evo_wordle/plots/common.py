"""Shared plotting helpers: figures without pyplot (no global backend state), checked output
paths, written atomically (a symlink at the path is replaced, never written through).

Every plot function in this package returns a :class:`Plotted` holding the figure and the
exact numbers handed to matplotlib, so tests and users can check a figure against its data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OutputError
from ..files import atomic_write
from ..outputs import IMAGE_FORMATS, check_file
from .style import SERIES, add_caption

#: Most GA runs (seeds) one figure plays, as a sweep's most seeds: a figure of more is not
#: readable, and ``--runs 10**12`` ran out of memory after the work began (exit 1, not 2).
MAX_RUNS = 10_000

FORMATS = IMAGE_FORMATS
#: The series colours of :mod:`evo_wordle.plots.style` (studied solver first, baseline second).
COLOURS = SERIES


@dataclass
class Plotted:
    """A saved figure and the data drawn on it (keys documented by each plot function)."""

    path: Path
    figure: object = field(repr=False)
    data: dict


def as_json(data):
    """``data`` (a ``*_data`` function's dict) in JSON types: numpy arrays and tuples as lists,
    numpy numbers as Python numbers.  Its plot function draws the result as it draws ``data``,
    so a study can keep the numbers of a figure and redraw it from them."""
    import numpy as np

    if isinstance(data, dict):
        return {str(k): as_json(v) for k, v in data.items()}
    if isinstance(data, list | tuple | np.ndarray):
        return [as_json(v) for v in data]
    if isinstance(data, np.generic):
        return data.item()
    return data


def check_output(path: str | Path) -> Path:
    """An image path with a known extension in an existing writable folder (else a one-line error)."""
    return check_file(path, "--out", FORMATS)


def new_figure(width: float, height: float, ncols: int = 1, nrows: int = 1):
    """A Figure (Agg canvas, no pyplot) and its axes."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes.ravel()


def count_axis(axis) -> None:
    """Whole-number ticks on an axis that counts things (games, answers, runs, trials): a few
    games must not read 0.5 games."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def save(fig, path: str | Path, data: dict, caption: str | None = None) -> Plotted:
    """Write ``fig`` (PNG at 150 dpi, or SVG/PDF) with ``caption`` at its foot and return it
    with its data (``data["caption"]`` is the caption drawn).

    The figure goes to a temporary file next to ``path``, renamed into place: a symlink at
    ``path`` is replaced, never written through, and a failed write leaves nothing behind.  A
    failed write raises OSError naming ``path`` (the command line reports it in one line)."""
    path = check_output(path)
    if caption:
        add_caption(fig, caption)
        data = {**data, "caption": caption}
    try:
        atomic_write(path, lambda fh: fig.savefig(fh, format=path.suffix[1:].lower(), dpi=150))
    except OSError as exc:  # name the target, not the temporary file
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    except ValueError as exc:
        raise OutputError(f"cannot write {path}: {exc}") from None
    return Plotted(path, fig, data)
