"""Speed figures that survive a busy machine: medians and spread over repeats, the load
average during the run, and a ratio to a reference measured in the same run.

The reference is the plain greedy bench (TALES, all 2,309 answers, one process).  Each
repeat of a timed run is paired with a reference run just before it, and the ratio is the
median of the pairs' ratios, so a load that changes during the benchmark moves the ratio far
less than either time.  Docs quote the ratios; seconds are an example with their load.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from evo_wordle import Context
from evo_wordle.bench import run_bench
from evo_wordle.game import Settings
from evo_wordle.wording import count


def load_average() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def timed(fn: Callable[[], object], repeats: int) -> dict:
    """Wall-clock median, min and max of ``repeats`` calls, with the load average around them."""
    load = [load_average()]
    walls = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
    load.append(load_average())
    return {"median": statistics.median(walls), "min": min(walls), "max": max(walls), "repeats": repeats,
            "seconds": walls, "load": max(load)}


class Reference:
    """The greedy bench (TALES, every answer, one process, a fresh solver per run); keeps every time."""

    label = "greedy TALES, full bench, 1 process (reference)"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.walls: list[float] = []
        self.loads: list[float] = []

    def once(self) -> float:
        self.loads.append(load_average())
        start = time.perf_counter()
        run_bench(self.ctx, "greedy", Settings(), solver_params={"opener": "tales"})
        self.walls.append(time.perf_counter() - start)
        self.loads.append(load_average())
        return self.walls[-1]

    def summary(self) -> dict:
        """Its times, and the highest load average seen around its runs (as every timed row's
        ``load``; it was the load when the summary was made, after every other timing)."""
        w = self.walls
        return {"label": self.label, "median": statistics.median(w), "min": min(w), "max": max(w),
                "repeats": len(w), "seconds": w, "load": max(self.loads)}


def paired(label: str, fn: Callable[[], object], ref: Reference, repeats: int, **extra) -> dict:
    """Time ``fn`` ``repeats`` times, each right after a reference run; ratio = median of the pairs' ratios."""
    load = [load_average()]
    walls, ratios = [], []
    for _ in range(repeats):
        base = ref.once()
        start = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
        ratios.append(walls[-1] / base)
    load.append(load_average())
    return {"label": label, **extra, "median": statistics.median(walls), "min": min(walls), "max": max(walls),
            "repeats": repeats, "seconds": walls, "load": max(load), "ratio": statistics.median(ratios),
            "ratio_min": min(ratios), "ratio_max": max(ratios)}


def line(row: dict) -> str:
    """One printed row: median, spread, ratio to the reference, load."""
    ratio = (f"  {row['ratio']:7.2f}x ref ({row['ratio_min']:.2f}-{row['ratio_max']:.2f})"
             if "ratio" in row else "")
    return (f"{row['label']:64s} median {row['median']:8.3f} s  (min {row['min']:.3f}, max {row['max']:.3f}, "
            f"{count(row['repeats'], 'run')}){ratio}  load {row['load']:.1f}")


def header(ctx: Context) -> dict:
    """Machine facts printed and stored with every speed run."""
    ctx.table  # noqa: B018 - the pattern table is loaded before any timing
    facts = {"cpus": os.cpu_count(), "load_before": load_average()}
    print(f"load average {facts['load_before']:.2f} on {facts['cpus']} cpus; ratios are to the greedy reference "
          "measured in this run")
    return facts
