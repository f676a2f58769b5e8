"""Evolved strategies against the best baselines of their own setting, and the published optima.

Every evolved strategy is scored on the TEST answers of its own train/validation/test split
(listed in its file, ``provenance.split.test``: answers it never saw) beside the baselines of the
same game on the same answers; all-answers figures follow. Settings: P0 with any allowed guess
(baselines: max entropy ``naive`` with ``--guess-from allowed`` and the unevolved strategy
genome, which already rewards words that may be the answer), strict P0 (guesses among possible
words only: greedy TALES, the tuned ``ga``), answers known, hard mode, original answers.

Prints a markdown table and writes evolved_strategies.{json,md} and two figures,
evolve_hist.png (guess histograms) and evolve_convergence.png (the meta-GA's best and mean
training fitness and the validation fitness per generation) to --out DIR (default
experiments/out/evolved_strategies/); --write-docs writes the tracked copies the docs cite
(experiments/results/, docs/figures/).

    python experiments/evolved_strategies.py [--out DIR | --write-docs] [--rebuild DIR]

The shipped strategies come from data/strategies/*.json (their provenance holds the command,
seed and runtime that produced them); ``--rebuild DIR`` first re-runs the three ga-search tree
builds into DIR (never into data/) and reports each rebuilt mean beside the shipped one.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from _study import add_output_args, output_dirs, save_figure, write_json, write_text

from evo_wordle import Context
from evo_wordle.artefacts import lists_made_for, settings_of
from evo_wordle.bench import run_bench
from evo_wordle.evolve.strategy import Strategy, read_strategy_file
from evo_wordle.game import Settings
from evo_wordle.plots.common import COLOURS, new_figure
from evo_wordle.plots.style import add_caption, lists_record_text
from evo_wordle.words import WordSet

ROOT = Path(__file__).resolve().parent.parent
STRATS = ROOT / "data" / "strategies"
P0X = Settings.problem("P0", guess_from="allowed")
P0 = Settings.problem("P0")
KNOWN = Settings(candidates="answers", guess_from="allowed")
HARD = KNOWN.with_(hard=True)

#: Published figures (mean guesses) quoted for comparison, never computed here.
PUBLISHED = {
    "P0 strict": ("thesis greedy", 3.773),
    "known": ("proven optimum, SALET (Selby)", 3.4201),
    "hard": ("best known, SALET", 3.5076),
    "original": ("proven optimum, SALET, 2,315 answers", 3.4212),
}


def bench(ctx: Context, label: str, solver: str, settings: Settings, params: dict, group: str,
          answers: np.ndarray | None = None, on: str = "all") -> dict:
    t = time.perf_counter()
    r = run_bench(ctx, solver, settings, answers, 0, params)
    row = {"group": group, "on": on, "label": label, "games": r.games, "mean": round(r.mean_guesses, 4),
           "over_6": int((r.scores() > 6).sum()), "worst_guesses": r.worst_guesses, "histogram": r.histogram,
           "seconds": round(time.perf_counter() - t, 2)}
    print(f"| {group} | {on} ({r.games}) | {label} | {row['mean']:.4f} | {row['over_6']} | {row['worst_guesses']} "
          f"| {row['seconds']} |", flush=True)
    return row


def short(label: str) -> str:
    """Legend text: the label up to its first parenthesis or comma detail."""
    return label.replace(" (tree replay)", ", tree").split(" (")[0][:40]


def test_answers(ctx: Context, path: Path) -> np.ndarray:
    """The test answers of an evolved strategy's split (never seen while it evolved)."""
    return ctx.words.indices(read_strategy_file(path).provenance["split"]["test"])


def made_for_game(path: Path) -> tuple[Settings, WordSet, dict]:
    """The settings, word lists and ``made_for`` record a strategy file was made for (lists
    loaded and checked by their sha256), so captions state the file's own game and list sizes."""
    f = read_strategy_file(path)
    where = f"strategy file {f.path}"
    if f.made_for is None:
        raise SystemExit(f"{where} has no made_for block: its caption cannot name its game")
    return settings_of(f.made_for, where), lists_made_for(f.made_for, where), f.made_for


def list_name(label: str) -> str:
    """An answer list's name in a caption: NYT, original, or the file's name."""
    return {"nyt": "NYT"}.get(label, Path(label).name)


def hist_caption(left: Path, right: Path, n_test: int, seed) -> str:
    """evolve_hist.png's caption: each panel's game and list sizes from its strategy file
    (``left``: the P0 strategy scored on ``n_test`` test answers; ``right``: all answers)."""
    (ls, lw, lrec), (rs, rw, rrec) = made_for_game(left), made_for_game(right)
    pool = (f"{len(lw.allowed):,} allowed words may be the answer" if ls.candidates == "allowed"
            else f"candidates = the {len(lw.answers):,} {list_name(lw.label)} answers")
    guesses = "guesses from any allowed word" if ls.guess_from == "allowed" else "guesses among the possible words"
    right_pool = "the answer list" if rs.candidates == "answers" else f"all {len(rw.allowed):,} allowed words"
    right_guess = "any allowed guess" if rs.guess_from == "allowed" else "guesses among the possible words"
    text = (f"Left: the {n_test} test answers of split seed {seed} (never seen while evolving), {pool}, "
            f"{guesses}, {'hard' if ls.hard else 'normal'} mode, one deterministic game each. "
            f"Right: all {len(rw.answers):,} {list_name(rw.label)} answers, candidates = {right_pool}, "
            f"{right_guess}{', hard mode' if rs.hard else ''}, one game each.")
    notes = [f"{side}: {note}" for side, rec in (("left", lrec), ("right", rrec))
             if (note := lists_record_text({**rec, "answers": list_name(rec["answers"])}))]
    return " ".join([text, *[n[0].upper() + n[1:] + "." for n in notes]])


def rebuild(out: Path) -> list[dict]:
    """Re-run the shipped ga-search tree builds into ``out``; their means beside the shipped ones."""
    from evo_wordle.cli import main as cli

    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in ("answers-known-salet", "answers-known-hard-salet", "original-answers-salet"):
        shipped = read_strategy_file(name).provenance
        argv = shipped["command"].split()[1:]
        argv = [str(out / Path(a).name) if a.startswith("data/strategies/") else a for a in argv]
        t = time.perf_counter()
        if cli(argv) != 0:
            raise SystemExit(f"rebuilding {name} failed")
        rebuilt = read_strategy_file(out / f"{name}.json").provenance["mean_guesses"]
        rows.append({"name": name, "shipped": shipped["mean_guesses"], "rebuilt": rebuilt,
                     "seconds": round(time.perf_counter() - t, 1)})
        print(f"rebuilt {name}: {rebuilt:.4f} (shipped {shipped['mean_guesses']:.4f})", flush=True)
    return rows


def markdown(data: dict) -> str:
    """evolved_strategies.md from the JSON main() writes beside it (rows, published optima, the two
    genomes in words), so a test rebuilds the tracked table from the tracked JSON.  Seconds stay in
    the JSON: a table the docs cite holds only figures that a rerun reproduces."""
    md = ["| setting | answers | solver | mean | over 6 | worst |", "|---|---|---|---|---|---|"]
    md += [f"| {r['group']} | {r['on']} ({r['games']}) | {r['label']} | {r['mean']:.4f} | {r['over_6']} "
           f"| {r['worst_guesses']} |" for r in data["rows"]]
    md += [f"| {g} | all | published: {label} | {v:.4f} | | |" for g, (label, v) in data["published"].items()]
    md += ["", f"Evolved P0 genome in words (any allowed guess): {data['p0_plain']}",
           "", f"Evolved strict P0 genome in words (possible words only): {data['p0_strict_plain']}"]
    return "\n".join(md) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="skip the slow all-allowed naive baselines")
    ap.add_argument("--rebuild", metavar="DIR", type=Path,
                    help="first re-run the ga-search tree builds into DIR and compare with the shipped files")
    add_output_args(ap, "evolved_strategies")
    args = ap.parse_args()
    res, figs = output_dirs(args)
    rebuilt = rebuild(args.rebuild) if args.rebuild else None
    ctx = Context()
    orig = Context(answers="original")
    rows = []
    print("| setting | answers | solver | mean | over 6 | worst | seconds |\n|---|---|---|---|---|---|---|")
    p0 = STRATS / "p0-evolved.json"
    strict = STRATS / "p0-strict.json"
    test = test_answers(ctx, p0)
    if not np.array_equal(test, test_answers(ctx, strict)):
        raise SystemExit("p0-evolved.json and p0-strict.json must share one split to be compared")
    # P0, any allowed guess: the evolved strategy beside the best baselines of that game, on its test answers
    if not args.quick:
        rows.append(bench(ctx, "naive max entropy (any allowed guess)", "naive", P0X, {}, "P0 any guess", test, "test"))
    rows.append(bench(ctx, "strategy, default genome (before evolution)", "strategy", P0X,
                      {"strategy": Strategy()}, "P0 any guess", test, "test"))
    rows.append(bench(ctx, "evolved strategy p0-evolved.json", "strategy", P0X, {"strategy": p0},
                      "P0 any guess", test, "test"))
    # strict P0: guesses among possible words only (the thesis's P0)
    rows.append(bench(ctx, "greedy (TALES, candidates only)", "greedy", P0, {"opener": "tales"}, "P0 strict", test,
                      "test"))
    rows.append(bench(ctx, "ga (tuned, TALES)", "ga", P0, {}, "P0 strict", test, "test"))
    rows.append(bench(ctx, "evolved strategy p0-strict.json", "strategy", P0, {"strategy": strict},
                      "P0 strict", test, "test"))
    # the same test answers for a player who knows the answer list: are they harder, or only harder to guess?
    rows.append(bench(ctx, "ga-search tree, answer list known (answers-known-salet.json)", "strategy", KNOWN,
                      {"strategy": STRATS / "answers-known-salet.json"}, "known", test, "test"))
    # every answer (includes the answers the strategies trained and were validated on)
    rows.append(bench(ctx, "greedy (TALES, candidates only)", "greedy", P0, {"opener": "tales"}, "P0 strict"))
    rows.append(bench(ctx, "evolved strategy p0-strict.json (incl. its training answers)", "strategy", P0,
                      {"strategy": strict}, "P0 strict"))
    rows.append(bench(ctx, "evolved strategy p0-evolved.json (incl. its training answers)", "strategy", P0X,
                      {"strategy": p0}, "P0 any guess"))
    if not args.quick:
        rows.append(bench(ctx, "naive max entropy (SALET, any allowed guess)", "naive", KNOWN,
                          {"opener": "salet"}, "known"))
    rows.append(bench(ctx, "strategy, uniform weights (default genome, SALET)", "strategy", KNOWN,
                      {"strategy": Strategy(steepness=0.0)}, "known"))
    rows.append(bench(ctx, "ga-search tree (answers-known-salet.json)", "strategy", KNOWN,
                      {"strategy": STRATS / "answers-known-salet.json"}, "known"))
    rows.append(bench(ctx, "naive max entropy, hard mode (SALET, legal guesses)", "naive", HARD,
                      {"opener": "salet"}, "hard"))
    rows.append(bench(ctx, "ga-search tree, hard mode", "strategy", HARD,
                      {"strategy": STRATS / "answers-known-hard-salet.json"}, "hard"))
    rows.append(bench(orig, f"ga-search tree, original {len(orig.words.answers):,} answers", "strategy", KNOWN,
                      {"strategy": STRATS / "original-answers-salet.json"}, "original"))
    for group, (label, value) in PUBLISHED.items():
        print(f"| {group} | all | published: {label} | {value:.4f} | | | |")

    f0, fs = read_strategy_file(p0), read_strategy_file(strict)
    genome, prov = f0.strategy, f0.provenance
    log = json.loads((STRATS / "p0-evolved.log.json").read_text())
    out = {"rows": rows, "published": PUBLISHED, "p0_genome": genome.as_dict(), "p0_plain": genome.describe(P0X),
           "p0_strict_plain": fs.strategy.describe(P0),
           "p0_provenance": {k: v for k, v in prov.items() if k not in ("logbook", "split")},
           "p0_strict_means": fs.provenance["means"], "p0_logbook": log,
           "rebuilt": rebuilt}
    write_json(res / "evolved_strategies.json", out)
    write_text(res / "evolved_strategies.md", markdown(out))
    print("\n" + genome.describe(P0X) + "\n" + fs.strategy.describe(P0))

    figs.mkdir(parents=True, exist_ok=True)
    save_figure(hist_figure(rows, hist_caption(p0, STRATS / "answers-known-salet.json", len(test), prov["seed"])),
                figs / "evolve_hist.png", dpi=110)
    save_figure(convergence_figure(log, prov), figs / "evolve_convergence.png", dpi=110)


#: evolve_hist.png's panels: (group, answers) of the rows each draws.
HIST_PANELS = (("P0 any guess", "test"), ("known", "all"))


def hist_figure(rows: list[dict], caption: str):
    """evolve_hist.png from the rows of evolved_strategies.json (one panel per
    :data:`HIST_PANELS`, one bar series per row, from its histogram), so
    tests/test_study_figures.py redraws it from the tracked JSON."""
    fig, axes = new_figure(11, 4, ncols=2)
    for ax, (group, on) in zip(axes, HIST_PANELS):
        chosen = [r for r in rows if r["group"] == group and r["on"] == on]
        width = 0.8 / max(len(chosen), 1)
        for i, r in enumerate(chosen):
            ks = np.array(sorted(int(k) for k in r["histogram"]))
            ax.bar(ks + (i - (len(chosen) - 1) / 2) * width, [r["histogram"][str(k)] for k in ks], width,
                   color=COLOURS[i % len(COLOURS)], label=f"{short(r['label'])} ({r['mean']:.3f})")
        ax.set_title("answers unknown (P0), any allowed guess: test answers" if on == "test"
                     else "answer list known, any allowed guess: all answers")
        ax.set_xlabel("guesses")
        ax.set_ylabel("answers")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.3)  # room for the legend above the bars
        ax.legend(fontsize=7, loc="upper right")
    add_caption(fig, caption)
    return fig


def convergence_figure(log: list[dict], prov: dict):
    """evolve_convergence.png from p0-evolved.log.json (``log``) and p0-evolved.json's provenance
    (``prov``: seed, command, split), so tests/test_study_figures.py redraws it from the tracked files."""
    fig, axes = new_figure(6, 4)
    ax = axes[0]
    gens = [r["gen"] for r in log]
    n = {k: len(v) for k, v in prov["split"].items() if isinstance(v, list)}
    ax.plot(gens, [r["best"] for r in log], color=COLOURS[0], marker="o", label=f"best (training {n['train']})")
    ax.plot(gens, [r["mean"] for r in log], color=COLOURS[1], marker=".", label="population mean (training)")
    ax.plot(gens, [r["holdout"] for r in log], color=COLOURS[2], marker="s",
            label=f"generation best on validation {n['validation']}")
    ax.set_xlabel("generation")
    ax.set_ylabel("mean guesses + penalty")
    ax.set_title(f"meta-GA convergence (P0, any allowed guess, seed {prov['seed']})")
    ax.legend(fontsize=8)
    argv = prov["command"].split()
    mu, lam = (argv[argv.index(flag) + 1] for flag in ("--mu", "--lambda"))
    add_caption(fig, f"p0-evolved.json's logbook: μ {mu}, λ {lam}, seed {prov['seed']}, one run (no error bars: "
                f"a single run). Fitness = mean guesses + 1 per game over 6 on {n['train']} training answers; the "
                f"validation line scores each generation's best on {n['validation']} other answers. Lower is better.")
    return fig


if __name__ == "__main__":
    main()
