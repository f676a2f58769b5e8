"""Strategy files that share one train/validation/test split, compared game by game on a part.

Each file plays the part of its recorded split (``--part``, default test) in its own game; the
files must record the same split (seed and words) and the same settings, so the rows are like
for like.  Each row gives the mean, its standard error, and the paired difference with the
first file (mean and 95 % interval over the same answers, ``evo_wordle.stats.paired``).

    python experiments/split_compare.py p0-plan p0-fitted p0-evolved p0-lookahead [--part test] [--out DIR]

Writes split_compare.json and split_compare.md to --out DIR (default experiments/out/split_compare/).
Deterministic: strategy files play deterministically.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _study import add_output_args, markdown_table, output_dirs, write_report

from evo_wordle import Context
from evo_wordle.artefacts import settings_of
from evo_wordle.bench import run_bench
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.strategy import read_strategy_file
from evo_wordle.split import recorded_split
from evo_wordle.stats import paired

PARTS = ("train", "validation", "test")


def fail(message: str) -> None:
    """Bad input: one line on stderr, exit 2."""
    print(f"split_compare.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def compare(ctx: Context, names: list[str], part: str) -> dict:
    """Each file's scores on ``part`` of the split they all record, and the paired differences
    with the first; a one-line EvoWordleError when the files do not share split and settings."""
    files = [read_strategy_file(n) for n in names]
    first = files[0]
    for name, f in zip(names, files):
        if f.made_for is None:
            raise EvoWordleError(f"{name} records no settings (made_for): its game is unknown")
        if f.provenance.get("split") is None:
            raise EvoWordleError(f"{name} records no train/validation/test split")
        if f.made_for != first.made_for:
            raise EvoWordleError(f"{name} was made for another game or other lists than {names[0]}")
        if f.provenance["split"] != first.provenance["split"]:
            raise EvoWordleError(f"{name} records another split than {names[0]}")
    settings = settings_of(first.made_for, names[0])
    split = recorded_split(first.provenance["split"], ctx.words, names[0])
    answers = getattr(split, part)
    scores = [run_bench(ctx, "strategy", settings, answers, 0, {"strategy": f.path}).scores() for f in files]
    rows = []
    for name, s in zip(names, scores):
        d = None if s is scores[0] else paired(scores[0], s)
        rows.append({"strategy": name, "games": int(len(s)), "mean": round(float(s.mean()), 4),
                     "se": round(float(s.std(ddof=1) / np.sqrt(len(s))), 4),
                     "first_minus": None if d is None else round(d["mean"], 4),
                     "first_minus_ci95": None if d is None else round(d["ci95"], 4)})
    return {"part": part, "split_seed": split.seed, "settings": first.made_for, "rows": rows}


def markdown(out: dict) -> str:
    """split_compare.md from the JSON main() writes beside it (:func:`compare`'s result), so a
    test rebuilds the tracked table from the tracked JSON."""
    first, part = out["rows"][0]["strategy"], out["part"]
    table = markdown_table(
        ["strategy", f"{part} mean ± s.e. ({out['rows'][0]['games']} answers)", f"paired: {first} minus it"],
        [[r["strategy"], f"{r['mean']:.4f} ± {r['se']:.4f}",
          "–" if r["first_minus"] is None else f"{r['first_minus']:+.4f} ± {r['first_minus_ci95']:.4f}"]
         for r in out["rows"]])
    s = out["settings"]
    caption = (f"Split seed {out['split_seed']}, {part} answers; every file in its own game: candidates "
               f"{s['candidates']}, guesses from {s['guess_from']}, {'hard' if s['hard'] else 'normal'} mode, "
               f"answer list {s['answers']}. ± after a difference: 95 % interval over the same answers.")
    return f"{table}\n\n{caption}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("strategies", nargs="+", metavar="FILE", help="strategy files (paths or shipped names)")
    ap.add_argument("--part", choices=PARTS, default="test", help="part of the split to play (default: test)")
    add_output_args(ap, "split_compare")
    args = ap.parse_args()
    if len(args.strategies) < 2:
        fail("give at least two strategy files to compare")
    res, _ = output_dirs(args)
    try:
        out = compare(Context(), args.strategies, args.part)
    except EvoWordleError as exc:
        fail(str(exc))
    write_report(res, "split_compare", out, markdown(out))


if __name__ == "__main__":
    main()
