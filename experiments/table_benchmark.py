"""Pattern-table speed: build time, peak memory and cached-load time, each in a fresh process.

Goals on the 2-core reference machine: build ≤ 2 s wall with ≤ 400 MB peak RSS, load ≤ 0.2 s.
Each time is a median over the repeats with its min and max, the load average, and its ratio
to the greedy bench (TALES, one process) timed in the same run.  Writes
DIR/table_benchmark.json (default experiments/out/table_benchmark/).
Usage: python experiments/table_benchmark.py [--repeats 5] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile

from _study import add_output_args, output_dirs, write_json
from _timing import Reference, header, line, load_average

from evo_wordle import Context

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from evo_wordle.words import load_words
from evo_wordle.table import load_table
words = load_words()
cache = Path(sys.argv[1])
start = time.perf_counter()
table = load_table(words, cache, rebuild=sys.argv[2] == "build")
int(table[-1, -1])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(cache: str, mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, cache, mode], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def stats(label: str, runs: list[dict], bases: list[float], load: float) -> dict:
    """Median, spread and the median ratio to the reference run paired with each measurement."""
    secs = [r["seconds"] for r in runs]
    ratios = [s / b for s, b in zip(secs, bases)]
    return {"label": label, "median": statistics.median(secs), "min": min(secs), "max": max(secs),
            "repeats": len(secs), "seconds": secs, "load": load, "ratio": statistics.median(ratios),
            "ratio_min": min(ratios), "ratio_max": max(ratios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    add_output_args(parser, "table_benchmark")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    ctx = Context()
    facts = header(ctx)
    ref = Reference(ctx)
    with tempfile.TemporaryDirectory() as cache:
        build_bases, builds = zip(*[(ref.once(), measure(cache, "build")) for _ in range(args.repeats)])
        load_bases, loads = zip(*[(ref.once(), measure(cache, "load")) for _ in range(args.repeats)])
    load = max(facts["load_before"], load_average())
    build = stats("build (12,972^2, incl. write + checksum), fresh process", builds, build_bases, load)
    cached = stats("load cached table (mapped, checksummed), fresh process", loads, load_bases, load)
    reference = ref.summary()
    print(line(reference))
    peak = max(b["peak_mb"] for b in builds)
    print(line(build) + "  goal 2 s")
    print(line(cached) + "  goal 0.2 s")
    print(f"peak RSS of the building process: max {peak:.0f} MB (goal 400 MB)")
    print(f"thesis builder for comparison: 215 s and 4.7 GB peak ({215 / build['median']:.0f}x slower)")
    write_json(results / "table_benchmark.json", {**facts, "load_after": load_average(), "reference": reference,
                                                  "rows": [build, cached], "peak_mb": peak})


if __name__ == "__main__":
    main()
