"""SIGKILL the main process of `bench --jobs 2` and `sweep --jobs 2` part-way, then measure how
long its pool workers outlive it and whether the sweep's re-run resumes to the uninterrupted
result.  Prints one line per trial and a summary, and writes them to OUT/kill_faults.json
(default experiments/out/kill_faults/, untracked).

    python experiments/kill_faults.py --trials 5
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _study import add_output_args, output_dirs, write_json

PY = [sys.executable, "-m", "evo_wordle"]
BENCH = ["bench", "--solver", "ga-thesis", "--games", "2000", "--jobs", "2"]
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
    add_output_args(parser, "kill_faults")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    tmp = Path(tempfile.mkdtemp(prefix="kill-faults-"))
    try:
        ref = tmp / "ref"
        subprocess.run([*PY, *SWEEP, "--out", str(ref)], check=True, capture_output=True)
        bench, sweep, same = [], [], 0
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
            print(f"trial {k}: bench workers outlived the main process by {bench[-1]:.2f} s; sweep workers by "
                  f"{sweep[-1]:.2f} s; re-run exit {rerun.returncode}, same rows as uninterrupted: {ok}")
        print(f"bench --jobs 2: max {max(bench):.2f} s until no worker is left ({args.trials} SIGKILLs)")
        print(f"sweep --jobs 2: max {max(sweep):.2f} s until no worker is left; {same}/{args.trials} re-runs "
              "resumed to the uninterrupted rows")
        print(f"load average: {os.getloadavg()[0]:.1f}")
        write_json(results / "kill_faults.json", {
            "bench_command": " ".join(["evo-wordle", *BENCH]), "sweep_command": " ".join(["evo-wordle", *SWEEP]),
            "trials": args.trials, "bench_seconds_until_no_worker": bench, "sweep_seconds_until_no_worker": sweep,
            "resumed_to_uninterrupted_rows": same, "load_average": os.getloadavg()[0],
        })
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
