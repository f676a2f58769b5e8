"""Cached pattern-table load time (map + verify), median and spread over repeats, with the load.

    python experiments/cache_load.py [--repeats 21] [--cache DIR] [--out DIR]

Each repeat runs ``load_table`` on the bundled lists in a fresh process (the table file stays
in the page cache, as on any second run): once as every command does (the checksum is skipped
while the table's stamp matches, see docs/foundation.md), then with ``verify=True`` (the whole
file hashed, as ``evo-wordle table`` does).  The reference, measured in the same processes, is
one plain pass over the mapped file (``sum`` of its 64-bit words): the ratios (the median of
each process's own ratio, both times taken under the same load) say what loading costs against
reading the bytes once, whatever the machine's load.  Writes
DIR/cache_load.json (default experiments/out/cache_load/).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from _study import add_output_args, output_dirs, write_json

CHILD = r"""
import json, sys, time
from pathlib import Path
import numpy as np
from evo_wordle.words import load_words
from evo_wordle.table import cache_paths, load_table
words = load_words()
cache = Path(sys.argv[1])
npy, _ = cache_paths(words, cache)
t = time.perf_counter()
raw = np.load(npy, mmap_mode="r")
flat = np.asarray(raw).reshape(-1).view(np.uint8)
int(flat[: len(flat) // 8 * 8].view(np.uint64).sum(dtype=np.uint64))
ref = time.perf_counter() - t
del raw, flat
t = time.perf_counter()
table = load_table(words, cache)
int(table[-1, -1])
seconds = time.perf_counter() - t
del table
t = time.perf_counter()
table = load_table(words, cache, verify=True)
int(table[-1, -1])
full = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "full": full, "reference": ref}))
"""


def paired_ratios(runs: list[dict]) -> tuple[float, float]:
    """The load's and the full check's cost against the reference: the median of each process's
    own ratio (both timed in that process, under the same load), as ``_timing.paired`` pairs its
    runs; the ratio of the medians divided times taken in different processes."""
    return (statistics.median(r["seconds"] / r["reference"] for r in runs),
            statistics.median(r["full"] / r["reference"] for r in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--cache", help="cache folder (default: a fresh temporary one)")
    add_output_args(parser, "cache_load")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or os.path.join(tmp, "cache")
        build = "import sys; from pathlib import Path; from evo_wordle.words import load_words; " \
            "from evo_wordle.table import load_table; load_table(load_words(), Path(sys.argv[1]))"
        subprocess.run([sys.executable, "-c", build, cache], capture_output=True, check=True)
        runs = []
        for _ in range(args.repeats):
            out = subprocess.run([sys.executable, "-c", CHILD, cache], capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout))
    secs = sorted(r["seconds"] for r in runs)
    fulls = sorted(r["full"] for r in runs)
    refs = sorted(r["reference"] for r in runs)
    fq = statistics.quantiles(fulls, n=4)
    full = statistics.median(fulls)
    q = statistics.quantiles(secs, n=4)
    load = os.getloadavg()[0]
    med, ref = statistics.median(secs), statistics.median(refs)
    print(f"cached load_table (12,972^2): median {med * 1000:.1f} ms, quartiles {q[0] * 1000:.1f}-{q[2] * 1000:.1f} ms,"
          f" min {secs[0] * 1000:.1f} ms over {len(secs)} processes")
    print(f"full check (verify=True, every byte hashed): median {full * 1000:.1f} ms, "
          f"quartiles {fq[0] * 1000:.1f}-{fq[2] * 1000:.1f} ms, min {fulls[0] * 1000:.1f} ms")
    ratio, full_ratio = paired_ratios(runs)
    print(f"reference (one pass over the mapped file): median {ref * 1000:.1f} ms; "
          f"ratio {ratio:.2f} (full check {full_ratio:.2f}; medians of each process's own ratios)")
    print(f"load average (1 min): {load:.2f}")
    write_json(results / "cache_load.json", {
        "median": med, "quartiles": [q[0], q[2]], "min": secs[0], "max": secs[-1], "repeats": len(secs),
        "full_median": full, "full_quartiles": [fq[0], fq[2]], "full_ratio": full_ratio,
        "reference_median": ref, "ratio": ratio, "load": load, "seconds": secs, "full": fulls,
        "reference": refs})


if __name__ == "__main__":
    main()
