"""Timings of the README's main job and of the ``ga`` solver per game, as ratios to the greedy
bench timed in the same run.

    EVO_WORDLE_CACHE=/tmp/cache1 python experiments/main_job_timing.py [--repeat 3] [--games 300] [--out DIR]

* main job: ``evo-wordle compare --solvers greedy,ga --opener tales --seed 0 --jobs 2`` as a
  subprocess, warm (the pattern table cached): wall seconds, CPU seconds of all its processes
  (user + sys) and the peak resident memory of its largest process;
* ``ga`` per game: ``run_bench`` in this process on a seeded sample of ``--games`` answers
  (seed 0): wall and CPU milliseconds per game.

Each repeat runs right after the reference (greedy TALES, all answers, one process; see
``_timing.py``): median, min and max, the load average and the median ratio.  Goals (issue
16): main job ≤ 8 s warm on 2 cores, ``ga`` ≤ 3 ms per game, peak RSS ≤ 400 MB.
Writes DIR/main_job_timing.json (default experiments/out/main_job_timing/).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

from _study import add_output_args, output_dirs, write_json
from _timing import Reference, header, line, load_average, paired

from evo_wordle import Context
from evo_wordle.bench import run_bench, sample_answers
from evo_wordle.game import Settings

MAIN_JOB = ["compare", "--solvers", "greedy,ga", "--opener", "tales", "--seed", "0", "--jobs", "2", "--quiet"]


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing (default 3)")
    parser.add_argument("--games", type=int, default=300, help="answers in the per-game sample (default 300)")
    add_output_args(parser, "main_job_timing")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    ctx = Context()
    facts = header(ctx)
    answers = sample_answers(ctx.words.answer_index, args.games, 0)
    run_bench(ctx, "ga", Settings(), answers[:5], seed=0)  # warm the GA's caches
    ref = Reference(ctx)

    cpu: list[float] = []

    def ga_sample() -> None:
        start = time.process_time()
        run_bench(ctx, "ga", Settings(), answers, seed=0)
        cpu.append(time.process_time() - start)

    per_game = paired(f"ga, {args.games} answers, 1 process", ga_sample, ref, args.repeat, games=args.games)
    per_game.update(ms_per_game=1000 * per_game["median"] / args.games,
                    cpu_ms_per_game=1000 * statistics.median(cpu) / args.games)
    print(line(per_game))
    print(f"  ga per game: {per_game['ms_per_game']:.2f} ms wall, {per_game['cpu_ms_per_game']:.2f} ms CPU (medians)")

    command = [sys.executable, "-m", "evo_wordle", *MAIN_JOB]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)  # warm: caches built, files in the page cache
    job_cpu: list[float] = []

    def job() -> None:
        before = _children_cpu()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        job_cpu.append(_children_cpu() - before)

    main_job = paired("main job: evo-wordle " + " ".join(MAIN_JOB), job, ref, args.repeat)
    main_job.update(cpu_seconds=statistics.median(job_cpu),
                    peak_rss_mb=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
    print(line(main_job))
    print(f"  main job: {main_job['cpu_seconds']:.1f} s CPU (median), peak RSS {main_job['peak_rss_mb']:.0f} MB")
    reference = ref.summary()
    print(line(reference))
    write_json(results / "main_job_timing.json", {**facts, "load_after": load_average(), "reference": reference,
                                                  "rows": [per_game, main_job]})


if __name__ == "__main__":
    main()
