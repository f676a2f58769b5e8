"""Opening words ranked by their optimal trees: the registered `rank --by tree` run.

Runs ``evo-wordle rank --by tree --candidates answers --answers original --top 10 --screen 20
--jobs 2`` (the original 2,315 answers, answers known, any allowed guess, every answer within 6;
the default prescreen: the 200 best by the partition bound get a quick one-proposal tree, the
20 best by those totals an exhaustive one) and writes the ranking as a Markdown table with each
opener's quick total beside its optimum.

Usage: python experiments/rank_openers.py [--answers original] [--out DIR]
(≈ 2.5 min at load 2–4).  Writes rank_openers.{json,md} under --out (default
experiments/out/rank_openers, untracked); --write-docs writes them into experiments/results/.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile

from _study import add_output_args, output_dirs, write_json, write_text


def markdown(result: dict) -> str:
    """rank_openers.md from the JSON main() writes beside it (``evo-wordle rank --json``), so a test
    rebuilds the tracked table from the tracked JSON."""
    quick = {r["opener"]: r["quick_total"] for r in result["prescreen"]}
    rows = ["| rank | opener | total (optimal) | mean | worst | quick tree |", "|---|---|---|---|---|---|"]
    rows += [f"| {r['rank']} | {r['opener'].upper()} | {r['total_guesses']} | {r['mean_guesses']:.4f} | "
             f"{r['max_guesses']} | {quick.get(r['opener'], '—')} |" for r in result["ranking"]]
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", default="original", help="answer list (default: original)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    add_output_args(parser, "rank_openers")
    args = parser.parse_args()
    results, _ = output_dirs(args)
    results.mkdir(parents=True, exist_ok=True)  # before the work: a bad folder fails first
    with tempfile.TemporaryDirectory() as trees:
        argv = [sys.executable, "-m", "evo_wordle", "rank", "--by", "tree", "--candidates", "answers",
                "--answers", args.answers, "--top", "10", "--screen", "20", "--jobs", str(args.jobs),
                "--trees", trees, "--json", "--quiet"]
        result = json.loads(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)
    result["command"] = "evo-wordle " + " ".join(argv[3:-4] + ["--json"])
    write_json(results / "rank_openers.json", result)
    write_text(results / "rank_openers.md", markdown(result))
    print(f"wrote {results / 'rank_openers.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
