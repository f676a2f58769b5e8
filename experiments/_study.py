"""Helpers shared by the study scripts: run a sweep (resumable), write its table, draw figures.

Every study writes to ``experiments/results/<study>/`` (sweep.json, results.csv, table.md)
and its figures to ``docs/figures/``.  Rerunning a study resumes its sweeps; ``--fresh``
starts over.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
FIGURES = ROOT / "docs" / "figures"

os.environ.setdefault("MPLBACKEND", "Agg")

from evo_wordle.game import Settings  # noqa: E402
from evo_wordle.sweep import SweepSpec, format_report, load_sweep, run_sweep, summarize  # noqa: E402


def parser(doc: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    p.add_argument("--executor", choices=["local", "dask"], default="local")
    p.add_argument("--scheduler", help="dask scheduler address (default: a LocalCluster)")
    p.add_argument("--games", type=int, help="a seeded sample of K answers per bench (default: all)")
    p.add_argument("--fresh", action="store_true", help="delete this study's earlier results first")
    p.add_argument("--figures", type=Path, default=FIGURES, help="where figures go (default: docs/figures)")
    p.add_argument("--results", type=Path, default=RESULTS, help="where tables go (default: experiments/results)")
    return p


def run(
    args: argparse.Namespace,
    name: str,
    solver: str,
    grid: dict,
    seeds: int,
    settings: Settings | None = None,
    base_seed: int = 0,
) -> tuple[SweepSpec, list[dict], Path]:
    """Run (or resume) one sweep of the study and write its Markdown table; returns the summary."""
    out = args.results / name
    if args.fresh and out.exists():
        shutil.rmtree(out)
    spec = SweepSpec(solver=solver, grid=grid, seeds=seeds, games=args.games,
                     settings=(settings or Settings()).as_dict(), base_seed=base_seed)
    start = time.perf_counter()

    def progress(done: int, total: int, row: dict) -> None:
        cfg = " ".join(f"{k}={row[k]}" for k in spec.keys)
        print(f"  [{done}/{total}] {cfg} seed={row['seed']}: mean {float(row['mean']):.3f} "
              f"({row['seconds']} s)", file=sys.stderr, flush=True)

    outcome = run_sweep(spec, out, args.executor, args.jobs, args.scheduler, progress)
    wall = time.perf_counter() - start
    spec, rows = load_sweep(out)
    summary = summarize(spec, rows)
    (out / "table.md").write_text(format_report(spec, summary, "markdown") + "\n")
    print(f"{name}: {outcome.ran} benches run, {outcome.skipped} resumed, {wall:.1f} s wall "
          f"({args.jobs} {args.executor} workers)")
    return spec, summary, out


def figure(args: argparse.Namespace, filename: str) -> Path:
    args.figures.mkdir(parents=True, exist_ok=True)
    return args.figures / filename


def markdown_table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def pm(s: dict) -> str:
    """mean ± 95 % half-width."""
    ci = s["ci95"]
    return f"{s['mean']:.3f}" + ("" if ci != ci else f" ± {ci:.3f}")
