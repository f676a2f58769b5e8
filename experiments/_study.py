"""Helpers shared by the experiment scripts: output folders, sweeps (resumable), tables, figures.

A study writes to ``--out DIR`` (default ``experiments/out/<script>/``, untracked):
``<sweep>/`` (sweep.json, results.csv, table.md, summary.json), its comparison tables and
``figures/``.  Only ``--write-docs`` writes the tracked copies the docs cite
(``experiments/results/`` and ``docs/figures/``).  Rerunning a study resumes its sweeps;
``--fresh`` starts over.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
FIGURES = ROOT / "docs" / "figures"
OUT = HERE / "out"

os.environ.setdefault("MPLBACKEND", "Agg")

from evo_wordle.files import atomic_write, atomic_write_text  # noqa: E402
from evo_wordle.game import Settings  # noqa: E402
from evo_wordle.sweep import SweepSpec, format_report, load_sweep, run_sweep, summarize  # noqa: E402
from evo_wordle.wording import count  # noqa: E402


def add_output_args(p: argparse.ArgumentParser, name: str) -> None:
    """``--out DIR`` (default experiments/out/NAME, untracked) and ``--write-docs`` (the tracked copies)."""
    p.add_argument("--out", type=Path, default=OUT / name,
                   help=f"folder for tables and figures (default: experiments/out/{name}, untracked)")
    p.add_argument("--write-docs", action="store_true",
                   help="write the tracked results the docs cite (experiments/results/, docs/figures/) instead")


def output_dirs(args: argparse.Namespace) -> tuple[Path, Path]:
    """(results folder, figures folder) of a run: the tracked ones only with --write-docs."""
    if args.write_docs:
        return RESULTS, FIGURES
    return args.out, args.out / "figures"


def summary_dir(args: argparse.Namespace) -> Path:
    """The folder of a study whose summary stays untracked even with --write-docs (the registry
    holds its figures), made before the work so that a bad folder fails first."""
    results = args.out if args.write_docs else output_dirs(args)[0]
    results.mkdir(parents=True, exist_ok=True)
    return results


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (its folder made) through the package's atomic writer: a
    symlink at ``path`` is replaced by the file, its target never written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)


def write_json(path: Path, data) -> None:
    write_text(path, json.dumps(data, indent=1) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def write_report(results: Path, stem: str, data, text: str) -> None:
    """A study's two outputs, ``stem``.md (``text``, its table) and ``stem``.json (``data``), in
    ``results``, then the table on stdout."""
    write_text(results / f"{stem}.md", text)
    write_json(results / f"{stem}.json", data)
    print(text, end="")


def save_figure(fig, path: Path, dpi: int = 110) -> None:
    """``fig.savefig`` as :func:`write_text` writes: atomically, never through a symlink."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, lambda fh: fig.savefig(fh, format=path.suffix[1:].lower(), dpi=dpi))


def parser(doc: str, name: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    p.add_argument("--executor", choices=["local", "dask"], default="local")
    p.add_argument("--scheduler", help="dask scheduler address (default: a LocalCluster)")
    p.add_argument("--games", type=int, help="a seeded sample of K answers per bench (default: all)")
    p.add_argument("--fresh", action="store_true", help="delete this study's earlier results first")
    add_output_args(p, name)
    return p


def parse(p: argparse.ArgumentParser) -> argparse.Namespace:
    """Parse and set ``args.results`` / ``args.figures`` from --out / --write-docs."""
    args = p.parse_args()
    args.results, args.figures = output_dirs(args)
    return args


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
    for filename, text in sweep_files(spec, summary).items():
        write_text(out / filename, text)
    print(f"{name}: {outcome.ran} benches run, {outcome.skipped} resumed, {wall:.1f} s wall "
          f"({count(args.jobs, f'{args.executor} worker')})")
    return spec, summary, out


def sweep_files(spec: SweepSpec, summary: list[dict]) -> dict[str, str]:
    """The files a sweep's folder holds beside its data, by name: ``table.md`` (the package's
    Markdown report) and ``summary.json``, both made from :func:`summarize` of sweep.json and
    results.csv alone, so tests/test_study_tables.py can rebuild the tracked ones from the tracked data."""
    return {"table.md": format_report(spec, summary, "markdown") + "\n",
            "summary.json": json.dumps(summary, indent=1, default=str) + "\n"}


def figures_folder(args: argparse.Namespace) -> Path:
    """The run's figures folder (``args.figures``, from :func:`output_dirs`), made."""
    args.figures.mkdir(parents=True, exist_ok=True)
    return args.figures


def figure(args: argparse.Namespace, filename: str) -> Path:
    """Where the figure ``filename`` of a run goes: in its figures folder."""
    return figures_folder(args) / filename


def either(values) -> str:
    """"0" or "0 or 1": the distinct values a caption states, sorted (None last), as the data records them."""
    return " or ".join(map(str, sorted(set(values), key=lambda v: (v is None, v))))


def markdown_table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def pm(s: dict) -> str:
    """mean ± 95 % half-width."""
    ci = s["ci95"]
    return f"{s['mean']:.3f}" + ("" if ci != ci else f" ± {ci:.3f}")
