"""SIGKILL the main process of `bench --jobs 2`, `sweep --jobs 2` and `sweep --executor dask`
part-way, then measure how long its workers outlive it and whether the sweep's re-run resumes to
the uninterrupted result; with ``--sigint N``, also send Ctrl-C (SIGINT) to ``bench`` at N random
moments of its first second (imports included) and count the outcomes.  Prints one line per trial
and a summary, and writes them to OUT/kill_faults.json (default experiments/out/kill_faults/,
untracked).

    python experiments/kill_faults.py --trials 5 [--sigint 60] [--no-dask]
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _study import add_output_args, output_dirs, write_json

PY = [sys.executable, "-m", "evo_wordle"]
BENCH = ["bench", "--solver", "ga", "--generations-per-guess", "40", "--games", "2000", "--jobs", "2"]
SWEEP = ["sweep", "--solver", "greedy", "--candidates", "answers", "--set", "max_guesses=6,9",
         "--set", "hard=false,true", "--seeds", "2", "--games", "40", "--quiet", "--jobs", "2"]


def _stat(pid: str) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def live(pred) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            f = _stat(entry)
            if f and f[0] != "Z" and pred(f):
                out.append(int(entry))
    return out


def survive_seconds(pgid: int, limit: float = 30.0) -> float:
    """Seconds until no process of the group is alive (``limit`` if some still are)."""
    t0 = time.monotonic()
    while live(lambda f: int(f[2]) == pgid):
        if time.monotonic() - t0 > limit:
            for pid in live(lambda f: int(f[2]) == pgid):
                os.kill(pid, signal.SIGKILL)
            return limit
        time.sleep(0.01)
    return time.monotonic() - t0


def rows(path: Path) -> dict:
    with open(path, newline="") as fh:
        return {(r["max_guesses"], r["hard"], r["seed"]): (r["mean"], r["histogram"]) for r in csv.DictReader(fh)}


def sigint_trials(n: int, seed: int = 0) -> dict:
    """Ctrl-C ``bench`` at ``n`` random moments of its first second: how many ended in one line and
    exit 130 (or were killed by the signal before Python ran any of the package: exit -2, which a
    shell also reports as 130), and how many printed a traceback."""
    rng = random.Random(seed)
    outcomes = {"one line, exit 130": 0, "killed by SIGINT before evo-wordle's handler (shell: 130)": 0,
                "finished first": 0, "other": 0}
    tracebacks = []
    for _ in range(n):
        # SIGINT back to its default first: a background shell starts its jobs with SIGINT ignored
        proc = subprocess.Popen([*PY, "bench", "--games", "200"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(rng.uniform(0.0, 1.0))
        os.kill(proc.pid, signal.SIGINT)
        err = proc.communicate()[1]
        if proc.returncode == 130 and len(err.strip().splitlines()) == 1:
            outcomes["one line, exit 130"] += 1
        elif proc.returncode == -signal.SIGINT and not err.strip():
            outcomes["killed by SIGINT before evo-wordle's handler (shell: 130)"] += 1
        elif proc.returncode == 0:
            outcomes["finished first"] += 1
        else:
            outcomes["other"] += 1
            tracebacks.append(err[-400:])
    return {"trials": n, "outcomes": outcomes, "unexpected": tracebacks}


def trial(argv: list[str], ready) -> tuple[float, subprocess.Popen]:
    proc = subprocess.Popen([*PY, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    while not ready(proc):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return survive_seconds(proc.pid), proc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--sigint", type=int, default=0, metavar="N", help="also Ctrl-C bench N times")
    parser.add_argument("--no-dask", action="store_true", help="skip the dask sweep trials")
    add_output_args(parser, "kill_faults")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    tmp = Path(tempfile.mkdtemp(prefix="kill-faults-"))
    try:
        ref = tmp / "ref"
        subprocess.run([*PY, *SWEEP, "--out", str(ref)], check=True, capture_output=True)
        bench, sweep, dask, same = [], [], [], 0
        for k in range(args.trials):
            def workers(proc):
                return len(live(lambda f, p=proc.pid: int(f[1]) == p)) >= 2

            seconds, _ = trial(BENCH, lambda p: workers(p) and time.sleep(1.0) is None)
            bench.append(seconds)
            out = tmp / f"s{k}"
            csv_path = out / "results.csv"

            def first_row(proc, path=csv_path):
                return path.exists() and len(path.read_text().splitlines()) >= 2

            seconds, _ = trial([*SWEEP, "--out", str(out)], first_row)
            sweep.append(seconds)
            rerun = subprocess.run([*PY, *SWEEP, "--out", str(out)], capture_output=True, text=True)
            ok = rerun.returncode == 0 and rows(csv_path) == rows(ref / "results.csv")
            same += ok
            if not args.no_dask:
                seconds, _ = trial([*SWEEP, "--executor", "dask", "--out", str(tmp / f"d{k}")],
                                   lambda p: workers(p) and time.sleep(2.0) is None)
                dask.append(seconds)
            print(f"trial {k}: dask sweep workers outlived it by {dask[-1] if dask else float('nan'):.2f} s; "
                  f"bench workers outlived the main process by {bench[-1]:.2f} s; sweep workers by "
                  f"{sweep[-1]:.2f} s; re-run exit {rerun.returncode}, same rows as uninterrupted: {ok}")
        print(f"bench --jobs 2: max {max(bench):.2f} s until no worker is left ({args.trials} SIGKILLs)")
        print(f"sweep --jobs 2: max {max(sweep):.2f} s until no worker is left; {same}/{args.trials} re-runs "
              "resumed to the uninterrupted rows")
        if dask:
            print(f"sweep --executor dask --jobs 2: max {max(dask):.2f} s until no worker is left")
        sigint = sigint_trials(args.sigint) if args.sigint else None
        if sigint:
            print(f"Ctrl-C in bench's first second, {sigint['trials']} times: {sigint['outcomes']}")
            for text in sigint["unexpected"]:
                print("unexpected:", text)
        print(f"load average: {os.getloadavg()[0]:.1f}")
        write_json(results / "kill_faults.json", {
            "bench_command": " ".join(["evo-wordle", *BENCH]), "sweep_command": " ".join(["evo-wordle", *SWEEP]),
            "trials": args.trials, "bench_seconds_until_no_worker": bench, "sweep_seconds_until_no_worker": sweep,
            "dask_sweep_seconds_until_no_worker": dask, "sigint": sigint,
            "resumed_to_uninterrupted_rows": same, "load_average": os.getloadavg()[0],
        })
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
