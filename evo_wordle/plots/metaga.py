"""Figures of multi-board strategy evolution: the meta-GA's convergence per board count
(training against validation) and the guesses of the evolved policy against summed entropy
on the never-seen test sets."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .common import Plotted, count_axis, new_figure, save
from .style import (
    BASELINE,
    MARKERS,
    OKABE_ITO,
    STUDIED,
    caption_text,
    legend_below,
    lists_record_text,
    styled,
    won_within,
)

#: The name each board count goes by.
GAME_NAMES = {2: "Dordle", 4: "Quordle", 8: "Octordle"}


def _name(boards: int) -> str:
    return f"{GAME_NAMES.get(boards, f'{boards} boards')} ({boards} boards)"


def _caption(runs: dict, what: str) -> str:
    first = next(iter(runs.values()))
    sets = first["split"]
    # the panels differ in boards and cap: the caption names what they share, and each cap
    shared = {k: v for k, v in first["settings"].items() if k not in ("boards", "max_guesses")}
    caps = ", ".join(f"{GAME_NAMES.get(b, f'{b} boards')} {r['settings']['max_guesses']}" for b, r in runs.items())
    # word lists other than the default, as each run recorded them (one text when they agree)
    lists = {b: lists_record_text(r.get("word_lists")) for b, r in runs.items()}
    named = set(lists.values()).pop() if len(set(lists.values())) == 1 else "; ".join(
        f"{GAME_NAMES.get(b, f'{b} boards')}: {text or 'the default word lists'}" for b, text in lists.items())
    return caption_text(seed=sets["seed"], settings=shared, lists=named, extra=(
        f"guess caps: {caps}; {what}; board sets: training {sets['train_sets']}, validation "
        f"{sets['validation_sets']}, test {sets['test_sets']} (from disjoint answer splits)"))


@styled
def plot_metaga_convergence(runs: dict, path: str | Path) -> Plotted:
    """One panel per board count: the generation's best on the training sets, the population's
    mean there, the generation's best on the validation sets and, as a dashed line, the winner's
    figure there (the genome the run returns, chosen on validation) (``runs``: boards → the JSON of
    ``evolve-strategy --boards N`` plus its ``logbook``).  No test figure is drawn here: the
    test sets are other sets, compared in :func:`plot_board_histograms`."""
    fig, axes = new_figure(5.2 * len(runs), 4.4, ncols=len(runs))
    data: dict = {}
    for ax, (boards, run) in zip(axes, runs.items()):
        log = run["logbook"]
        gens = [r["gen"] for r in log]
        series = {"best (training sets)": [r["best"] for r in log],
                  "population mean (training sets)": [r["mean"] for r in log],
                  "the same best, on the validation sets": [r["holdout"] for r in log]}
        for i, (label, ys) in enumerate(series.items()):
            ax.plot(gens, ys, color=(STUDIED, STUDIED, OKABE_ITO["reddish_purple"])[i],
                    linestyle=("-", ":", "-")[i], marker=MARKERS[i], label=label)
        chosen = (run.get("fitness") or {}).get("validation")
        if chosen is not None:  # the genome shipped: chosen on validation, maybe not the last best
            ax.axhline(chosen, color=OKABE_ITO["reddish_purple"], linestyle="--", linewidth=0.9,
                       label=f"the winner, on the validation sets ({chosen:.3f})")
            series["the winner, on the validation sets"] = chosen
        count_axis(ax.xaxis)
        ax.set_title(_name(boards))
        ax.set_xlabel("generation")
        ax.set_ylabel("mean guesses + penalty (lower is better)")
        legend_below(ax, ncol=1)
        data[boards] = {"gen": gens, **series}
    return save(fig, path, data, _caption(runs, "meta-GA convergence"))


@styled
def plot_board_histograms(runs: dict, path: str | Path) -> Plotted:
    """One panel per board count: share of test sets per number of guesses, the evolved policy
    (named with its lookahead, when the run added one) beside plain summed entropy on the same sets."""
    fig, axes = new_figure(5.2 * len(runs), 4.4, ncols=len(runs))
    data: dict = {}
    for ax, (boards, run) in zip(axes, runs.items()):
        failed = won_within(run["settings"])[2]  # "not solved within 9": the game's own failure rule
        keys = sorted({int(k) for label in ("evolved", "summed_entropy") for k in run[label]["histogram"]})
        ks = np.array(keys)
        data[boards] = {}
        rollout = run.get("rollout")  # the lookahead is not evolved: the label says it plays
        evolved = f"evolved + lookahead (--rollout {rollout})" if rollout else "evolved"
        for i, (label, colour, name) in enumerate((("evolved", STUDIED, evolved),
                                                   ("summed_entropy", BASELINE, "summed entropy"))):
            hist = run[label]["histogram"]
            total = sum(hist.values())
            share = np.array([100 * hist.get(str(k), 0) / total for k in keys])
            ax.bar(ks + (i - 0.5) * 0.4, share, width=0.4, color=colour,
                   label=f"{name}: mean {run[label]['test_mean']:.3f}, {run[label]['test_failures']} {failed}")
            data[boards][label] = {"name": name, "guesses": keys, "share": share.tolist()}
        ax.set_xticks(ks)
        ax.set_title(_name(boards))
        ax.set_xlabel("guesses to solve every board (failures count as the cap; fewer is better)")
        ax.set_ylabel("% of test board sets")
        legend_below(ax, ncol=1)
    return save(fig, path, data, _caption(runs, "test board sets, the same sets for both policies"))


__all__ = ["plot_board_histograms", "plot_metaga_convergence"]
