"""Timings of the README's main job and of the ``ga`` solver per game, under whatever load.

    EVO_WORDLE_CACHE=/tmp/cache1 python experiments/main_job_timing.py [--repeat 5] [--games 300]

The machine is shared, so every figure comes with its spread, the load average and a ratio
to a reference measured in the same run, interleaved with it (so both see the same load):

* main job: ``evo-wordle compare --solvers greedy,ga --opener tales --seed 0 --jobs 2`` as a
  subprocess, warm (pattern table cached); wall seconds, CPU seconds (user + sys, all
  processes) and the peak resident memory of any one process.  Reference: the greedy bench
  ``evo-wordle bench --solver greedy --opener tales --jobs 1`` (startup and one full bench).
* ``ga`` per game: ``run_bench`` in this process on a seeded sample of ``--games`` answers
  (seed 0), CPU and wall milliseconds per game.  Reference: greedy on all answers.

Prints medians with [min–max]; nothing is written.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

MAIN_JOB = ["compare", "--solvers", "greedy,ga", "--opener", "tales", "--seed", "0", "--jobs", "2"]
REFERENCE = ["bench", "--solver", "greedy", "--opener", "tales", "--jobs", "1"]


def _cli(args: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``evo-wordle`` run as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "evo_wordle", *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _spread(values: list[float], fmt: str = "{:.2f}") -> str:
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}–{fmt.format(max(values))}]"


def main_job(repeat: int) -> None:
    _cli(["table"])  # the cache is warm from here on
    rows: dict[str, list[float]] = {"job wall": [], "job cpu": [], "ref wall": [], "ref cpu": []}
    loads = [os.getloadavg()[0]]
    for _ in range(repeat):
        wall, cpu = _cli(MAIN_JOB)
        rows["job wall"].append(wall)
        rows["job cpu"].append(cpu)
        wall, cpu = _cli(REFERENCE)
        rows["ref wall"].append(wall)
        rows["ref cpu"].append(cpu)
        loads.append(os.getloadavg()[0])
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    ratio = [j / r for j, r in zip(rows["job wall"], rows["ref wall"])]
    print(f"main job  (evo-wordle {' '.join(MAIN_JOB)}), {repeat} warm runs:")
    print(f"  wall {_spread(rows['job wall'])} s, CPU {_spread(rows['job cpu'])} s, peak RSS {peak:.0f} MB")
    print(f"  reference (evo-wordle {' '.join(REFERENCE)}): wall {_spread(rows['ref wall'])} s, "
          f"CPU {_spread(rows['ref cpu'])} s")
    print(f"  wall ratio main job / reference: {_spread(ratio)}")
    print(f"  load average (1 min) during: {_spread(loads)} on {os.cpu_count()} CPUs")


def per_game(repeat: int, games: int) -> None:
    from evo_wordle import Context
    from evo_wordle.bench import run_bench, sample_answers
    from evo_wordle.game import Settings

    ctx = Context()
    answers = sample_answers(ctx.words.answer_index, games, 0)
    run_bench(ctx, "greedy", Settings(), seed=0)  # warm every cache both solvers use
    run_bench(ctx, "ga", Settings(), answers[:5], seed=0)
    ga_cpu, ga_wall, ref_cpu, ratio = [], [], [], []
    loads = [os.getloadavg()[0]]
    for _ in range(repeat):
        cpu = time.process_time()
        run_bench(ctx, "greedy", Settings(), seed=0)
        ref = (time.process_time() - cpu) * 1000 / len(ctx.words.answer_index)
        cpu, wall = time.process_time(), time.perf_counter()
        run_bench(ctx, "ga", Settings(), answers, seed=0)
        ga_cpu.append((time.process_time() - cpu) * 1000 / games)
        ga_wall.append((time.perf_counter() - wall) * 1000 / games)
        ref_cpu.append(ref)
        ratio.append(ga_cpu[-1] / ref)
        loads.append(os.getloadavg()[0])
    print(f"ga per game ({games} answers, seed 0, one process), {repeat} runs:")
    print(f"  CPU {_spread(ga_cpu)} ms, wall {_spread(ga_wall)} ms")
    print(f"  reference greedy (all {len(ctx.words.answer_index)} answers): CPU {_spread(ref_cpu, '{:.3f}')} ms/game")
    print(f"  CPU ratio ga / greedy: {_spread(ratio, '{:.1f}')}")
    print(f"  load average (1 min) during: {_spread(loads)} on {os.cpu_count()} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each timing (default 5)")
    parser.add_argument("--games", type=int, default=300, help="answers in the per-game sample (default 300)")
    parser.add_argument("--skip-main-job", action="store_true", help="only the per-game timing")
    args = parser.parse_args()
    per_game(args.repeat, args.games)
    if not args.skip_main_job:
        main_job(args.repeat)


if __name__ == "__main__":
    main()
