"""A study's figures through Optuna's matplotlib backend: history (with the greedy baseline),
parameter importance, and the contour of the first two searched parameters."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from .common import COLOURS


def _caption(ax, spec, study) -> None:
    s = spec.settings
    n = len(study.trials)
    ax.figure.text(0.01, 0.005, f"{spec.solver}; {n} trials; seed {spec.seed}, split seed {spec.split_seed}; "
                   f"training answers; candidates {s['candidates']}, guesses from {s['guess_from']}, "
                   f"hard {str(s['hard']).lower()}", fontsize=7, color="#444444", ha="left", va="bottom")


def _save(ax, path: Path) -> Path:
    fig = ax.figure
    fig.set_size_inches(7.0, 4.6)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=110)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


def baseline_mean(spec, ctx, solver: str = "greedy") -> float:
    """The baseline's mean on the same training games the trials play (same setting)."""
    from ..bench import run_bench
    from ..tune import training_plan

    plan = training_plan(spec, spec.split(ctx).train)
    scores = [run_bench(ctx, solver, spec.game_settings(), a, s).scores() for a, s in plan]
    return float(np.concatenate(scores).mean())


def tune_figures(study, spec, out: Path, ctx) -> list[Path]:
    """Write history.png, importance.png and contour.png (where the study allows) into ``out``."""
    from optuna.visualization import matplotlib as ovm

    written = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ax = ovm.plot_optimization_history(study)
        base = baseline_mean(spec, ctx)
        ax.axhline(base, color=COLOURS[1], linestyle="--", label=f"greedy on the same games ({base:.4f})")
        ax.set_ylabel("mean guesses on training answers (lower is better)")
        ax.legend(loc="upper right", fontsize=8)
        _caption(ax, spec, study)
        written.append(_save(ax, out / "history.png"))
        numeric = [p.name for p in spec.space.values() if p.kind != "cat"]
        complete = [t for t in study.trials if t.value is not None]
        if len(spec.space) >= 2 and len(complete) >= 2:
            try:
                ax = ovm.plot_param_importances(study)
            except (RuntimeError, ValueError):  # too few distinct trials to fit importances
                ax = None
            if ax is not None:
                _caption(ax, spec, study)
                written.append(_save(ax, out / "importance.png"))
        if len(numeric) >= 2 and len(complete) >= 2:
            ax = ovm.plot_contour(study, params=numeric[:2])
            ax = ax if not isinstance(ax, np.ndarray) else ax.ravel()[0]
            _caption(ax, spec, study)
            written.append(_save(ax, out / "contour.png"))
    return written
