"""How much of an evolved P0 strategy's gap is its prior, and how much its search?

A P0 player does not know the answer list: it weights the allowed words by a prior.  This
study plays one evolved genome (its opener, cost model and explore switch unchanged) on each
part of its own train/validation/test split with three priors:

* **own** — the genome's prior (frequency curve, multipliers, uniform mix), as shipped; for a
  file that stores a prior (``p0-fitted``, ``p0-plan``) the row is **stored**: that prior, the
  one every command replays the file with (the genome's prior genes are then never played);
* **fitted** — a logistic regression fitted on the training answers against every other allowed
  word (features: frequency rank as splines, log frequency, the plural / past / name / unlisted
  classes, endings that make a word from a dictionary word, letter features); its strength of
  regularisation is chosen on the validation answers, and the test answers are used once;
* **answer list** — weight 1 on the answers and 1e-9 on every other word: not a P0 player, a
  bound (the mean this genome's search reaches once the prior is perfect).

Each prior is also scored by its cross-entropy on the held-out answers: the mean bits
``-log2 p(answer)`` of the prior normalised over all allowed words (lower: more weight on the
real answers).  No tree is replayed: every decision is computed under the prior being tested.

    python experiments/prior_bound.py [--strategy p0-evolved] [--retune TRIALS] [--out DIR]
                                      [--save-strategy FILE]

``--save-strategy FILE`` also writes the genome with the fitted prior stored in it (a strategy
file any command replays: ``bench --strategy FILE``; ``lookahead-tree`` looks ahead under it).
It is written as soon as the prior is fitted, before the benches.

``--retune TRIALS`` adds a fourth row: the genome with its cost-model genes (bonus, k1, k2,
switch_eff) chosen again under the fitted prior by optuna, on the training answers, each of
five folds played under a prior fitted on the other four (so no answer is scored by a prior
that saw it); about 30-50 s per trial on 2 busy cores.

Writes prior_bound.json and prior_bound.md to --out DIR (default experiments/out/prior_bound/);
the differences (``minus_own`` in the JSON, "vs" in the table) are against the first row, own or
stored (the JSON's ``reference``).
Deterministic: the genome plays deterministically and the regression has no random start.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from _study import add_output_args, markdown_table, output_dirs, write_report
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import SplineTransformer, StandardScaler

from evo_wordle import Context
from evo_wordle.artefacts import list_mismatch, settings_of, without_tree_records
from evo_wordle.bench import run_bench
from evo_wordle.cli.common import output_path
from evo_wordle.errors import EvoWordleError
from evo_wordle.evolve.strategy import (
    REAL_GENES,
    StoredPrior,
    Strategy,
    StrategySolver,
    file_policy,
    file_prior,
    inflection_weights,
    read_strategy_file,
    save_strategy,
)
from evo_wordle.frequency import frequency_rank
from evo_wordle.lexicon import word_classes
from evo_wordle.split import recorded_split
from evo_wordle.stats import paired

PARTS = ("train", "validation", "test")
#: Inverse regularisation strengths tried; the validation answers pick one.
C_GRID = (0.01, 0.1, 1.0, 10.0)
#: Folds of the training answers for the cross-fitted priors of --retune.
FOLDS = 5
#: The cost-model genes --retune chooses again under the fitted prior.
RETUNED = ("bonus", "k1", "k2", "switch_eff")
#: The weight of a word outside the answer list in the bound (a prior must be > 0 everywhere).
OUTSIDE = 1e-9


def word_features(ctx: Context) -> np.ndarray:
    """One row per allowed word: rank in [0, 1], log10 frequency, no-frequency flag, the genome's
    four word classes, and whether the word is a dictionary word plus s, es, d, ed, r, er or y."""
    words = ctx.words.allowed
    freqs = ctx.frequencies
    rank = frequency_rank(freqs) / max(len(words) - 1, 1)
    plural = inflection_weights(words, 0.5, 1.0) < 1.0  # the genome's classes: a multiplier < 1 marks them
    past = inflection_weights(words, 1.0, 0.5) < 1.0
    proper, unlisted = word_classes(words)
    endings = ("s", "es", "d", "ed", "r", "er", "y")
    derived = []
    for e in endings:  # the stem must be a dictionary word (of any length): BAKE + d, not CRAZ + y
        stems = [w[: -len(e)] if w.endswith(e) and len(w) > len(e) else "" for w in words]
        stem_proper, stem_unlisted = word_classes(stems)
        derived.append([bool(stem) and not (p or u) for stem, p, u in zip(stems, stem_proper, stem_unlisted)])
    letters = [[len(set(w)) < len(w) for w in words], [any(c in "jqxzkv" for c in w) for w in words],
               [w.endswith(("ing", "ly")) for w in words]]
    cols = [rank, np.log10(freqs + 1e-9), freqs == 0, plural, past, proper, unlisted, *derived, *letters]
    return np.column_stack([np.asarray(c, dtype=np.float64) for c in cols])


def cross_entropy(prior: np.ndarray, answers: np.ndarray) -> float:
    """Mean bits -log2 p(answer) of ``prior`` normalised over every allowed word."""
    p = prior / prior.sum()
    return float(-np.log2(p[answers]).mean())


def fitted_prior(ctx: Context, train: np.ndarray, validation: np.ndarray,
                 grid: tuple[float, ...] = C_GRID) -> tuple[np.ndarray, float, list]:
    """(prior, chosen C, [(C, validation bits)]): training answers against all other words."""
    x = word_features(ctx)
    # the rank enters as splines (label-free, so fitted on every word); the rest as they are
    x = np.column_stack([SplineTransformer(n_knots=6, degree=3).fit_transform(x[:, :1]), x[:, 1:]])
    y = np.zeros(len(x), dtype=int)
    y[train] = 1
    tried, best = [], None
    for c in grid:
        model = make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000)).fit(x, y)
        prior = model.predict_proba(x)[:, 1]
        bits = cross_entropy(prior, validation)
        tried.append((c, round(bits, 4)))
        if best is None or bits < best[1]:
            best = (prior, bits, c)
    return best[0], best[2], tried


def fail(message: str) -> None:
    """Bad input: one line on stderr, exit 2."""
    print(f"prior_bound.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def cross_fitted(ctx: Context, split, c: float, folds: int = FOLDS) -> list[tuple[np.ndarray, np.ndarray]]:
    """(answers of fold k, a prior fitted at ``c`` on the other training answers) for each of
    ``folds`` seeded folds of the training answers: each answer is played under a prior that
    never saw it, as a fitted prior plays unseen answers."""
    rng = np.random.default_rng(np.random.SeedSequence([split.seed, folds]))
    parts = [np.sort(p) for p in np.array_split(rng.permutation(split.train), folds)]
    out = []
    for k, part in enumerate(parts):
        rest = np.sort(np.concatenate([q for j, q in enumerate(parts) if j != k]))
        out.append((part, fitted_prior(ctx, rest, split.validation, (c,))[0]))
    return out


def retune(ctx: Context, settings, genome: Strategy, folds: list, trials: int) -> tuple[Strategy, float]:
    """The genome with its cost-model genes (``RETUNED``) chosen by ``trials`` optuna trials
    (TPE, seed 0; the first is the genome's own genes) on the cross-fitted training mean."""
    import optuna

    n = sum(len(part) for part, _ in folds)

    def objective(trial) -> float:
        genes = {g: trial.suggest_float(g, *REAL_GENES[g], log=g == "switch_eff") for g in RETUNED}
        trial_genome = Strategy.from_dict({**genome.as_dict(), **genes})
        total = 0.0
        for part, prior in folds:
            player = StrategySolver(ctx, settings, strategy=trial_genome, prior=prior)
            total += run_bench(ctx, player, settings, part, 0).scores().sum()
        print(f"trial {trial.number}: {total / n:.4f} " + " ".join(f"{g}={v:.3g}" for g, v in genes.items()),
              flush=True)
        return total / n

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=0))
    study.enqueue_trial({g: getattr(genome, g) for g in RETUNED})
    study.optimize(objective, n_trials=trials)
    return Strategy.from_dict({**genome.as_dict(), **study.best_params}), float(study.best_value)


def save_fitted(args: argparse.Namespace, ctx: Context, f, settings, prior: StoredPrior, fit: dict) -> None:
    """The source file's genome, settings and provenance with the fitted prior stored (its tree,
    made under the genome's own prior, is left out, and so is the record of how it was made)."""
    provenance = without_tree_records(f.provenance)
    provenance["prior"] = {"command": " ".join(["python", "experiments/prior_bound.py", *sys.argv[1:]]),
                           "from": str(args.strategy), "about": prior.about, **fit}
    try:
        save_strategy(args.save_strategy, f.strategy, provenance, None, settings, ctx.words, prior)
    except (EvoWordleError, OSError) as exc:
        fail(f"--save-strategy {args.save_strategy}: {exc}")
    print(f"wrote {args.save_strategy}", flush=True)


def priors_played(ctx: Context, f, fitted: np.ndarray, bound: np.ndarray) -> dict:
    """Row name → (genome played, prior played, weights its bits are scored on); the first row is
    the one the others are compared with: the prior the file is replayed with everywhere, its
    stored prior (row "stored") when it has one, else the genome's own (row "own": None is
    played, the genome's curve, multipliers and mix)."""
    weights = file_policy(ctx, f).weights(np.arange(len(ctx.words)))
    if f.prior is not None:
        first = {"stored": (f.strategy, file_prior(ctx, f), weights)}
    else:
        first = {"own": (f.strategy, None, weights)}
    return {**first, "fitted": (f.strategy, fitted, fitted), "answer list": (f.strategy, bound, bound)}


def markdown(data: dict) -> str:
    """prior_bound.md from the JSON main() writes beside it (rows in play order, the row compared
    with, the split's sizes, the fitted C, any re-tuned genes), so a test rebuilds the tracked
    table from the tracked JSON."""
    sizes, rows, ref = data["sizes"], data["rows"], data["reference"]
    header = ["prior", *(f"{p} ({sizes[p]} answers): mean guesses" for p in PARTS)]

    def cell(r: dict) -> str:
        versus = "" if r["minus_own"] is None else f"; {r['minus_own']:+.4f} ± {r['minus_own_ci95']:.4f} vs {ref}"
        return f"{r['mean']:.4f} ({r['bits']:.2f} bits{versus})"

    players = list(dict.fromkeys(r["prior"] for r in rows))
    table = markdown_table(header, [[name, *(cell(r) for r in rows if r["prior"] == name)] for name in players])
    s = data["settings"]
    guesses = "any allowed word" if s["guess_from"] == "allowed" else "the words still possible"
    bits = ", ".join(f"{c_:g} → {b:.2f}" for c_, b in data["c_tried"])
    stored = data["stored_prior"]
    setting = (f"{data['strategy']}, split seed {data['split_seed']}: every allowed word may be the answer, guesses "
               f"from {guesses}, {'hard' if s['hard'] else 'normal'} mode, no stored tree. "
               + (f"Stored prior (the file's own, compared with): {stored}. " if stored is not None else "")
               + f"Fitted prior: C = {data['fitted_c']:g} (validation bits by C: {bits}).")
    if data["retuned"] is not None:
        setting += (f" Re-tuned: {', '.join(RETUNED)} by {data['retune_trials']} optuna trials (TPE, seed 0) on the "
                    f"training answers, each of {data['retune_folds']} folds played under a prior fitted without it "
                    f"(best training mean {data['retune_train_mean']:.4f}): "
                    + ", ".join(f"{g} {data['retuned'][g]:.3g}" for g in RETUNED) + ".")
    return f"{table}\n\n{setting}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--strategy", default="p0-evolved", help="strategy file: a path or a shipped name")
    ap.add_argument("--retune", type=int, default=0, metavar="TRIALS",
                    help="also re-tune the genome's cost-model genes under the fitted prior (optuna trials; "
                    "minutes each)")
    ap.add_argument("--save-strategy", type=output_path, metavar="FILE",
                    help="also write the genome with the fitted prior stored in it, as a strategy file")
    add_output_args(ap, "prior_bound")
    args = ap.parse_args()
    if args.retune < 0:
        fail(f"--retune takes a number of trials ≥ 0, not {args.retune}")
    res, _ = output_dirs(args)
    ctx = Context()
    try:
        f = read_strategy_file(args.strategy)
    except EvoWordleError as exc:
        fail(str(exc))
    where = f"strategy file {f.path}"
    if f.made_for is None:
        fail(f"{where} records no settings (made_for): nothing to play it in")
    why = list_mismatch(f.made_for, ctx.words)
    if why:
        fail(f"{where}: {why}")
    settings = settings_of(f.made_for, where)
    if settings.candidates != "allowed":
        fail(f"{where} was made for a known answer list: its prior is not used")
    split = recorded_split(f.provenance.get("split"), ctx.words, where)
    if split is None:
        fail(f"{where} records no train/validation/test split")
    fitted, c, tried = fitted_prior(ctx, split.train, split.validation)
    if args.save_strategy is not None:
        about = (f"logistic regression (experiments/prior_bound.py, scikit-learn) on the {len(split.train)} "
                 f"training answers of split seed {split.seed} against every other allowed word; C = {c:g}, "
                 "chosen on the validation answers")
        save_fitted(args, ctx, f, settings, StoredPrior(fitted, about), {"C": c, "validation_bits": tried})
    bound = np.full(len(ctx.words), OUTSIDE)
    bound[ctx.words.answer_index] = 1.0
    players = priors_played(ctx, f, fitted, bound)
    ref = next(iter(players))  # "own", or "stored" for a file with a prior
    retuned = None
    if args.retune:
        retuned, train_mean = retune(ctx, settings, f.strategy, cross_fitted(ctx, split, c), args.retune)
        players["fitted, genes re-tuned"] = (retuned, fitted, fitted)
    rows, scores = [], {}
    for name, (genome, given, weights) in players.items():
        player = StrategySolver(ctx, settings, strategy=genome, prior=given)
        for part in PARTS:
            t = time.perf_counter()
            answers_of_part = getattr(split, part)
            r = run_bench(ctx, player, settings, answers_of_part, 0)
            scores[name, part] = r.scores()
            diff = paired(r.scores(), scores[ref, part]) if name != ref else None
            rows.append({"prior": name, "part": part, "games": r.games, "mean": round(r.mean_guesses, 4),
                         "bits": round(cross_entropy(weights, answers_of_part), 4),
                         "minus_own": None if diff is None else round(diff["mean"], 4),
                         "minus_own_ci95": None if diff is None else round(diff["ci95"], 4),
                         "seconds": round(time.perf_counter() - t, 1)})
            print(f"{name:12s} {part:10s} {rows[-1]['mean']:.4f} ({rows[-1]['bits']:.3f} bits, "
                  f"{rows[-1]['seconds']} s)", flush=True)
    record = {"strategy": args.strategy, "settings": f.made_for, "split_seed": split.seed, "reference": ref,
              "stored_prior": None if f.prior is None else f.prior.about,
              "sizes": {p: len(getattr(split, p)) for p in PARTS}, "fitted_c": c, "c_tried": tried, "rows": rows,
              "retuned": None if retuned is None else retuned.as_dict(),
              "retune_trials": args.retune, "retune_folds": FOLDS if retuned is not None else None,
              "retune_train_mean": train_mean if retuned is not None else None}
    write_report(res, "prior_bound", record, markdown(record))


if __name__ == "__main__":
    main()
