"""``tune``: an Optuna study over a solver's parameters, reported on held-out answers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import EvoWordleError
from ..outputs import check_folder
from ..params import arg_type, as_int, as_list
from ..stats import bound_text, interval_text, no_significant_difference
from ..tune import MAX_TRIALS
from ..wording import count
from .common import add_command, add_word_args, positive_int, seed_int
from .settings_args import add_settings_args, settings_from_args

EXAMPLES = [
    ("evo-wordle tune --solver ga --space population=10:500:log,mutation=0:0.5,pressure=1:100:log "
     "--trials 100 --seed 0 --study ga-default --out tune-ga",
     "the issue's study: TPE over three GA parameters, median pruning, SQLite in tune-ga/study.db"),
    ("evo-wordle tune --solver ga-thesis --space space.toml --trials 30 --pruner halving --jobs 2 --out tune-thesis",
     "a space from a TOML file, successive halving, two processes sharing the study"),
    ("evo-wordle tune --solver ga-thesis --space population=10:500:log,mutation=0:0.4 --candidates answers "
     "--trials 30 --fix init=best --out tune-thesis-p1",
     "the thesis GA with the answer list known, its init held fixed; then: evo-wordle bench --params "
     "tune-thesis-p1/best-params.json --candidates answers"),
]


def _steps(text: str) -> tuple[int, ...]:
    items = arg_type(as_list, name="--steps")(text)  # an empty item (100,) is refused
    try:
        return tuple(int(t) for t in items)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of whole numbers") from None


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "tune",
        help="tune a solver's parameters with Optuna (TPE, pruning, resumable study, held-out report)",
        description="Search a solver's parameters with Optuna's TPE sampler. A trial benches the solver "
        "on the training answers of a seeded train/validation/test split, reporting its running mean "
        "after each --steps count so the pruner stops bad trials early; every trial plays the same "
        "games with the same seeds. The study is stored in --storage (SQLite by default) and a re-run "
        "resumes it. Then the --top best trials and the defaults are re-benched on the validation "
        "answers (--repeats seeds), and the winner and the defaults are benched once on the test "
        "answers, game by game; the winner's parameters go to OUT/best-params.json for bench --params. "
        "Lower mean guesses is better.",
        examples=EXAMPLES,
    )
    p.add_argument("--solver", default="ga", metavar="NAME", help="solver to tune (default: %(default)s)")
    p.add_argument("--space", required=True, metavar="SPEC|FILE",
                   help="parameters to search: name=low:high[:log] (whole-number bounds search integers) "
                   "or name=a|b|c, comma-separated; or a .json/.toml file {name: {low, high, log}, name: [a, b]}")
    p.add_argument("--fix", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter held constant in every trial; repeatable")
    p.add_argument("--trials", type=arg_type(as_int, 1, MAX_TRIALS), default=50,
                   help=f"trials to finish or prune, at most {MAX_TRIALS:,} (default: %(default)s)")
    p.add_argument("--seed", type=seed_int, default=0,
                   help="seed of the sampler, the training order and every game (default: 0)")
    p.add_argument("--split-seed", type=seed_int, default=None, metavar="S",
                   help="seed of the train/validation/test split (default: --seed)")
    p.add_argument("--steps", type=_steps, default=(100, 300, 1000), metavar="A,B,…",
                   help="training games after which a trial reports its mean to the pruner (default: 100,300,1000)")
    p.add_argument("--pruner", choices=["median", "halving", "none"], default="median",
                   help="median: stop a trial worse than the median of earlier ones at the same step; "
                   "halving: successive halving; none (default: median)")
    p.add_argument("--study", default="evo-wordle", help="study name inside the storage (default: %(default)s)")
    p.add_argument("--storage", metavar="URL",
                   help="Optuna storage URL (default: sqlite:///OUT/study.db; postgresql://… to share across machines)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for study.db, best-params.json, tune.json and the figures (created if missing)")
    p.add_argument("--top", type=positive_int, default=5, help="trials re-benched on validation (default: 5)")
    p.add_argument("--repeats", type=positive_int, default=3,
                   help="validation runs per finalist, seeds derived from --seed (default: 3)")
    p.add_argument("--jobs", type=positive_int, default=1,
                   help="processes sharing the study (and running the final benches; default: 1)")
    p.add_argument("--executor", choices=["local", "dask"], default="local",
                   help="where the study's worker processes run (default: local)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="dask scheduler address (default: a LocalCluster)")
    p.add_argument("--no-plots", dest="plots", action="store_false", help="skip the figures")
    add_settings_args(p, daily=False, boards=False)
    add_word_args(p)
    p.set_defaults(func=cmd_tune)


#: What tune writes in OUT (the figures are named in plots/tune.py): checked before the study runs.
OUT_FILES = ("study.db", "tune.json", "best-params.json", "history.png", "importance.png", "contour.png")


def _fixed(items: list[str]) -> dict:
    from ..sweep import parse_grid_arg

    out = {}
    for item in items:
        key, values = parse_grid_arg(item, "--fix")
        if len(values) != 1:
            raise EvoWordleError(f"--fix takes one value, not {item!r}")
        out[key] = values[0]
    return out


def cmd_tune(args: argparse.Namespace) -> int:
    from .. import tune

    for flag, value in (("--study", args.study), ("--storage", args.storage)):
        if value is not None and not value.strip():  # --storage "" was the default storage, --study "" a name
            raise EvoWordleError(f"{flag} needs a {'name' if flag == '--study' else 'URL'}, not {value!r}")
    out = check_folder(args.out, files=OUT_FILES)  # not '', not a file, not under /proc, writable, no FIFO
    if not out.parent.is_dir():
        raise EvoWordleError(f"folder {out.parent} does not exist")
    space = tune.load_space(args.space) if Path(args.space).suffix.lower() in (".json", ".toml") \
        else tune.parse_space(args.space)
    spec = tune.TuneSpec(
        solver=args.solver, space=space, settings=settings_from_args(args).as_dict(), fixed=_fixed(args.fix),
        seed=args.seed, split_seed=args.seed if args.split_seed is None else args.split_seed,
        steps=args.steps, pruner=args.pruner, allowed=args.allowed,
        # a custom list is its own answers; "" is no default (words.py refuses it)
        answers=args.answers if args.answers is not None else ("nyt" if args.allowed is None else None),
    )
    ctx = spec.context()
    spec.check(ctx)  # unknown solver or parameter: refused before anything is written
    if args.storage:
        tune.check_storage_url(args.storage, writes=True)
    out.mkdir(exist_ok=True)
    storage = args.storage or f"sqlite:///{out.resolve() / 'study.db'}"
    print(spec.split(ctx).describe(), file=sys.stderr)
    study = tune.run_study(spec, storage, args.study, args.trials, jobs=args.jobs, executor=args.executor,
                           scheduler=args.scheduler)
    again = tune.repeated(study)
    note = (f" ({count(again, 'trial')} repeated an earlier point: {'its' if again == 1 else 'their'} games were "
            "not played again)") if again else ""
    print(f"study {args.study}: {count(tune.counted(study), 'trial')}, "
          f"{count(tune.games_played(study), 'training game')}{note}",
          file=sys.stderr)
    report = tune.honest_report(spec, study, top=args.top, repeats=args.repeats, jobs=args.jobs)
    from ..artefacts import made_for

    params = tune.params_file(report, args.study, storage, made_for(spec.game_settings(), ctx.words),
                              tune.full_params(spec, ctx, report["winner"]["params"]), spec.as_dict())
    # The result goes to stdout first: a failing write below cannot lose it.
    print(format_tune(report))
    written = [_write_json(out / "tune.json", report), _write_json(out / "best-params.json", params)]
    if args.plots:
        from ..plots.tune import tune_figures

        written += tune_figures(study, spec, out, ctx)
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def _write_json(path: Path, data: dict) -> Path:
    from ..files import atomic_write_text

    atomic_write_text(path, json.dumps(data, indent=2) + "\n")
    return path


def format_tune(report: dict) -> str:
    """The winner, the finalists on validation and the test comparison, as text."""
    s = report["settings"]
    setting = (f"candidates {s['candidates']}, guesses from {s['guess_from']}, hard {str(s['hard']).lower()}, "
               f"cap {s['max_guesses']}")
    split = report["split"]
    lines = [
        f"tune {report['solver']} ({setting}); split seed {split['seed']}: train {split['train']}, "
        f"validation {split['validation']}, test {split['test']}; {count(report['trials'], 'trial')}, "
        f"{count(report['games_played'], 'training game')}",
        "finalists on validation (mean ± 95 % interval over repeats):",
    ]
    for f in report["finalists"]:
        ps = " ".join(f"{k}={_fmt(v)}" for k, v in f["params"].items()) or "(the solver's defaults)"
        train = "      –     " if f["train_mean"] is None else f"{f['train_mean']:.4f}"
        lines.append(f"  trial {f['trial']!s:>8}  train {train}  validation {f['validation_mean']:.4f}"
                     + (f" ± {f['validation_ci95']:.4f}" if f["validation_ci95"] is not None
                        else " (deterministic: one run)" if report.get("deterministic") else " (one repeat)")
                     + f"  {ps}")
    t = report["test"]
    d = t["winner_minus_default"]
    won = report["winner"]
    lines.append(f"winner: trial {won['trial']}  " + (" ".join(f"{k}={_fmt(v)}" for k, v in won["params"].items())
                                                     or "(the solver's defaults)"))
    if d is None:  # the defaults won: nothing to pair them with
        lines.append(f"test ({t['games']} answers never seen): defaults {t['default_mean']:.4f}; no paired test: "
                     "the defaults won on validation, the study found nothing better")
        return "\n".join(lines)
    if d["significant"]:
        verdict = "the winner is significantly " + ("better" if d["mean"] < 0 else "worse")
    else:
        verdict = no_significant_difference(d)
    lines.append(
        f"test ({d['games']} answers never seen, same games and seeds for both): winner {t['winner_mean']:.4f}, "
        f"defaults {t['default_mean']:.4f}; winner − defaults {bound_text(d['mean'])} "
        f"{interval_text(d)} (95 %): {verdict}")
    return "\n".join(lines)


def _fmt(v) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)
