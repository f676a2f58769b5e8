"""Concurrent pattern-table builders: how many succeed, and is the table they leave valid?

    python experiments/cache_stress.py [--rounds 10] [--builders 8] [--words 1500] [--out DIR]

Each round starts ``--builders`` processes at once on one cache folder, in three situations:
``cold`` (no table yet), ``rebuild`` (every process forces a rebuild) and ``damaged`` (the
table file is emptied first).  A builder succeeds if it exits 0 and its table equals the one
built in this process; the folder must then hold one valid table and no temporary file.
Writes DIR/cache_stress.json (default experiments/out/cache_stress/).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _study import add_output_args, output_dirs, write_json

from evo_wordle.table import build_table, cache_paths, load_table
from evo_wordle.words import load_words

CHILD = r"""
import sys
from pathlib import Path
from evo_wordle.table import load_table
from evo_wordle.words import load_words
t = load_table(load_words(allowed=sys.argv[1]), Path(sys.argv[2]), rebuild=sys.argv[3] == "rebuild")
print(int(t.sum(dtype="int64")))
"""


def round_(allowed: Path, cache: Path, mode: str, builders: int, expected: int) -> dict:
    words = load_words(allowed=allowed)
    if mode != "cold":
        load_table(words, cache)
    if mode == "damaged":
        cache_paths(words, cache)[0].write_bytes(b"")
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(allowed), str(cache),
                               "rebuild" if mode == "rebuild" else "load"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(builders)]
    ok = 0
    for p in procs:
        out, _ = p.communicate()
        ok += p.returncode == 0 and out.strip() == str(expected)
    valid = int(np.asarray(load_table(words, cache)).sum(dtype=np.int64)) == expected
    temps = [n for n in os.listdir(cache) if n.endswith(".tmp")]
    return {"mode": mode, "builders": builders, "succeeded": ok, "valid_table": valid, "temp_files": len(temps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--builders", type=int, default=8)
    parser.add_argument("--words", type=int, default=1500)
    add_output_args(parser, "cache_stress")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        allowed = Path(tmp) / "allowed.txt"
        allowed.write_text("\n".join(load_words().allowed[: args.words]) + "\n")
        expected = int(build_table(load_words(allowed=allowed).letters).sum(dtype=np.int64))
        for r in range(args.rounds):
            for mode in ("cold", "rebuild", "damaged"):
                runs.append({"round": r, **round_(allowed, Path(tmp) / f"cache-{r}-{mode}", mode,
                                                  args.builders, expected)})
    for mode in ("cold", "rebuild", "damaged"):
        mine = [x for x in runs if x["mode"] == mode]
        print(f"{mode:8s} {sum(x['succeeded'] for x in mine)}/{sum(x['builders'] for x in mine)} builders "
              f"succeeded; valid table {sum(x['valid_table'] for x in mine)}/{len(mine)} rounds; "
              f"temp files left {sum(x['temp_files'] for x in mine)}")
    write_json(results / "cache_stress.json", runs)


if __name__ == "__main__":
    main()
