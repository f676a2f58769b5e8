"""Regenerate the figures the docs quote, from the registry (experiments/figures.toml).

    python experiments/reproduce.py --out DIR            # every run; DIR/figures.json holds the values
    python experiments/reproduce.py --quick --check      # the < 5 min subset; exit 1 on any difference
    python experiments/reproduce.py --only greedy-tales naive-tares --check
    python experiments/reproduce.py --only evolved --write-docs   # store new values, rewrite the docs
    python experiments/reproduce.py --from DIR --write-docs       # same, from an earlier --out DIR
    python experiments/reproduce.py --docs-only --write-docs      # docs from the registry, no run

Without --write-docs no tracked file changes (checked with `git status` before and after).
--check compares every regenerated figure with the registered value (the one the docs
print) within its tolerance, and every doc marker with the registry, and names each
difference.  --write-docs stores the measured values in the registry, copies the runs'
tracked outputs (tables, figures) into place and rewrites every marker in the docs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import registry as reg_mod
from registry import ROOT, Registry, RegistryError, extract, numbers_differ

from evo_wordle.files import atomic_write_bytes, atomic_write_text


def git_status() -> str | None:
    try:
        out = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout


def argv_of(command: str, run_dir: Path) -> list[str]:
    """The command's argv with ``{out}`` filled in; ``evo-wordle`` and ``python`` run in this interpreter."""
    argv = [a.replace("{out}", str(run_dir)) for a in shlex.split(command)]
    if argv[0] == "evo-wordle":
        return [sys.executable, "-m", "evo_wordle", *argv[1:]]
    if argv[0] == "python":
        return [sys.executable, *argv[1:]]
    return argv


def do_run(run: reg_mod.Run, out: Path, log) -> dict:
    """Run one registered command into ``out/runs/ID``; returns its record (parsed JSON or an error)."""
    run_dir = out / "runs" / run.id
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    argv = argv_of(run.command, run_dir)
    load_before = os.getloadavg()[0]
    cpu_before = machine_and_own_cpu()
    start = time.perf_counter()
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "experiments"), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    atomic_write_text(run_dir / "stdout.txt", proc.stdout)
    atomic_write_text(run_dir / "stderr.txt", proc.stderr)
    record = {"command": run.command, "argv": argv, "returncode": proc.returncode, "seconds": round(seconds, 1),
              "load_before": load_before, "load_after": os.getloadavg()[0]}
    cpu_after = machine_and_own_cpu()
    if cpu_before and cpu_after and seconds > 0:
        machine, own = (a - b for a, b in zip(cpu_after, cpu_before))
        record["foreign_load"] = round(max(0.0, machine - own) / seconds, 2)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["(no message)"]
        record["error"] = f"exit {proc.returncode}: {tail[0]}"
    print(f"  {run.id}: {seconds:.1f} s{'  FAILED ' + record['error'] if 'error' in record else ''}", file=log,
          flush=True)
    return record


def run_data(run: reg_mod.Run, out: Path, file: str | None = None):
    path = out / "runs" / run.id / (file or ("stdout.txt" if run.output == "stdout" else run.output))
    return reg_mod.read_json(path)


def measure(reg: Registry, runs: list[reg_mod.Run], out: Path, records: dict) -> tuple[dict, list[str]]:
    """Measured value of every figure of these runs, and the problems met reading them."""
    values = {}
    problems = [f"run {run.id} failed ({records[run.id]['error']}): {run.command}"
                for run in runs if "error" in records.get(run.id, {})]
    ids = {r.id for r in runs if "error" not in records.get(r.id, {})}
    for fig in reg.figures.values():
        if fig.run not in ids:
            continue
        try:
            values[fig.id] = extract(run_data(reg.runs[fig.run], out, fig.file), fig.key, fig.id) * fig.scale
        except (OSError, ValueError) as exc:
            problems.append(f"{fig.id}: {exc}")
    return values, problems


def compare(reg: Registry, runs: list[reg_mod.Run], out: Path, values: dict) -> list[str]:
    """Every regenerated figure or table that differs from what the registry (and so the docs) says."""
    problems = []
    for fid, v in values.items():
        fig = reg.figures[fid]
        if not fig.agrees(v):
            problems.append(f"{fid}: docs say {fig.text()}, regenerated {fig.text(v)} "
                            f"(tolerance {fig.tolerance_text()}; {reg.runs[fig.run].command})")
    ids = {r.id for r in runs}
    for tab in reg.tables.values():
        if tab.run not in ids:
            continue
        new, old = out / "runs" / tab.run / tab.file, ROOT / tab.tracked
        if not new.exists():
            problems.append(f"{tab.id}: run {tab.run} wrote no {tab.file}")
            continue
        why = numbers_differ(new.read_text(), old.read_text(), tab.tol_units) if old.exists() else "not tracked"
        if why:
            problems.append(f"{tab.id}: regenerated {tab.file} differs from {tab.tracked}: {why}")
    return problems


#: Cores' worth of CPU that other processes may use, on average, while a speed run is timed.
FOREIGN_LIMIT = 0.5


def machine_and_own_cpu() -> tuple[float, float] | None:
    """CPU seconds used so far by the whole machine (busy and stolen time, from psutil) and by
    this process with every child it has waited for; None without psutil (the ``test`` extra
    has it)."""
    try:
        import psutil
    except ImportError:
        return None
    t, me = psutil.cpu_times(), os.times()
    machine = t.user + t.system + sum(getattr(t, f, 0.0) for f in ("nice", "irq", "softirq", "steal"))
    return machine, me.user + me.system + me.children_user + me.children_system


def too_busy(reg: Registry, runs: list[reg_mod.Run], records: dict, cpus: int | None = None) -> dict[str, str]:
    """Runs holding speed figures (``factor``) timed while other work used the cores, by id, with
    the reason.  Other work shares the cores with the timed code and the one-process reference
    unevenly (at load 3.7 on 2 cores the ``--jobs 2`` ratios came out twice the quiet ones, still
    inside a factor 3), so their figures are not stored in the docs.  Measured during the run:
    the CPU other processes used (machine minus this run's own processes) over the wall time,
    above ``FOREIGN_LIMIT`` cores; for a record without that measure, a start above the cores'
    load average."""
    cpus = cpus or os.cpu_count() or 1
    timed = {f.run for f in reg.figures.values() if f.factor is not None}
    busy = {}
    for r in (r for r in runs if r.id in timed):
        rec = records.get(r.id) if isinstance(records.get(r.id), dict) else {}
        foreign, start = _number(rec.get("foreign_load")), _number(rec.get("load_before"))
        if foreign is not None:
            if foreign > FOREIGN_LIMIT:
                busy[r.id] = f"other processes used {foreign:.2f} cores on average while it ran (limit {FOREIGN_LIMIT})"
        elif start is None:
            busy[r.id] = "its record holds no load measured while it ran"
        elif start > cpus:
            busy[r.id] = f"the run started at load {start:.2f} on {cpus} cores"
    return busy


def _number(value) -> float | None:
    """A finite number read from a record (which may come from someone else's --from folder), else None."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else None


def write_docs(reg: Registry, runs: list[reg_mod.Run], out: Path, values: dict, path: Path) -> None:
    """Store measured values in the registry ``path``, copy tracked outputs, rewrite the docs' markers."""
    if values:
        reg_mod.set_values({fid: round(v, reg.figures[fid].digits + 3) for fid, v in values.items()}, path)
    for run in runs:
        for src, dst in run.outputs.items():
            produced = out / "runs" / run.id / src
            if produced.exists():
                (ROOT / dst).parent.mkdir(parents=True, exist_ok=True)
                atomic_write_bytes(ROOT / dst, produced.read_bytes())
                print(f"wrote {dst}")
    for doc in reg_mod.render_docs(reg_mod.load(path)):
        print(f"wrote {doc.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="folder for the runs and figures.json (default: a temporary one)")
    ap.add_argument("--quick", action="store_true", help="only the runs marked quick (< 5 min on 2 cores)")
    ap.add_argument("--only", nargs="+", metavar="ID", help="only the runs these figures/tables/runs need")
    ap.add_argument("--check", action="store_true", help="exit 1 naming every figure that differs from the docs")
    ap.add_argument("--write-docs", action="store_true", help="store the measured values and rewrite the docs")
    ap.add_argument("--accept-load", action="store_true",
                    help="with --write-docs, store speed figures even from runs that started on a busy machine")
    ap.add_argument("--from", dest="source", type=Path, metavar="DIR", help="read an earlier --out DIR, run nothing")
    ap.add_argument("--docs-only", action="store_true", help="run nothing; with --write-docs render the docs")
    ap.add_argument("--list", action="store_true", help="list the registered figures and exit")
    ap.add_argument("--registry", type=Path, default=reg_mod.REGISTRY, help="the registry file (default: %(default)s)")
    args = ap.parse_args(argv)
    try:
        reg = reg_mod.load(args.registry)
        runs = reg.runs_for(args.only, args.quick)
    except (RegistryError, OSError) as exc:
        print(f"reproduce: error: {exc}", file=sys.stderr)
        return 2
    if args.list:
        for fig in reg.figures.values():
            quick = "quick" if reg.runs[fig.run].quick else "     "
            print(f"{fig.id:40s} {fig.text():>10s}  {quick}  {reg.runs[fig.run].command}")
        for tab in reg.tables.values():
            print(f"{tab.id:40s} {'table':>10s}  {'quick' if reg.runs[tab.run].quick else '     '}  {tab.tracked}")
        return 0
    if args.out and args.out.resolve().is_relative_to(ROOT) and not args.out.resolve().is_relative_to(
            ROOT / "experiments" / "out"):
        print(f"reproduce: error: --out {args.out} is inside the repository; use a folder outside it "
              "or under experiments/out/", file=sys.stderr)
        return 2

    doc_problems = reg_mod.doc_problems(reg)
    read_problems: list[str] = []
    diffs: list[str] = []
    values: dict = {}
    records: dict = {}
    before = git_status()
    tmp = None
    if args.docs_only:
        runs = []
    elif args.source:
        out = args.source
        try:
            summary = reg_mod.read_json(out / "figures.json")
            records = summary["runs"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"reproduce: error: --from {out} holds no usable figures.json of an earlier --out run "
                  f"({type(exc).__name__}: {exc})", file=sys.stderr)
            return 2
        runs = [r for r in runs if r.id in records]
    else:
        out = args.out or Path(tmp := tempfile.mkdtemp(prefix="reproduce-"))
        out.mkdir(parents=True, exist_ok=True)
        print(f"running {len(runs)} commands into {out} (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
        start = time.perf_counter()
        for run in runs:
            records[run.id] = do_run(run, out, sys.stderr)
        print(f"done in {time.perf_counter() - start:.1f} s (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
    if runs:
        values, read_problems = measure(reg, runs, out, records)
        diffs = compare(reg, runs, out, values)
        if not args.source:
            summary = {"figures": {fid: {"measured": v, "registered": reg.figures[fid].value,
                                         "text": reg.figures[fid].text(v), "run": reg.figures[fid].run,
                                         "command": reg.runs[reg.figures[fid].run].command}
                                   for fid, v in values.items()},
                       "runs": records}
            atomic_write_text(out / "figures.json", json.dumps(summary, indent=1) + "\n")
            if tmp is None:
                print(f"wrote {out / 'figures.json'}", file=sys.stderr)
    after = git_status()
    if before is not None and after != before:
        read_problems.append("a run changed tracked files: " + after.strip().replace("\n", "; "))
    busy: dict[str, str] = {}
    if args.write_docs:
        busy = {} if args.accept_load else too_busy(reg, runs, records)
        for rid, why in busy.items():
            read_problems.append(f"{rid}: speed figures not stored: {why}; "
                                 "rerun it on a quieter machine (or --accept-load)")
        runs = [r for r in runs if r.id not in busy]
        values = {fid: v for fid, v in values.items() if reg.figures[fid].run not in busy}
        write_docs(reg, runs, out if runs else Path("."), values, args.registry)
        doc_problems, diffs = reg_mod.doc_problems(reg_mod.load(args.registry)), []
    problems = doc_problems + read_problems + diffs
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    for p in problems:
        print(f"DIFFERS {p}" if args.check else f"note: {p}", file=sys.stderr)
    n = len(values)
    if args.check:
        print(f"check: {n} figures regenerated, {len(problems)} differ" + ("" if problems else " — all agree"))
        return 1 if problems else 0
    return 1 if busy else 0  # asked to write figures it would not store


if __name__ == "__main__":
    sys.exit(main())
