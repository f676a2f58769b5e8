"""Sweep figures: a population × mutation heatmap and mean ± 95 % interval lines
(the thesis's Figures 5.5 and 5.7 as pictures)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..errors import EvoWordleError
from ..sweep import SweepSpec, best_config, format_value, scoring_keys
from ..wording import count, plural
from .common import Plotted, new_figure, save
from .style import HUES, MARKERS, caption_text, lists_text, styled, wrapped_title


def _axis_values(spec: SweepSpec, summary: list[dict], key: str) -> list:
    if key not in spec.grid:
        raise EvoWordleError(f"the sweep has no parameter {key!r} (it has: {', '.join(spec.keys)})")
    present = {format_value(s[key]) for s in summary}
    values = [v for v in spec.grid[key] if format_value(v) in present]
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        values = sorted(values)
    return values


def _check_other_keys(spec: SweepSpec, keys: tuple[str, ...]) -> None:
    others = [k for k in spec.keys if k not in keys and len(spec.grid[k]) > 1]
    if others:
        raise EvoWordleError(
            f"this figure shows {' and '.join(keys)}; the sweep also varies {', '.join(others)} "
            f"(plot one value of it, e.g. --where {others[0]}={format_value(spec.grid[others[0]][0])}, "
            "or a sweep that fixes it)"
        )


def _check_comparable(summary: list[dict], keys: tuple[str, ...]) -> None:
    """Refuse a figure whose axes or lines span several guess caps: a failed game scores the cap,
    so a lower cap shades darker or draws lower by itself, not because it plays better (the
    report, likewise, names a best only within each cap)."""
    for key in scoring_keys(summary):
        if key in keys:
            values = sorted({s[key] for s in summary}, key=lambda v: (str(type(v)), v))
            raise EvoWordleError(
                f"this figure would rank means under different {key} ({', '.join(map(format_value, values))}), "
                "but a failed game scores the guess cap, so a lower cap lowers the mean by itself: "
                f"plot one cap at a time (--where {key}={format_value(values[-1])}); "
                "`evo-wordle report DIR` marks the best within each cap"
            )


def _seed_count(spec: SweepSpec, summary: list[dict]) -> str:
    """Seeds per configuration as drawn: "2 seeds", "1 seed", or "1-2 of 2 seeds (unfinished
    sweep)" when the folder holds fewer benches than the grid (a figure must not claim seeds its
    cells do not have)."""
    counts = [s["seeds"] for s in summary] or [0]
    lo, hi = min(counts), max(counts)
    text = str(hi) if lo == hi else f"{lo}-{hi}"
    if lo < spec.seeds or len(summary) < len(spec.configs()):
        return f"{text} of {count(spec.seeds, 'seed')} (unfinished sweep)"
    return f"{text} {plural(hi if lo == hi else 2, 'seed')}"


def _games(spec: SweepSpec, noun: str) -> str:
    return count(spec.games, noun) if spec.games else f"all {noun}s"


def _caption(spec: SweepSpec, summary: list[dict], extra: str | None = None) -> str:
    n = f"{_seed_count(spec, summary)} x {_games(spec, 'answer')} per configuration"
    from ..executors import worker_context

    lists = lists_text(worker_context(spec.allowed, spec.answers).words, spec.allowed, spec.answers)
    # the setting keys the grid fixes (a one-cap slice, --where max_guesses=6) belong in the setting named
    settings = spec.settings_for({k: v[0] for k, v in spec.grid.items() if len(v) == 1}).as_dict()
    return caption_text(solver=spec.solver, seed=f"{spec.base_seed} (SeedSequence base)", n=n, settings=settings,
                        opener=(spec.grid.get("opener") or [None])[0] if len(spec.grid.get("opener", [])) == 1
                        else None, lists=lists, extra=extra)


def _describe(spec: SweepSpec, summary: list[dict]) -> str:
    fixed = ", ".join(f"{k}={format_value(v[0])}" for k, v in spec.grid.items() if len(v) == 1)
    return f"{spec.solver}, {_seed_count(spec, summary)} × {_games(spec, 'game')}" + (f", {fixed}" if fixed else "")


def heatmap_data(spec: SweepSpec, summary: list[dict], x: str = "population", y: str = "mutation") -> dict:
    """Matrices (rows: y values, columns: x values) of mean guesses and fail rate; NaN where missing."""
    xs, ys = _axis_values(spec, summary, x), _axis_values(spec, summary, y)
    _check_other_keys(spec, (x, y))
    _check_comparable(summary, (x, y))
    mean = np.full((len(ys), len(xs)), np.nan)
    fail = np.full_like(mean, np.nan)
    ci = np.full_like(mean, np.nan)
    xi = {format_value(v): i for i, v in enumerate(xs)}
    yi = {format_value(v): i for i, v in enumerate(ys)}
    for s in summary:
        r, c = yi[format_value(s[y])], xi[format_value(s[x])]
        mean[r, c], fail[r, c], ci[r, c] = s["mean"], s["fail_rate"], s["ci95"]
    # the report's best (lowest mean, then lower fail rate, then grid order): one cap, as checked
    best = best_config(summary)

    def cell(s: dict) -> tuple[int, int]:  # (row, column)
        return yi[format_value(s[y])], xi[format_value(s[x])]

    tied = [cell(s) for s in summary if s is not best and s["mean"] == best["mean"]] if best else []
    return {"x": x, "y": y, "x_values": xs, "y_values": ys, "mean": mean, "fail_rate": fail, "ci95": ci,
            "best": None if best is None else cell(best), "tied": tied}


def _best_text(data: dict) -> str | None:
    """The caption's words for the outlined cell (and any cell tied with it on the mean)."""
    if data["best"] is None:
        return None

    def name(rc: tuple[int, int]) -> str:  # as the report names a configuration
        return (f"{data['x']}={format_value(data['x_values'][rc[1]])}, "
                f"{data['y']}={format_value(data['y_values'][rc[0]])}")

    r, c = data["best"]
    text = f"outlined: the best cell, {name(data['best'])} (lowest mean, {data['mean'][r, c]:.3f} guesses)"
    if data["tied"]:
        fails = {data["fail_rate"][rc] for rc in data["tied"]}
        rule = "its lower fail rate" if data["fail_rate"][r, c] < min(fails) else "grid order"
        text += (f"; tied on the mean: {' and '.join(f'[{name(rc)}]' for rc in data['tied'])} (dashed), "
                 f"best by {rule} as in the report")
    return text


@styled
def plot_heatmap(
    spec: SweepSpec, summary: list[dict], path: str | Path, x: str = "population", y: str = "mutation"
) -> Plotted:
    """Colour = mean guesses (darker is better), each cell annotated with mean and % over 6 (or
    not solved within the cap, when --max-guesses is below the win limit)."""
    data = heatmap_data(spec, summary, x, y)
    mean, fail = data["mean"], data["fail_rate"]
    fig, (ax,) = new_figure(1.2 * len(data["x_values"]) + 2.8, 0.75 * len(data["y_values"]) + 1.8)
    image = ax.imshow(np.ma.masked_invalid(mean), cmap="cividis", aspect="auto", origin="lower")
    ax.grid(False)
    finite = mean[np.isfinite(mean)]
    mid = (finite.min() + finite.max()) / 2 if finite.size else 0.0
    for r in range(mean.shape[0]):
        for c in range(mean.shape[1]):
            if math.isfinite(mean[r, c]):
                colour = "white" if mean[r, c] < mid else "black"  # cividis: dark = few guesses
                ax.text(c, r, f"{mean[r, c]:.3f}\n{100 * fail[r, c]:.1f} %", ha="center", va="center",
                        fontsize=8, color=colour, fontweight="bold" if (r, c) == data["best"] else "normal")
    ax.set_xticks(range(len(data["x_values"])), [format_value(v) for v in data["x_values"]])
    ax.set_yticks(range(len(data["y_values"])), [format_value(v) for v in data["y_values"]])
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel(y.replace("_", " "))
    for (r, c), style in [*((rc, "--") for rc in data["tied"]), *(((data["best"], "-"),) if data["best"] else ())]:
        _outline(ax, r, c, style)
    fails = {spec.settings_for({k: s[k] for k in spec.keys}).fail_text() for s in summary}
    failed = fails.pop() if len(fails) == 1 else "failed"  # cells with different caps or boards
    wrapped_title(ax, f"Mean guesses (and % {failed.split(' (')[0]}): {_describe(spec, summary)}")
    fig.colorbar(image, ax=ax, label="mean guesses (darker is better)")
    return save(fig, path, data, _caption(spec, summary, _best_text(data)))


def _outline(ax, r: int, c: int, linestyle: str) -> None:
    """A cell's frame, white inside black: seen on cividis's dark blue and its light yellow
    alike, and by shape rather than hue (colour-blind and grey print)."""
    from matplotlib.patches import Rectangle

    for colour, width in (("black", 4.5), ("white", 2.0)):
        ax.add_patch(Rectangle((c - 0.46, r - 0.46), 0.92, 0.92, fill=False, edgecolor=colour, linewidth=width,
                               linestyle=linestyle, zorder=3))


def lines_data(spec: SweepSpec, summary: list[dict], x: str = "population", hue: str = "mutation") -> dict:
    """One series per ``hue`` value: x values, means and 95 % half-widths (NaN: no interval)."""
    keys = (x, hue) if hue in spec.grid else (x,)
    xs = _axis_values(spec, summary, x)
    _check_other_keys(spec, keys)
    _check_comparable(summary, keys)
    hues = _axis_values(spec, summary, hue) if hue in spec.grid else [None]
    series = []
    for h in hues:
        rows = [s for s in summary if h is None or format_value(s[hue]) == format_value(h)]
        by_x = {format_value(s[x]): s for s in rows}
        pts = [by_x[format_value(v)] for v in xs if format_value(v) in by_x]
        series.append({
            "hue": h,
            "x": [p[x] for p in pts],
            "mean": [p["mean"] for p in pts],
            "ci95": [p["ci95"] for p in pts],
            "ci_basis": [p.get("ci_basis", "seeds" if p["seeds"] > 1 else "games") for p in pts],
            "fail_rate": [p["fail_rate"] for p in pts],
        })
    return {"x": x, "hue": hue, "values": xs, "series": series}


@styled
def plot_lines(
    spec: SweepSpec, summary: list[dict], path: str | Path, x: str = "population", hue: str = "mutation"
) -> Plotted:
    """Mean guesses ± 95 % interval against ``x``, one line per ``hue`` value.

    Error bars are drawn only where the interval comes from repeated seeds; series are dodged
    sideways so their bars never overlap."""
    data = lines_data(spec, summary, x, hue)
    fig, (ax,) = new_figure(7, 4.4)
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for s in data["series"] for v in s["x"])
    # the axis order is the data's (numbers ascending): sorting by type name put 0.1 left of 0
    shown = {format_value(v) for s in data["series"] for v in s["x"]}
    values = [v for v in data["values"] if format_value(v) in shown]
    logx = numeric and bool(values) and min(values) > 0 and max(values) / min(values) >= 20
    k_series = len(data["series"])
    for k, s in enumerate(data["series"]):
        offset = (k - (k_series - 1) / 2) * 0.12  # dodge: in log10 units on a log axis, else in slots
        if numeric:
            xs = [v * 10 ** (offset / 4) for v in s["x"]] if logx else [v + offset * _step(values) for v in s["x"]]
        else:
            xs = [values.index(v) + offset for v in s["x"]]
        err = [e if math.isfinite(e) and s_seeds > 1 and basis == "seeds" else np.nan  # never one over games
               for e, basis, s_seeds in zip(s["ci95"], s["ci_basis"], _seeds(summary, spec, x, hue, s))]
        label = "" if s["hue"] is None else f"{hue.replace('_', ' ')} {format_value(s['hue'])}"
        colour, marker = HUES[k % len(HUES)], MARKERS[k % len(MARKERS)]  # colours may repeat, markers differ
        ax.plot(xs, s["mean"], marker=marker, color=colour, label=label or None)
        if any(math.isfinite(e) for e in err):  # NaN draws nothing; a 0 drew caps on the point, read as ± 0
            ax.errorbar(xs, s["mean"], yerr=err, fmt="none", capsize=3, color=colour, alpha=0.8)
    if numeric and values:
        if logx:
            ax.set_xscale("log")
        ax.set_xticks(values, [format_value(v) for v in values])
        ax.minorticks_off()
    elif values:
        ax.set_xticks(range(len(values)), [format_value(v) for v in values])
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel("mean guesses ± 95 % interval over seeds\n(lower is better)")
    ax.set_title(f"Mean guesses against {x.replace('_', ' ')}: {_describe(spec, summary)}")
    if any(s["hue"] is not None for s in data["series"]):
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))  # beside the axes: never over the data
    return save(fig, path, data, _caption(spec, summary))


def _step(values: list) -> float:
    """The smallest gap between x values (the unit of the sideways dodge on a linear axis)."""
    gaps = np.diff(sorted(values))
    return float(gaps.min()) if len(gaps) else 1.0


def _seeds(summary: list[dict], spec: SweepSpec, x: str, hue: str, series: dict) -> list[int]:
    """Seeds behind each point of ``series`` (an interval needs at least two)."""
    out = []
    for v in series["x"]:
        rows = [r for r in summary if format_value(r[x]) == format_value(v)
                and (series["hue"] is None or format_value(r[hue]) == format_value(series["hue"]))]
        out.append(max((int(r["seeds"]) for r in rows), default=0))
    return out
