"""Pattern-table speed: build time, peak memory and cached-load time, each in a fresh process.

Goals on the 2-core reference machine: build ≤ 2 s wall with ≤ 400 MB peak RSS, load ≤ 0.2 s.
Usage: python experiments/table_benchmark.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        builds = [measure(cache, "build") for _ in range(args.repeats)]
        loads = [measure(cache, "load") for _ in range(args.repeats)]
    build_s = statistics.median(b["seconds"] for b in builds)
    peak = max(b["peak_mb"] for b in builds)
    load_s = statistics.median(x["seconds"] for x in loads)
    print(f"build (12,972^2, incl. write + checksum): median {build_s:.3f} s   goal 2 s   ratio {build_s / 2:.2f}")
    print(f"peak RSS of the building process:        max    {peak:.0f} MB  goal 400 MB")
    print(f"load cached table (mapped, checksummed): median {load_s:.3f} s   goal 0.2 s ratio {load_s / 0.2:.2f}")
    print(f"thesis builder for comparison: 215 s and 4.7 GB peak ({215 / build_s:.0f}x slower)")


if __name__ == "__main__":
    main()
