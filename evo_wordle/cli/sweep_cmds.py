"""Experiment commands: ``sweep``, ``report`` and ``plot``."""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

from ..errors import EvoWordleError
from ..outputs import writing
from ..params import arg_type, as_folder_name, as_int, as_list
from ..plots.common import MAX_RUNS
from ..progress import note, progress_bar
from ..wording import count
from .common import add_command, add_other_lists_arg, add_word_args, file_name, positive_int, seed_int
from .settings_args import add_settings_args, refuse_idle_other_lists, run_context, settings_from_args, warn

PLOT_KINDS = ("heatmap", "lines", "convergence", "histograms", "evolution")

#: GA runs one figure plays (a usage error above the cap, before any game).
runs_int = arg_type(as_int, 1, MAX_RUNS)
#: A sweep folder to read (``report ""`` read the current folder: ". is not a sweep folder").
folder_name = arg_type(as_folder_name)


def _csv_list(flag: str):
    """argparse ``type=`` for a comma list: an empty item (``10,``) is a usage error naming ``flag``."""
    return arg_type(as_list, name=flag)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "sweep", help="run a parameter grid x seeds, resumable, on a process pool or dask",
        description="Run every configuration of a parameter grid with several seeds, each as a bench; "
        "one row per (configuration, seed) lands in DIR/results.csv as it finishes. Rerunning the "
        "same command resumes; a different specification in DIR is refused.",
        examples=[
            ("evo-wordle sweep --solver ga-thesis --population 10,100 --mutation 0,0.1 --seeds 3 --games 50 "
             "--out runs/pop", "a 2 x 2 grid, 3 seeds each, on 50 answers (resumable)"),
            ("evo-wordle sweep --solver greedy --set problem=P0,P1 --seeds 1 --out runs/problems",
             "any setting axis or solver parameter with --set KEY=V1,V2"),
            ("evo-wordle sweep --population 10,100 --executor dask --scheduler tcp://host:8786 --out runs/pop",
             "the same on a Dask cluster"),
        ],
    )
    p.add_argument("--solver", default="ga-thesis", metavar="NAME", help="solver to sweep (default: %(default)s)")
    p.add_argument("--population", type=_csv_list("--population"), metavar="N,N,…",
                   help="population sizes (GA solvers)")
    p.add_argument("--mutation", type=_csv_list("--mutation"), metavar="P,P,…", help="mutation rates (GA solvers)")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="any other solver parameter (e.g. init=random,best) or setting axis "
        "(problem, candidates, guess_from, hard, daily, max_guesses); repeatable",
    )
    p.add_argument("--params", type=file_name, metavar="FILE",
                   help="fixed solver parameters from a file written by `evo-wordle tune` (grid values override)")
    add_other_lists_arg(p)
    p.add_argument("--seeds", type=positive_int, default=3, metavar="N",
                   help="seeds per configuration (default: %(default)s)")
    p.add_argument("--seed", type=seed_int, default=0, metavar="S",
                   help="base seed of the SeedSequence (default: 0)")
    p.add_argument("--games", type=positive_int, metavar="K",
                   help="a seeded sample of K answers per bench (default: all)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for sweep.json and results.csv")
    p.add_argument("--executor", choices=["local", "dask"], default="local",
                   help="a local process pool, or Dask (default: %(default)s)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="dask scheduler, e.g. tcp://host:8786 "
                   "(default with --executor dask: a LocalCluster of --jobs workers)")
    p.add_argument("--jobs", type=positive_int, default=2, metavar="J", help="worker processes (default: %(default)s)")
    p.add_argument("--chunks", type=positive_int, default=1, metavar="C",
                   help="split each bench into C runs of puzzles as work units (for many workers; "
                   "same rows; default: whole benches)")
    p.add_argument("--quiet", action="store_true", help="no per-bench lines and no progress on stderr")
    add_settings_args(p, boards=False)
    add_word_args(p)
    p.set_defaults(func=cmd_sweep)

    p = add_command(
        sub, "report", help="mean ± 95 %% interval per configuration of a sweep, or a tune study",
        description="Summarise a sweep folder: mean guesses ± 95 % interval over seeds, fail rate, and "
        "the best configuration (lower mean is better). Given the storage URL of a `tune` study "
        "(sqlite:///tune-ga/study.db) and --study, summarise the study instead.",
        examples=[("evo-wordle report runs/pop", "a text table"),
                  ("evo-wordle report runs/pop --format markdown", "the same as a Markdown table for docs"),
                  ("evo-wordle report sqlite:///tune-ga/study.db --study ga-default", "a tune study's best trials")],
    )
    p.add_argument("dir", metavar="DIR|URL", type=folder_name,
                   help="sweep folder (holds sweep.json and results.csv), a tune "
                   "--out folder (holds study.db), or the storage URL of a tune study")
    p.add_argument("--study", default=None,
                   help="study name, with a storage URL or tune folder (default: the storage's only study)")
    p.add_argument("--format", choices=["text", "markdown", "csv", "json"], default="text",
                   help="output format (default: %(default)s)")
    p.set_defaults(func=cmd_report)

    p = add_command(
        sub, "plot", help="figures: heatmap, lines, convergence, histograms, evolution",
        description="Draw a figure (PNG, SVG or PDF by the --out extension). Every figure uses one "
        "colour-blind-safe style and carries a caption line with the solver, seed, N and setting.",
        examples=[("evo-wordle plot histograms --solvers ga-thesis,greedy --games 50 --out h.png",
                   "guess counts of two solvers on 50 answers"),
                  ("evo-wordle plot convergence --answer merry --runs 10 --out m.png",
                   "candidates and entropy left after each guess on MERRY, 10 GA runs"),
                  ("evo-wordle plot heatmap runs/pop --out pop.png", "a sweep's population x mutation grid")],
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND", parser_class=type(p))
    kinds.required = True

    q = add_command(kinds, "heatmap", help="sweep: mean guesses over population x mutation",
                    description="A sweep's mean guesses (and % over 6) as a grid, one cell per configuration; "
                    "darker cells are better (fewer guesses).",
                    examples=[("evo-wordle plot heatmap runs/pop --out pop.png", "population x mutation"),
                              ("evo-wordle plot heatmap runs/pop --x mutation --y population --out pop.svg",
                               "axes swapped, as SVG"),
                              ("evo-wordle plot heatmap runs/caps --where max_guesses=6 --out cap6.png",
                               "one guess cap of a sweep over several (caps are never ranked on one scale)")])
    _sweep_plot_args(q, "heatmap")
    q = add_command(kinds, "lines", help="sweep: mean ± 95 %% interval against population, a line per mutation",
                    description="A sweep's mean guesses ± 95 % interval over seeds against one parameter, "
                    "one line per value of another (lower is better).",
                    examples=[("evo-wordle plot lines runs/pop --out pop.png",
                               "against population, a line per mutation"),
                              ("evo-wordle plot lines runs/pop --x mutation --hue population --out mut.png",
                               "against mutation, a line per population")])
    _sweep_plot_args(q, "lines")

    q = add_command(kinds, "convergence", help="candidates and entropy left after each guess, GA vs greedy",
                    description="Candidates and entropy left after each guess for a GA solver (median and "
                    "10-90 % band over runs) against a deterministic baseline, and the GA's fitness per "
                    "generation (fitness values from different turns are not comparable).",
                    examples=[("evo-wordle plot convergence --answer merry --runs 10 --out merry.png",
                               "one puzzle, 10 GA runs"),
                              ("evo-wordle plot convergence --games 30 --runs 3 --out all.png",
                               "30 puzzles, 3 runs")])
    q.add_argument("--answer", metavar="WORD", help="one puzzle (default: all answers or a --games sample)")
    q.add_argument("--runs", type=runs_int, default=None, metavar="R",
                   help="GA runs, at most 10,000 (default: 50 for one answer, 3 else)")
    q.add_argument("--baseline", default="greedy", metavar="NAME",
                   help="deterministic baseline solver (default: greedy, opener TALES)")
    _game_plot_args(q)

    q = add_command(kinds, "histograms", help="guess-count histograms side by side, cumulative share solved",
                    description="Share of games per guess count for several solvers side by side, and the "
                    "cumulative share of puzzles solved within k guesses (higher is better).",
                    examples=[("evo-wordle plot histograms --games 50 --out h.png", "ga-thesis against greedy"),
                              ("evo-wordle plot histograms --solvers naive,greedy,ga --games 50 --out h.png",
                               "three solvers")])
    q.add_argument("--solvers", type=_csv_list("--solvers"), default=["ga-thesis", "greedy"], metavar="A,B,…",
                   help="solvers to compare (default: ga-thesis,greedy)")
    _game_plot_args(q, solver=False)

    q = add_command(kinds, "evolution", help="one puzzle over many seeds: guess counts and frequent sequences",
                    description="One puzzle played with many seeds: how many guesses each run takes and the "
                    "guess sequences the GA finds most often.",
                    examples=[("evo-wordle plot evolution --answer merry --runs 50 --out e.png", "MERRY, 50 seeds"),
                              ("evo-wordle plot evolution --answer crane --solver ga --runs 20 --top 5 --out e.png",
                               "the tuned GA on CRANE, 20 seeds, 5 sequences")])
    q.add_argument("--answer", required=True, metavar="WORD", help="the puzzle")
    q.add_argument("--runs", type=runs_int, default=200, metavar="R",
                   help="seeds played, at most 10,000 (default: %(default)s)")
    q.add_argument("--top", type=positive_int, default=10, metavar="N", help="sequences shown (default: 10)")
    _game_plot_args(q)


def _sweep_plot_args(q: argparse.ArgumentParser, kind: str) -> None:
    q.add_argument("dir", metavar="DIR", type=folder_name, help="sweep folder")
    q.add_argument("--out", required=True, metavar="FILE", help="image file (.png, .svg or .pdf)")
    q.add_argument("--x", default="population", metavar="KEY", help="parameter on the x axis (default: population)")
    q.add_argument("--y" if kind == "heatmap" else "--hue", default="mutation", metavar="KEY",
                   help="parameter on the y axis / one line per value (default: mutation)")
    q.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                   help="draw only the configurations with this value of KEY (repeatable), e.g. one guess cap "
                        "of a sweep over --set max_guesses=6,9")
    q.set_defaults(func=cmd_plot)


def _game_plot_args(q: argparse.ArgumentParser, solver: bool = True) -> None:
    from .common import add_solver_options

    if solver:
        q.add_argument("--solver", default="ga-thesis", metavar="NAME",
                       help="the solver studied (default: %(default)s)")
    q.add_argument("--out", required=True, metavar="FILE", help="image file (.png, .svg or .pdf)")
    q.add_argument("--games", type=positive_int, metavar="K", help="a seeded sample of K answers (default: all)")
    q.add_argument("--seed", type=seed_int, default=0, metavar="S",
                   help="seed of the sample and the runs (default: 0)")
    q.add_argument("--jobs", type=positive_int, default=2, metavar="J", help="worker processes (default: %(default)s)")
    add_settings_args(q, boards=False)
    add_solver_options(q)
    add_word_args(q)
    q.set_defaults(func=cmd_plot)


def _grid_from_args(args: argparse.Namespace) -> dict[str, list]:
    from ..sweep import parse_grid_arg, parse_value

    grid: dict[str, list] = {}
    if args.population:
        grid["population"] = [parse_value(v) for v in args.population]
    if args.mutation:
        grid["mutation"] = [parse_value(v) for v in args.mutation]
    for item in args.set:
        key, values = parse_grid_arg(item)
        if key in grid:
            raise EvoWordleError(f"{key} is given twice")
        grid[key] = values
    if not grid:
        raise EvoWordleError("nothing to sweep: give --population, --mutation or --set KEY=V1,V2")
    _refuse_overridden_flags(args, grid)
    return grid


def _with_file_params(args: argparse.Namespace, grid: dict[str, list], ctx,
                      settings) -> tuple[dict[str, list], list[str], dict | None]:
    """``grid`` with the parameters of ``--params FILE`` as one-value axes (grid values win):
    the tuned ones, and the others the file records where they differ from the solver's
    defaults here (equal ones would only widen the table).  A grid axis over a setting the file
    was made for gets the one-line warning a flag overriding it gets.  Also the keys the file
    gave (:attr:`~evo_wordle.sweep.SweepSpec.file_keys`: one no configuration reads is left out
    by the sweep's validation) and what ``sweep.json`` records when the file is played on other
    word lists than it was made for (else None)."""
    from ..artefacts import SETTING_KEYS, other_lists_note
    from ..solvers import make_solver
    from ..sweep import format_value
    from ..tune import file_params, load_params

    data = load_params(args.params)
    if data["solver"] != args.solver:
        raise EvoWordleError(f"{args.params} holds parameters for solver {data['solver']!r}, not {args.solver!r}")
    recorded = file_params(data)
    if set(recorded) - set(data["params"]):
        defaults = make_solver(args.solver, ctx, settings).describe()
        recorded = {k: v for k, v in recorded.items() if k in data["params"] or k not in defaults or defaults[k] != v}
    made_for = data.get("made_for") or {}
    changed = [f"{k} {format_value(made_for[k])} -> {', '.join(map(format_value, grid[k]))}"
               for k in SETTING_KEYS
               if k in grid and k in made_for and any(v != made_for[k] for v in grid[k])]
    if changed:
        warn(f"parameter file {args.params} was made for other settings; the grid overrides {', '.join(changed)}")
    note = other_lists_note(data.get("made_for"), ctx.words)  # run_context refused it unless --other-lists
    file_lists = {"file": args.params, "lists_differ": note["lists_differ"]} if note else None
    merged = {**{k: [v] for k, v in recorded.items() if k not in grid}, **grid}
    return merged, [k for k in recorded if k not in grid], file_lists


def _refuse_file_settings_a_problem_replaces(args: argparse.Namespace, grid: dict, settings) -> None:
    """A setting ``--params FILE`` plays (its made_for; the flags a grid problem covers are
    refused before) that a grid problem would replace is refused naming the file, with advice
    one can follow: the sweep's own message says to drop a fixed setting no flag gave."""
    from ..game import PROBLEMS, Settings
    from ..sweep import format_value, replaced_setting

    for problem in grid.get("problem", []):
        if str(problem).upper() not in PROBLEMS:
            continue  # the sweep's validation names an unknown problem
        replaced = replaced_setting(str(problem), settings, grid)
        if replaced:
            key, given, value = replaced
            raise EvoWordleError(
                f"parameter file {args.params} was made for {key}={format_value(given)}, which the grid's "
                f"problem={problem} would replace ({str(problem).upper()} sets {key}={format_value(value)}): "
                f"drop --set problem to play the file's game, or set {key} to "
                f"{format_value(getattr(Settings(), key))} in the file's \"made_for\" (and \"settings\")")


#: A grid's setting key -> the flags whose value every cell would silently replace (a grid's
#: problem preset sets three axes, applied over the flags, unlike bench's explicit-axis-wins).
_OVERRIDES = {
    "problem": ("problem", "candidates", "guess_from", "daily"),
    "candidates": ("candidates",),
    "guess_from": ("guess_from",),
    "hard": ("hard",),
    "daily": ("daily",),
    "max_guesses": ("max_guesses",),
}


def _refuse_overridden_flags(args: argparse.Namespace, grid: dict) -> None:
    """A setting given both as a flag and by the grid is refused: the grid's value would win
    in every cell while sweep.json recorded the flag's."""
    for key, flags in _OVERRIDES.items():
        if key not in grid:
            continue
        for flag in flags:
            value = getattr(args, flag, None)
            if value is None or value is False:
                continue
            option = "--" + flag.replace("_", "-")
            shown = option if value is True else f"{option} {value}"
            if flag == key:
                raise EvoWordleError(f"--set {key}=... and {shown} both give {key}; give it once")
            setting = "true" if value is True else value
            raise EvoWordleError(f"--set problem=... would replace {shown} in every cell (a problem sets {flag} "
                                 f"too); write --set {flag}={setting} instead")


def _other_lists_axis(args: argparse.Namespace, grid: dict) -> None:
    """``--other-lists`` with ``--set strategy=FILE``: the axis ``other_lists=true`` (what ``--set
    other_lists=true`` gives, so sweep.json and every row record the ask, and sweep.json whether
    the file's lists really differ: :data:`~evo_wordle.sweep.GRID_FILES_KEY`); with neither that nor
    ``--params FILE`` it would change nothing, so it is refused rather than ignored."""
    if not args.other_lists:
        return
    if "strategy" in grid:
        if "other_lists" in grid:
            raise EvoWordleError("--other-lists and --set other_lists=... both give other_lists; give it once")
        grid["other_lists"] = [True]
    elif not args.params:
        raise EvoWordleError("--other-lists replays a --params FILE or a --set strategy=FILE on other word lists; "
                             "this sweep names neither")


def cmd_sweep(args: argparse.Namespace) -> int:
    from ..sweep import SweepSpec, format_value, run_sweep

    grid, settings = _grid_from_args(args), settings_from_args(args)
    _other_lists_axis(args, grid)
    file_lists, file_keys = None, []
    if getattr(args, "params", None):  # the file's settings and answer list, as bench plays them
        ctx, settings = run_context(args, [args.solver])
        grid, file_keys, file_lists = _with_file_params(args, grid, ctx, settings)
        if args.other_lists and "strategy" in grid and "other_lists" not in grid:
            grid["other_lists"] = [True]  # the strategy file the parameters name plays on these lists too
        _refuse_file_settings_a_problem_replaces(args, grid, settings)
    spec = SweepSpec(
        solver=args.solver,
        grid=grid,
        seeds=args.seeds,
        games=args.games,
        settings=settings.as_dict(),
        allowed=args.allowed,
        answers=args.answers,
        base_seed=args.seed,
        params_file=args.params,
        file_keys=tuple(file_keys),
    )

    bars: list = []  # the ETA bar, made at the first finished bench (when the total is known)
    fails: dict = {}  # "over 6", or below the win limit the cap, per configuration (as the rows name it)

    def progress(done: int, total: int, row: dict) -> None:
        if args.quiet:
            return
        if not fails:
            fails.update({tuple(format_value(c[k]) for k in spec.keys): spec.settings_for(c).fail_text()
                          for c in spec.configs()})
        if not bars:
            bars.append(progress_bar(total, "sweep", "benches", initial=done - 1))
        bar = bars[0]
        cfg = " ".join(f"{k}={row[k]}" for k in spec.keys)
        fail = fails[tuple(row[k] for k in spec.keys)]
        note(bar, f"[{done}/{total}] {cfg} seed={row['seed']}: mean {float(row['mean']):.3f}, "
                  f"{100 * float(row['fail_rate']):.2f} % {fail}, {row['seconds']} s")
        bar.update(1)

    try:
        outcome = run_sweep(spec, args.out, args.executor, args.jobs, args.scheduler, progress, chunks=args.chunks,
                            file_lists=file_lists)
    finally:
        for bar in bars:
            bar.close()
    done = outcome.skipped + outcome.ran
    skipped = f" ({outcome.skipped} already done)" if outcome.skipped else ""
    print(f"{done}/{outcome.total} benches in {Path(args.out) / 'results.csv'}{skipped}; "
          f"{outcome.seconds:.1f} s; summary: evo-wordle report {args.out}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from ..sweep import format_report, lists_warnings, load_sweep_folder, summarize

    folder = Path(args.dir)
    if "://" not in args.dir and (folder / "study.db").is_file() and not (folder / "sweep.json").exists():
        args.dir = f"sqlite:///{(folder / 'study.db').resolve()}"  # a `tune --out` folder: its study
    if "://" in args.dir:
        return _report_study(args)
    spec, rows, records = load_sweep_folder(args.dir)  # sweep.json read once
    summary = summarize(spec, rows)
    if not summary:
        raise EvoWordleError(f"{args.dir} has no results yet")
    for line in lists_warnings(records):
        warn(line)
    total = len(spec.configs()) * spec.seeds
    print(format_report(spec, summary, args.format, total=total))
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    from ..plots import common as pc

    out = pc.check_output(args.out)
    if args.kind in ("heatmap", "lines"):
        from ..plots.sweep import plot_heatmap, plot_lines
        from ..sweep import load_sweep, parse_where, restrict, summarize

        where = parse_where(args.where)
        spec, rows = load_sweep(args.dir)
        spec, summary = restrict(spec, summarize(spec, rows), where)
        if args.kind == "heatmap":
            draw = partial(plot_heatmap, spec, summary, out, x=args.x, y=args.y)
        else:
            draw = partial(plot_lines, spec, summary, out, x=args.x, hue=args.hue)
    else:
        from .common import check_solver_flags, context_from_args, solver_params

        if any(getattr(args, name, None) for name in ("params", "strategy", "tree")):
            # the file's settings and answer list, as bench plays them (a --strategy file was
            # played in the flags' game: answers-known-salet with every allowed word a candidate)
            ctx, settings = run_context(args, args.solvers if args.kind == "histograms" else [args.solver])
        else:
            refuse_idle_other_lists(args)
            ctx, settings = context_from_args(args), settings_from_args(args)
        if args.kind == "convergence":
            from ..plots.convergence import convergence_data, plot_convergence

            runs = args.runs or (50 if args.answer else 3)
            data = convergence_data(ctx, args.solver, settings, solver_params(args.solver, args), answer=args.answer,
                                    runs=runs, games=args.games, seed=args.seed, baseline=args.baseline,
                                    jobs=args.jobs, lists=(args.allowed, args.answers))
            draw = partial(plot_convergence, data, out)
        elif args.kind == "histograms":
            from ..plots.compare import compare_data, plot_histograms

            check_solver_flags(args.solvers, args)
            params = {name: solver_params(name, args, check=False) for name in args.solvers}
            data = compare_data(ctx, args.solvers, settings, params, games=args.games, seed=args.seed, jobs=args.jobs,
                                lists=(args.allowed, args.answers))
            draw = partial(plot_histograms, data, out)
        else:
            from ..plots.evolution import evolution_data, plot_evolution

            data = evolution_data(ctx, args.solver, settings, solver_params(args.solver, args), args.answer,
                                  runs=args.runs, seed=args.seed, lists=(args.allowed, args.answers))
            draw = partial(plot_evolution, data, out, top=args.top)
    with writing(out, printed=False):  # the figure is the result: nothing was printed before it
        draw()
    print(f"wrote {out}")
    return 0


def _report_study(args: argparse.Namespace) -> int:
    """``report URL --study NAME``: trial counts, training games and the best trials of a study."""
    from ..tune import study_summary

    if args.format in ("csv", "markdown"):  # printed the text form before, as if asked for
        raise EvoWordleError(f"report of a tune study prints text or json, not --format {args.format}")
    summary = study_summary(args.dir, args.study)
    if args.format == "json":
        import json

        print(json.dumps(summary, indent=2))
        return 0
    states = ", ".join(f"{n} {k}" for k, n in summary["states"].items() if n)
    print(f"study {summary['study']} in {summary['storage']}: {states or 'no trials'}; "
          f"{count(summary['games_played'], 'training game')}"
          + (f" ({count(summary['repeated'], 'trial')} repeated an earlier point)" if summary["repeated"] else "")
          + (f"; {summary['surplus']} of the failed ended unplayed (started when the others' trials already "
             "filled --trials)" if summary["surplus"] else ""))
    for b in summary["best"]:
        ps = " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in b["params"].items())
        print(f"  trial {b['trial']:>4}  train mean {b['train_mean']:.4f}  {ps}")
    return 0
