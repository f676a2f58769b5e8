"""A study's figures in the house style: optimisation history (with the greedy baseline on the
same training games), parameter importance, and the trials on the first two searched numeric
parameters.

The numbers come from Optuna (the study's trials, ``optuna.importance``); the drawing is ours,
because Optuna's matplotlib backend switches the global style to ggplot, hides pruned trials and
paints a smoothed surface over the whole plane from a handful of trials.  Here pruned trials
are shown at the step they stopped, and the landscape is the trials themselves, with contour
lines only inside their hull (linear between measured points, nothing extrapolated).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from ..wording import count
from .common import Plotted, count_axis, new_figure, save
from .style import BASELINE, MARKERS, NEUTRAL, STUDIED, caption_text, legend_below, lists_text, styled

#: Fewest distinct trials for contour lines between them (fewer: points only).
CONTOUR_MIN_POINTS = 6


def baseline_mean(spec, ctx, solver: str = "greedy") -> float:
    """The baseline's mean on the same training games the trials play (same setting)."""
    from ..bench import run_bench
    from ..tune import training_plan

    plan = training_plan(spec, spec.split(ctx).train)
    scores = [run_bench(ctx, solver, spec.game_settings(), a, s).scores() for a, s in plan]
    return float(np.concatenate(scores).mean())


#: Trial states a figure draws: history shows pruned trials too, importance and landscape only finished ones.
DRAWN = ("COMPLETE", "PRUNED")


def _caption(spec, study, extra: str | None = None, drawn: tuple[str, ...] = DRAWN) -> str:
    """N counts the trials drawn; the others (a killed run's failed trials …) are named, not
    counted in (N = 9 under a history of 7).  A surplus trial (started when the others had
    already filled --trials, ended before playing) is named apart: it did not fail."""
    states = [t.state.name for t in study.trials]
    n = sum(s in drawn for s in states)
    # FAIL with the tune module's surplus marker: never played, so not a failure
    kinds = ["SURPLUS" if s == "FAIL" and t.user_attrs.get("surplus") else s for s, t in zip(states, study.trials)]
    left = {s: kinds.count(s) for s in sorted(set(kinds) - set(drawn))}
    tail = f"split seed {spec.split_seed}, training answers" + (f"; {extra}" if extra else "")
    if left:
        words = {"FAIL": "failed", "SURPLUS": "surplus, never played"}
        tail += "; not drawn: " + ", ".join(f"{k} {words.get(s, s.lower())}" for s, k in left.items())
    lists = lists_text(spec.context().words, spec.allowed, spec.answers)
    return caption_text(solver=spec.solver, seed=spec.seed, n=count(n, "trial"), settings=spec.settings, extra=tail,
                        lists=lists)


def history_data(study) -> dict:
    """Trial numbers and values: ``complete`` (number, value), ``pruned`` (number, the last
    reported training mean and the games it had played), ``best`` (best value so far per
    complete trial, in trial order)."""
    complete, pruned = [], []
    for t in study.trials:
        if t.state.name == "COMPLETE" and t.value is not None:
            complete.append((t.number, float(t.value)))
        elif t.state.name == "PRUNED" and t.intermediate_values:
            step = max(t.intermediate_values)
            pruned.append((t.number, float(t.intermediate_values[step]), int(step)))
    complete.sort()
    best = np.minimum.accumulate([v for _, v in complete]).tolist() if complete else []
    return {"complete": complete, "pruned": sorted(pruned), "best": best}


@styled
def plot_history(study, spec, baseline: float | None, path: str | Path) -> Plotted:
    """Each finished trial's training mean, pruned trials where they stopped, the best so far,
    and the baseline on the same games."""
    data = history_data(study)
    fig, (ax,) = new_figure(7.0, 4.8)
    if data["complete"]:
        xs, ys = zip(*data["complete"])
        ax.plot(xs, ys, linestyle="none", marker=MARKERS[0], color=STUDIED, label="finished trial")
        ax.step(xs, data["best"], where="post", color=STUDIED, alpha=0.6, label="best so far")
    if data["pruned"]:
        xs, ys, _ = zip(*data["pruned"])
        ax.plot(xs, ys, linestyle="none", marker="x", color=NEUTRAL,
                label="pruned trial (mean of the games it played)")
    if baseline is not None:
        ax.axhline(baseline, color=BASELINE, linestyle="--", label=f"greedy on the same games ({baseline:.4f})")
    ax.set_xlabel("trial")
    count_axis(ax.xaxis)
    ax.set_ylabel("mean guesses on training answers (lower is better)")
    ax.set_title("Optimisation history")
    ax.margins(x=0.03, y=0.08)
    legend_below(ax)
    return save(fig, path, {**data, "baseline": baseline}, _caption(spec, study))


def importance_data(study) -> dict[str, float]:
    """Optuna's parameter importances (fANOVA by default): the share of the variance of the
    training mean each parameter explains."""
    import optuna

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {k: float(v) for k, v in optuna.importance.get_param_importances(study).items()}


@styled
def plot_importance(study, spec, path: str | Path) -> Plotted:
    """Horizontal bars from zero, one per searched parameter, most important on top."""
    imp = importance_data(study)
    names = list(imp)[::-1]
    values = [imp[n] for n in names]
    fig, (ax,) = new_figure(6.0, 1.6 + 0.45 * len(names))
    ax.barh(names, values, color=STUDIED)
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:.2f}", va="center", fontsize=8)
    ax.set_xlim(0, 1.08)
    ax.set_xlabel("importance (share of the variance of the training mean; the bars add up to 1)")
    ax.set_title("Parameter importance")
    caption = _caption(spec, study, "importance: Optuna's fANOVA", ("COMPLETE",))
    return save(fig, path, {"importance": imp}, caption)


def landscape_data(study, x: str, y: str) -> dict:
    """The finished trials' values of parameters ``x`` and ``y`` and their training means."""
    done = [t for t in study.trials if t.state.name == "COMPLETE" and t.value is not None
            and x in t.params and y in t.params]
    return {"x": [float(t.params[x]) for t in done], "y": [float(t.params[y]) for t in done],
            "value": [float(t.value) for t in done], "trial": [t.number for t in done]}


@styled
def plot_landscape(study, spec, x: str, y: str, path: str | Path) -> Plotted:
    """The trials on ``x`` × ``y``, coloured by training mean (dark is better: one hue, so
    colour-blind safe, and no yellow), the best ringed; contour lines between the trials inside
    their hull when there are enough."""
    from matplotlib.tri import Triangulation

    data = landscape_data(study, x, y)
    px, py, v = (np.asarray(data[k]) for k in ("x", "y", "value"))
    fig, (ax,) = new_figure(6.4, 4.6)
    logx, logy = spec.space[x].log, spec.space[y].log
    tx, ty = (np.log10(px) if logx else px), (np.log10(py) if logy else py)
    distinct = len({(a, b) for a, b in zip(tx, ty)})
    contoured = False
    if distinct >= CONTOUR_MIN_POINTS:
        try:
            tri = Triangulation(tx, ty)
            # triangles from the axes' own scale (log where the search was), drawn at the trials
            lines = ax.tricontour(px, py, tri.triangles, v, levels=6, colors=NEUTRAL, linewidths=0.7, alpha=0.8)
            ax.clabel(lines, fontsize=6, fmt="%.2f")
            contoured = True
        except (RuntimeError, ValueError):  # collinear or degenerate points: points only
            contoured = False
    points = ax.scatter(px, py, c=v, cmap="Blues_r", edgecolors="black", linewidths=0.4, s=36, zorder=3)
    if len(v):
        b = int(np.argmin(v))
        ax.scatter([px[b]], [py[b]], s=160, facecolors="none", edgecolors=BASELINE, linewidths=1.6, zorder=4,
                   label=f"best trial {data['trial'][b]}: {v[b]:.4f}")
        legend_below(ax, ncol=1)
    fig.colorbar(points, ax=ax, label="mean guesses on training answers (lower is better)")
    ax.set_xscale("log" if logx else "linear")
    ax.set_yscale("log" if logy else "linear")
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    for axis, log in ((ax.xaxis, logx), (ax.yaxis, logy)):
        if log:  # plain numbers at 1, 2, 5 × 10^k instead of crowded powers of ten
            axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(FormatStrFormatter("%g"))
            axis.set_minor_formatter(NullFormatter())
    if len(v):  # room around the outermost trials (contours make matplotlib's margins stick to the data)
        ax.set_xlim(*_padded(px, logx))
        ax.set_ylim(*_padded(py, logy))
    ax.set_xlabel(x + (" (log scale)" if logx else ""))
    ax.set_ylabel(y + (" (log scale)" if logy else ""))
    ax.set_title(f"Finished trials on {x} × {y}")
    note = ("contour lines: linear between trials, inside their hull only" if contoured
            else "too few distinct trials for contour lines")
    return save(fig, path, {**data, "contoured": contoured}, _caption(spec, study, note, ("COMPLETE",)))


def _padded(values: np.ndarray, log: bool, share: float = 0.06) -> tuple[float, float]:
    """Axis limits ``share`` of the span beyond the values, on the axis's own scale."""
    t = np.log10(values) if log else values
    lo, hi = float(t.min()), float(t.max())
    pad = share * (hi - lo) if hi > lo else (0.1 if log else 0.1 * max(abs(lo), 1.0))
    lo, hi = lo - pad, hi + pad
    return (10**lo, 10**hi) if log else (lo, hi)


def tune_figures(study, spec, out: Path, ctx) -> list[Path]:
    """Write history.png, importance.png and contour.png (where the study allows) into ``out``."""
    written = [plot_history(study, spec, baseline_mean(spec, ctx), out / "history.png").path]
    numeric = [p.name for p in spec.space.values() if p.kind != "cat"]
    complete = [t for t in study.trials if t.state.name == "COMPLETE"]
    if len(spec.space) >= 2 and len({repr(sorted(t.params.items())) for t in complete}) >= 2:
        try:
            written.append(plot_importance(study, spec, out / "importance.png").path)
        except (RuntimeError, ValueError):  # too few distinct trials to fit importances
            pass
    if len(numeric) >= 2 and len(complete) >= 1:
        written.append(plot_landscape(study, spec, numeric[0], numeric[1], out / "contour.png").path)
    return written
